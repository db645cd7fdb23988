// The trainer's Worker side, without the Worker: one model, its data and the training loop, driven
// by messages and answering with messages (web/lib/trainer.js documents the protocol). Kept apart
// from trainer-worker.js so the protocol can be tested in one thread with any `attn`.
import { charVocabulary, repeatedTokens, textBatch } from './training-data.js';
import { TINY_CORPUS } from './tiny-corpus.js';

const CONFIG_KEYS = ['model', 'data', 'batchSize', 'seed', 'optimizer', 'reportEvery', 'probe', 'simd'];
const DATA_KEYS = { repeated: ['kind', 'seqLength', 'minRepeat', 'maxRepeat', 'repeatLengths', 'allTargets'], text: ['kind', 'seqLength', 'text'] };
const PROBE_KEYS = ['batchSize', 'seed', 'repeatLengths', 'attentions', 'headScores', 'excludeFiller'];
const MAX_STEPS_PER_MESSAGE = 100000;

function fail(message) {
  throw new Error(message);
}

function checkKeys(object, known, name) {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) fail(`${name} must be an object`);
  for (const key of Object.keys(object)) if (!known.includes(key)) fail(`${name} has no option "${key}"; known: ${known.join(', ')}`);
  return object;
}

function checkCount(value, name, fallback, max = MAX_STEPS_PER_MESSAGE) {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < 1 || v > max) fail(`${name} must be an integer from 1 to ${max}, got ${v}`);
  return v;
}

// Distinct, reproducible seeds for the batch of every step (a run is a function of its config).
const stepSeed = (seed, step) => (Math.imul(seed ^ 0x5bd1e995, 0x01000193) + Math.imul(step + 1, 0x9e3779b1)) >>> 0;

/** Validates a trainer config and fills its defaults (also used by the main-thread side). */
export function normalizeConfig(config) {
  const c = checkKeys(config, CONFIG_KEYS, 'trainer config');
  const data = checkKeys(c.data ?? { kind: 'repeated' }, DATA_KEYS[c.data?.kind ?? 'repeated'] ?? fail(`data.kind must be "repeated" or "text", got ${JSON.stringify(c.data?.kind)}`), 'data');
  if (c.model === null || typeof c.model !== 'object') fail('trainer config needs model: the attn.transformer config');
  const model = { ...c.model };  // attn.transformer checks it
  const out = {
    model,
    data: { kind: 'repeated', ...data },
    batchSize: checkCount(c.batchSize, 'batchSize', 32, 4096),
    seed: c.seed ?? 0,
    optimizer: { ...(c.optimizer ?? {}) },
    reportEvery: checkCount(c.reportEvery, 'reportEvery', 10),
    probe: c.probe === false ? false : { batchSize: 8, seed: 12345, attentions: true, headScores: true, ...checkKeys(c.probe ?? {}, PROBE_KEYS, 'probe') },
    simd: c.simd ?? 'auto',
  };
  if (!Number.isSafeInteger(out.seed) || out.seed < 0 || out.seed > 0xffffffff) fail(`seed must be an integer from 0 to 2**32 - 1, got ${out.seed}`);
  if (out.data.kind === 'text') {
    out.data.text = out.data.text ?? TINY_CORPUS;
    const vocabulary = charVocabulary(out.data.text);
    model.vocabSize = model.vocabSize ?? vocabulary.size;
    if (model.vocabSize < vocabulary.size) fail(`model.vocabSize ${model.vocabSize} is smaller than the text's ${vocabulary.size} characters`);
  }
  out.data.seqLength = out.data.seqLength ?? model.contextLength;
  if (out.data.seqLength > model.contextLength) fail(`data.seqLength ${out.data.seqLength} exceeds model.contextLength ${model.contextLength}`);
  return out;
}

const pick = (s) => ({ previousToken: s.previousToken, duplicateToken: s.duplicateToken, induction: s.induction });

// Every next token as a target (the last position has none): the loss over the whole sequence.
const nextTokens = (tokens) => tokens.map((row) => row.map((_, i) => (i + 1 < row.length ? row[i + 1] : -1)));

// Repeated data: the next token only inside the second copy (what induction can predict).
const secondCopyTargets = (tokens, repeats) => tokens.map((row, b) => row.map((_, i) => (i >= repeats[b] + 1 && i <= 2 * repeats[b] - 1 ? row[i + 1] : -1)));

