// The trainer's Worker side, without the Worker: one model, its data and the training loop, driven
// by messages and answering with messages (web/lib/trainer.js documents the protocol). Kept apart
// from trainer-worker.js so the protocol can be tested in one thread with any `attn`, and so the
// same loop can run on a page's main thread where no Worker can start.
//
// Training runs in slices of at most `sliceMs` of work (50 ms in a Worker, 10 ms on a main
// thread; a slice is one step when one step takes longer), then yields to the event loop, so
// pause, terminate and every other message wait at most one slice, whatever the model's size.
import { charVocabulary, repeatedTokens, textBatch } from './training-data.js';
import { checkCount, normalizeTrainerConfig } from './trainer-config.js';
import { GenerationJobs } from './generation.js';

export { normalizeTrainerConfig };
export const WORKER_SLICE_MS = 50;
export const MAIN_THREAD_SLICE_MS = 10;

function fail(message) {
  throw new Error(message);
}

// Distinct, reproducible seeds for the batch of every step (a run is a function of its config).
const stepSeed = (seed, step) => (Math.imul(seed ^ 0x5bd1e995, 0x01000193) + Math.imul(step + 1, 0x9e3779b1)) >>> 0;

const pick = (s) => ({ previousToken: s.previousToken, duplicateToken: s.duplicateToken, induction: s.induction });

// Every next token as a target (the last position has none): the loss over the whole sequence.
const nextTokens = (tokens) => tokens.map((row) => row.map((_, i) => (i + 1 < row.length ? row[i + 1] : -1)));

// Repeated data: the next token only inside the second copy (what induction can predict).
const secondCopyTargets = (tokens, repeats) =>
  tokens.map((row, b) => row.map((_, i) => (i >= repeats[b] + 1 && i <= 2 * repeats[b] - 1 ? row[i + 1] : -1)));

// A checked batch ({ data, shape: [B, T] }) as rows of numbers, as the probe reads them.
const rows = ({ data, shape: [B, T] }) =>
  Array.from({ length: B }, (_, b) => Array.from(data.subarray(b * T, (b + 1) * T)));

const now = () => performance.now();

// Runs fn after the event loop has had a turn (incoming messages first), without setTimeout's
// 4 ms clamp on nested calls.
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
let yieldThen = null;

export class TrainingSession {
  #attn;
  #post;
  #config;
  #sliceMs;
  #vocabulary = null;
  #model = null;
  #step = 0;
  #run = null; // { ids, maxSteps }: start() requests answered when the run ends
  #jobs = []; // step(count) requests: { id, left }
  #sinceReport = 0;
  #pending = []; // losses since the last progress message
  #scheduled = false;
  #closed = false;
  #batches = []; // the caller's batches that arrived (data.kind 'batches')
  #asked = 0; // batches asked for that have not arrived
  #dataEnd = null; // { error? } once the caller's source is done
  #waiting = false; // the loop waits for a batch
  #probeBatch = null;
  #scratch = null; // a second model for ablations (evaluate, ablate)
  #generations = null; // text generation on the model (generation.js)

  /**
   * attn: a createAttention() instance; post(message, transfer): sends to the main thread;
   * sliceMs: the most work between two turns of the event loop. Without it (a script or a test
   * in one thread) step requests run at once, before handle() returns; runs (start) are always
   * sliced, by WORKER_SLICE_MS then.
   */
  constructor(attn, config, post, { sliceMs } = {}) {
    this.#attn = attn;
    this.#post = post;
    this.#sliceMs = sliceMs;
    this.#config = normalizeTrainerConfig(config);
    if (this.#config.data.kind === 'text') this.#vocabulary = charVocabulary(this.#config.data.text);
    this.#generations = new GenerationJobs(attn, () => this.#model, post);
    this.#build();
  }

  #build() {
    this.#generations.invalidate();
    this.#model?.dispose();
    this.#scratch?.dispose();
    this.#scratch = null;
    this.#model = this.#attn.transformer(this.#config.model);
    this.#step = 0;
    this.#pending = [];
    this.#sinceReport = 0;
    const p = this.#config.probe;
    if (!p) this.#probeBatch = null;
    else if (p.batch) this.#probeBatch = { tokens: rows(p.batch.tokens), targets: rows(p.batch.targets) };
    else this.#probeBatch = this.#batch(p.seed, p.batchSize, p.repeatLengths);
  }

