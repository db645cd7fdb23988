// The tiny GPT-2 transformer of the C++ core: parameters, Adam's moments and activations live in
// WebAssembly memory; this layer checks arguments, names tensors as Hugging Face's GPT-2 does and
// copies tokens in and results out. One dispose() frees the model; a FinalizationRegistry frees a
// forgotten one. The full documentation is in attention.d.ts.
import {
  checkBoolean,
  checkPositiveInteger,
  checkSeed,
  fail,
  formatShape,
  product,
  sameShape,
  show,
} from './checks.js';
import { checkOptions, ownEntries, readList, readTokens, toTensor } from './read-input.js';
import { loadCheckpoint, openSafetensors } from './checkpoint.js';
import { saveSafetensors, saveSafetensorsAsync } from './checkpoint-save.js';
import { MEMORY_LIMIT_BYTES, formatBytes } from './wasm-heap.js';
import { TransformerDecoder, generate } from './decoder.js';

// The held value names the instance, never the module: a forgotten model must not keep a disposed
// instance's whole WebAssembly memory alive (attn.dispose() lets the module go; the model's memory
// goes with it).
const models = new FinalizationRegistry(({ instance, handle }) => instance.module?._transformerDestroy(handle));
const CONFIG_KEYS = [
  'vocabSize',
  'contextLength',
  'dModel',
  'numLayers',
  'numHeads',
  'mlp',
  'layerNorm',
  'positions',
  'tieEmbeddings',
  'init',
  'seed',
  'ropeBase',
  'numKVHeads',
  'attentionWindow',
];
const FORWARD_OPTIONS = ['needWeights', 'logits'];
const LOGITS = ['all', 'last'];
const TARGET_FORMS = ['targets', 'labels'];
const TRAIN_OPTIONS = ['learningRate', 'betas', 'eps', 'weightDecay', 'clipNorm'];
const INITS = ['pytorch', 'gpt2'];
const SIZE_LIMITS = [
  ['vocabSize', 2 ** 20],
  ['contextLength', 2 ** 20],
  ['dModel', 2 ** 16],
  ['numLayers', 256],
  ['numHeads', 2 ** 16],
];
const MAX_WINDOW = 2 ** 31 - 1;
const INIT_NONE = 2; // the core's "leave the parameters zero" (src/bindings: kInitNone)
const POSITIONS = ['learned', 'none', 'rope', 'alibi'];
// The core's codes for positions inside attention (transformer_create in the bindings).
const ATTENTION_POSITIONS = { rope: 1, alibi: 2 };
// GPT-2 checkpoints carry the causal mask as buffers; they are not parameters.
const IGNORED_BUFFER = /^h\.\d+\.attn\.(bias|masked_bias)$/;

function checkChoice(value, name, choices, fallback) {
  if (value === undefined) return fallback;
  if (!choices.includes(value))
    fail(`${name} must be one of ${choices.map((c) => `'${c}'`).join(', ')}, got ${show(value)}`);
  return value;
}

// transformer_create's parameters in the binding's order (src/bindings/attention_bindings.cpp):
// the call names every field, and this one list turns them into positions. (An Embind
// value_object would take the object itself, but its reader walks the object's keys with for…in,
// so a key planted on Object.prototype would reach it.)
const CREATE_FIELDS = [
  'vocabSize',
  'contextLength',
  'dModel',
  'numLayers',
  'numHeads',
  'mlp',
  'layerNorm',
  'learnedPositions',
  'tieEmbeddings',
  'init',
  'seed',
  'attentionPositions',
  'numKVHeads',
  'attentionWindow',
  'ropeBase',
];
const createArguments = (fields) => CREATE_FIELDS.map((name) => fields[name]);

