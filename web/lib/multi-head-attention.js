// A multi-head attention layer whose weights live in WebAssembly memory (so forward() copies only
// activations). One dispose() frees them; a FinalizationRegistry frees a forgotten layer.
import { checkBoolean, checkPositiveInteger, checkSeed, fail, formatShape, product, sameShape } from './checks.js';
import { checkOptions, ownEntries, readFloatInput, toTensor } from './read-input.js';
import { MEMORY_LIMIT_BYTES, checkCode, formatBytes, headWorkspaceBytes } from './wasm-heap.js';
import { staged } from './staging.js';
import { RandomState } from './random-state.js';
import { pitfallCode } from './pitfalls.js';
import { multiHeadBackward } from './gradients.js';
import { readMultiHeadInputs } from './attention-inputs.js';
import { OwnedBlock } from './instance.js';

const destroyLayer = (module, address) => module._attn_layer_destroy(address);
const FORWARD_OPTIONS = [
  'causal',
  'attnMask',
  'keyPaddingMask',
  'needWeights',
  'averageWeights',
  'trace',
  'pitfall',
  'scale',
  'window',
];
const CONFIG_OPTIONS = ['embedDim', 'numHeads', 'bias', 'kdim', 'vdim', 'seed'];
// In the core's order (multi_head_layer.h): the index names a weight in the layer's block.
const WEIGHT_NAMES = ['wq', 'wk', 'wv', 'wo', 'bq', 'bk', 'bv', 'bo'];
function transposed(data, rows, cols) {
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = data[r * cols + c];
  return out;
}

// forward(x, x, x) as forward(x): a key (value) that is the query's (key's) Float32Array with the
// same shape shares its buffer in WebAssembly memory. Both would be copied at the same moment, with
// no user code between, so they would hold the same values; one copy and one check are enough.
function shareSameArrays(x) {
  const same = (a, b) => a !== b && a.source != null && a.source === b.source && sameShape(a.shape, b.shape);
  if (same(x.k, x.q)) x.k = x.q;
  if (same(x.v, x.k)) x.v = x.k;
}

// The switches of forward(): which results to return and the deliberate mistake, if any.
function forwardFlags(opts, alignment) {
  const needWeights = checkBoolean(opts.needWeights, 'options.needWeights', true);
  const averageWeights = checkBoolean(opts.averageWeights, 'options.averageWeights', true);
  const trace = checkBoolean(opts.trace, 'options.trace', false);
  const pitfall = pitfallCode(opts.pitfall, { multiHead: true, trace, alignment });
  if (pitfall !== null && needWeights && !averageWeights)
    fail('options.pitfall gives head-averaged weights only; pass averageWeights: true');
  return { needWeights, averageWeights, trace, pitfall };
}

// The arguments of the core's _attn_multi_head_attention, in its order: the layer's block, the
// shape, the inputs at [aq, ak, av], the masks at a[3..5], the output and weights at a[6..7], the
// trace at a[8..16] and the fully masked rows at a[17] (the buffers of forwardLayout).
function forwardArguments(pitfall, block, a, [aq, ak, av], x, averageWeights) {
  const { B, n, m, scale, causal } = x;
  return [
    pitfall ?? 0,
    block,
    B,
    n,
    m,
    aq,
    ak,
    av,
    scale,
    causal,
    ...a.slice(3, 8),
    averageWeights,
    ...a.slice(8, 18),
    x.window,
    x.lowerRight,
  ];
}

// Bytes of forward()'s buffers, in the order the core takes them (0 for one it does not need),
// and of the core's workspace.
function forwardLayout(
  { q, k, v, B, n, m, E, mask, bias, padding },
  { needWeights, averageWeights, trace, pitfall },
  H,
  d,
) {
  const nm = n * m;
  const f = 4;
  const headMatrix = trace ? B * H * nm * f : 0;
  const sizes = [
    q.length * f,
    k === q ? 0 : k.length * f,
    v === k ? 0 : v.length * f,
    mask ? nm : 0,
    bias ? nm * f : 0,
    padding ? B * m : 0,
    B * n * E * f, // output
    needWeights ? (averageWeights ? B * nm : B * H * nm) * f : 0, // weights
    trace ? B * n * E * f : 0,
    trace ? B * m * E * f : 0,
    trace ? B * m * E * f : 0, // projections
    headMatrix,
    headMatrix,
    headMatrix,
    headMatrix, // scores, scaled, masked, head weights
    trace ? B * n * E * f : 0,
    trace ? B * n * E * f : 0, // head outputs, concat
    B * n, // fully masked rows
  ];
  // The deliberate-mistake path works in float64: projections, concatenation and one head's weights.
  // Output only streams every head (multi_head_attention.cpp): no n × m matrix anywhere.
  const averaging = needWeights && averageWeights && !trace;
  const workspaceBytes =
    pitfall === null
      ? (2 * B * n * E + 2 * B * m * E + (averaging ? nm : 0)) * f +
        headWorkspaceBytes(n, m, d, d, needWeights || trace)
      : (2 * B * n * E + 2 * B * m * E + nm + n * d) * 8;
  return { sizes, workspaceBytes };
}