export class TrainingSession {
  #attn;
  #post;
  #config;
  #vocabulary = null;
  #model = null;
  #step = 0;
  #running = false;
  #maxSteps = Infinity;
  #pending = [];  // losses since the last progress message
  #probeBatch = null;
  #scratch = null;  // a second model for ablations (evaluate, ablate)

  /** attn: a createAttention() instance; post(message, transfer): sends to the main thread. */
  constructor(attn, config, post) {
    this.#attn = attn;
    this.#post = post;
    this.#config = normalizeConfig(config);
    if (this.#config.data.kind === 'text') this.#vocabulary = charVocabulary(this.#config.data.text);
    this.#build();
  }

  #build() {
    this.#model?.dispose();
    this.#scratch?.dispose();
    this.#scratch = null;
    this.#model = this.#attn.transformer(this.#config.model);
    this.#step = 0;
    this.#pending = [];
    const p = this.#config.probe;
    this.#probeBatch = p ? this.#batch(p.seed, p.batchSize, p.repeatLengths) : null;
  }

  #batch(seed, batchSize, repeatLengths) {
    const d = this.#config.data;
    if (d.kind === 'text') return textBatch({ text: d.text, vocabulary: this.#vocabulary, seqLength: d.seqLength, batchSize, seed });
    const options = { vocabSize: this.#config.model.vocabSize, seqLength: d.seqLength, batchSize, seed };
    for (const key of ['minRepeat', 'maxRepeat', 'repeatLengths', 'allTargets']) if (d[key] !== undefined) options[key] = d[key];
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
        case 'start': return this.#start(message);
        case 'pause': return this.#pause(id);
        case 'step': return this.#steps(checkCount(message.count, 'count', 1), id);
        case 'reset': return this.#reset(id);
        case 'getState': return this.#sendState(id);
        case 'probe': return this.#post({ type: 'probe', id, step: this.#step, probe: this.#probe() });
        case 'ablate': return this.#post({ type: 'ablation', id, step: this.#step, layer: message.layer, head: message.head, probe: this.#evaluation({ ablate: [{ layer: message.layer, head: message.head }] }) });
        case 'evaluate': return this.#evaluate(message, id);
        case 'load': return this.#load(message, id);
        case 'attend': return this.#attend(message, id);
        case 'dispose': return this.dispose(id);
        default: return fail(`unknown message type ${JSON.stringify(type)}`);
      }
    } catch (err) {
      this.#running = false;
      this.#post({ type: 'error', id, message: err.message });
    }
    return undefined;
  }

