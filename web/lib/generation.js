// One text generation on a model, token by token, with what a lesson shows for each token: the new
// query's attention over the cache in one layer, that layer's K and V caches, the cache's bytes,
// the time of the cached step against a full forward over the whole prefix, and the largest
// difference between the cached logits and that full pass. Used in the Workers (trainer-session.js,
// model-host-session.js), one token per slice so that cancelling and other requests wait at most a
// token. Sampling is decoder.sample's (the core's, as model.generate): the same seed gives
// generate()'s tokens.
import { fail, show } from './checks.js';

const OPTIONS = ['prompt', 'maxNewTokens', 'temperature', 'topK', 'seed', 'layer', 'check'];
/** New tokens one request may ask for. */
export const MAX_NEW_TOKENS = 4096;

const now = () => performance.now();

/** The options of a generate request, checked: { prompt, maxNewTokens, temperature, topK, seed, layer, check }. */
export function generationOptions(message, config) {
  for (const key of Object.keys(message))
    if (!OPTIONS.includes(key) && !['type', 'id', 'continue'].includes(key)) fail(`generate has no option "${key}"`);
  const maxNewTokens = message.maxNewTokens ?? 20;
  if (!Number.isSafeInteger(maxNewTokens) || maxNewTokens < 0 || maxNewTokens > MAX_NEW_TOKENS)
    fail(`maxNewTokens must be an integer from 0 to ${MAX_NEW_TOKENS}, got ${show(maxNewTokens)}`);
  const layer = message.layer ?? 0;
  if (!Number.isSafeInteger(layer) || layer < 0 || layer >= config.numLayers)
    fail(`layer must be an integer from 0 to ${config.numLayers - 1}, got ${show(layer)}`);
  const temperature = message.temperature ?? 1;
  if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0)
    fail(`temperature must be a finite number ≥ 0 (0 = greedy), got ${show(temperature)}`);
  const topK = message.topK ?? null;
  if (topK !== null && (!Number.isSafeInteger(topK) || topK <= 0))
    fail(`topK must be a positive integer or null, got ${show(topK)}`);
  const seed = message.seed ?? 0;
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff)
    fail(`seed must be an integer from 0 to 2^32 − 1, got ${show(seed)}`);
  return { maxNewTokens, layer, temperature, topK, seed, check: message.check !== false };
}

export class Generation {
  #model;
  #decoder;
  #rng;
  #options;
  #pending; // the ids to append next: the prompt, then each new token
  tokens; // the prompt and every token drawn so far
  made = 0;

  /** attn, model: the instance and model; prompt: [t] ids (t ≥ 1); options: generationOptions(). */
  constructor(attn, model, prompt, options) {
    if (!Array.isArray(prompt) && !ArrayBuffer.isView(prompt))
      fail(`prompt must be an array of token ids, got ${show(prompt)}`);
    if (prompt.length === 0) fail('prompt must hold at least one token');
    this.#model = model;
    this.#options = options;
    this.#decoder = model.decoder();
    this.#rng = attn.randomState(options.seed);
    this.tokens = Array.from(prompt);
    this.#pending = this.tokens.slice();
    if (this.tokens.length >= this.#decoder.maxLength) {
      this.dispose();
      fail(
        `the prompt has ${this.tokens.length} tokens: the model reads at most ${this.#model.config.contextLength}, so there is no room for a new one`,
      );
    }
  }

  /** Later requests may change what is shown (layer, check) and the sampling; the draws continue. */
  update(options) {
    this.#options = options;
  }

  /** Whether another token fits before the decoder's maxLength. */
  get room() {
    return this.tokens.length < this.#decoder.maxLength;
  }