export class MultiHeadAttention {
  #instance;
  #heap;
  #block; // the core's weight block (multi_head_layer.h), which knows its own sizes
  #shapes = {}; // weight name -> [in, out] or [E]
  #embedDim;
  #numHeads;
  #kdim;
  #vdim;
  #hasBias;

  constructor(instance, config) {
    this.#instance = instance;
    this.#heap = instance.heap;
    const opts = checkOptions(config, CONFIG_OPTIONS, 'multiHeadAttention options');
    if (config === undefined) fail('multiHeadAttention needs { embedDim, numHeads }');
    const embedDim = checkPositiveInteger(opts.embedDim, 'embedDim');
    const numHeads = checkPositiveInteger(opts.numHeads, 'numHeads');
    if (embedDim % numHeads !== 0)
      fail(`numHeads (${numHeads}) must divide embedDim (${embedDim}): each head gets embedDim / numHeads features`);
    this.#embedDim = embedDim;
    this.#numHeads = numHeads;
    this.#kdim = checkPositiveInteger(opts.kdim, 'kdim', embedDim);
    this.#vdim = checkPositiveInteger(opts.vdim, 'vdim', embedDim);
    this.#hasBias = checkBoolean(opts.bias, 'bias', true);
    const seed = checkSeed(opts.seed ?? 0, 'seed');

    const E = embedDim;
    this.#shapes = { wq: [E, E], wk: [this.#kdim, E], wv: [this.#vdim, E], wo: [E, E] };
    if (this.#hasBias) Object.assign(this.#shapes, { bq: [E], bk: [E], bv: [E], bo: [E] });
    let bytes = 0;
    for (const shape of Object.values(this.#shapes)) bytes += product(shape) * 4;
    // Checked before the core allocates, whose sizes are 32-bit (the core checks overflow too).
    if (bytes > MEMORY_LIMIT_BYTES / 2)
      fail(
        `multiHeadAttention: embedDim ${E} (kdim ${this.#kdim}, vdim ${this.#vdim}) needs ${formatBytes(bytes)} ` +
          `of weights, more than WebAssembly memory (${formatBytes(MEMORY_LIMIT_BYTES)}) can hold with room to compute`,
      );
    const module = instance.live();
    const layer = module._attn_layer_create(E, numHeads, this.#kdim, this.#vdim, this.#hasBias) >>> 0; // unsigned past 2 GiB
    if (!layer) fail(`multiHeadAttention: ${module._takeLastError()}`);
    this.#block = new OwnedBlock(this, instance, layer, destroyLayer, 'MultiHeadAttention');
    this.#initialize(seed);
    // The sizes are getters over private fields; frozen, no own property can shadow them either.
    Object.freeze(this);
  }

  /** Width of the model, E. Read-only: the sizes live with the weights in the core. */
  get embedDim() {
    return this.#embedDim;
  }
  /** Number of heads h. */
  get numHeads() {
    return this.#numHeads;
  }
  /** Features per head, E / h. */
  get headDim() {
    return this.#embedDim / this.#numHeads;
  }
  /** Features of `key`. */
  get kdim() {
    return this.#kdim;
  }
  /** Features of `value`. */
  get vdim() {
    return this.#vdim;
  }
  /** Whether the projections have biases. */
  get hasBias() {
    return this.#hasBias;
  }

  /** Xavier-uniform weights drawn from the NumPy-compatible generator; biases start at zero. */
  #initialize(seed) {
    const rng = new RandomState(this.#instance, seed);
    try {
      const weights = {};
      for (const [name, shape] of Object.entries(this.#shapes)) {
        if (shape.length === 1) {
          weights[name] = { data: new Float32Array(shape[0]), shape };
          continue;
        }
        const bound = Math.sqrt(6 / (shape[0] + shape[1]));
        const u = rng.rand(product(shape)).data;
        weights[name] = { data: Float32Array.from(u, (x) => (2 * x - 1) * bound), shape };
      }
      this.setWeights(weights);
    } finally {
      rng.dispose();
    }
  }

  /** Number of learnable parameters: 4·E² + 4·E for self-attention with biases. */
  parameterCount() {
    return this.#live()._multiHeadParameterCount(this.#embedDim, this.#numHeads, this.#kdim, this.#vdim, this.#hasBias);
  }

  /** Sets any subset of { wq, wk, wv, wo, bq, bk, bv, bo }; W is [in, out] (y = x·W + b). */
  setWeights(weights) {
    return staged(() => this.#setWeights(weights));
  }

  #setWeights(weights) {
    this.#live();
    if (!weights || typeof weights !== 'object') fail('setWeights needs an object such as { wq, wk, wv, wo }');
    const given = ownEntries(weights);
    const checked = [];
    for (const name of Object.keys(given)) {
      if (!WEIGHT_NAMES.includes(name)) fail(`setWeights: unknown weight "${name}"; known: ${WEIGHT_NAMES.join(', ')}`);
      if (!this.#shapes[name]) fail(`setWeights: ${name} was given but this layer has no biases (bias: false)`);
      const tensor = toTensor(given[name], name);
      if (!sameShape(tensor.shape, this.#shapes[name]))
        fail(
          `${name} must have shape ${formatShape(this.#shapes[name])} ([in, out]), got ${formatShape(tensor.shape)}`,
        );
      checked.push([name, tensor.data]);
    }
    // Validate everything before writing anything, so a bad call leaves the layer unchanged. The
    // core copies each weight into its block after checking the count against the block's own size.
    const module = this.#live();
    try {
      for (const [name, data] of checked) {
        const [at] = this.#heap.layout([data.length * 4], 'setWeights');
        this.#heap.writeF32(at, data);
        checkCode(
          module,
          module._attn_layer_set_weight(this.#block.address, WEIGHT_NAMES.indexOf(name), at, data.length),
          'setWeights',
        );
      }
    } finally {
      this.#heap.settle();
    }
    return this;
  }

  /** Copies of the current weights, W as [in, out]. */
  getWeights() {
    const module = this.#live();
    const out = {};
    try {
      for (const [name, shape] of Object.entries(this.#shapes)) {
        const count = product(shape);
        const [at] = this.#heap.layout([count * 4], 'getWeights');
        checkCode(
          module,
          module._attn_layer_get_weight(this.#block.address, WEIGHT_NAMES.indexOf(name), at, count),
          'getWeights',
        );
        out[name] = { data: this.#heap.readF32(at, count), shape: shape.slice() };
      }
    } finally {
      this.#heap.settle();
    }
    return out;
  }

  /** Loads a torch.nn.MultiheadAttention state dict (weights [out, in], fused in_proj). */
  loadTorchState(state) {
    return staged(() => this.#loadTorchState(state));
  }

  #loadTorchState(state) {
    this.#live();
    if (!state || typeof state !== 'object') fail('loadTorchState needs a state dict object');
    const own = ownEntries(state); // own keys only, each read once
    const E = this.#embedDim;
    const separate = this.#kdim !== E || this.#vdim !== E;
    const required = separate
      ? ['q_proj_weight', 'k_proj_weight', 'v_proj_weight', 'out_proj.weight']
      : ['in_proj_weight', 'out_proj.weight'];
    if (this.#hasBias) required.push('in_proj_bias', 'out_proj.bias');
    for (const key of Object.keys(own))
      if (!required.includes(key))
        fail(
          `loadTorchState: unexpected key "${key}"; this layer (kdim ${this.#kdim}, vdim ${this.#vdim}, ` +
            `bias ${this.#hasBias}) takes ${required.join(', ')}`,
        );
    for (const key of required) if (!(key in own)) fail(`loadTorchState: missing "${key}"`);

    const read = (key, shape) => {
      const t = toTensor(own[key], key);
      if (!sameShape(t.shape, shape)) fail(`${key} must have shape ${formatShape(shape)}, got ${formatShape(t.shape)}`);
      return t.data;
    };
    const w = {};
    if (separate) {
      w.wq = { data: transposed(read('q_proj_weight', [E, E]), E, E), shape: [E, E] };
      w.wk = { data: transposed(read('k_proj_weight', [E, this.#kdim]), E, this.#kdim), shape: [this.#kdim, E] };
      w.wv = { data: transposed(read('v_proj_weight', [E, this.#vdim]), E, this.#vdim), shape: [this.#vdim, E] };
    } else {
      const packed = read('in_proj_weight', [3 * E, E]);
      ['wq', 'wk', 'wv'].forEach((name, i) => {
        w[name] = { data: transposed(packed.subarray(i * E * E, (i + 1) * E * E), E, E), shape: [E, E] };
      });
    }
    w.wo = { data: transposed(read('out_proj.weight', [E, E]), E, E), shape: [E, E] };
    if (this.#hasBias) {
      const packed = read('in_proj_bias', [3 * E]);
      ['bq', 'bk', 'bv'].forEach((name, i) => {
        w[name] = { data: packed.slice(i * E, (i + 1) * E), shape: [E] };
      });
      w.bo = { data: read('out_proj.bias', [E]), shape: [E] };
    }
    return this.setWeights(w);
  }

  /**
   * Attention of `query` over `key`/`value` (self-attention when they are omitted), batch-first
   * [B, n, E] or unbatched [n, E]. See attention.d.ts for the options and the result.
   */
  forward(query, key, value, options) {
    return staged(() => this.#forward(query, key, value, options));
  }

  #forward(query, key, value, options) {
    this.#live();
    const opts = checkOptions(options, FORWARD_OPTIONS, 'forward options');
    const x = readMultiHeadInputs(
      { embedDim: this.#embedDim, kdim: this.#kdim, vdim: this.#vdim },
      query,
      key,
      value,
      opts,
      readFloatInput,
    );
    shareSameArrays(x);
    const flags = forwardFlags(opts, x);
    const { needWeights, averageWeights, trace, pitfall } = flags;
    const { sizes, workspaceBytes } = forwardLayout(x, flags, this.#numHeads, this.headDim);
    const a = this.#heap.layout(sizes, 'multiHeadAttention.forward', workspaceBytes, {
      suggestOutputOnly: pitfall === null && (needWeights || trace),
    });
    try {
      // Every argument has been read: no user code runs from here on.
      const inputs = this.#writeForwardInputs(a, x);
      const { B, n, E } = x;
      const module = this.#live();
      if (pitfall !== null) this.#heap.fillU8(a[17], B * n, 0); // not tracked by pitfalls
      const args = forwardArguments(pitfall, this.#block.address, a, inputs, x, averageWeights);
      const status = module._attn_multi_head_attention(...args);
      checkCode(module, status, 'multiHeadAttention.forward');
      this.#heap.checkNoOverflow(a[6], B * n * E, 'query, key or the weights');
      return this.#readForwardResult(a, x, flags);
    } finally {
      this.#heap.settle();
    }
  }

  // Copies the inputs and masks into the buffers laid out by forwardLayout; a key that is the
  // query (a value that is the key) shares its buffer. Returns the addresses of q, k and v.
  #writeForwardInputs(a, { q, k, v, mask, bias, padding }) {
    const [aq, ak0, av0] = a;
    const ak = k === q ? aq : ak0;
    const av = v === k ? ak : av0;
    this.#heap.writeFloatInput(aq, q);
    if (k !== q) this.#heap.writeFloatInput(ak, k);
    if (v !== k) this.#heap.writeFloatInput(av, v);
    if (mask) this.#heap.writeU8(a[3], mask);
    if (bias) this.#heap.writeF32(a[4], bias);
    if (padding) this.#heap.writeU8(a[5], padding);
    return [aq, ak, av];
  }

  #readForwardResult(a, { batched, B, n, m, E }, { needWeights, averageWeights, trace }) {
    const H = this.#numHeads;
    const lead = batched ? [B] : [];
    const read = (address, shape) => ({ data: this.#heap.readF32(address, product(shape)), shape });
    const result = {
      output: read(a[6], [...lead, n, E]),
      weights: needWeights ? read(a[7], averageWeights ? [...lead, n, m] : [...lead, H, n, m]) : null,
      fullyMaskedRows: this.#heap.nonzeroIndices(a[17], B * n),
    };
    if (trace) {
      const d = this.headDim;
      result.trace = {
        q: read(a[8], [...lead, n, E]),
        k: read(a[9], [...lead, m, E]),
        v: read(a[10], [...lead, m, E]),
        scores: read(a[11], [...lead, H, n, m]),
        scaled: read(a[12], [...lead, H, n, m]),
        masked: read(a[13], [...lead, H, n, m]),
        weights: read(a[14], [...lead, H, n, m]),
        headOutputs: read(a[15], [...lead, H, n, d]),
        concat: read(a[16], [...lead, n, E]),
      };
    }
    return result;
  }

  /** Gradients of Σ(output ⊙ gradOutput) for the inputs and the weights; see attention.d.ts. */
  backward(query, key, value, gradOutput, options) {
    this.#live();
    return multiHeadBackward(
      () => [this.#live(), this.#block.address],
      this.#heap,
      this,
      query,
      key,
      value,
      gradOutput,
      options,
    );
  }

  /** Frees the weights in WebAssembly memory; the layer cannot be used afterwards. */
  dispose() {
    this.#block.dispose();
  }

  /** The module, or an Error when this layer or its attention instance was disposed. */
  #live() {
    return this.#block.live();
  }
}
