// Trains a tiny transformer off the main thread: a dedicated Worker (trainer-worker.js) with its
// own WebAssembly instance runs `model.trainStep` and posts progress; the page stays responsive.
// Works in browsers (module Worker; under the page's strict CSP, since the Worker is a same-origin
// script), in opaque-origin frames (start-worker.js: a data: bootstrap, else the same loop on the
// main thread in 10 ms slices) and in Node (worker_threads). Documented in trainer.d.ts.
//
// Protocol (main → Worker, each request may carry an `id` that its reply repeats):
//   init { config }                  → ready { config (defaults filled), parameterCount, vocabulary? }
//   start { maxSteps? }              → started { id, step }; progress every `reportEvery` steps; when
//                                       the run ends: stopped { ids (every start it answers), step,
//                                       reason: 'maxSteps' | 'paused' | 'reset' | 'load' |
//                                       'endOfData' | 'error' | 'disposed', message? }
//   pause                            → (progress with the steps since the last one) paused { step }
//   step { count }                   → progress after `count` steps (or fewer, with interrupted:
//                                       the reason, when pause/reset/load/the data's end cut it short)
//   reset                            → reset { step: 0 } (a new model from the same config and seed)
//   getState                         → state { step, state } (getState names → { data, shape })
//   probe                            → probe { step, probe }
//   ablate { layer, head }           → ablation { step, layer, head, probe } (the probe of a copy of
//                                       the model with that head's output zeroed)
//   evaluate { repeatLengths?, ablate? } → evaluation { step, probe }: the probe on a batch with
//                                       other repeat lengths and/or with heads' outputs zeroed
//                                       (ablate: [{ layer, head }]); the trained model is untouched
//   load { state, step? }            → state-loaded { step } (parameters replaced, Adam restarted)
//   attend { tokens }                → attention { step, attentions, headScores }: the model's
//                                       attention on `tokens` ([T] ids), each layer [H, T, T]
//   generate { prompt, maxNewTokens, temperature, topK, seed, layer, check, continue? }
//                                    → generation { index, token, tokens, attention, cache,
//                                       cacheBytes, length, msCached, msFull, difference } per
//                                       token, then generated { tokens, reason } (generation.js);
//                                       refused while training runs
//   cancel-generate                  → generate-cancelled (the generation ends after its token)
//   batch { tokens, targets } | { end: true } | { error }: one of the caller's batches (data.kind
//                                       'batches'), sent only as many as the Worker asked for
//   dispose                          → disposed
// Worker → main, unsolicited: loaded (once, before init), progress { step, loss, losses, running,
// probe? }, batches-wanted { count }, error { message } (a run's failure; its stopped follows).
// A failed request answers error { id, message }.
import { startWorker } from './start-worker.js';
import { checkBatch, normalizeTrainerConfig } from './trainer-config.js';

const NAME = 'attention-explorer trainer';
// Written apart from the `new Worker(new URL('./trainer-worker.js', import.meta.url))` below so
// that bundlers see that literal form once, as the Worker they build with its imports.
const WORKER_FILE = './trainer-worker.js';
// What terminate() leaves the Worker to free its model before it is ended regardless.
const GRACE_MS = 30;

const delay = (ms) =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

// Where the main thread stands in for the Worker (no Worker can start here): the same loop, in
// slices short enough for the page to stay responsive.
async function trainInThisThread(endpoint) {
  // (In the bundled site the transformer and the head scores load after the first drawing: wait.)
  const [{ createAttention }, { serveTrainer, MAIN_THREAD_SLICE_MS }] = await Promise.all([
    import('./attention.js'),
    import('./trainer-session.js'),
    import('./api-parts.js').then((m) => m.apiReady()),
  ]);
  return serveTrainer(endpoint, { createAttention, sliceMs: MAIN_THREAD_SLICE_MS });
}

// The caller's batches: pulled only when the Worker asks (at most data.prefetch ahead), checked
// here, where the message can name the argument, and transferred.
class BatchFeeder {
  #next;
  #model;
  #post;
  #index = 0;
  #chain = Promise.resolve();
  #done = false;
  #close;

  constructor(source, model, post) {
    this.#model = model;
    this.#post = post;
    if (typeof source === 'function') {
      this.#next = async (index) => {
        const value = await source(index);
        return value === null || value === undefined ? { done: true } : { done: false, value };
      };
      this.#close = () => {};
    } else {
      const iterator = source[Symbol.asyncIterator] ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
      this.#next = async () => iterator.next();
      this.#close = () => {
        Promise.resolve()
          .then(() => iterator.return?.())
          .catch(() => {});
      };
    }
  }

  want(count) {
    this.#chain = this.#chain.then(() => this.#feed(count));
  }

  async #feed(count) {
    for (let i = 0; i < count && !this.#done; i++) {
      const index = this.#index++;
      let message;
      let transfer = [];
      try {
        const item = await this.#next(index).catch((err) => {
          throw new Error(`data.source failed at batch ${index}: ${err?.message ?? err}`);
        });
        if (item.done) message = { type: 'batch', end: true };
        else {
          const { tokens, targets } = checkBatch(item.value, this.#model, `data.source[${index}]`);
          message = { type: 'batch', tokens, targets };
          transfer = [tokens.data.buffer, targets.data.buffer];
        }
      } catch (err) {
        message = { type: 'batch', error: err.message };
      }
      if (this.#done) return;
      if (message.end || message.error) this.#done = true;
      this.#post(message, transfer);
    }
  }

  close() {
    if (!this.#done) this.#close();
    this.#done = true;
  }
}