  /**
   * Appends what is pending, draws the next token and returns what the Generate panel shows for
   * it: { index, token, tokens (so far), attention [H, length] of the last appended query in the
   * chosen layer, cache { keys, values, positions } of that layer, cacheBytes, length, msCached,
   * msFull (null without check), difference (null without check) }.
   */
  step() {
    const o = this.#options;
    const u = o.temperature > 0 ? this.#rng.rand() : 0;
    const t0 = now();
    const out = this.#decoder.sample(this.#pending, { temperature: o.temperature, topK: o.topK ?? undefined, u });
    const msCached = now() - t0;
    const V = this.#model.config.vocabSize;
    const rows = out.logits.shape[0];
    const cachedLast = out.logits.data.subarray((rows - 1) * V, rows * V);
    let msFull = null;
    let difference = null;
    if (o.check) {
      const t1 = now();
      const full = this.#model.forward(this.tokens, { logits: 'last', needWeights: false });
      msFull = now() - t1;
      difference = 0;
      for (let i = 0; i < V; i++) difference = Math.max(difference, Math.abs(full.logits.data[i] - cachedLast[i]));
    }
    const a = out.attentions[o.layer];
    const [H, t, length] = a.shape;
    // The last appended query's row of every head: [H, length].
    const attention = { data: new Float32Array(H * length), shape: [H, length] };
    for (let h = 0; h < H; h++)
      attention.data.set(a.data.subarray((h * t + t - 1) * length, (h * t + t) * length), h * length);
    const cache = this.#decoder.cache(o.layer);
    this.tokens.push(out.token);
    this.#pending = [out.token];
    const index = this.made++;
    return {
      index,
      token: out.token,
      tokens: this.tokens.slice(),
      attention,
      cache,
      cacheBytes: this.#decoder.cacheBytes,
      length: this.#decoder.length,
      msCached,
      msFull,
      difference,
      layer: o.layer,
    };
  }

  dispose() {
    this.#decoder?.dispose();
    this.#rng?.dispose();
    this.#decoder = null;
    this.#rng = null;
  }
}

/** The buffers of a step message, for postMessage's transfer list. */
export const stepTransfer = (m) => [
  m.attention.data.buffer,
  m.cache.keys.data.buffer,
  m.cache.values.data.buffer,
  m.cache.positions.buffer,
];

// Runs fn after the event loop has had a turn (messages first), without setTimeout's 4 ms clamp.
function makeYield() {
  if (typeof setImmediate === 'function') return (fn) => setImmediate(fn);
  if (typeof MessageChannel !== 'function') return (fn) => setTimeout(fn, 0);
  const channel = new MessageChannel();
  const queue = [];
  channel.port1.onmessage = () => queue.shift()?.();
  return (fn) => {
    queue.push(fn);
    channel.port2.postMessage(null);
  };
}

/**
 * The generate requests of a Worker session: `generate { prompt, maxNewTokens, temperature, topK,
 * seed, layer, check }` starts a generation (`continue: true` goes on with the last one, its draws
 * continuing), answering each token with `generation { id, …step }` and the end with
 * `generated { id, tokens, reason }`, reason 'done' | 'length' | 'cancelled' | 'model-changed';
 * `cancel-generate` ends it after the token under way. One token per turn of the event loop.
 * model(): the session's model; post(message, transfer).
 */
export class GenerationJobs {
  #attn;
  #model;
  #post;
  #yield = makeYield();
  #generation = null;
  #job = null; // { id, left }

  constructor(attn, model, post) {
    this.#attn = attn;
    this.#model = model;
    this.#post = post;
  }

  start(message) {
    const model = this.#model();
    const options = generationOptions(message, model.config);
    if (this.#job) this.#end('cancelled');
    if (message.continue) {
      if (!this.#generation) fail('there is no generation to continue: the model changed, or none was started');
      this.#generation.update(options);
    } else {
      this.#generation?.dispose();
      this.#generation = null;
      this.#generation = new Generation(this.#attn, model, message.prompt, options);
    }
    this.#job = { id: message.id, left: options.maxNewTokens };
    this.#schedule();
  }

  cancel() {
    if (this.#job) this.#end('cancelled');
  }

  /** The model's parameters changed (a training step, a load): a cache made before is stale. */
  invalidate() {
    if (this.#job) this.#end('model-changed');
    this.#generation?.dispose();
    this.#generation = null;
  }

  dispose() {
    this.invalidate();
  }

  #schedule() {
    const job = this.#job;
    this.#yield(() => this.#next(job));
  }

  #next(job) {
    if (job !== this.#job) return;
    if (job.left === 0) return this.#end('done');
    if (!this.#generation.room) return this.#end('length');
    try {
      const step = this.#generation.step();
      job.left--;
      this.#post({ type: 'generation', id: job.id, ...step }, stepTransfer(step));
    } catch (err) {
      this.#job = null;
      this.#generation?.dispose();
      this.#generation = null;
      this.#post({ type: 'error', id: job.id, message: err.message });
      return undefined;
    }
    this.#schedule();
    return undefined;
  }

  #end(reason) {
    const job = this.#job;
    this.#job = null;
    this.#post({
      type: 'generated',
      id: job.id,
      tokens: this.#generation ? this.#generation.tokens.slice() : [],
      reason,
    });
  }
}
