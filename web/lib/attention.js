// attention-explorer's JavaScript API: scaled dot-product and multi-head attention computed by a
// C++ core compiled to WebAssembly (SIMD128 where the engine has it). Typed arrays in and out.
// The full documentation of every function is in attention.d.ts.
import { checkBoolean, fail, formatShape, product } from './checks.js';
import { checkOptions, readFloatInput } from './read-input.js';
import { check, checkCode, headWorkspaceBytes } from './wasm-heap.js';
import { Instance } from './instance.js';
import { staged } from './staging.js';
import { chooseVariant, loadModule, requireWebAssembly, simdSupported } from './load-module.js';
import { RandomState } from './random-state.js';
import { MultiHeadAttention } from './multi-head-attention.js';
import { pitfallCode } from './pitfalls.js';
import { Lessons } from './lessons.js';
import { Transformer, loadTransformer, transformerFromSafetensors } from './transformer.js';
import { headScores, lossByPosition } from './head-scores.js';
import { scaledDotProductAttentionGrad } from './gradients.js';
import { readSdpaInputs } from './attention-inputs.js';
import { rope } from './positions.js';
import { wholeModuleWanted } from './api-parts.js';
import { FIRST_BUILD } from './first-build.js';

export { simdSupported };

const SDPA_OPTIONS = ['causal', 'mask', 'bias', 'keyPaddingMask', 'scale', 'needWeights', 'trace', 'pitfall', 'window'];
const CREATE_OPTIONS = ['simd'];

// The arguments of the core's _attn_scaled_dot_product_attention, in its order, for the buffers
// at a (laid out by #scaledDotProductAttention) and the inputs x read by readSdpaInputs.
function sdpaArguments(a, x, pitfall) {
  const { batch, n, m, dk, dv, scale, causal, maskPerBatch, biasPerBatch } = x;
  const [q, k, v, mask, bias, padding, output, weights, scores, scaled, masked, fullyMasked] = a;
  return [
    pitfall ?? 0,
    q,
    k,
    v,
    batch,
    n,
    m,
    dk,
    dv,
    scale,
    causal,
    mask,
    maskPerBatch,
    bias,
    biasPerBatch,
    padding,
    output,
    weights,
    scores,
    scaled,
    masked,
    fullyMasked,
    x.window,
    x.lowerRight,
  ];
}

// The results of a scaledDotProductAttention call, read out of the buffers at a.
function sdpaResult(heap, a, { lead, batch, n, m, dv, needWeights }, trace) {
  const read = (address, shape) => ({ data: heap.readF32(address, product(shape)), shape });
  const result = {
    output: read(a[6], [...lead, n, dv]),
    weights: needWeights ? read(a[7], [...lead, n, m]) : null,
    fullyMaskedRows: heap.nonzeroIndices(a[11], batch * n),
  };
  if (trace) {
    result.trace = {
      scores: read(a[8], [...lead, n, m]),
      scaled: read(a[9], [...lead, n, m]),
      masked: read(a[10], [...lead, n, m]),
    };
  }
  return result;
}

// A per-batch mask/bias may be [n, m] (shared) or [...batch, n, m].
class Attention {
  #instance;
  #heap;
  #simd;
  #variant;
  #lessons;

  constructor(instance, variant) {
    this.#instance = instance;
    this.#heap = instance.heap;
    this.#simd = variant === 'simd';
    this.#variant = instance.module._kernelVariant();
    this.#lessons = new Lessons(this.#instance);
  }

  /** True when the WebAssembly SIMD128 build is in use. */
  get simd() {
    return this.#simd;
  }
  /** The kernel implementation inside the module, e.g. "xsimd/sse4.1" or "scalar". */
  get variant() {
    return this.#variant;
  }
  /** Lesson experiments computed by the core (see attention.d.ts). */
  get lessons() {
    return this.#lessons;
  }

  /**
   * Ends this instance: its WebAssembly memory (which never shrinks while the module lives) can
   * be reclaimed, and every later call on it, its layers and generators throws. Call
   * createAttention() again for a fresh instance.
   */
  dispose() {
    this.#instance.dispose();
  }