// An Array, a generator, an async generator or a function (index) => batch | Promise<batch>.
function checkSource(source) {
  const ok =
    typeof source === 'function' ||
    (source !== null &&
      typeof source === 'object' &&
      (typeof source[Symbol.asyncIterator] === 'function' || typeof source[Symbol.iterator] === 'function'));
  if (!ok)
    throw new Error(
      'data.source is required with data.kind "batches": a function (index) => { tokens, targets } (or a Promise of one, null to end) or an (async) iterable of { tokens, targets }',
    );
  return source;
}

// The config without data.source (a function or iterator cannot cross into the Worker).
function splitSource(config) {
  if (
    config === null ||
    typeof config !== 'object' ||
    config.data === null ||
    typeof config.data !== 'object' ||
    config.data.kind !== 'batches'
  )
    return { config, source: null };
  const { source, ...data } = config.data;
  return { config: { ...config, data }, source: checkSource(source) };
}

export class Trainer {
  #port;
  #requests = new Map(); // id → { type, resolve, reject }
  #nextId = 1;
  #closed = false;
  #ending = null;
  #disposed = null;
  #feeder = null;
  /** Called with every progress message: { step, loss, losses, running, probe? }. */
  onProgress = null;
  /** Called when a run ends (not by terminate()): { step, reason }. */
  onStopped = null;
  /** Called with an Error the Worker reports outside any request (e.g. a diverging loss while running). */
  onError = null;
  /** The config with its defaults, and the model's parameter count (set once ready). */
  config = null;
  parameterCount = 0;
  /** The characters of a text run's vocabulary (token id = index). */
  vocabulary = null;
  /** The last step the Worker reported (a field named `step` would hide the step() method). */
  lastStep = 0;
  /** 'worker', or 'main-thread' where no Worker could start (e.g. an opaque-origin frame). */
  mode;

  constructor(port) {
    this.#port = port;
    this.mode = port.mode;
    port.onMessage((m) => this.#receive(m));
    port.onError((err) => this.#failAll(err));
  }

  #receive(m) {
    if (this.#closed && m?.type !== 'disposed') return; // after terminate() nothing is reported
    if (typeof m?.step === 'number') this.lastStep = m.step;
    switch (m?.type) {
      case 'disposed':
        this.#disposed?.();
        return;
      case 'batches-wanted':
        this.#feeder?.want(m.count);
        return;
      case 'started':
        return; // its start() is answered when the run ends
      case 'stopped':
        this.#stopped(m);
        return;
      case 'progress':
        this.onProgress?.(m);
        break;
      case 'generation':
        this.#requests.get(m.id)?.onToken?.(m);
        return;
      case 'error':
        if (m.id === undefined) {
          this.onError?.(new Error(`trainer: ${m.message}`));
          return;
        }
        break;
      default:
        break;
    }
    const request = this.#requests.get(m.id);
    if (!request) return;
    this.#requests.delete(m.id);
    if (m.type === 'error') request.reject(new Error(`trainer: ${m.message}`));
    else request.resolve(m);
  }

  #stopped(m) {
    if (m.reason !== 'disposed') this.onStopped?.(m);
    for (const id of m.ids ?? []) {
      const request = this.#requests.get(id);
      this.#requests.delete(id);
      if (m.reason === 'error') request?.reject(new Error(`trainer: ${m.message}`));
      else request?.resolve({ step: m.step, reason: m.reason });
    }
  }

  #rejectAll(reason) {
    for (const r of this.#requests.values()) r.reject(new Error(`trainer: ${r.type}() did not finish: ${reason}`));
    this.#requests.clear();
  }

  #failAll(err) {
    this.#rejectAll(`the Worker failed (${err.message})`);
    this.onError?.(err);
  }

