// Decoding with a key/value cache (model.decoder) and generation (model.generate) on the core's
// Decoder (src/core/decoder.h): the cache lives in WebAssembly memory next to the model, each
// append runs only the new tokens, and sampling happens in the core on the logits in place (one
// token id crosses back per step). The documentation is in attention.d.ts.
import { checkBoolean, checkPositiveInteger, checkSeed, fail, show } from './checks.js';
import { checkOptions, readTokens } from './read-input.js';
import { MEMORY_LIMIT_BYTES, check, formatBytes } from './wasm-heap.js';
import { RandomState } from './random-state.js';

const decoders = new FinalizationRegistry(({ instance, handle }) => {
  if (instance.module) instance.module._decoderDestroy(handle);
});
const DECODER_OPTIONS = ['maxLength'];
const APPEND_OPTIONS = ['needWeights'];
const SAMPLE_OPTIONS = ['needWeights', 'temperature', 'topK', 'u'];
const GENERATE_OPTIONS = ['maxNewTokens', 'temperature', 'topK', 'seed', 'onToken', 'maxLength'];
// The core's bound (kMaxDecoderLength, src/core/decoder.h), checked here: maxLength reaches it as a
// 32-bit size_t, so 2 ** 32 + 5 would arrive as 5.
const MAX_LENGTH = 2 ** 24;

// maxLength (default contextLength), a positive integer within the core's bound.
function checkMaxLength(value, config) {
  const maxLength = checkPositiveInteger(value, 'maxLength', config.contextLength);
  if (maxLength > MAX_LENGTH) fail(`maxLength must be at most ${MAX_LENGTH}, got ${maxLength}`);
  return maxLength;
}

// One decode step for generate(): module-private access to TransformerDecoder#sample.
let sampleNext;

export class TransformerDecoder {
  #instance;
  #heap;
  #model; // { config, handle() (throws once the model is disposed), forget() }
  #config;
  #handle = 0;
  #maxLength;

  static {
    sampleNext = (decoder, tokens, sampling, u) => decoder.#sample(tokens, sampling, u);
  }

  constructor(instance, model, options) {
    const opts = checkOptions(options, DECODER_OPTIONS, 'decoder options');
    const c = model.config;
    const maxLength = checkMaxLength(opts.maxLength, c);
    if (c.positions === 'learned' && maxLength > c.contextLength)
      fail(
        `maxLength (${maxLength}) must be at most contextLength (${c.contextLength}) for a model with learned positions: wpe has no row past it`,
      );
    const module = instance.live();
    const [out] = instance.heap.layout([4], 'decoder');
    const message = module._decoderCreate(out, model.handle(), maxLength);
    const handle = module.HEAPU32[out >>> 2];
    instance.heap.settle();
    if (message) fail(`decoder: ${message}`);
    this.#instance = instance;
    this.#heap = instance.heap;
    this.#model = model;
    this.#config = c;
    this.#handle = handle;
    this.#maxLength = maxLength;
    decoders.register(this, { instance, handle }, this);
  }

  /** The most tokens this decoder takes. */
  get maxLength() {
    this.#live();
    return this.#maxLength;
  }

  /** Tokens appended since it was made or reset. */
  get length() {
    return this.#instance.module._decoderLength(this.#live());
  }

  /** Bytes of keys and values held: 2 · numLayers · numKVHeads · headDim · kept · 4. */
  get cacheBytes() {
    return this.#instance.module._decoderCacheBytes(this.#live());
  }

  /** Logits [t, V] of the appended tokens and, per layer, their attention [H, t, length]. */
  append(tokens, options) {
    this.#live();
    const opts = checkOptions(options, APPEND_OPTIONS, 'append options');
    return this.#appendAndRead(tokens, checkBoolean(opts.needWeights, 'options.needWeights', true), null);
  }

