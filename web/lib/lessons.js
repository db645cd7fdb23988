// Lesson experiments, computed by the C++ core: the spread of random dot products (why √dk), the
// entropy of softmax rows, and the cost of attention. Exposed as `attn.lessons`.
import { checkBoolean, checkNoOverflow, checkPositiveInteger, checkScale, checkSeed, fail } from './checks.js';
import { checkOptions, toTensor } from './read-input.js';
import { check } from './wasm-heap.js';
import { staged } from './staging.js';
import { flashAttention } from './flash-lesson.js';

const MAX_SAMPLES = 1_000_000;
const MAX_DK = 65536;

export class Lessons {
  #instance;
  #heap;

  constructor(instance) {
    this.#instance = instance;
    this.#heap = instance.heap;
  }

  // The module, checked live on every call (attn.dispose() ends the lessons too).
  get #module() {
    return this.#instance.live();
  }

  /**
   * Draws `count` pairs of standard-normal vectors of length `dk` (NumPy's generator, `seed`) and
   * returns their dot products before and after dividing by √dk, with mean, standard deviation and
   * a histogram of `bins` bins over a symmetric range covering every value.
   */
  sampleDotProducts(options) {
    const opts = checkOptions(options, ['dk', 'count', 'seed', 'bins'], 'sampleDotProducts options');
    const dk = checkPositiveInteger(opts.dk, 'dk');
    if (dk > MAX_DK) fail(`dk must be at most ${MAX_DK}, got ${dk}`);
    const count = checkPositiveInteger(opts.count, 'count', 10000);
    if (count * dk > 2e8 || count > MAX_SAMPLES)
      fail(`count × dk = ${count * dk} is too much work for one call (at most 2e8, count ≤ ${MAX_SAMPLES})`);
    const bins = checkPositiveInteger(opts.bins, 'bins', 41);
    const seed = opts.seed ?? 0;
    checkSeed(seed);

    const [raw, scaled, stats, counts] = this.#heap.layout([count * 8, count * 8, 16, bins * 4], 'sampleDotProducts');
    try {
      check(this.#module._sampleDotProducts(seed, dk, count, raw, scaled), 'sampleDotProducts');
      const summarize = (address) => {
        this.#module._moments(address, count, stats);
        const [mean, std] = this.#heap.readF64(stats, 2);
        const values = this.#heap.readF64(address, count);
        let extent = 0;
        for (const x of values) extent = Math.max(extent, Math.abs(x));
        extent = extent || 1;
        check(this.#module._histogram(address, count, bins, -extent, extent, counts), 'sampleDotProducts');
        const binCounts = new Uint32Array(this.#module.HEAPU8.buffer, counts, bins).slice();
        return { values, mean, std, histogram: { lo: -extent, hi: extent, counts: binCounts } };
      };
      return { dk, count, seed, raw: summarize(raw), scaled: summarize(scaled) };
    } finally {
      this.#heap.settle();
    }
  }

  /** Per row of a weights tensor [..., m]: entropy in nats, largest weight and row sum. */
  rowStats(weights) {
    return staged(() => this.#rowStats(weights));
  }

  #rowStats(weights) {
    const t = toTensor(weights, 'weights');
    const cols = t.shape[t.shape.length - 1];
    const rows = t.data.length / cols;
    const lead = t.shape.slice(0, -1);
    const [w, entropy, max, sum] = this.#heap.layout([t.data.length * 4, rows * 4, rows * 4, rows * 4], 'rowStats');
    this.#heap.writeF32(w, t.data);
    this.#module._rowStatistics(w, rows, cols, entropy, max, sum);
    const read = (address) => ({ data: this.#heap.readF32(address, rows), shape: lead.length ? lead : [1] });
    const result = { entropy: read(entropy), max: read(max), sum: read(sum) };
    this.#heap.settle();
    return result;
  }

  /** softmax(scale · scores) along the last axis (-Infinity allowed), with each row's entropy and max. */
  softmax(scores, options) {
    return staged(() => this.#softmax(scores, options));
  }

  #softmax(scores, options) {
    const opts = checkOptions(options, ['scale'], 'softmax options');
    const t = toTensor(scores, 'scores', { allowNegativeInfinity: true });
    const scale = checkScale(opts.scale ?? 1, 'options.scale');
    const cols = t.shape[t.shape.length - 1];
    const rows = t.data.length / cols;
    const [s, out] = this.#heap.layout([t.data.length * 4, t.data.length * 4], 'softmax');
    this.#heap.writeF32(s, t.data);
    try {
      check(this.#module._softmaxRows(s, rows, cols, scale, out), 'softmax');
      const weights = { data: this.#heap.readF32(out, t.data.length), shape: t.shape.slice() };
      checkNoOverflow(weights.data, 'the scores or the scale');
      const stats = this.rowStats(weights);
      return { weights, entropy: stats.entropy, max: stats.max };
    } finally {
      this.#heap.settle();
    }
  }

  /** The online softmax of FlashAttention, tile by tile, with every row block's state (see attention.d.ts). */
  flashAttention(q, k, v, options) {
    const whole = this.#instance.whole('flash-lesson', 'attn.lessons.flashAttention()');
    return staged(() => flashAttention(() => whole.live(), whole.heap, q, k, v, options));
  }

  /**
   * What multi-head attention costs for n queries, m keys (default n), model width dModel and
   * numHeads heads: parameters, FLOPs (multiply-add = 2) of the projections O(n·d²) and of the
   * attention itself O(n·m·d), and bytes of the h attention matrices O(h·n·m).
   */
  attentionCost(options) {
    const opts = checkOptions(options, ['n', 'm', 'dModel', 'numHeads', 'bias'], 'attentionCost options');
    const n = checkPositiveInteger(opts.n, 'n');
    const m = checkPositiveInteger(opts.m, 'm', n);
    const dModel = checkPositiveInteger(opts.dModel, 'dModel');
    const numHeads = checkPositiveInteger(opts.numHeads, 'numHeads');
    const bias = checkBoolean(opts.bias, 'bias', true);
    // (Checked here, where a head count past 2**32 has not yet wrapped to a divisor.)
    if (dModel % numHeads !== 0)
      fail(`numHeads (${numHeads}) must divide dModel (${dModel}): each head gets dModel / numHeads features`);
    const limit = 2 ** 31 - 1; // the core takes 32-bit sizes
    for (const [name, x] of [
      ['n', n],
      ['m', m],
      ['dModel', dModel],
    ])
      if (x > limit) fail(`${name} must be below 2**31, got ${x}`);
    const [out] = this.#heap.layout([5 * 8], 'attentionCost');
    check(this.#module._attentionCost(n, m, dModel, numHeads, bias, out), 'attentionCost');
    const [parameters, projectionFlops, scoreFlops, softmaxFlops, attentionMatrixBytes] = this.#heap.readF64(out, 5);
    return {
      parameters,
      projectionFlops,
      scoreFlops,
      softmaxFlops,
      totalFlops: projectionFlops + scoreFlops + softmaxFlops,
      attentionMatrixBytes,
    };
  }
}
