// Generation as the Generate panel runs it: decoder.sample (the core's draw after an append) gives
// model.generate's tokens for every kind of positions, key/value heads and window; a generation in
// a Worker session (web/lib/generation.js through the trainer's protocol) reports each token's
// attention, cache, bytes and difference against a full pass, continues, stops when cancelled or
// when the model changes, and refuses to run while training does; the training view's new settings
// (positions, key/value heads, attention window) reach the trainer and travel in the address.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/lib/attention.js';
import { TrainingSession } from '../../web/lib/trainer-session.js';
import { createTrainer } from '../../web/lib/trainer.js';
import {
  normalizeSettings,
  settingsFromParams,
  settingsToParams,
  trainerConfig,
} from '../../web/ui/training/config.js';

let attn;
before(async () => {
  attn = await createAttention();
});

const CONFIGS = [
  { positions: 'learned' },
  { positions: 'rope', numKVHeads: 2 },
  { positions: 'alibi', numKVHeads: 1, attentionWindow: 5 },
  { positions: 'none', attentionWindow: 3 },
];
const base = { vocabSize: 30, contextLength: 24, dModel: 16, numLayers: 2, numHeads: 4, seed: 4 };

describe('decoder.sample', () => {
  test('one call per token, with u from the seed’s draws, gives model.generate’s tokens', () => {
    for (const extra of CONFIGS) {
      const model = attn.transformer({ ...base, ...extra });
      for (const [temperature, topK] of [
        [0, undefined],
        [0.9, 5],
        [1.4, undefined],
      ]) {
        const want = Array.from(model.generate([1, 2, 3], { maxNewTokens: 12, temperature, topK, seed: 7 }).tokens);
        const dec = model.decoder();
        const rng = attn.randomState(7);
        const got = [1, 2, 3];
        let next = [1, 2, 3];
        for (let i = 0; i < 12; i++) {
          const r = dec.sample(next, { temperature, topK, u: temperature > 0 ? rng.rand() : 0 });
          assert.equal(r.attentions.length, 2);
          got.push(r.token);
          next = [r.token];
        }
        assert.deepEqual(got, want, `${JSON.stringify(extra)} T=${temperature} k=${topK}`);
        dec.dispose();
        rng.dispose();
      }
      model.dispose();
    }
  });

  test('bad options are refused by name and leave the decoder as it was', () => {
    const model = attn.transformer(base);
    const dec = model.decoder();
    for (const [options, message] of [
      [{ temperature: -1 }, /temperature/],
      [{ u: 1 }, /u must be a number in \[0, 1\)/],
      [{ topK: 0 }, /topK/],
      [{ temperature: NaN }, /temperature/],
      [{ nope: 1 }, /nope/],
    ]) {
      assert.throws(() => dec.sample([1], options), message);
      assert.equal(dec.length, 0);
    }
    assert.equal(typeof dec.sample([1, 2], { temperature: 0 }).token, 'number');
    assert.equal(dec.length, 2);
    model.dispose();
  });
});

// A training session in this thread with a real model, its messages collected.
function session(model) {
  const messages = [];
  const config = { model: { ...base, ...model }, data: { kind: 'repeated' }, batchSize: 4 };
  const s = new TrainingSession(attn, config, (m) => messages.push(m));
  const ended = (id) =>
    new Promise((resolve) => {
      const poll = () => {
        const m = messages.find((x) => x.id === id && (x.type === 'generated' || x.type === 'error'));
        if (m) resolve(m);
        else setTimeout(poll, 2);
      };
      poll();
    });
  const steps = (id) => messages.filter((m) => m.type === 'generation' && m.id === id);
  let asked = 1000;
  // The session's parameters, through its own getState request (answered at once).
  const state = () => {
    const id = ++asked;
    s.handle({ type: 'getState', id });
    return messages.find((m) => m.type === 'state' && m.id === id).state;
  };
  return { s, messages, ended, steps, state };
}

