// The checkpoint host's Worker side, without the Worker: one model opened from a safetensors file
// (a GPT-2 checkpoint), driven by messages and answering with messages (model-host.js documents the
// protocol). Kept apart from model-host-worker.js so the protocol runs in one thread in tests and
// on a page's main thread where no Worker can start. Long work (opening a file of hundreds of MB,
// the head sweep, generation) reports progress, yields to the event loop between pieces and stops
// when cancelled.
import { GenerationJobs } from './generation.js';

function fail(message) {
  throw new Error(message);
}

const pick = (s) => ({ previousToken: s.previousToken, duplicateToken: s.duplicateToken, induction: s.induction });

// Runs fn after the event loop has had a turn (messages first).
function makeYield() {
  if (typeof setImmediate === 'function') return () => new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel !== 'function') return () => new Promise((resolve) => setTimeout(resolve, 0));
  const channel = new MessageChannel();
  const queue = [];
  channel.port1.onmessage = () => queue.shift()?.();
  return () =>
    new Promise((resolve) => {
      queue.push(resolve);
      channel.port2.postMessage(null);
    });
}

/** The sweep's sequences: a start token, r random tokens, the same r again (Olsson et al.'s test of induction heads). */
export function sweepTokens(attn, vocabSize, { repeat, count, seed }) {
  const bos = vocabSize === 50257 ? 50256 : 0; // GPT-2's <|endoftext|>; else id 0, as the training view's task
  const rng = attn.randomState(seed);
  try {
    return Array.from({ length: count }, () => {
      const run = Array.from({ length: repeat }, () => {
        const id = Math.floor(rng.rand() * (vocabSize - 1));
        return id >= bos ? id + 1 : id; // every id but the start token, equally likely
      });
      return [bos, ...run, ...run];
    });
  } finally {
    rng.dispose();
  }
}

export class ModelHostSession {
  #attn;
  #post;
  #model = null;
  #opening = null; // { id, controller }
  #sweep = null; // { id, cancelled }
  #generations;
  #yield = makeYield();

  constructor(attn, post) {
    this.#attn = attn;
    this.#post = post;
    this.#generations = new GenerationJobs(attn, () => this.#model ?? fail('no model is open'), post);
  }

  /** One message from the main thread; replies carry its id. */
  handle(message) {
    const { type, id } = message ?? {};
    try {
      switch (type) {
        case 'open':
          return this.#open(message);
        case 'cancel-open':
          this.#opening?.controller.abort();
          return this.#post({ type: 'open-cancelled', id });
        case 'attend':
          return this.#attend(message);
        case 'sweep':
          return this.#startSweep(message);
        case 'cancel-sweep':
          if (this.#sweep) this.#sweep.cancelled = true;
          return this.#post({ type: 'sweep-cancelled', id });
        case 'head':
          return this.#head(message);
        case 'generate':
          return this.#generations.start(message);
        case 'cancel-generate':
          this.#generations.cancel();
          return this.#post({ type: 'generate-cancelled', id });
        case 'dispose':
          return this.dispose(id);
        default:
          return fail(`unknown message type ${JSON.stringify(type)}`);
      }
    } catch (err) {
      this.#post({ type: 'error', id, message: err.message });
    }
    return undefined;
  }

  #live() {
    return this.#model ?? fail('no model is open: open a checkpoint first');
  }