  #batch(seed, batchSize, repeatLengths) {
    const d = this.#config.data;
    if (d.kind === 'batches') fail('repeatLengths needs generated data (data.kind "repeated"); data.kind is "batches"');
    if (d.kind === 'text')
      return textBatch({ text: d.text, vocabulary: this.#vocabulary, seqLength: d.seqLength, batchSize, seed });
    const options = { vocabSize: this.#config.model.vocabSize, seqLength: d.seqLength, batchSize, seed };
    for (const key of ['minRepeat', 'maxRepeat', 'repeatLengths', 'allTargets'])
      if (d[key] !== undefined) options[key] = d[key];
    if (repeatLengths) {
      delete options.minRepeat;
      delete options.maxRepeat;
      options.repeatLengths = repeatLengths;
    }
    return repeatedTokens(options);
  }

  get step() {
    return this.#step;
  }

  /** One message from the main thread. Replies carry the request's id. */
  handle(message) {
    const { type, id } = message ?? {};
    try {
      switch (type) {
        case 'start':
          return this.#start(message);
        case 'pause':
          return this.#pause(id);
        case 'step':
          return this.#addJob(checkCount(message.count, 'count', 1), id);
        case 'batch':
          return this.#receiveBatch(message);
        case 'reset':
          return this.#reset(id);
        case 'getState':
          return this.#sendState(id);
        case 'probe':
          return this.#post({ type: 'probe', id, step: this.#step, probe: this.#probe() });
        case 'ablate':
          return this.#post({
            type: 'ablation',
            id,
            step: this.#step,
            layer: message.layer,
            head: message.head,
            probe: this.#evaluation({ ablate: [{ layer: message.layer, head: message.head }] }),
          });
        case 'evaluate':
          return this.#evaluate(message, id);
        case 'load':
          return this.#load(message, id);
        case 'attend':
          return this.#attend(message, id);
        case 'generate':
          return this.#generate(message);
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

  ready(id) {
    const info = { type: 'ready', id, config: this.#config, parameterCount: this.#model.parameterCount() };
    if (this.#vocabulary) info.vocabulary = this.#vocabulary.chars;
    this.#post(info);
  }

  // Text from the model as it is now: a run in progress would change it under the cache.
  #generate(message) {
    if (this.#run || this.#jobs.length)
      fail('pause training before generating: every step changes the model under the cache');
    this.#generations.start(message);
  }

  #trainOne() {
    this.#generations.invalidate();
    const { tokens, targets } =
      this.#config.data.kind === 'batches'
        ? this.#batches.shift()
        : this.#batch(stepSeed(this.#config.seed, this.#step), this.#config.batchSize);
    const { loss } = this.#model.trainStep(tokens, targets, this.#config.optimizer);
    if (!Number.isFinite(loss)) fail(`the loss became ${loss} at step ${this.#step + 1}: lower the learning rate`);
    this.#step++;
    this.#pending.push(loss);
  }

  #progress(id, interrupted) {
    const losses = this.#pending;
    this.#pending = [];
    this.#sinceReport = 0;
    const message = {
      type: 'progress',
      id,
      step: this.#step,
      loss: losses.length ? losses[losses.length - 1] : null,
      losses,
      running: this.#run !== null,
    };
    if (interrupted) message.interrupted = interrupted;
    const transfer = [];
    if (this.#config.probe) {
      message.probe = this.#probe();
      for (const a of message.probe.attentions ?? []) transfer.push(a.data.buffer);
    }
    this.#post(message, transfer);
  }

  // Mean cross-entropy over the targets that are not −1 and its value at each position, from the core.
  #losses(logits, targets) {
    const byPosition = this.#attn.lossByPosition(logits, targets);
    const counted = byPosition.count.reduce((a, b) => a + b, 0);
    const loss = byPosition.loss.reduce((a, x, i) => a + x * byPosition.count[i], 0) / (counted || 1);
    return { loss, byPosition: byPosition.loss };
  }

  // Loss (overall, by position, over every next token and, for repeated data, on the second copy),
  // attention of the first probe sequence per layer [H, T, T] and head scores per layer.
  #probe(batch = this.#probeBatch, model = this.#model) {
    const p = this.#config.probe;
    if (!p) return null;
    const { tokens, targets } = batch;
    const out = model.forward(tokens, { needWeights: true });
    const { loss, byPosition } = this.#losses(out.logits, targets);
    const result = {
      loss,
      lossByPosition: byPosition,
      allTokensLoss: this.#losses(out.logits, nextTokens(tokens)).loss,
      tokens: tokens[0],
    };
    if (batch.repeatLengths)
      result.repeatedLoss = this.#losses(out.logits, secondCopyTargets(tokens, batch.repeatLengths)).loss;
    if (p.attentions) {
      result.attentions = out.attentions.map((a) => {
        const [, h, t] = a.shape;
        return { data: Float32Array.from(a.data.subarray(0, h * t * t)), shape: [h, t, t] };
      });
    }
    if (p.headScores) {
      const crop = p.excludeFiller && batch.repeatLengths;
      result.headScores = out.attentions.map((a) =>
        crop ? this.#scoresWithoutFiller(tokens, a, batch.repeatLengths) : pick(this.#attn.headScores(tokens, a)),
      );
    }
    return result;
  }

  // The probe measured on another batch (other repeat lengths) and/or with heads ablated: each
  // { layer, head } in `ablate` has its output zeroed, by zeroing the rows of c_proj.weight that
  // read the head's slice of the concatenation (exactly what zeroing the head's output does). The
  // ablated copy is a second model, so the trained one and its optimizer stay untouched.
  #evaluation({ repeatLengths, ablate = [] }) {
    if (!this.#config.probe) fail('evaluating needs the probe batch (config.probe is false)');
    const p = this.#config.probe;
    const batch = repeatLengths ? this.#batch(p.seed, p.batchSize, repeatLengths) : this.#probeBatch;
    let model = this.#model;
    if (ablate.length) {
      const { numLayers, numHeads, dModel } = this.#model.config;
      const d = dModel / numHeads;
      const state = this.#model.getState();
      for (const { layer, head } of ablate) {
        if (!Number.isInteger(layer) || layer < 0 || layer >= numLayers)
          fail(`layer must be an integer from 0 to ${numLayers - 1}, got ${layer}`);
        if (!Number.isInteger(head) || head < 0 || head >= numHeads)
          fail(`head must be an integer from 0 to ${numHeads - 1}, got ${head}`);
        state[`h.${layer}.attn.c_proj.weight`].data.fill(0, head * d * dModel, (head + 1) * d * dModel);
      }
      this.#scratch ??= this.#attn.transformer(this.#model.config);
      this.#scratch.loadState(state);
      model = this.#scratch;
    }
    return this.#probe(batch, model);
  }

  #evaluate(message, id) {
    const probe = this.#evaluation(message);
    this.#post(
      { type: 'evaluation', id, step: this.#step, probe },
      (probe.attentions ?? []).map((a) => a.data.buffer),
    );
  }