  #request(type, fields = {}, transfer = [], onToken = null) {
    if (this.#closed)
      return Promise.reject(new Error(`trainer: ${type}() after terminate(): the trainer was terminated`));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#requests.set(id, { type, resolve, reject, onToken });
      this.#port.post({ type, id, ...fields }, transfer);
    });
  }

  /** A started Worker → a ready trainer (use createTrainer). */
  static async create(port, config, source) {
    const trainer = new Trainer(port);
    try {
      const ready = await trainer.#request('init', { config });
      trainer.config = ready.config;
      trainer.parameterCount = ready.parameterCount;
      trainer.vocabulary = ready.vocabulary ?? null;
      if (source) trainer.#feeder = new BatchFeeder(source, ready.config.model, (m, t) => port.post(m, t));
      return trainer;
    } catch (err) {
      await trainer.terminate();
      throw err;
    }
  }

  /**
   * Trains until pause() (or for maxSteps more steps); progress arrives through onProgress.
   * Resolves when the run ends, with { step, reason }.
   */
  start({ maxSteps } = {}) {
    return this.#request('start', maxSteps === undefined ? {} : { maxSteps });
  }

  /** Stops within one step (a run and any step() under way); resolves with { step }. */
  pause() {
    return this.#request('pause');
  }

  /** Runs `count` steps (default 1) and resolves with their progress message. */
  step(count = 1) {
    return this.#request('step', { count });
  }

  /** A new model from the same config and seed, step 0. */
  reset() {
    return this.#request('reset');
  }

  /** The model's current parameters: getState names → { data: Float32Array, shape }. */
  async getState() {
    return (await this.#request('getState')).state;
  }

  /** Loss, attention of the first probe sequence and head scores, now. */
  async probe() {
    return (await this.#request('probe')).probe;
  }

  /**
   * The probe on a copy of the model whose head `head` of layer `layer` (from 0) contributes
   * nothing (zero ablation: its rows of c_proj.weight are zeroed); training is not affected.
   */
  async ablate(layer, head) {
    return (await this.#request('ablate', { layer, head })).probe;
  }

  /**
   * The probe on a batch with other repeat lengths (`repeatLengths`, e.g. lengths never trained
   * on) and/or with heads ablated (`ablate`: [{ layer, head }], each head's output zeroed).
   */
  async evaluate({ repeatLengths, ablate } = {}) {
    return (await this.#request('evaluate', { repeatLengths, ablate })).probe;
  }

  /** Replaces the model's parameters (getState names) and restarts Adam; the step count becomes `step`. */
  load(state, { step = 0 } = {}) {
    return this.#request('load', { state, step });
  }

  /**
   * The model's attention on one sequence `tokens` ([T] ids, T ≤ contextLength): per layer
   * { data, shape: [H, T, T] }, and per layer the heads' scores on it.
   */
  async attend(tokens) {
    const { step, attentions, headScores } = await this.#request('attend', { tokens });
    return { step, attentions, headScores };
  }

  /**
   * Generates text with the model as it is (training must be paused): `request` = { prompt ([t]
   * ids), maxNewTokens, temperature, topK, seed, layer, check, continue } (generation.js).
   * onToken(step) hears every new token with the chosen layer's attention and cache, the cache's
   * bytes and the timings; resolves with { tokens, reason } when it ends ('done', 'length',
   * 'cancelled' by cancelGeneration() or a newer generate, 'model-changed').
   */
  async generate(request, onToken) {
    const { tokens, reason } = await this.#request('generate', request, [], onToken);
    return { tokens, reason };
  }

  /** Ends the generation under way after its current token. */
  cancelGeneration() {
    return this.#request('cancel-generate');
  }

  /**
   * Ends the Worker within GRACE_MS whatever it is doing (a step under way is cut off): it may
   * free its model first, then it is terminated. Every pending promise rejects at once.
   */
  terminate() {
    if (this.#ending) return this.#ending;
    this.#closed = true;
    this.#rejectAll('terminate() stopped the trainer');
    this.#feeder?.close();
    this.#ending = (async () => {
      const disposed = new Promise((resolve) => {
        this.#disposed = resolve;
      });
      this.#port.post({ type: 'dispose' });
      await Promise.race([disposed, delay(GRACE_MS)]);
      await this.#port.terminate();
    })();
    return this.#ending;
  }
}

/**
 * Starts a trainer: `config` = { model (the attn.transformer config), data ({ kind: 'repeated',
 * seqLength, minRepeat, maxRepeat, repeatLengths, allTargets }, { kind: 'text', text, seqLength } or
 * { kind: 'batches', source, prefetch }), batchSize = 32, seed = 0, optimizer (trainStep options),
 * reportEvery = 10, probe ({ batchSize = 8, seed, repeatLengths, attentions = true, headScores =
 * true, batch } or false), simd = 'auto' }. The config is checked here, before a Worker starts.
 * options: workerUrl (where trainer-worker.js is served from), mode ('auto' | 'worker' | 'main-thread').
 */
export async function createTrainer(config, { workerUrl, mode = 'auto' } = {}) {
  let split;
  try {
    split = splitSource(config);
    normalizeTrainerConfig(split.config);
  } catch (err) {
    throw new Error(`trainer: ${err.message}`, { cause: err });
  }
  const url = workerUrl ?? new URL(WORKER_FILE, import.meta.url);
  // The options are written out: bundlers read them statically.
  const create = workerUrl
    ? (options) => new Worker(workerUrl, options)
    : () =>
        new Worker(new URL('./trainer-worker.js', import.meta.url), {
          type: 'module',
          name: 'attention-explorer trainer',
        });
  const port = await startWorker({ create, url, name: NAME, inThread: trainInThisThread, mode });
  return Trainer.create(port, split.config, split.source);
}