  // A checkpoint from a File/Blob, bytes or a URL (its config.json beside it when config is null),
  // in slices with progress; the model it replaces is freed first, so two never share the memory.
  async #open({ id, source, config }) {
    this.#opening?.controller.abort();
    this.#generations.invalidate();
    if (this.#sweep) this.#sweep.cancelled = true;
    this.#model?.dispose();
    this.#model = null;
    const controller = new AbortController();
    const opening = { id, controller };
    this.#opening = opening;
    try {
      const model = await this.#attn.loadTransformer(source, config ?? null, {
        signal: controller.signal,
        onProgress: ({ loaded, total }) => this.#post({ type: 'open-progress', id, loaded, total }),
      });
      if (this.#opening !== opening) {
        model.dispose();
        return;
      }
      this.#model = model;
      this.#post({ type: 'opened', id, config: model.config, parameterCount: model.parameterCount() });
    } catch (err) {
      const aborted = controller.signal.aborted;
      this.#post({ type: 'error', id, message: aborted ? 'cancelled' : err.message, aborted });
    } finally {
      if (this.#opening === opening) this.#opening = null;
    }
  }

  // Every layer's attention on one sequence and the heads' scores on it.
  #attend({ id, tokens }) {
    const out = this.#live().forward(tokens, { needWeights: true });
    const headScores = out.attentions.map((a) => pick(this.#attn.headScores(tokens, a)));
    this.#post(
      { type: 'attention', id, attentions: out.attentions, headScores },
      out.attentions.map((a) => a.data.buffer),
    );
  }

  // What the explorer shows for one head: X = the layer's input (LN₁ of the residual stream, the
  // core's layerInput) and the head's columns of c_attn for q, k and v, with their biases.
  #head({ id, tokens, layer, head }) {
    const model = this.#live();
    const { numHeads: H, numKVHeads: KV, dModel: E } = model.config;
    if (!Number.isSafeInteger(head) || head < 0 || head >= H)
      fail(`head must be an integer from 0 to ${H - 1}, got ${head}`);
    const x = model.layerInput(tokens, layer);
    const prefix = `h.${layer}.attn.c_attn.`;
    const state = model.getState([`${prefix}weight`, `${prefix}bias`]);
    const W = state[`${prefix}weight`];
    const b = state[`${prefix}bias`];
    const d = E / H;
    const width = W.shape[1];
    const g = Math.floor(head / (H / KV));
    const columns = (from) => {
      const w = new Float32Array(E * d);
      for (let r = 0; r < E; r++) w.set(W.data.subarray(r * width + from, r * width + from + d), r * d);
      return { weight: { data: w, shape: [E, d] }, bias: { data: b.data.slice(from, from + d), shape: [d] } };
    };
    const q = columns(head * d);
    const k = columns(E + g * d);
    const v = columns(E + KV * d + g * d);
    this.#post({ type: 'head-data', id, layer, head, x, q, k, v, positions: model.config.positions }, [
      x.data.buffer,
      ...[q, k, v].flatMap((p) => [p.weight.data.buffer, p.bias.data.buffer]),
    ]);
  }

  // Every head's scores on repeated random tokens, one sequence per turn of the event loop.
  #startSweep(message) {
    const model = this.#live();
    const { id } = message;
    const repeat = message.repeat ?? 24;
    const count = message.count ?? 8;
    if (!Number.isSafeInteger(repeat) || repeat < 1 || 2 * repeat + 1 > model.config.contextLength)
      fail(
        `repeat must be an integer from 1 to ${(model.config.contextLength - 1) >> 1} (twice it, plus the start token, within the context)`,
      );
    if (!Number.isSafeInteger(count) || count < 1 || count > 256)
      fail(`count must be an integer from 1 to 256, got ${count}`);
    if (this.#sweep) this.#sweep.cancelled = true;
    const sweep = { id, cancelled: false };
    this.#sweep = sweep;
    this.#runSweep(
      sweep,
      model,
      sweepTokens(this.#attn, model.config.vocabSize, { repeat, count, seed: message.seed ?? 0 }),
    )
      .catch((err) => this.#post({ type: 'error', id, message: err.message }))
      .finally(() => {
        if (this.#sweep === sweep) this.#sweep = null;
      });
  }

  async #runSweep(sweep, model, sequences) {
    const { numLayers: L, numHeads: H } = model.config;
    const keys = ['previousToken', 'duplicateToken', 'induction'];
    const sums = Object.fromEntries(keys.map((k) => [k, Array.from({ length: L }, () => new Float64Array(H))]));
    const counts = Object.fromEntries(keys.map((k) => [k, Array.from({ length: L }, () => new Float64Array(H))]));
    for (let s = 0; s < sequences.length; s++) {
      await this.#yield();
      if (sweep.cancelled || model !== this.#model) {
        this.#post({ type: 'error', id: sweep.id, message: 'cancelled', aborted: true });
        return;
      }
      const tokens = sequences[s];
      const { attentions } = model.forward(tokens, { needWeights: true });
      attentions.forEach((a, l) => {
        const scores = this.#attn.headScores(tokens, a);
        for (const k of keys)
          for (let h = 0; h < H; h++) {
            sums[k][l][h] += scores[k][h] * scores.queries[k][h];
            counts[k][l][h] += scores.queries[k][h];
          }
      });
      this.#post({ type: 'sweep-progress', id: sweep.id, done: s + 1, total: sequences.length });
    }
    const mean = (k) => sums[k].map((row, l) => Array.from(row, (x, h) => (counts[k][l][h] ? x / counts[k][l][h] : 0)));
    this.#post({
      type: 'swept',
      id: sweep.id,
      scores: Object.fromEntries(keys.map((k) => [k, mean(k)])),
      example: sequences[0],
      sequences: sequences.length,
    });
  }

  dispose(id) {
    this.#opening?.controller.abort();
    if (this.#sweep) this.#sweep.cancelled = true;
    this.#generations.dispose();
    this.#model?.dispose();
    this.#model = null;
    this.#post({ type: 'disposed', id });
  }
}

/**
 * Serves a checkpoint host on `endpoint` ({ post, listen }): posts `loaded`, builds the session on
 * `init` (messages arriving meanwhile wait, in order) and hands it every later message.
 */
export function serveModelHost(endpoint, { createAttention }) {
  const post = endpoint.post;
  let session = null;
  let queue = [];
  let ended = false;
  async function init(message) {
    try {
      const attn = await createAttention({ simd: message.simd ?? 'auto' });
      if (ended) return;
      session = new ModelHostSession(attn, post);
      post({ type: 'ready', id: message.id });
    } catch (err) {
      post({ type: 'error', id: message.id, message: err.message });
    }
    const waiting = queue;
    queue = null;
    for (const m of waiting) dispatch(m);
  }
  function dispatch(message) {
    if (ended) return undefined;
    if (message?.type === 'init')
      return session || queue === null
        ? post({ type: 'error', id: message.id, message: 'already initialized' })
        : init(message);
    if (queue) return queue.push(message);
    if (!session) return post({ type: 'error', id: message?.id, message: 'the checkpoint host failed to initialize' });
    return session.handle(message);
  }
  endpoint.listen(dispatch);
  post({ type: 'loaded' });
  return {
    terminate() {
      ended = true;
      session?.dispose();
      session = null;
    },
  };
}
