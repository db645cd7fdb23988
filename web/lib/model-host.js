// A model opened from a checkpoint (GPT-2 and the like) in a dedicated Worker with its own
// WebAssembly instance, so opening hundreds of MB, sweeping every head and generating text never
// hold the page. Started through start-worker.js (the one place Workers start; where none can, the
// same session runs on this thread). Types in model-host.d.ts.
//
// Protocol (main → Worker; each request carries an id that its replies repeat):
//   init { simd }                      → ready
//   open { source, config }            → open-progress { loaded, total } …, then opened { config,
//                                         parameterCount }; source: a File/Blob, bytes or an
//                                         absolute URL (config null: its config.json beside it)
//   cancel-open                        → open-cancelled (the open answers error { aborted: true })
//   attend { tokens }                  → attention { attentions, headScores }
//   head { tokens, layer, head }       → head-data { x, q, k, v, positions }: the layer's input
//                                         (model.layerInput) and the head's c_attn columns
//   sweep { repeat, count, seed }      → sweep-progress { done, total } …, then swept { scores,
//                                         example, sequences }
//   cancel-sweep                       → sweep-cancelled (the sweep answers error { aborted: true })
//   generate / cancel-generate         → as the trainer's (generation.js)
//   dispose                            → disposed
// A failed request answers error { id, message }.
import { startWorker } from './start-worker.js';

const NAME = 'attention-explorer checkpoint host';
const WORKER_FILE = './model-host-worker.js';

async function hostInThisThread(endpoint) {
  // (In the bundled site the transformer and the head scores load after the first drawing: wait.)
  const [{ createAttention }, { serveModelHost }] = await Promise.all([
    import('./attention.js'),
    import('./model-host-session.js'),
    import('./api-parts.js').then((m) => m.apiReady()),
  ]);
  return serveModelHost(endpoint, { createAttention });
}

/** An Error for a request the Worker refused; `aborted` when it was cancelled. */
function requestError(m) {
  const err = new Error(m.message);
  if (m.aborted) err.name = 'AbortError';
  return err;
}

export class ModelHost {
  #port;
  #requests = new Map(); // id → { type, resolve, reject, onProgress }
  #nextId = 1;
  #closed = false;
  /** 'worker', or 'main-thread' where no Worker could start. */
  mode;
  /** The open model's config and parameter count (null until a checkpoint is open). */
  config = null;
  parameterCount = 0;

  constructor(port) {
    this.#port = port;
    this.mode = port.mode;
    port.onMessage((m) => this.#receive(m));
    port.onError((err) => this.#rejectAll(`the Worker failed (${err.message})`));
  }

  #receive(m) {
    const request = this.#requests.get(m?.id);
    if (!request) return;
    if (m.type === 'open-progress' || m.type === 'sweep-progress' || m.type === 'generation') {
      request.onProgress?.(m);
      return;
    }
    this.#requests.delete(m.id);
    if (m.type === 'error') request.reject(requestError(m));
    else request.resolve(m);
  }

  #rejectAll(reason) {
    for (const r of this.#requests.values())
      r.reject(new Error(`checkpoint host: ${r.type}() did not finish: ${reason}`));
    this.#requests.clear();
  }

  #request(type, fields = {}, onProgress = null, transfer = []) {
    if (this.#closed) return Promise.reject(new Error(`checkpoint host: ${type}() after terminate()`));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#requests.set(id, { type, resolve, reject, onProgress });
      this.#port.post({ type, id, ...fields }, transfer);
    });
  }

  static async create(port, { simd = 'auto' } = {}) {
    const host = new ModelHost(port);
    try {
      await host.#request('init', { simd });
      return host;
    } catch (err) {
      await host.terminate();
      throw err;
    }
  }

  /**
   * Opens a checkpoint: `source` a File/Blob, bytes or a URL (resolved against the page; its
   * config.json is fetched beside it when `config` is null), `config` a Hugging Face config.json
   * object or ours. onProgress({ loaded, total }); cancelOpen() stops it (AbortError).
   */
  async open(source, config = null, { onProgress } = {}) {
    const where =
      typeof source === 'string' || source instanceof URL ? new URL(source, globalThis.location?.href).href : source;
    const m = await this.#request('open', { source: where, config }, onProgress);
    this.config = m.config;
    this.parameterCount = m.parameterCount;
    return { config: m.config, parameterCount: m.parameterCount };
  }

  cancelOpen() {
    return this.#request('cancel-open');
  }

  /** Every layer's attention [H, T, T] on `tokens` and each head's scores on them. */
  async attend(tokens) {
    const { attentions, headScores } = await this.#request('attend', { tokens });
    return { attentions, headScores };
  }

  /** The head's inputs for the explorer: { x [T, E], q, k, v: { weight [E, d], bias [d] }, positions }. */
  async head(tokens, layer, head) {
    const { x, q, k, v, positions } = await this.#request('head', { tokens, layer, head });
    return { x, q, k, v, positions };
  }

  /**
   * Every head's previous-token, duplicate-token and induction scores on `count` sequences of a
   * start token, `repeat` random tokens and the same again: { scores: { previousToken,
   * duplicateToken, induction } each [layers][heads], example, sequences }. onProgress({ done, total }).
   */
  async sweep({ repeat = 24, count = 8, seed = 0 } = {}, { onProgress } = {}) {
    const { scores, example, sequences } = await this.#request('sweep', { repeat, count, seed }, onProgress);
    return { scores, example, sequences };
  }

  cancelSweep() {
    return this.#request('cancel-sweep');
  }

  /** As trainer.generate (trainer.d.ts: GenerationRequest, GenerationStep). */
  async generate(request, onToken) {
    const { tokens, reason } = await this.#request('generate', request, onToken);
    return { tokens, reason };
  }

  cancelGeneration() {
    return this.#request('cancel-generate');
  }

  /** Frees the model and ends the Worker; pending requests reject. */
  async terminate() {
    if (this.#closed) return;
    this.#closed = true;
    this.#rejectAll('terminate() ended the host');
    await this.#port.terminate();
  }
}

/** Starts a checkpoint host (a Worker where one can start). options: workerUrl, mode, simd. */
export async function createModelHost({ workerUrl, mode = 'auto', simd = 'auto' } = {}) {
  const url = workerUrl ?? new URL(WORKER_FILE, import.meta.url);
  const create = workerUrl
    ? (options) => new Worker(workerUrl, options)
    : () =>
        new Worker(new URL('./model-host-worker.js', import.meta.url), {
          type: 'module',
          name: 'attention-explorer checkpoint host',
        });
  const port = await startWorker({ create, url, name: NAME, inThread: hostInThisThread, mode });
  return ModelHost.create(port, { simd });
}
