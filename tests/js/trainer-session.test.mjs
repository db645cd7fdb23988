// The trainer's Worker-side protocol (web/lib/trainer-session.js), in one thread, with a stand-in
// model that records what it is asked (the real model is tested in transformer-*.test.mjs and,
// through the Worker, in trainer-worker.test.mjs): replies, progress cadence, pause, reset,
// determinism of the data, probe contents, and errors.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/lib/attention.js';
import { TrainingSession, normalizeTrainerConfig } from '../../web/lib/trainer-session.js';

class StandInModel {
  constructor(config, log) {
    this.config = config;
    this.log = log;
    this.disposed = false;
    log.models.push(this);
  }
  parameterCount() {
    return 42;
  }
  trainStep(tokens, targets, options) {
    // A slow model: each step keeps the thread busy for stepMs.
    for (const until = performance.now() + (this.log.stepMs ?? 0); performance.now() < until;);
    this.log.steps.push({ tokens, targets, options });
    return { loss: this.log.lossOf(this.log.steps.length) };
  }
  forward(tokens, { needWeights }) {
    assert.equal(needWeights, true);
    const B = tokens.length,
      T = tokens[0].length,
      V = this.config.vocabSize,
      H = this.config.numHeads;
    const causal = new Float32Array(B * H * T * T);
    for (let p = 0; p < B * H; p++)
      for (let i = 0; i < T; i++) for (let j = 0; j <= i; j++) causal[(p * T + i) * T + j] = 1 / (i + 1);
    const attention = { data: causal, shape: [B, H, T, T] };
    return {
      logits: { data: new Float32Array(B * T * V), shape: [B, T, V] },
      attentions: Array(this.config.numLayers).fill(attention),
    };
  }
  getState() {
    return { 'wte.weight': { data: new Float32Array([1, 2]), shape: [1, 2] } };
  }
  dispose() {
    this.disposed = true;
  }
}

let core;
before(async () => {
  core = await createAttention();
});

function session(config = {}, lossOf = (n) => 1 / n, { stepMs = 0, sliceMs } = {}) {
  const log = { models: [], steps: [], messages: [], lossOf, stepMs };
  const attn = {
    transformer: (c) => new StandInModel(c, log),
    headScores: (t, a) => core.headScores(t, a),
    lossByPosition: (l, t) => core.lossByPosition(l, t),
  };
  const full = {
    model: { vocabSize: 12, contextLength: 9, dModel: 8, numLayers: 2, numHeads: 2 },
    batchSize: 4,
    reportEvery: 10,
    ...config,
  };
  const s = new TrainingSession(attn, full, (message, transfer) => log.messages.push({ message, transfer }), {
    sliceMs,
  });
  return { s, log };
}

const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (condition) => {
  for (let i = 0; i < 500 && !condition(); i++) await settle(5);
  assert.ok(condition(), 'timed out waiting');
};

test('ready and step: the reply carries the id, the losses and a probe with attentions and head scores', () => {
  const { s, log } = session();
  s.ready(1);
  assert.deepEqual(
    { ...log.messages[0].message, config: undefined },
    { type: 'ready', id: 1, config: undefined, parameterCount: 42 },
  );
  s.handle({ type: 'step', id: 2, count: 3 });
  const { message, transfer } = log.messages.at(-1);
  assert.equal(message.type, 'progress');
  assert.equal(message.id, 2);
  assert.equal(message.step, 3);
  assert.deepEqual(message.losses, [1, 1 / 2, 1 / 3]);
  assert.equal(message.loss, 1 / 3);
  const p = message.probe;
  assert.ok(Math.abs(p.loss - Math.log(12)) < 1e-12, 'uniform logits: the probe loss is ln V');
  assert.equal(p.lossByPosition.length, 9);
  // Repeated tokens: only positions in a second copy have targets; the others report 0.
  assert.equal(p.lossByPosition[0], 0);
  assert.ok(p.lossByPosition.some((x) => Math.abs(x - Math.log(12)) < 1e-12));
  assert.equal(p.attentions.length, 2);
  assert.deepEqual(p.attentions[0].shape, [2, 9, 9], 'the first probe sequence, every head');
  assert.equal(transfer.length, 2, 'attention snapshots are transferred, not copied');
  assert.equal(p.headScores.length, 2);
  assert.equal(p.headScores[0].induction.length, 2);
  // Uniform causal attention: the previous-token score is the mean of 1/(i+1) over i ≥ 1.
  const expected = [...Array(8).keys()].reduce((a, i) => a + 1 / (i + 2), 0) / 8;
  assert.ok(Math.abs(p.headScores[0].previousToken[0] - expected) < 1e-6);
  assert.equal(p.tokens.length, 9);
});