  ready(id) {
    const info = { type: 'ready', id, config: this.#config, parameterCount: this.#model.parameterCount() };
    if (this.#vocabulary) info.vocabulary = this.#vocabulary.chars;
    this.#post(info);
  }

  #trainOne() {
    const { tokens, targets } = this.#batch(stepSeed(this.#config.seed, this.#step), this.#config.batchSize);
    const { loss } = this.#model.trainStep(tokens, targets, this.#config.optimizer);
    if (!Number.isFinite(loss)) fail(`the loss became ${loss} at step ${this.#step + 1}: lower the learning rate`);
    this.#step++;
    this.#pending.push(loss);
  }

  #progress(id) {
    const losses = this.#pending;
    this.#pending = [];
    const message = { type: 'progress', id, step: this.#step, loss: losses.length ? losses[losses.length - 1] : null, losses, running: this.#running };
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
    const result = { loss, lossByPosition: byPosition, allTokensLoss: this.#losses(out.logits, nextTokens(tokens)).loss, tokens: tokens[0] };
    if (batch.repeatLengths) result.repeatedLoss = this.#losses(out.logits, secondCopyTargets(tokens, batch.repeatLengths)).loss;
    if (p.attentions) {
      result.attentions = out.attentions.map((a) => {
        const [, h, t] = a.shape;
        return { data: Float32Array.from(a.data.subarray(0, h * t * t)), shape: [h, t, t] };
      });
    }
    if (p.headScores) {
      const crop = p.excludeFiller && batch.repeatLengths;
      result.headScores = out.attentions.map((a) => (crop ? this.#scoresWithoutFiller(tokens, a, batch.repeatLengths) : pick(this.#attn.headScores(tokens, a))));
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
        if (!Number.isInteger(layer) || layer < 0 || layer >= numLayers) fail(`layer must be an integer from 0 to ${numLayers - 1}, got ${layer}`);
        if (!Number.isInteger(head) || head < 0 || head >= numHeads) fail(`head must be an integer from 0 to ${numHeads - 1}, got ${head}`);
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
    this.#post({ type: 'evaluation', id, step: this.#step, probe }, (probe.attentions ?? []).map((a) => a.data.buffer));
  }

  // The model's attention on one sequence of the caller's (e.g. a learner's sentence): every
  // layer's [H, T, T] and the head scores on it. The model checks the ids and the length.
  #attend({ tokens }, id) {
    const out = this.#model.forward(tokens, { needWeights: true });
    const headScores = out.attentions.map((a) => pick(this.#attn.headScores(tokens, a)));
    this.#post({ type: 'attention', id, step: this.#step, attentions: out.attentions, headScores }, out.attentions.map((a) => a.data.buffer));
  }

  // Trained parameters (a checkpoint) replace the model's; Adam starts afresh from them.
  #load(message, id) {
    const step = message.step ?? 0;
    if (!Number.isSafeInteger(step) || step < 0) fail(`load: step must be a whole number ≥ 0, got ${step}`);
    this.#running = false;
    this.#model.loadState(message.state);
    this.#model.resetOptimizer();
    this.#step = step;
    this.#pending = [];
    this.#post({ type: 'state-loaded', id, step });
  }

  // Head scores over BOS and the two copies only: filler repeats at every position, so queries on
  // it would count attention to other filler as "induction" and "duplicate-token" even at init.
  // Each sequence is cropped to its 2r + 1 tokens; the means are pooled by their query counts.
  #scoresWithoutFiller(tokens, attention, repeats) {
    const [, h, t] = attention.shape;
    const sums = { previousToken: new Float64Array(h), duplicateToken: new Float64Array(h), induction: new Float64Array(h) };
    const counts = { previousToken: new Float64Array(h), duplicateToken: new Float64Array(h), induction: new Float64Array(h) };
    tokens.forEach((row, b) => {
      const n = Math.min(t, 2 * repeats[b] + 1);
      const crop = new Float32Array(h * n * n);
      for (let k = 0; k < h; k++) {
        for (let i = 0; i < n; i++) crop.set(attention.data.subarray(((b * h + k) * t + i) * t, ((b * h + k) * t + i) * t + n), (k * n + i) * n);
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
    return { previousToken: mean('previousToken'), duplicateToken: mean('duplicateToken'), induction: mean('induction') };
  }

  #start(message) {
    const more = message.maxSteps === undefined ? Infinity : checkCount(message.maxSteps, 'maxSteps', 1, Number.MAX_SAFE_INTEGER);
    this.#maxSteps = this.#step + more;
    const wasRunning = this.#running;
    this.#running = true;
    this.#post({ type: 'started', id: message.id, step: this.#step });
    if (!wasRunning) this.#schedule();  // a running loop just takes the new maxSteps
  }

  // Runs reportEvery steps, reports, then yields to the event loop so pause and other messages
  // are handled between chunks.
  #schedule() {
    setTimeout(() => {
      if (!this.#running) return;
      try {
        const until = Math.min(this.#maxSteps, this.#step + this.#config.reportEvery);
        while (this.#step < until) this.#trainOne();
        if (this.#step >= this.#maxSteps) this.#running = false;
        this.#progress();
        if (this.#running) this.#schedule();
        else this.#post({ type: 'stopped', step: this.#step, reason: 'maxSteps' });
      } catch (err) {
        this.#running = false;
        this.#post({ type: 'error', message: err.message });
      }
    }, 0);
  }

  #pause(id) {
    this.#running = false;
    if (this.#pending.length) this.#progress();
    this.#post({ type: 'paused', id, step: this.#step });
  }

  #steps(count, id) {
    for (let i = 0; i < count; i++) this.#trainOne();
    this.#progress(id);
  }

  #reset(id) {
    this.#running = false;
    this.#build();
    this.#post({ type: 'reset', id, step: 0 });
  }

  #sendState(id) {
    const state = this.#model.getState();
    const transfer = [...new Set(Object.values(state).map((t) => t.data.buffer))];
    this.#post({ type: 'state', id, step: this.#step, state }, transfer);
  }

  dispose(id) {
    this.#running = false;
    this.#model?.dispose();
    this.#model = null;
    this.#scratch?.dispose();
    this.#scratch = null;
    this.#post({ type: 'disposed', id });
  }
}