/** The checked configuration with every default filled in. */
export function normalizeConfig(config) {
  if (config === undefined || config === null)
    fail('transformer needs { vocabSize, contextLength, dModel, numLayers, numHeads }');
  // Own keys only, each read once: Object.prototype.mlp = false changes nothing.
  config = checkOptions(config, CONFIG_KEYS, 'transformer config');
  const c = {
    vocabSize: checkPositiveInteger(config.vocabSize, 'vocabSize'),
    contextLength: checkPositiveInteger(config.contextLength, 'contextLength'),
    dModel: checkPositiveInteger(config.dModel, 'dModel'),
    numLayers: checkPositiveInteger(config.numLayers, 'numLayers'),
    numHeads: checkPositiveInteger(config.numHeads, 'numHeads'),
    mlp: checkBoolean(config.mlp, 'mlp', true),
    layerNorm: checkBoolean(config.layerNorm, 'layerNorm', true),
    positions: checkChoice(config.positions, 'positions', POSITIONS, 'learned'),
    tieEmbeddings: checkBoolean(config.tieEmbeddings, 'tieEmbeddings', true),
    init: checkChoice(config.init, 'init', INITS, 'pytorch'),
    seed: checkSeed(config.seed ?? 0, 'seed'),
  };
  // The core's bounds (src/core/transformer_config.h), checked here too: sizes reach it as 32-bit
  // integers, so 2 ** 40 layers would arrive as 0.
  for (const [key, max] of SIZE_LIMITS) if (c[key] > max) fail(`${key} must be at most ${max}, got ${c[key]}`);
  if (c.dModel % c.numHeads !== 0)
    fail(`numHeads (${c.numHeads}) must divide dModel (${c.dModel}): each head gets dModel / numHeads features`);
  Object.assign(c, attentionConfig(config, c));
  return Object.freeze(c);
}

/** ropeBase, numKVHeads and attentionWindow, checked against the rest of the config `c`. */
function attentionConfig(config, c) {
  const { ropeBase = 10000, numKVHeads = c.numHeads, attentionWindow = null } = config;
  if (typeof ropeBase !== 'number' || !Number.isFinite(ropeBase) || ropeBase <= 0)
    fail(`ropeBase must be a positive finite number, got ${show(ropeBase)}`);
  checkPositiveInteger(numKVHeads, 'numKVHeads');
  if (c.numHeads % numKVHeads !== 0)
    fail(
      `numKVHeads (${numKVHeads}) must divide numHeads (${c.numHeads}): each key/value head serves numHeads / numKVHeads query heads`,
    );
  if (attentionWindow !== null) checkPositiveInteger(attentionWindow, 'attentionWindow (null for none)');
  // The core takes the window as a 32-bit size_t (2 ** 32 + 1 would arrive as 1); sdpa's window has
  // the same bound, and no sequence comes near it.
  if (attentionWindow > MAX_WINDOW) fail(`attentionWindow must be at most ${MAX_WINDOW}, got ${attentionWindow}`);
  const headDim = c.dModel / c.numHeads;
  if (c.positions === 'rope' && headDim % 2 !== 0)
    fail(
      `positions 'rope' needs an even head dimension dModel / numHeads, got ${headDim}: RoPE turns the two halves of each head as pairs`,
    );
  return { ropeBase, numKVHeads, attentionWindow };
}

const HF_REQUIRED = ['vocab_size', 'n_embd', 'n_layer', 'n_head'];

/**
 * Our config from a Hugging Face GPT-2 config.json object (n_embd, n_layer, …), refusing the
 * settings this model does not implement; our own config passes through.
 */