  // The model's attention on one sequence of the caller's (e.g. a learner's sentence): every
  // layer's [H, T, T] and the head scores on it. The model checks the ids and the length.
  #attend({ tokens }, id) {
    const out = this.#model.forward(tokens, { needWeights: true });
    const headScores = out.attentions.map((a) => pick(this.#attn.headScores(tokens, a)));
    this.#post(
      { type: 'attention', id, step: this.#step, attentions: out.attentions, headScores },
      out.attentions.map((a) => a.data.buffer),
    );
  }

  // Trained parameters (a checkpoint) replace the model's; Adam starts afresh from them.
  #load(message, id) {
    const step = message.step ?? 0;
    if (!Number.isSafeInteger(step) || step < 0) fail(`load: step must be a whole number ≥ 0, got ${step}`);
    this.#halt('load');
    this.#generations.invalidate();
    this.#model.loadState(message.state);
    this.#model.resetOptimizer();
    this.#step = step;
    this.#pending = [];
    this.#sinceReport = 0;
    this.#post({ type: 'state-loaded', id, step });
  }

  // Head scores over BOS and the two copies only: filler repeats at every position, so queries on
  // it would count attention to other filler as "induction" and "duplicate-token" even at init.
  // Each sequence is cropped to its 2r + 1 tokens; the means are pooled by their query counts.
  #scoresWithoutFiller(tokens, attention, repeats) {
    const [, h, t] = attention.shape;
    const sums = {
      previousToken: new Float64Array(h),
      duplicateToken: new Float64Array(h),
      induction: new Float64Array(h),
    };
    const counts = {
      previousToken: new Float64Array(h),
      duplicateToken: new Float64Array(h),
      induction: new Float64Array(h),
    };
    tokens.forEach((row, b) => {
      const n = Math.min(t, 2 * repeats[b] + 1);
      const crop = new Float32Array(h * n * n);
      for (let k = 0; k < h; k++) {
        for (let i = 0; i < n; i++)
          crop.set(attention.data.subarray(((b * h + k) * t + i) * t, ((b * h + k) * t + i) * t + n), (k * n + i) * n);
      }
      const s = this.#attn.headScores(row.slice(0, n), { data: crop, shape: [h, n, n] });
      for (const key of Object.keys(sums)) {
        for (let k = 0; k < h; k++) {
          sums[key][k] += s[key][k] * s.queries[key][k];
          counts[key][k] += s.queries[key][k];
        }
      }
    });
    const mean = (key) => Array.from(sums[key], (x, k) => (counts[key][k] ? x / counts[key][k] : 0));
    return {
      previousToken: mean('previousToken'),
      duplicateToken: mean('duplicateToken'),
      induction: mean('induction'),
    };
  }

  #start(message) {
    const more =
      message.maxSteps === undefined ? Infinity : checkCount(message.maxSteps, 'maxSteps', 1, Number.MAX_SAFE_INTEGER);
    if (this.#run) {
      this.#run.ids.push(message.id); // a running loop just takes the new maxSteps
      this.#run.maxSteps = this.#step + more;
    } else {
      this.#run = { ids: [message.id], maxSteps: this.#step + more };
      this.#sinceReport = 0;
    }
    this.#post({ type: 'started', id: message.id, step: this.#step });
    this.#schedule();
  }

  #addJob(count, id) {
    this.#jobs.push({ id, left: count });
    if (this.#sliceMs === undefined) this.#slice({ budget: Infinity, jobsOnly: true });
    else this.#schedule();
  }

  #schedule() {
    if (this.#scheduled || this.#waiting || this.#closed || (!this.#run && !this.#jobs.length)) return;
    this.#scheduled = true;
    yieldThen ??= makeYield();
    yieldThen(() => {
      this.#scheduled = false;
      this.#slice();
    });
  }

  // Steps until the slice's time is used up: the next step is started only if the last one's
  // duration still fits, so a slice is one step when one step takes longer than sliceMs.
  #slice({ budget = this.#sliceMs ?? WORKER_SLICE_MS, jobsOnly = false } = {}) {
    const began = now();
    try {
      while (!this.#closed && ((this.#run && !jobsOnly) || this.#jobs.length) && this.#haveBatch()) {
        const t = now();
        this.#trainOne();
        const last = now() - t;
        this.#afterStep();
        if (now() - began + last > budget) break;
      }
    } catch (err) {
      this.#fail(err);
    }
    this.#schedule();
  }

  // Steps of step(count) requests come first; every step also counts towards a run's maxSteps.
  #afterStep() {
    const job = this.#jobs[0];
    if (job) {
      if (--job.left === 0) {
        this.#jobs.shift();
        this.#progress(job.id);
      }
    } else if (this.#run) {
      this.#sinceReport++;
      if (this.#sinceReport >= this.#config.reportEvery && this.#step < this.#run.maxSteps) this.#progress();
    }
    if (this.#run && this.#step >= this.#run.maxSteps) this.#endRun('maxSteps');
  }

  // User batches: whether one is here (asking for more, with at most data.prefetch under way).
  #haveBatch() {
    if (this.#config.data.kind !== 'batches') return true;
    const want = this.#config.data.prefetch - this.#batches.length - this.#asked;
    if (!this.#dataEnd && want > 0) {
      this.#asked += want;
      this.#post({ type: 'batches-wanted', count: want });
    }
    if (this.#batches.length) return true;
    if (this.#dataEnd?.error) fail(this.#dataEnd.error);
    if (this.#dataEnd) this.#halt('endOfData');
    else this.#waiting = true;
    return false;
  }

  #receiveBatch(message) {
    if (message.end || message.error) {
      this.#dataEnd = message.error ? { error: message.error } : {};
      this.#asked = 0;
    } else {
      this.#asked = Math.max(0, this.#asked - 1);
      this.#batches.push({ tokens: message.tokens, targets: message.targets });
    }
    if (this.#waiting) {
      this.#waiting = false;
      this.#schedule();
    }
  }

  #endRun(reason, message) {
    const run = this.#run;
    if (!run) return;
    this.#run = null;
    if (this.#pending.length) this.#progress();
    const stopped = { type: 'stopped', ids: run.ids, step: this.#step, reason };
    if (message) stopped.message = message;
    this.#post(stopped);
  }

  // Ends the run and cuts step(count) requests short: each answers with the steps that ran.
  #halt(reason) {
    const jobs = this.#jobs;
    this.#jobs = [];
    for (const job of jobs) this.#progress(job.id, reason);
    this.#endRun(reason);
  }

  // A failed step stops everything: step requests get the error, a run ends with it (and the
  // main thread hears of it also outside any request).
  #fail(err) {
    const jobs = this.#jobs;
    this.#jobs = [];
    this.#pending = [];
    for (const job of jobs) this.#post({ type: 'error', id: job.id, message: err.message });
    if (this.#run) {
      this.#post({ type: 'error', message: err.message });
      this.#endRun('error', err.message);
    }
  }

  #pause(id) {
    this.#halt('paused');
    this.#post({ type: 'paused', id, step: this.#step });
  }

  #reset(id) {
    this.#halt('reset');
    this.#build();
    this.#post({ type: 'reset', id, step: 0 });
  }

  #sendState(id) {
    const state = this.#model.getState();
    const transfer = [...new Set(Object.values(state).map((t) => t.data.buffer))];
    this.#post({ type: 'state', id, step: this.#step, state }, transfer);
  }

  dispose(id) {
    this.#halt('disposed');
    this.#generations.dispose();
    this.#closed = true;
    this.#model?.dispose();
    this.#model = null;
    this.#scratch?.dispose();
    this.#scratch = null;
    this.#post({ type: 'disposed', id });
  }
}