  /**
   * append(tokens), then the token that follows, drawn from the last row's logits in the core as
   * generate() draws it: { token, logits, attentions }. options: temperature (default 1; 0 =
   * greedy), topK, u (the uniform draw in [0, 1), default 0), needWeights (default true).
   */
  sample(tokens, options) {
    this.#live();
    const opts = checkOptions(options, SAMPLE_OPTIONS, 'sample options');
    const needWeights = checkBoolean(opts.needWeights, 'options.needWeights', true);
    const sampling = samplingOptions(opts, this.#config);
    return this.#appendAndRead(tokens, needWeights, sampling);
  }

  // Appends `tokens` and copies out the logits (and attentions); with `sampling`, also draws the
  // next token from the last logits row in the core before anything leaves WebAssembly memory.
  #appendAndRead(tokens, needWeights, sampling) {
    const ids = this.#tokens(tokens, 'tokens');
    const handle = this.#live(); // again: a getter among the inputs may have disposed something
    const module = this.#instance.module;
    const { vocabSize: V, numLayers: L, numHeads: H } = this.#config;
    const t = ids.length;
    const total = this.#checkRoom(t);
    const attentionBytes = needWeights ? L * H * t * total * 4 : 0;
    if (t * V * 4 + attentionBytes > MEMORY_LIMIT_BYTES / 2)
      fail(
        `decoder.append: the logits and attentions of ${t} tokens would need ${formatBytes(t * V * 4 + attentionBytes)}; append fewer tokens${needWeights ? ' or pass needWeights: false' : ''}`,
      );
    const what = sampling ? 'decoder.sample' : 'decoder.append';
    const a = this.#heap.layout([t * 4, t * V * 4, attentionBytes, sampling ? V * 4 : 0, sampling ? 4 : 0], what);
    module.HEAP32.set(ids, a[0] >>> 2);
    try {
      check(module._decoderAppend(handle, a[0], t, a[1], a[2]), what);
      const result = {};
      if (sampling) {
        check(
          module._sampleToken(a[1] + (t - 1) * V * 4, V, sampling.temperature, sampling.topK, sampling.u, a[3], a[4]),
          what,
        );
        result.token = module.HEAP32[a[4] >>> 2];
      }
      result.logits = { data: this.#heap.readF32(a[1], t * V), shape: [t, V] };
      result.attentions = null;
      if (needWeights) {
        const per = H * t * total;
        result.attentions = [];
        for (let l = 0; l < L; l++)
          result.attentions.push({ data: this.#heap.readF32(a[2] + l * per * 4, per), shape: [H, t, total] });
      }
      return result;
    } finally {
      this.#heap.settle();
    }
  }

  /** Layer `layer`'s cache in slot order: keys, values [numKVHeads, kept, headDim] and slot positions. */
  cache(layer) {
    const handle = this.#live();
    const { numLayers: L, numHeads: H, dModel: E, numKVHeads: KV } = this.#config;
    if (!Number.isSafeInteger(layer) || layer < 0 || layer >= L)
      fail(`layer must be an integer from 0 to ${L - 1}, got ${show(layer)}`);
    const module = this.#instance.module;
    const kept = module._decoderKept(handle);
    const d = E / H;
    const floats = KV * kept * d;
    const a = this.#heap.layout([floats * 4, floats * 4, kept * 4], 'decoder.cache');
    try {
      check(module._decoderCopyCache(handle, layer, a[0], a[1], a[2]), 'decoder.cache');
      const shape = [KV, kept, d];
      return {
        keys: { data: this.#heap.readF32(a[0], floats), shape },
        values: { data: this.#heap.readF32(a[1], floats), shape: shape.slice() },
        positions: kept ? module.HEAP32.slice(a[2] >>> 2, (a[2] >>> 2) + kept) : new Int32Array(0),
      };
    } finally {
      this.#heap.settle();
    }
  }

  /** Forgets every token: length 0, the cache empty (its memory is kept for the next tokens). */
  reset() {
    this.#instance.module._decoderReset(this.#live());
  }

  /** Frees the cache; later calls throw. The model's dispose() disposes its decoders too. */
  dispose() {
    if (!this.#handle) return;
    decoders.unregister(this);
    if (this.#instance.module) this.#instance.module._decoderDestroy(this.#handle);
    this.#handle = 0;
    this.#model.forget();
  }

  // Appends `tokens` and picks the next token from the last logits row, in the core.
  #sample(tokens, { temperature, topK }, u) {
    const handle = this.#live();
    const module = this.#instance.module;
    const V = this.#config.vocabSize;
    const t = tokens.length;
    this.#checkRoom(t);
    const a = this.#heap.layout([t * 4, t * V * 4, V * 4, 4], 'generate');
    module.HEAP32.set(tokens, a[0] >>> 2);
    try {
      check(module._decoderAppend(handle, a[0], t, a[1], 0), 'generate');
      check(module._sampleToken(a[1] + (t - 1) * V * 4, V, temperature, topK, u, a[2], a[3]), 'generate');
      return module.HEAP32[a[3] >>> 2];
    } finally {
      this.#heap.settle();
    }
  }

  // The length after appending t tokens, or an Error when it would pass maxLength.
  #checkRoom(t) {
    const length = this.#instance.module._decoderLength(this.#handle);
    if (t > this.#maxLength - length)
      fail(
        `decoder.append: appending ${t} tokens to the ${length} already seen would pass maxLength (${this.#maxLength})`,
      );
    return length + t;
  }

  #tokens(value, name) {
    const V = this.#config.vocabSize;
    const checkId = (x, i, at) => {
      if (typeof x !== 'number' || !Number.isInteger(x)) fail(`${at()} is ${show(x)}; token ids must be integers`);
      if (x < 0 || x >= V) fail(`${at()} is ${x}, outside [0, vocabSize = ${V})`);
    };
    // A list longer than the room left is refused before its ids are read (checked again after).
    const tok = readTokens(value, name, checkId, (length) => this.#checkRoom(length));
    if (tok.batched) fail(`${name} must be one sequence of token ids [t], got shape [${tok.shape.join(', ')}]`);
    return tok.data;
  }

  // The decoder's handle, or an Error once it, its model or the attention instance is disposed.
  #live() {
    this.#model.handle();
    if (!this.#handle) fail('this decoder was disposed');
    return this.#handle;
  }
}

// temperature, topK and u of decoder.sample, checked (topK 0 = every token, as the core takes it).
function samplingOptions(o, config) {
  const temperature = o.temperature ?? 1;
  if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0)
    fail(`temperature must be a finite number ≥ 0 (0 = greedy), got ${show(temperature)}`);
  const topK = o.topK ?? 0;
  if (o.topK !== undefined && o.topK !== null && (!Number.isSafeInteger(topK) || topK <= 0))
    fail(`topK must be a positive integer (or omitted for every token), got ${show(o.topK)}`);
  const u = o.u ?? 0;
  if (typeof u !== 'number' || !(u >= 0 && u < 1)) fail(`u must be a number in [0, 1), got ${show(u)}`);
  return { temperature, topK: Math.min(topK, config.vocabSize), u };
}

function generateOptions(options, config) {
  const o = checkOptions(options, GENERATE_OPTIONS, 'generate options');
  const temperature = o.temperature ?? 1;
  if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0)
    fail(`temperature must be a finite number ≥ 0 (0 = greedy), got ${show(temperature)}`);
  const topK = o.topK ?? 0;
  if (o.topK !== undefined && o.topK !== null && (!Number.isSafeInteger(topK) || topK <= 0))
    fail(`topK must be a positive integer (or omitted for every token), got ${show(o.topK)}`);
  const seed = checkSeed(o.seed ?? 0, 'seed');
  if (o.onToken !== undefined && typeof o.onToken !== 'function')
    fail(`onToken must be a function, got ${show(o.onToken)}`);
  const maxLength = checkMaxLength(o.maxLength, config);
  let maxNewTokens = Infinity;
  if (o.maxNewTokens !== undefined && o.maxNewTokens !== null) {
    if (!Number.isSafeInteger(o.maxNewTokens) || o.maxNewTokens < 0)
      fail(`maxNewTokens must be an integer ≥ 0, got ${show(o.maxNewTokens)}`);
    maxNewTokens = o.maxNewTokens;
  }
  return { temperature, topK: Math.min(topK, config.vocabSize), seed, onToken: o.onToken, maxLength, maxNewTokens };
}

/**
 * model.generate: the prompt followed by new tokens, each sampled from the last logits (see
 * attention.d.ts). openDecoder({ maxLength }) gives a decoder of the model; version() counts the
 * changes of its parameters.
 */
export function generate(instance, config, openDecoder, prompt, options, version) {
  const o = generateOptions(options, config);
  const checkId = (x, i, at) => {
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= config.vocabSize)
      fail(`${at()} is ${show(x)}; token ids must be integers in [0, vocabSize = ${config.vocabSize})`);
  };
  const checkLength = (T) => {
    if (T > o.maxLength) fail(`prompt has ${T} tokens, more than maxLength (${o.maxLength})`);
  };
  // Checked before the ids are read too: a sparse array of 2**31 − 1 holes would take gigabytes.
  const ids = readTokens(prompt, 'prompt', checkId, checkLength);
  if (ids.batched) fail(`prompt must be one sequence of token ids [t], got shape [${ids.shape.join(', ')}]`);
  checkLength(ids.T);
  const count = Math.min(o.maxNewTokens, o.maxLength - ids.T);
  const out = new Int32Array(ids.T + count);
  out.set(ids.data);
  if (count === 0) return { tokens: out };
  const decoder = openDecoder({ maxLength: o.maxLength });
  const rng = o.temperature > 0 ? new RandomState(instance, o.seed) : null;
  let made = 0;
  const start = version();
  try {
    let next = ids.data;
    while (made < count) {
      // The cache holds keys and values of the parameters it was filled with: a trainStep or a
      // loadState in onToken would make the next tokens those of neither model.
      if (version() !== start)
        fail(
          "generate: onToken changed the model's parameters (trainStep or loadState), so the cache no longer matches them; generation stopped",
        );
      const u = rng ? rng.rand() : 0; // drawn first: a draw uses the heap's scratch block too
      const token = sampleNext(decoder, next, o, u);
      out[ids.T + made++] = token;
      next = Int32Array.of(token);
      if (o.onToken && o.onToken(token, made - 1) === false) break;
    }
  } finally {
    decoder.dispose();
    rng?.dispose();
  }
  return { tokens: made === count ? out : out.slice(0, ids.T + made) };
}