export function configFromHuggingFace(config) {
  if (config === null || typeof config !== 'object' || Array.isArray(config))
    fail(
      'transformerFromSafetensors needs a config: ours ({ vocabSize, … }) or a Hugging Face GPT-2 config.json object',
    );
  config = ownEntries(config); // own keys only, each read once
  if (!('n_embd' in config) && !('n_layer' in config) && !('model_type' in config)) return config;
  if (config.model_type !== undefined && config.model_type !== 'gpt2')
    fail(`config.model_type must be 'gpt2', got ${show(config.model_type)}`);
  for (const key of HF_REQUIRED) if (config[key] === undefined) fail(`the Hugging Face config has no ${key}`);
  const contextLength = config.n_positions ?? config.n_ctx;
  if (contextLength === undefined) fail('the Hugging Face config has no n_positions (or n_ctx)');
  const E = config.n_embd;
  if (config.n_inner !== undefined && config.n_inner !== null && config.n_inner !== 4 * E)
    fail(
      `config.n_inner must be null or 4·n_embd (${4 * E}): this model's MLP is 4·d_model wide, got ${show(config.n_inner)}`,
    );
  if (
    config.activation_function !== undefined &&
    !['gelu_new', 'gelu_pytorch_tanh'].includes(config.activation_function)
  )
    fail(`config.activation_function must be 'gelu_new' (GPT-2's tanh GELU), got ${show(config.activation_function)}`);
  if (config.layer_norm_epsilon !== undefined && config.layer_norm_epsilon !== 1e-5)
    fail(`config.layer_norm_epsilon must be 1e-5, got ${show(config.layer_norm_epsilon)}`);
  for (const key of ['scale_attn_by_inverse_layer_idx', 'reorder_and_upcast_attn'])
    if (config[key] === true) fail(`config.${key} is not supported`);
  if (config.scale_attn_weights === false)
    fail('config.scale_attn_weights: false is not supported (scores are always scaled by 1/√d)');
  return {
    vocabSize: config.vocab_size,
    contextLength,
    dModel: E,
    numLayers: config.n_layer,
    numHeads: config.n_head,
    tieEmbeddings: config.tie_word_embeddings ?? true,
  };
}

// −1 (ours) and −100 (PyTorch's default ignore_index, which Hugging Face's labels use).
const isIgnored = (x) => x === -1 || x === -100;

/** Token ids [T] or [B, T] as Int32Array; `ignore` lets −1 and −100 through (targets). */
function toTokens(value, name, vocabSize, contextLength, ignore) {
  const tok = readTokens(value, name, (x, i, at) => {
    if (typeof x !== 'number' || Number.isNaN(x)) fail(`${at()} is ${show(x)}; token ids must be integers`);
    if (!Number.isInteger(x)) fail(`${at()} is ${x}; token ids must be integers`);
    if ((x < 0 && !(ignore && isIgnored(x))) || x >= vocabSize)
      fail(`${at()} is ${x}, outside [0, vocabSize = ${vocabSize})${ignore ? ' (−1 or −100 = ignored)' : ''}`);
  });
  if (tok.T > contextLength)
    fail(`${name} has ${tok.T} tokens per sequence, more than contextLength (${contextLength})`);
  return tok;
}

function checkUnitInterval(x, name) {
  if (typeof x !== 'number' || !(x >= 0 && x < 1)) fail(`${name} must be a number in [0, 1), got ${show(x)}`);
  return x;
}

// x in [lo, hi] (NaN fails), `range` as the message shows it.
function checkRange(x, name, lo, hi, range, fallback) {
  if (x === undefined) return fallback;
  if (typeof x !== 'number' || !(x >= lo && x <= hi)) fail(`${name} must be a number in ${range}, got ${show(x)}`);
  return x;
}

// The ranges of src/core/optimizer.h, checked here too so that the message names what was passed.
/**
 * Adam's options checked and packed for the core: [lr, β1, β2, eps, weightDecay, clipNorm]. `what`
 * names them in messages (the trainer checks its optimizer with this before a Worker starts).
 */