test('every step gets its own batch of repeated tokens, the same for the same seed', () => {
  const a = session({ seed: 5 }),
    b = session({ seed: 5 }),
    c = session({ seed: 6 });
  for (const x of [a, b, c]) x.s.handle({ type: 'step', count: 3 });
  assert.deepEqual(
    a.log.steps.map((x) => x.tokens),
    b.log.steps.map((x) => x.tokens),
  );
  assert.notDeepEqual(a.log.steps[0].tokens, a.log.steps[1].tokens);
  assert.notDeepEqual(a.log.steps[0].tokens, c.log.steps[0].tokens);
  const { tokens, targets } = a.log.steps[0];
  assert.equal(tokens.length, 4);
  assert.equal(tokens[0].length, 9);
  assert.ok(targets.flat().includes(-1));
});

test('options reach trainStep; text data uses the corpus and fills vocabSize', () => {
  const { s, log } = session({ optimizer: { learningRate: 3e-3, clipNorm: 1 } });
  s.handle({ type: 'step' });
  assert.deepEqual(log.steps[0].options, { learningRate: 3e-3, clipNorm: 1 });
  const text = session({
    model: { contextLength: 16, dModel: 8, numLayers: 1, numHeads: 2 },
    data: { kind: 'text', text: 'abcabcabd abc abcd' },
  });
  assert.equal(text.log.models[0].config.vocabSize, 5);
  text.s.ready();
  assert.deepEqual(text.log.messages[0].message.vocabulary, [' ', 'a', 'b', 'c', 'd']);
  text.s.handle({ type: 'step' });
  assert.equal(text.log.steps[0].tokens[0].length, 16);
});

test('start reports every reportEvery steps and stops after maxSteps', async () => {
  const { s, log } = session({ reportEvery: 10 });
  s.handle({ type: 'start', id: 7, maxSteps: 25 });
  await until(() => log.messages.some((m) => m.message.type === 'stopped'));
  const types = log.messages.map((m) => m.message.type);
  assert.deepEqual(types, ['started', 'progress', 'progress', 'progress', 'stopped']);
  assert.deepEqual(
    log.messages.filter((m) => m.message.type === 'progress').map((m) => m.message.step),
    [10, 20, 25],
  );
  assert.equal(log.messages[0].message.id, 7);
  assert.equal(log.steps.length, 25);
});

test('start while running answers and takes the new maxSteps', async () => {
  const { s, log } = session({ reportEvery: 5, probe: false });
  s.handle({ type: 'start', id: 1 });
  await until(() => log.steps.length >= 10);
  s.handle({ type: 'start', id: 2, maxSteps: 5 });
  const started = log.messages.filter((m) => m.message.type === 'started');
  assert.deepEqual(
    started.map((m) => m.message.id),
    [1, 2],
    'every start gets its reply',
  );
  const from = started[1].message.step;
  await until(() => log.messages.some((m) => m.message.type === 'stopped'));
  assert.equal(log.steps.length, from + 5);
});

test('pause stops the loop between chunks; reset builds a fresh model; getState transfers', async () => {
  const { s, log } = session({ reportEvery: 2, probe: false });
  s.handle({ type: 'start' });
  await until(() => log.steps.length >= 6);
  s.handle({ type: 'pause', id: 3 });
  const paused = log.messages.at(-1).message;
  assert.equal(paused.type, 'paused');
  assert.equal(paused.id, 3);
  const stepsAtPause = log.steps.length;
  assert.equal(paused.step, stepsAtPause);
  await settle(40);
  assert.equal(log.steps.length, stepsAtPause, 'no step after pause');
  assert.ok(
    log.messages.filter((m) => m.message.type === 'progress').every((m) => m.message.probe === undefined),
    'probe: false',
  );
  s.handle({ type: 'reset', id: 4 });
  assert.deepEqual(log.messages.at(-1).message, { type: 'reset', id: 4, step: 0 });
  assert.equal(log.models.length, 2);
  assert.ok(log.models[0].disposed);
  assert.equal(s.step, 0);
  s.handle({ type: 'getState', id: 5 });
  const { message, transfer } = log.messages.at(-1);
  assert.equal(message.type, 'state');
  assert.deepEqual(Array.from(message.state['wte.weight'].data), [1, 2]);
  assert.equal(transfer[0], message.state['wte.weight'].data.buffer);
  s.handle({ type: 'dispose', id: 6 });
  assert.ok(log.models[1].disposed);
});