/**
 * Serves a trainer on `endpoint` ({ post(message, transfer), listen(handler) }): posts `loaded`,
 * builds the session on `init` (messages that arrive meanwhile wait, in order) and hands it every
 * later message. `createAttention` loads the core. Returns { terminate() } (stops the loop and
 * frees the model; for the main thread, where a Worker cannot simply be ended).
 */
export function serveTrainer(endpoint, { createAttention, sliceMs = WORKER_SLICE_MS }) {
  const post = endpoint.post;
  let session = null;
  let queue = []; // messages that arrive while the core loads
  let ended = false;
  async function init(message) {
    try {
      const attn = await createAttention({ simd: message.config?.simd ?? 'auto' });
      if (ended) return;
      session = new TrainingSession(attn, message.config, post, { sliceMs });
      session.ready(message.id);
    } catch (err) {
      post({ type: 'error', id: message.id, message: err.message });
    }
    const waiting = queue;
    queue = null;
    for (const m of waiting) dispatch(m);
  }
  function dispatch(message) {
    if (ended) return undefined;
    if (message?.type === 'init') {
      if (session || queue === null)
        return post({ type: 'error', id: message.id, message: 'the trainer is already initialized' });
      return init(message);
    }
    if (queue) return queue.push(message);
    if (!session) return post({ type: 'error', id: message?.id, message: 'the trainer failed to initialize' });
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