export function adamOptions(options, what = 'trainStep options', prefix = '') {
  const o = checkOptions(options, TRAIN_OPTIONS, what);
  const named = (key) => `${prefix}${key}`;
  const lr = checkRange(o.learningRate, named('learningRate'), 0, 10, '[0, 10]', 1e-3);
  let betas = [0.9, 0.999];
  if (o.betas !== undefined) {
    const given = Array.isArray(o.betas) ? readList(o.betas, named('betas')) : null; // each read once
    if (!given || given.length !== 2) fail(`${named('betas')} must be an array of two numbers, got ${show(o.betas)}`);
    betas = [checkUnitInterval(given[0], named('betas[0]')), checkUnitInterval(given[1], named('betas[1]'))];
  }
  const eps = checkRange(o.eps, named('eps'), 1e-30, 1, '[1e-30, 1] (0 would divide 0 by 0)', 1e-8);
  const weightDecay = checkRange(o.weightDecay, named('weightDecay'), 0, Number.MAX_VALUE, '[0, ∞)', 0);
  if (lr * weightDecay > 1)
    fail(
      `learningRate × weightDecay must be at most 1 (AdamW multiplies every parameter by 1 − learningRate × weightDecay), got ${lr * weightDecay}`,
    );
  let clipNorm = 0;
  if (o.clipNorm !== undefined && o.clipNorm !== null) {
    if (typeof o.clipNorm !== 'number' || !Number.isFinite(o.clipNorm) || o.clipNorm <= 0)
      fail(`${named('clipNorm')} must be a positive finite number, got ${show(o.clipNorm)}`);
    clipNorm = o.clipNorm;
  }
  return Float64Array.of(lr, betas[0], betas[1], eps, weightDecay, clipNorm);
}

/**
 * Hugging Face's labels: position t is scored against labels[t + 1] (the model shifts them, as
 * GPT2LMHeadModel does), and the last position of each sequence against nothing.
 */
function shiftLabels(labels) {
  const { data, T } = labels;
  const out = new Int32Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = (i + 1) % T === 0 ? -100 : data[i + 1];
  return { ...labels, data: out };
}

/**
 * The second argument of loss, gradients and trainStep: targets as given (token ids of the shape
 * of tokens), or `{ targets }`, or `{ labels }` (shifted inside, as Hugging Face's models do).
 */
function readTargetForm(value, what) {
  const isForm =
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !ArrayBuffer.isView(value) &&
    TARGET_FORMS.some((key) => Object.hasOwn(value, key));
  if (!isForm) return { name: 'targets', value, shift: false };
  const o = checkOptions(value, TARGET_FORMS, `${what} targets`);
  if ((o.targets === undefined) === (o.labels === undefined))
    fail(`${what}: pass either { targets } or { labels }, not both`);
  return o.labels === undefined
    ? { name: 'targets', value: o.targets, shift: false }
    : { name: 'labels', value: o.labels, shift: true };
}

// A model whose parameters a checkpoint is about to fill: no random weights are drawn, and the
// checkpoint reader gets the live parameter block. → { model, block, instance } (checkpoint.js).
function modelForCheckpoint(instance, config) {
  let block = null;
  const model = new Transformer(instance, config, {
    initialize: false,
    access: (get) => {
      block = get;
    },
  });
  return { model, block, instance };
}

/**
 * A model from a safetensors file (untrusted bytes: the header is checked against the config
 * before any data is read; the tensors go straight into the parameters).
 */
export function transformerFromSafetensors(instance, bytes, config) {
  const c = normalizeConfig(configFromHuggingFace(config));
  return openSafetensors(bytes, () => modelForCheckpoint(instance, c));
}

/** The asynchronous open from bytes, a Blob/File or a URL (see attention.d.ts). */
export function loadTransformer(instance, source, config, options) {
  return loadCheckpoint(source, config, options, {
    prepare: (given) => normalizeConfig(configFromHuggingFace(given)),
    create: (c) => modelForCheckpoint(instance, c),
  });
}

export class Transformer {
  #instance; // the module is asked for at each call: after attn.dispose() every call throws
  #heap;
  #config;
  #handle = 0;
  #tensors = []; // { name, shape, offset (floats), size } in state-dict order
  #byName = new Map();
  #decoders = new Set(); // WeakRefs of this model's live decoders, disposed with it
  #version = 0; // counts the calls that changed the parameters (loadState, trainStep)