test('errors: unknown messages, bad counts, bad configs, a diverging loss', async () => {
  const { s, log } = session();
  s.handle({ type: 'jump', id: 9 });
  assert.deepEqual(log.messages.at(-1).message, { type: 'error', id: 9, message: 'unknown message type "jump"' });
  s.handle({ type: 'step', id: 10, count: 0 });
  assert.match(log.messages.at(-1).message.message, /count must be an integer from 1/);
  assert.throws(() => session({ batchSize: -1 }), /batchSize must be an integer from 1 to 4096/);
  assert.throws(() => session({ data: { kind: 'images' } }), /data.kind must be "repeated", "text" or "batches"/);
  assert.throws(() => session({ data: { seqLength: 20 } }), /data.seqLength 20 exceeds model.contextLength 9/);
  assert.throws(() => session({ learningRate: 1 }), /trainer config has no option "learningRate"/);
  assert.throws(() => normalizeTrainerConfig({ model: null }), /needs model/);
  const diverging = session({ reportEvery: 5 }, (n) => (n === 3 ? NaN : 1));
  diverging.s.handle({ type: 'start' });
  await until(() => diverging.log.messages.some((m) => m.message.type === 'error'));
  assert.match(diverging.log.messages.at(-1).message.message, /the loss became NaN at step 3/);
  await settle(30);
  assert.equal(diverging.log.steps.length, 3, 'the loop stopped');
});

const messagesOf = (log, type) => log.messages.filter((m) => m.message.type === type).map((m) => m.message);

test('runs are sliced by time, not by count: a fast model yields to the event loop after at most sliceMs of steps', async () => {
  // 2 ms steps, reportEvery 1000: the old loop ran 1000 steps (2 s) before a pause could be read.
  const { s, log } = session({ reportEvery: 1000, probe: false }, undefined, { stepMs: 2, sliceMs: 50 });
  s.handle({ type: 'start', id: 1 });
  const turns = [];
  await new Promise((resolve) => {
    const tick = () => {
      turns.push(log.steps.length);
      if (turns.length < 6) setImmediate(tick);
      else resolve();
    };
    setImmediate(tick);
  });
  s.handle({ type: 'pause', id: 2 });
  const perTurn = turns.slice(1).map((n, i) => n - turns[i]);
  // 50 ms of 2 ms steps is 25 steps; the step that would overrun the slice is not started.
  assert.ok(
    perTurn.every((n) => n <= 25),
    `steps between event-loop turns: ${perTurn}`,
  );
  assert.ok(log.steps.length < 1000, `${log.steps.length} steps before the pause`);
  const [paused] = messagesOf(log, 'paused');
  assert.equal(paused.step, log.steps.length, 'no step after the pause');
  assert.deepEqual(messagesOf(log, 'stopped'), [{ type: 'stopped', ids: [1], step: paused.step, reason: 'paused' }]);
});

test('a slow model (200 ms a step): a slice is one step, so a pause waits for at most the step under way', async () => {
  const { s, log } = session({ reportEvery: 10, probe: false }, undefined, { stepMs: 200, sliceMs: 50 });
  s.handle({ type: 'start', id: 1 });
  const at = await new Promise((resolve) => {
    setTimeout(() => resolve(log.steps.length), 0);
  });
  s.handle({ type: 'pause', id: 2 });
  assert.ok(at <= 1, `${at} steps ran before a message sent right after start was read`);
  await settle(250);
  assert.equal(log.steps.length, at, 'nothing ran after the pause');
  const progress = messagesOf(log, 'progress');
  assert.deepEqual(
    progress.map((m) => [m.step, m.losses.length, m.running]),
    at ? [[at, at, false]] : [],
  );
});

test('step(count) is sliced too: other messages are answered meanwhile, and pause cuts it short with what ran', async () => {
  const { s, log } = session({ probe: false }, undefined, { stepMs: 20, sliceMs: 50 });
  s.handle({ type: 'step', id: 1, count: 3000 });
  assert.equal(log.steps.length, 0, 'nothing runs before handle() returns');
  await until(() => log.steps.length >= 5);
  s.handle({ type: 'getState', id: 2 });
  assert.equal(log.messages.at(-1).message.type, 'state', 'answered between slices');
  s.handle({ type: 'pause', id: 3 });
  const [reply] = messagesOf(log, 'progress');
  assert.equal(reply.id, 1);
  assert.equal(reply.interrupted, 'paused');
  assert.equal(reply.step, log.steps.length);
  assert.equal(reply.losses.length, log.steps.length);
  assert.ok(reply.step < 3000);
  assert.deepEqual(
    messagesOf(log, 'paused').map((m) => m.id),
    [3],
  );
  await settle(60);
  assert.equal(log.steps.length, reply.step, 'nothing ran after the pause');
});

