// Trains a tiny transformer off the main thread: a dedicated Worker (trainer-worker.js) with its
// own WebAssembly instance runs `model.trainStep` and posts progress; the page stays responsive.
// Works in browsers (module Worker; under the page's strict CSP, since the Worker is a same-origin
// script) and in Node (worker_threads). Documented in trainer.d.ts.
//
// Protocol (main → Worker, each request may carry an `id` that its reply repeats):
//   init { config }                  → ready { config (defaults filled), parameterCount, vocabulary? }
//   start { maxSteps? }              → started, then progress every `reportEvery` steps, and
//                                       stopped { reason: 'maxSteps' } when maxSteps are done
//   pause                            → paused { step } (after a progress with the steps since the last one)
//   step { count }                   → progress after `count` steps
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
//   dispose                          → disposed
// Worker → main, unsolicited: loaded (once, before init), progress { step, loss, losses, running,
// probe? }, stopped, error { message }. A failed request answers error { id, message }.
import { normalizeConfig } from './trainer-session.js';

const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined';

// The default Worker is written out as `new Worker(new URL('./trainer-worker.js', import.meta.url),
// { type: 'module' })` because that is the form bundlers (Vite, webpack) recognise: they then build
// trainer-worker.js with its imports into a chunk of its own. A URL held in a variable would be
// copied as a lone file whose imports lead nowhere.
function browserWorker(url) {
  if (url) return new Worker(url, { type: 'module', name: 'attention-explorer trainer' });
  return new Worker(new URL('./trainer-worker.js', import.meta.url), { type: 'module', name: 'attention-explorer trainer' });
}

async function spawn(url) {
  if (!isNode) {
    const worker = browserWorker(url);
    return {
      post: (message) => worker.postMessage(message),
      onMessage: (handler) => worker.addEventListener('message', (e) => handler(e.data)),
      onError: (handler) => worker.addEventListener('error', (e) => handler(new Error(e.message || 'the trainer Worker failed to load'))),
      terminate: () => worker.terminate(),
    };
  }
  const { Worker: NodeWorker } = await import('node:worker_threads');
  const worker = new NodeWorker(url ?? new URL('./trainer-worker.js', import.meta.url));
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (handler) => worker.on('message', handler),
    onError: (handler) => worker.on('error', handler),
    terminate: () => worker.terminate(),
  };
}

export class Trainer {
  #worker;
  #requests = new Map();
  #nextId = 1;
  #closed = false;
  /** Called with every progress message: { step, loss, losses, running, probe? }. */
  onProgress = null;
  /** Called when a run started with maxSteps has done them: { step, reason }. */
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

  constructor(worker) {
    this.#worker = worker;
    worker.onMessage((m) => this.#receive(m));
    worker.onError((err) => this.#failAll(err));
  }

  #receive(m) {
    if (typeof m.step === 'number') this.lastStep = m.step;
    const request = m.id !== undefined ? this.#requests.get(m.id) : undefined;
    if (m.type === 'progress') this.onProgress?.(m);
    if (m.type === 'stopped') this.onStopped?.(m);
    if (request) {
      this.#requests.delete(m.id);
      if (m.type === 'error') request.reject(new Error(`trainer: ${m.message}`));
      else request.resolve(m);
    } else if (m.type === 'error') {
      const err = new Error(`trainer: ${m.message}`);
      if (this.onError) this.onError(err);
    } else if (m.type === 'loaded') {
      this.#requests.get('loaded')?.resolve(m);
      this.#requests.delete('loaded');
    }
  }

  #failAll(err) {
    for (const r of this.#requests.values()) r.reject(err);
    this.#requests.clear();
    this.onError?.(err);
  }

  #request(type, fields = {}, id = this.#nextId++) {
    if (this.#closed) return Promise.reject(new Error('trainer: terminated'));
    return new Promise((resolve, reject) => {
      this.#requests.set(id, { resolve, reject });
      if (type) this.#worker.post({ type, id, ...fields });
    });
  }

  /** Spawned Worker → a ready trainer (use createTrainer). */
  static async create(worker, config) {
    const trainer = new Trainer(worker);
    try {
      return await trainer.#init(config);
    } catch (err) {
      trainer.#closed = true;
      await worker.terminate();
      throw err;
    }
  }

  async #init(config) {
    await this.#request(null, {}, 'loaded');
    const ready = await this.#request('init', { config });
    this.config = ready.config;
    this.parameterCount = ready.parameterCount;
    this.vocabulary = ready.vocabulary ?? null;
    return this;
  }

  /** Trains until pause() (or for maxSteps more steps); progress arrives through onProgress. */
  start({ maxSteps } = {}) {
    return this.#request('start', maxSteps === undefined ? {} : { maxSteps });
  }

  /** Stops after the current chunk of steps; resolves with { step }. */
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

  /** Frees the model and ends the Worker. */
  async terminate() {
    if (this.#closed) return;
    try {
      await this.#request('dispose');
    } finally {
      this.#closed = true;
      await this.#worker.terminate();
    }
  }
}

/**
 * Starts a trainer: `config` = { model (the attn.transformer config), data ({ kind: 'repeated',
 * seqLength, minRepeat, maxRepeat, repeatLengths, allTargets } or { kind: 'text', text, seqLength }),
 * batchSize = 32, seed = 0, optimizer (trainStep options), reportEvery = 10, probe ({ batchSize = 8,
 * seed, repeatLengths, attentions = true, headScores = true } or false), simd = 'auto' }.
 * `workerUrl` overrides where trainer-worker.js is served from.
 */
export async function createTrainer(config, { workerUrl } = {}) {
  normalizeConfig(config);  // bad configs fail here, before a Worker starts
  return Trainer.create(await spawn(workerUrl), config);
}