  scaledDotProductAttention(q, k, v, options) {
    return staged(() => this.#scaledDotProductAttention(q, k, v, options));
  }

  #scaledDotProductAttention(q, k, v, options) {
    const module = this.#instance.live();
    const opts = checkOptions(options, SDPA_OPTIONS, 'scaledDotProductAttention options');
    const x = readSdpaInputs(q, k, v, opts, readFloatInput);
    const { Q, K, V, batch, n, m, dk, dv, needWeights, mask, bias, padding } = x;
    const trace = checkBoolean(opts.trace, 'options.trace', false);
    const pitfall = pitfallCode(opts.pitfall, { multiHead: false, trace, alignment: x });

    const f = 4;
    const nm = batch * n * m;
    const traceBytes = trace ? nm * f : 0;
    const sizes = [
      Q.length * f,
      K.length * f,
      V.length * f,
      mask ? mask.data.length : 0,
      bias ? bias.data.length * f : 0,
      padding ? padding.length : 0,
      batch * n * dv * f,
      needWeights ? nm * f : 0,
      traceBytes,
      traceBytes,
      traceBytes,
      batch * n,
    ];
    const materialize = needWeights || trace;
    // The deliberate-mistake path works in float64 on its own buffers (n·m weights, n·dv output).
    const workspaceBytes = pitfall === null ? headWorkspaceBytes(n, m, dk, dv, materialize) : (n * m + n * dv) * 8;
    const a = this.#heap.layout(sizes, 'scaledDotProductAttention', workspaceBytes, {
      suggestOutputOnly: pitfall === null && materialize,
    });
    try {
      return this.#sdpaCall(module, a, x, trace, pitfall);
    } finally {
      this.#heap.settle();
    }
  }

  // Writes the inputs read by #scaledDotProductAttention to the buffers at a, calls the core and
  // reads the results out. Every argument has been read before: no user code runs from here on.
  #sdpaCall(module, a, x, trace, pitfall) {
    const heap = this.#heap;
    heap.writeFloatInput(a[0], x.Q);
    heap.writeFloatInput(a[1], x.K);
    heap.writeFloatInput(a[2], x.V);
    if (x.mask) heap.writeU8(a[3], x.mask.data);
    if (x.bias) heap.writeF32(a[4], x.bias.data);
    if (x.padding) heap.writeU8(a[5], x.padding);
    if (pitfall !== null) heap.fillU8(a[11], x.batch * x.n, 0); // not tracked by pitfalls
    const status = module._attn_scaled_dot_product_attention(...sdpaArguments(a, x, pitfall));
    checkCode(module, status, 'scaledDotProductAttention');
    heap.checkNoOverflow(a[6], x.batch * x.n * x.dv, 'q, k, the scale or the bias');
    return sdpaResult(heap, a, x, trace);
  }

  /** Forward and backward of scaledDotProductAttention for gradOutput = ∂L/∂output; see attention.d.ts. */
  scaledDotProductAttentionGrad(q, k, v, gradOutput, options) {
    this.#instance.live();
    return scaledDotProductAttentionGrad(() => this.#instance.live(), this.#heap, q, k, v, gradOutput, options);
  }

  /** a [..., n, k] · b [k, m] → [..., n, m], computed by the core's kernels. */
  matmul(a, b) {
    return staged(() => this.#matmul(a, b));
  }

  #matmul(a, b) {
    const module = this.#instance.live();
    const A = readFloatInput(a, 'a');
    const B = readFloatInput(b, 'b');
    if (A.shape.length < 2) fail(`a must have at least 2 dimensions [n, k], got shape ${formatShape(A.shape)}`);
    if (B.shape.length !== 2) fail(`b must be a matrix [k, m], got shape ${formatShape(B.shape)}`);
    const k = A.shape[A.shape.length - 1];
    const [kb, m] = B.shape;
    if (k !== kb)
      fail(
        `a's last dimension (${k}) must equal b's first (${kb}): a is ${formatShape(A.shape)}, b is ${formatShape(B.shape)}`,
      );
    const n = A.length / k;
    const [pa, pb, pc] = this.#heap.layout([A.length * 4, B.length * 4, n * m * 4], 'matmul');
    try {
      this.#heap.writeFloatInput(pa, A);
      this.#heap.writeFloatInput(pb, B);
      check(module._matmul(pa, pb, pc, n, k, m), 'matmul');
      return { data: this.#heap.readF32(pc, n * m), shape: [...A.shape.slice(0, -1), m] };
    } finally {
      this.#heap.settle();
    }
  }

  /** Previous-token, duplicate-token and induction scores of attention patterns (see attention.d.ts). */
  headScores(tokens, attention) {
    const whole = this.#instance.whole('head-scores', 'attn.headScores()');
    return headScores(whole.live(), whole.heap, tokens, attention);
  }

  /** Mean cross-entropy at each position of logits [B, T, V] against targets [B, T] (−1 ignored). */
  lossByPosition(logits, targets) {
    const whole = this.#instance.whole('head-scores', 'attn.lossByPosition()');
    return lossByPosition(whole.live(), whole.heap, logits, targets);
  }

  randomState(seed = 0) {
    return new RandomState(this.#instance, seed);
  }

  multiHeadAttention(config) {
    return new MultiHeadAttention(this.#instance, config);
  }

  /** x [..., T, d] with every row turned by rotary position embeddings (see attention.d.ts). */
  rope(x, options) {
    const whole = this.#instance.whole('rope', 'attn.rope()');
    return staged(() => rope(() => whole.live(), whole.heap, x, options));
  }

  /** A GPT-2-style transformer whose weights live in WebAssembly memory (see attention.d.ts). */
  transformer(config) {
    return new Transformer(this.#instance.whole('transformer', 'attn.transformer()'), config);
  }

  /** A transformer loaded from safetensors bytes; config is ours or a Hugging Face GPT-2 config.json. */
  transformerFromSafetensors(bytes, config) {
    const whole = this.#instance.whole('transformer', 'attn.transformerFromSafetensors()');
    return transformerFromSafetensors(whole, bytes, config);
  }

  /**
   * A transformer from a safetensors checkpoint given as bytes, a Blob/File or a URL, read in
   * slices with { signal, onProgress }; config may be omitted beside a config.json (see attention.d.ts).
   */
  async loadTransformer(source, config, options) {
    return loadTransformer(await this.#instance.loadWhole(), source, config, options);
  }
}

/**
 * Loads the WebAssembly core and returns the API. `simd: 'auto'` (default) uses the SIMD128 build
 * where the engine supports it; `true` requires it; `false` uses the scalar build.
 */
export async function createAttention(options) {
  const opts = checkOptions(options, CREATE_OPTIONS, 'createAttention options');
  requireWebAssembly();
  const variant = chooseVariant(opts.simd);
  const build = FIRST_BUILD;
  // A page that already awaits a part needing the whole build (apiReady) gets it with the instance,
  // downloaded beside the base build.
  // (Its failure fails only the parts that need it: their apiReady tries again.)
  const wholeEarly = build === 'base' && wholeModuleWanted() ? loadModule(variant, 'whole') : null;
  wholeEarly?.catch(() => {});
  const instance = new Instance(await loadModule(variant, build), { variant, build });
  if (build === 'base' && wholeModuleWanted()) await instance.loadWhole(wholeEarly).catch(() => {});
  return new Attention(instance, variant);
}