describe('a generation in a Worker session', () => {
  test('reports each token with the layer’s attention and cache, the bytes and a full pass that agrees', async () => {
    const { s, ended, steps, state } = session({ positions: 'rope', numKVHeads: 2, attentionWindow: 6 });
    s.handle({ type: 'generate', id: 1, prompt: [0, 5, 6, 7], maxNewTokens: 8, temperature: 0.8, seed: 3, layer: 1 });
    const end = await ended(1);
    assert.equal(end.reason, 'done');
    const list = steps(1);
    assert.equal(list.length, 8);
    const model = attn.transformer({ ...base, positions: 'rope', numKVHeads: 2, attentionWindow: 6 });
    model.loadState(state());
    const want = Array.from(model.generate([0, 5, 6, 7], { maxNewTokens: 8, temperature: 0.8, seed: 3 }).tokens);
    assert.deepEqual(end.tokens, want);
    list.forEach((step, i) => {
      const length = 4 + i; // the prompt, then one appended token per step
      assert.equal(step.index, i);
      assert.equal(step.length, length);
      assert.deepEqual(step.attention.shape, [4, length]);
      const kept = Math.min(length, 6);
      assert.deepEqual(step.cache.keys.shape, [2, kept, 4]);
      assert.equal(step.cacheBytes, 2 * 2 * 2 * 4 * kept * 4);
      assert.ok(step.difference < 1e-5, `difference ${step.difference}`);
      assert.ok(step.msFull >= 0 && step.msCached >= 0);
      for (let h = 0; h < 4; h++) {
        const row = step.attention.data.subarray(h * length, (h + 1) * length);
        assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
        for (let j = 0; j <= length - 1 - 6; j++) assert.equal(row[j], 0, 'outside the window');
      }
    });
    model.dispose();
  });

  test('continue goes on with the same draws; cancel and a training step end it; training runs refuse it', async () => {
    const { s, ended, steps, state } = session({});
    s.handle({ type: 'generate', id: 1, prompt: [1, 2], maxNewTokens: 3, temperature: 1.1, seed: 9 });
    await ended(1);
    s.handle({ type: 'generate', id: 2, continue: true, maxNewTokens: 2, temperature: 1.1, seed: 9 });
    const second = await ended(2);
    const model = attn.transformer(base);
    model.loadState(state());
    assert.deepEqual(
      second.tokens,
      Array.from(model.generate([1, 2], { maxNewTokens: 5, temperature: 1.1, seed: 9 }).tokens),
    );
    assert.equal(steps(2)[0].index, 3);
    s.handle({ type: 'generate', id: 3, prompt: [1], maxNewTokens: 20, check: false });
    s.handle({ type: 'cancel-generate', id: 4 });
    const cancelled = await ended(3);
    assert.equal(cancelled.reason, 'cancelled');
    assert.ok(steps(3).length < 20);
    s.handle({ type: 'generate', id: 10, prompt: [1], maxNewTokens: 2, check: false });
    await ended(10);
    assert.deepEqual(
      steps(10).map((m) => [m.difference, m.msFull]),
      [
        [null, null],
        [null, null],
      ],
      'no full pass without check',
    );
    s.handle({ type: 'generate', id: 5, prompt: [1], maxNewTokens: 20 });
    s.handle({ type: 'step', id: 6, count: 1 });
    assert.equal((await ended(5)).reason, 'model-changed');
    s.handle({ type: 'generate', id: 7, continue: true, maxNewTokens: 1 });
    assert.match((await ended(7)).message, /no generation to continue/);
    s.handle({ type: 'start', id: 8 });
    s.handle({ type: 'generate', id: 9, prompt: [1], maxNewTokens: 1 });
    assert.match((await ended(9)).message, /pause training before generating/);
    s.dispose();
    model.dispose();
  });

  test('a prompt that fills the context is refused, and the context ends a generation', async () => {
    const { s, ended } = session({});
    s.handle({ type: 'generate', id: 1, prompt: Array(24).fill(1), maxNewTokens: 2 });
    assert.match((await ended(1)).message, /no room for a new one/);
    s.handle({ type: 'generate', id: 2, prompt: Array(20).fill(1), maxNewTokens: 10 });
    const end = await ended(2);
    assert.equal(end.reason, 'length');
    assert.equal(end.tokens.length, 24);
    s.handle({ type: 'generate', id: 3, prompt: [1], layer: 2 });
    assert.match((await ended(3)).message, /layer must be an integer from 0 to 1/);
  });
});

describe('through a Worker', () => {
  test('trainer.generate streams tokens and resolves with model.generate’s; cancelGeneration stops it', async () => {
    const trainer = await createTrainer({
      model: { ...base, positions: 'alibi', numKVHeads: 2 },
      data: { kind: 'repeated' },
    });
    try {
      await trainer.step(3);
      const seen = [];
      const end = await trainer.generate(
        { prompt: [0, 4, 5], maxNewTokens: 6, temperature: 0.7, seed: 2, layer: 0 },
        (step) => seen.push(step.token),
      );
      const model = attn.transformer(trainer.config.model);
      model.loadState(await trainer.getState());
      assert.deepEqual(
        end.tokens,
        Array.from(model.generate([0, 4, 5], { maxNewTokens: 6, temperature: 0.7, seed: 2 }).tokens),
      );
      assert.deepEqual(seen, end.tokens.slice(3));
      const long = trainer.generate({ prompt: [0], maxNewTokens: 20, temperature: 0 }, () => {});
      await trainer.cancelGeneration();
      assert.equal((await long).reason, 'cancelled');
      model.dispose();
    } finally {
      await trainer.terminate();
    }
  });
});

describe('the training view’s settings', () => {
  test('positions, key/value heads and the window are checked, reach the trainer and survive the address', () => {
    const s = normalizeSettings({ heads: 6, kvHeads: 4, positions: 'rope', dModel: 40, windowSize: 99 });
    assert.deepEqual([s.kvHeads, s.positions, s.dModel, s.windowSize], [3, 'rope', 48, 32]);
    assert.equal(normalizeSettings({ heads: 4 }).kvHeads, 4);
    assert.equal(normalizeSettings({ positions: 'nope' }).positions, 'learned');
    const model = trainerConfig(s).model;
    assert.deepEqual([model.positions, model.numKVHeads, model.attentionWindow], ['rope', 3, 32]);
    assert.equal(trainerConfig(normalizeSettings({})).model.attentionWindow, null);
    const params = settingsToParams(s);
    assert.equal(params.get('positions'), 'rope');
    assert.equal(params.get('kvHeads'), '3');
    assert.equal(params.get('windowSize'), '32');
    assert.deepEqual(settingsFromParams(`#${params}`), s);
    assert.equal(
      settingsToParams(normalizeSettings({ heads: 8, kvHeads: 8 })).get('kvHeads'),
      null,
      'all heads is the default',
    );
    assert.equal(settingsFromParams(`#${settingsToParams(normalizeSettings({ heads: 8, kvHeads: 4 }))}`).kvHeads, 4);
  });
});