  // `internal` (checkpoint loading only): { initialize: false } leaves the parameters zero for a
  // checkpoint to fill; access(get) receives a function giving the live parameter block.
  constructor(instance, config, internal) {
    const c = normalizeConfig(config);
    const module = instance.live();
    const { heap } = instance;
    this.#instance = instance;
    this.#heap = heap;
    const [out] = heap.layout([4], 'transformer');
    const message = module._transformerCreate(
      out,
      ...createArguments({
        vocabSize: c.vocabSize,
        contextLength: c.contextLength,
        dModel: c.dModel,
        numLayers: c.numLayers,
        numHeads: c.numHeads,
        mlp: c.mlp,
        layerNorm: c.layerNorm,
        learnedPositions: c.positions === 'learned',
        tieEmbeddings: c.tieEmbeddings,
        init: internal?.initialize === false ? INIT_NONE : INITS.indexOf(c.init),
        seed: c.seed,
        attentionPositions: ATTENTION_POSITIONS[c.positions] ?? 0,
        numKVHeads: c.numKVHeads,
        attentionWindow: c.attentionWindow ?? 0,
        ropeBase: c.ropeBase,
      }),
    );
    const handle = module.HEAPU32[out >>> 2];
    heap.settle();
    if (message) fail(`transformer: ${message}`);
    this.#handle = handle;
    models.register(this, { instance, handle }, this);
    this.#config = c;
    const count = module._transformerTensorCount(handle);
    for (let i = 0; i < count; i++) {
      const shape = [];
      for (let d = 0; d < module._transformerTensorRank(handle, i); d++)
        shape.push(module._transformerTensorDim(handle, i, d));
      const t = {
        name: module._transformerTensorName(handle, i),
        shape,
        offset: module._transformerTensorOffset(handle, i),
        size: product(shape),
      };
      this.#tensors.push(t);
      this.#byName.set(t.name, t);
    }
    internal?.access?.(() => this.#parameterBlock());
  }

  // The parameters in WebAssembly memory, for the checkpoint reader and writer.
  #parameterBlock() {
    this.#live();
    return { module: this.#module, base: this.#module._transformerParameters(this.#handle), tensors: this.#tensors };
  }

  /**
   * The configuration with defaults filled in (frozen, read-only): the sizes of the buffers given to
   * the core come from it, so it cannot be replaced.
   */
  get config() {
    return this.#config;
  }

  get #module() {
    return this.#instance.live();
  }

  /** Number of learnable parameters (a tied lm_head is counted once, as wte). */
  parameterCount() {
    this.#live();
    return this.#tensors.reduce((sum, t) => sum + t.size, 0);
  }