test('every start() joins the run and is answered by its stopped message, with the reason the run ended', async () => {
  const { s, log } = session({ probe: false }, undefined, { sliceMs: 50 });
  s.handle({ type: 'start', id: 1 });
  s.handle({ type: 'start', id: 2, maxSteps: 7 });
  await until(() => messagesOf(log, 'stopped').length === 1);
  assert.deepEqual(messagesOf(log, 'stopped'), [{ type: 'stopped', ids: [1, 2], step: 7, reason: 'maxSteps' }]);
  s.handle({ type: 'start', id: 3 });
  s.handle({ type: 'reset', id: 4 });
  assert.deepEqual(messagesOf(log, 'stopped')[1], { type: 'stopped', ids: [3], step: 7, reason: 'reset' });
  s.handle({ type: 'start', id: 5 });
  s.handle({ type: 'dispose', id: 6 });
  assert.deepEqual(messagesOf(log, 'stopped')[2], { type: 'stopped', ids: [5], step: 0, reason: 'disposed' });
});

test('a run that fails answers its start() with the error and stops; step requests get the error too', async () => {
  const { s, log } = session({ probe: false }, (n) => (n === 4 ? Infinity : 1), { sliceMs: 50 });
  s.handle({ type: 'start', id: 1 });
  await until(() => messagesOf(log, 'stopped').length === 1);
  assert.deepEqual(messagesOf(log, 'stopped')[0], {
    type: 'stopped',
    ids: [1],
    step: 3,
    reason: 'error',
    message: 'the loss became Infinity at step 4: lower the learning rate',
  });
  assert.deepEqual(messagesOf(log, 'error'), [
    { type: 'error', message: 'the loss became Infinity at step 4: lower the learning rate' },
  ]);
  const again = session({ probe: false }, () => NaN, { sliceMs: 50 });
  again.s.handle({ type: 'step', id: 7, count: 5 });
  await until(() => messagesOf(again.log, 'error').length === 1);
  assert.deepEqual(messagesOf(again.log, 'error'), [
    { type: 'error', id: 7, message: 'the loss became NaN at step 1: lower the learning rate' },
  ]);
});

// The caller's batches: the session asks for at most `prefetch`, trains on them in order, waits
// when none is there, and ends the run at the data's end.
function batchOf(k) {
  const tokens = { data: Int32Array.from({ length: 2 * 9 }, (_, i) => (i + k) % 12), shape: [2, 9] };
  const targets = {
    data: Int32Array.from({ length: 2 * 9 }, (_, i) => (i % 9 === 8 ? -1 : (i + k + 1) % 12)),
    shape: [2, 9],
  };
  return { tokens, targets };
}

test('data.kind "batches": batches are asked for with back-pressure, trained in order, and the data\'s end ends the run', async () => {
  const { s, log } = session({ data: { kind: 'batches', prefetch: 3 } }, undefined, { sliceMs: 50 });
  assert.equal(log.models.length, 1);
  s.handle({ type: 'start', id: 1 });
  await until(() => messagesOf(log, 'batches-wanted').length === 1);
  assert.deepEqual(messagesOf(log, 'batches-wanted'), [{ type: 'batches-wanted', count: 3 }]);
  await settle(20);
  assert.equal(log.steps.length, 0, 'no batch, no step');
  for (let k = 0; k < 3; k++) s.handle({ type: 'batch', ...batchOf(k) });
  await until(() => log.steps.length === 3);
  assert.deepEqual(
    log.steps.map((x) => x.tokens.data[0]),
    [0, 1, 2],
    'in the order they came',
  );
  const asked = messagesOf(log, 'batches-wanted').reduce((a, m) => a + m.count, 0);
  assert.ok(asked <= 3 + 3, `asked for ${asked} batches with 3 trained and prefetch 3`);
  s.handle({ type: 'batch', end: true });
  await until(() => messagesOf(log, 'stopped').length === 1);
  assert.deepEqual(messagesOf(log, 'stopped')[0], { type: 'stopped', ids: [1], step: 3, reason: 'endOfData' });
  s.handle({ type: 'step', id: 2, count: 4 });
  await until(() => messagesOf(log, 'progress').some((m) => m.id === 2));
  assert.equal(messagesOf(log, 'progress').find((m) => m.id === 2).interrupted, 'endOfData');
  assert.throws(
    () => session({ data: { kind: 'batches' }, probe: {} }),
    /probe.batch is required with data.kind "batches"/,
  );
});

test('data.kind "batches": a source that fails stops the run with its message', async () => {
  const { s, log } = session({ data: { kind: 'batches' } }, undefined, { sliceMs: 50 });
  s.handle({ type: 'start', id: 1 });
  s.handle({ type: 'batch', ...batchOf(0) });
  s.handle({ type: 'batch', error: 'data.source[1].tokens[0][2] is 99, outside [0, vocabSize = 12)' });
  await until(() => messagesOf(log, 'stopped').length === 1);
  assert.deepEqual(messagesOf(log, 'stopped')[0], {
    type: 'stopped',
    ids: [1],
    step: 1,
    reason: 'error',
    message: 'data.source[1].tokens[0][2] is 99, outside [0, vocabSize = 12)',
  });
});