  /**
   * Copies of every parameter by its Hugging Face GPT-2 name → { data: Float32Array, shape }; with
   * `names` (an array of names), of those only (a GPT-2-size model's one layer, not its 500 MB).
   */
  getState(names) {
    this.#live();
    if (names === undefined) return this.#read(this.#module._transformerParameters(this.#handle));
    if (!Array.isArray(names)) fail(`getState: names must be an array of parameter names, got ${show(names)}`);
    const list = names.slice();
    for (const name of list)
      if (typeof name !== 'string' || !this.#byName.has(name))
        fail(
          `getState: unknown parameter ${show(name)} (names such as ${this.#tensors
            .slice(0, 3)
            .map((x) => `"${x.name}"`)
            .join(', ')}, …)`,
        );
    return this.#read(
      this.#module._transformerParameters(this.#handle),
      list.map((name) => this.#byName.get(name)),
    );
  }

  /**
   * Loads every parameter by name (see attention.d.ts). Everything is checked before anything is
   * written, so a bad state leaves the model unchanged.
   */
  loadState(state) {
    this.#live();
    if (!state || typeof state !== 'object' || Array.isArray(state))
      fail('loadState needs an object of tensors by name');
    // Own keys only, each value read once (a getter could give a checked tensor, then another).
    const entries = ownEntries(state);
    const given = new Map();
    let tiedHead = null;
    for (const key of Object.keys(entries)) {
      const name = key.startsWith('transformer.') ? key.slice('transformer.'.length) : key;
      if (IGNORED_BUFFER.test(name)) continue;
      if (name === 'lm_head.weight' && this.#config.tieEmbeddings) {
        tiedHead = key; // a tied checkpoint may repeat wte as lm_head; it must equal wte
        continue;
      }
      const t = this.#byName.get(name);
      if (!t)
        fail(
          `loadState: unknown key "${key}" for this config (expected names such as ${this.#tensors
            .slice(0, 3)
            .map((x) => `"${x.name}"`)
            .join(', ')}, …)`,
        );
      if (given.has(name)) fail(`loadState: "${name}" is given twice (with and without the "transformer." prefix)`);
      const tensor = toTensor(entries[key], key);
      if (!sameShape(tensor.shape, t.shape))
        fail(`loadState: "${key}" must have shape ${formatShape(t.shape)}, got ${formatShape(tensor.shape)}`);
      given.set(name, tensor.data);
    }
    for (const t of this.#tensors) if (!given.has(t.name)) fail(`loadState: missing "${t.name}"`);
    if (tiedHead !== null)
      this.#checkTiedHead(toTensor(entries[tiedHead], tiedHead), tiedHead, given.get('wte.weight'));
    this.#live(); // again: a getter in the state may have disposed the model
    const base = this.#module._transformerParameters(this.#handle);
    for (const t of this.#tensors) this.#heap.writeF32(base + t.offset * 4, given.get(t.name));
    this.#version++;
    return this;
  }

  /**
   * Logits [B, T, V] and each layer's attention weights [B, H, T, T] ([T] input: no B); with
   * logits: 'last', only the last position's logits [B, 1, V] ([1, V]), unembedded for that row only.
   */
  forward(tokens, options) {
    this.#live();
    const opts = checkOptions(options, FORWARD_OPTIONS, 'forward options');
    const needWeights = checkBoolean(opts.needWeights, 'options.needWeights', true);
    const last = checkChoice(opts.logits, 'options.logits', LOGITS, 'all') === 'last';
    const { vocabSize: V, numLayers: L, numHeads: H } = this.#config;
    const tok = toTokens(tokens, 'tokens', V, this.#config.contextLength, false);
    this.#live(); // again: a getter among the tokens may have disposed the model
    const { batch: B, T } = tok;
    const rows = last ? B : B * T;
    const perLayer = B * H * T * T;
    this.#checkForwardSize(rows * V * 4, `the logits [${B}, ${last ? 1 : T}, ${V}]`, 'pass fewer sequences or tokens');
    if (needWeights)
      this.#checkForwardSize(
        L * perLayer * 4,
        `the attention weights (${L} × [${B}, ${H}, ${T}, ${T}])`,
        'pass needWeights: false or fewer tokens',
      );
    const a = this.#heap.layout(
      [B * T * 4, rows * V * 4, needWeights ? L * perLayer * 4 : 0, last ? B * 4 : 0],
      'transformer.forward',
    );
    this.#module.HEAP32.set(tok.data, a[0] >>> 2);
    try {
      if (last) {
        this.#module.HEAPU32.set(
          Uint32Array.from({ length: B }, (_, b) => b * T + T - 1),
          a[3] >>> 2,
        );
        this.#check(this.#module._transformerForwardRows(this.#handle, a[0], B, T, a[3], B, a[1], a[2]), 'forward');
      } else {
        this.#check(this.#module._transformerForward(this.#handle, a[0], B, T, a[1], a[2]), 'forward');
      }
      const lead = tok.batched ? [B] : [];
      const logits = { data: this.#heap.readF32(a[1], rows * V), shape: [...lead, last ? 1 : T, V] };
      let attentions = null;
      if (needWeights) {
        attentions = [];
        for (let l = 0; l < L; l++)
          attentions.push({ data: this.#heap.readF32(a[2] + l * perLayer * 4, perLayer), shape: [...lead, H, T, T] });
      }
      return { logits, attentions };
    } finally {
      this.#heap.settle();
    }
  }

  /**
   * What layer `layer`'s attention reads for one sequence `tokens` ([T] ids): LN₁ of the residual
   * stream entering the layer, [T, dModel], computed by the core (see attention.d.ts).
   */
  layerInput(tokens, layer) {
    this.#live();
    const { vocabSize: V, numLayers: L, dModel: E } = this.#config;
    const tok = toTokens(tokens, 'tokens', V, this.#config.contextLength, false);
    if (tok.batched) fail(`layerInput: tokens must be one sequence [T], got shape ${formatShape(tok.shape)}`);
    if (!Number.isSafeInteger(layer) || layer < 0 || layer >= L)
      fail(`layerInput: layer must be an integer from 0 to ${L - 1}, got ${show(layer)}`);
    this.#live(); // again: a getter among the tokens may have disposed the model
    const { T } = tok;
    const a = this.#heap.layout([T * 4, T * E * 4], 'transformer.layerInput');
    this.#module.HEAP32.set(tok.data, a[0] >>> 2);
    try {
      this.#check(this.#module._transformerLayerInput(this.#handle, a[0], T, layer, a[1]), 'layerInput');
      return { data: this.#heap.readF32(a[1], T * E), shape: [T, E] };
    } finally {
      this.#heap.settle();
    }
  }

  // A result that does not fit in half of memory (the model and its activations need the rest) is
  // refused before the call, naming what does not fit.
  #checkForwardSize(bytes, what, advice) {
    if (bytes > MEMORY_LIMIT_BYTES / 2)
      fail(
        `transformer.forward: ${what} would need ${formatBytes(bytes)} of WebAssembly memory (at most ${formatBytes(MEMORY_LIMIT_BYTES)}); ${advice}`,
      );
  }

  /**
   * The mean cross-entropy without gradients: `targets` as in gradients(), or `{ labels }` with
   * Hugging Face's shift (see attention.d.ts). Only the rows that count are unembedded.
   */
  loss(tokens, targets) {
    this.#live();
    const [tok, tgt] = this.#tokensAndTargets(tokens, targets, 'loss');
    const a = this.#heap.layout([tok.data.length * 4, tgt.data.length * 4, 8], 'transformer.loss');
    this.#writeTokens(a, tok, tgt);
    try {
      this.#check(this.#module._transformerLoss(this.#handle, a[0], a[1], tok.batch, tok.T, a[2]), 'loss');
      return { loss: this.#heap.readF64(a[2], 1)[0] };
    } finally {
      this.#heap.settle();
    }
  }

  /** Mean cross-entropy over targets ≠ −1/−100 (or { labels }) and every parameter's gradient (getState names). */
  gradients(tokens, targets) {
    this.#live();
    const [tok, tgt] = this.#tokensAndTargets(tokens, targets, 'gradients');
    const a = this.#heap.layout([tok.data.length * 4, tgt.data.length * 4, 8], 'transformer.gradients');
    this.#writeTokens(a, tok, tgt);
    try {
      this.#check(
        this.#module._transformerComputeGradients(this.#handle, a[0], a[1], tok.batch, tok.T, a[2]),
        'gradients',
      );
      const loss = this.#heap.readF64(a[2], 1)[0];
      return { loss, grads: this.#read(this.#module._transformerGradients(this.#handle)) };
    } finally {
      this.#heap.settle();
    }
  }

  /** One Adam(W) step on the mean cross-entropy; returns the loss before the update. */
  trainStep(tokens, targets, options) {
    this.#live();
    const adam = adamOptions(options);
    const [tok, tgt] = this.#tokensAndTargets(tokens, targets, 'trainStep');
    const a = this.#heap.layout(
      [tok.data.length * 4, tgt.data.length * 4, 8, adam.length * 8],
      'transformer.trainStep',
    );
    this.#writeTokens(a, tok, tgt);
    this.#module.HEAPF64.set(adam, a[3] >>> 3);
    try {
      this.#check(
        this.#module._transformerTrainStep(this.#handle, a[0], a[1], tok.batch, tok.T, a[3], a[2]),
        'trainStep',
      );
      this.#version++;
      return { loss: this.#heap.readF64(a[2], 1)[0] };
    } finally {
      this.#heap.settle();
    }
  }

  /** The parameters as a safetensors file (F32, getState names; metadata format: 'pt'). */
  toSafetensors() {
    this.#live();
    return saveSafetensors(() => this.#parameterBlock());
  }

  /** toSafetensors as a Blob made slice by slice, with { signal, onProgress } (see attention.d.ts). */
  async toSafetensorsAsync(options) {
    this.#live();
    return saveSafetensorsAsync(() => this.#parameterBlock(), options);
  }

  /** Forgets Adam's moments and step count; the next trainStep is a first step again. */
  resetOptimizer() {
    this.#live();
    this.#module._transformerResetOptimizer(this.#handle);
  }

  /** A decoder with a key/value cache over this model (see attention.d.ts). */
  decoder(options) {
    this.#live();
    const refs = this.#decoders;
    let ref = null;
    const decoder = new TransformerDecoder(
      this.#instance,
      {
        config: this.#config,
        handle: () => {
          this.#live();
          return this.#handle;
        },
        forget: () => refs.delete(ref),
      },
      options,
    );
    ref = new WeakRef(decoder);
    refs.add(ref);
    return decoder;
  }

  /** The prompt followed by sampled (or greedy) new tokens, decoded with a cache (see attention.d.ts). */
  generate(prompt, options) {
    this.#live();
    return generate(
      this.#instance,
      this.#config,
      (o) => this.decoder(o),
      prompt,
      options,
      () => this.#version,
    );
  }

  /** Frees the model's WebAssembly memory; the model cannot be used afterwards. */
  dispose() {
    if (!this.#handle) return;
    for (const ref of [...this.#decoders]) ref.deref()?.dispose();
    models.unregister(this);
    // After attn.dispose() the module (and the model's memory in it) is already let go.
    if (this.#instance.module) this.#instance.module._transformerDestroy(this.#handle);
    this.#handle = 0;
  }

  // A tied checkpoint may repeat wte as lm_head.weight (Hugging Face's tied GPT-2 files do): it is
  // accepted only with wte's shape and values, since this model would ignore anything else.
  #checkTiedHead(head, key, wte) {
    const shape = this.#byName.get('wte.weight').shape;
    if (!sameShape(head.shape, shape))
      fail(
        `loadState: "${key}" must have wte.weight's shape ${formatShape(shape)} in a model with tied embeddings, got ${formatShape(head.shape)}`,
      );
    if (head.data.some((x, i) => x !== wte[i]))
      fail(`loadState: "${key}" differs from wte.weight, but this model ties its embeddings (tieEmbeddings: true)`);
  }

  #tokensAndTargets(tokens, targets, what) {
    const { vocabSize: V, contextLength } = this.#config;
    const tok = toTokens(tokens, 'tokens', V, contextLength, false);
    const { name, value, shift } = readTargetForm(targets, what);
    let tgt = toTokens(value, name, V, contextLength, true);
    if (!sameShape(tok.shape, tgt.shape))
      fail(`${what}: ${name} must have the shape of tokens ${formatShape(tok.shape)}, got ${formatShape(tgt.shape)}`);
    if (shift) tgt = shiftLabels(tgt);
    if (!tgt.data.some((x) => x >= 0))
      fail(
        shift
          ? `${what}: labels give no target: position t is scored against labels[t + 1], and those are all ignored (or T = 1)`
          : `${what}: targets are all −1 (or −100), so there is no loss to compute`,
      );
    this.#live(); // again: a getter among the inputs may have disposed the model
    return [tok, tgt];
  }

  #writeTokens(a, tok, tgt) {
    this.#module.HEAP32.set(tok.data, a[0] >>> 2);
    this.#module.HEAP32.set(tgt.data, a[1] >>> 2);
  }

  #read(base, tensors = this.#tensors) {
    const out = {};
    for (const t of tensors)
      out[t.name] = { data: this.#heap.readF32(base + t.offset * 4, t.size), shape: t.shape.slice() };
    return out;
  }

  #check(message, what) {
    if (message) fail(`transformer.${what}: ${message}`);
  }

  #live() {
    this.#instance.live();
    if (!this.#handle) fail('this transformer was disposed');
  }
}
