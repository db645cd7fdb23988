// The Worker trainer in headless Chromium under the page's strict CSP: a module Worker loads its own
// WebAssembly instance, trains, reports progress with probe attentions and head scores, pauses,
// resets and hands back the state, while the page's main thread keeps running (it counts its own
// event-loop turns during the run). No CSP violation, no console error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { collectProblems, launch, openExplorer } from './helpers.mjs';
import { inductionConfig } from '../../scripts/train/induction.mjs';

let env;
let page;
let problems;
let hasModel = false;

before(async () => {
  env = await launch();
  ({ page, problems } = await openExplorer(env));
  hasModel = await page.evaluate(async () => {
    const { createAttention } = await import('/lib/attention.js');
    return typeof (await createAttention()).transformer === 'function';
  });
});

after(async () => {
  await env?.close();
});

test('trains in a module Worker: progress, probe, pause, reset, state; the page stays responsive', async (t) => {
  if (!hasModel) return t.skip('attn.transformer is not in this build yet');
  const r = await page.evaluate(async () => {
    const { createTrainer } = await import('/lib/trainer.js');
    const trainer = await createTrainer({
      model: { vocabSize: 12, contextLength: 12, dModel: 16, numLayers: 2, numHeads: 2, mlp: false, seed: 1 },
      batchSize: 8, reportEvery: 5, seed: 3, optimizer: { learningRate: 3e-3 }, probe: { batchSize: 4 },
    });
    // The main thread counts its own event-loop turns while the Worker trains.
    let turns = 0;
    let counting = true;
    const count = () => { turns++; if (counting) setTimeout(count, 0); };
    count();
    const progress = [];
    trainer.onProgress = (p) => progress.push({ step: p.step, losses: p.losses.length, probe: p.probe });
    const stopped = new Promise((resolve, reject) => { trainer.onStopped = resolve; trainer.onError = reject; });
    await trainer.start({ maxSteps: 30 });
    const stop = await stopped;
    counting = false;
    const runSteps = progress.map((p) => p.step);
    const one = await trainer.step(2);
    const state = await trainer.getState();
    const reset = await trainer.reset();
    const afterReset = await trainer.step(1);
    await trainer.terminate();
    const last = progress[progress.length - 1].probe;
    return {
      steps: runSteps, stop: stop.step, turns, one: one.step, reset: reset.step, afterReset: afterReset.step,
      names: Object.keys(state).length, wte: state['wte.weight'].shape,
      attention: last.attentions[0].shape, isF32: last.attentions[0].data instanceof Float32Array,
      scores: last.headScores.map((s) => s.induction.length), probeLoss: last.loss,
    };
  });
  assert.deepEqual(r.steps, [5, 10, 15, 20, 25, 30]);
  assert.equal(r.stop, 30);
  assert.equal(r.one, 32);
  assert.equal(r.reset, 0);
  assert.equal(r.afterReset, 1);
  assert.deepEqual(r.wte, [12, 16]);
  assert.ok(r.names >= 8, `${r.names} tensors in the state`);
  assert.deepEqual(r.attention, [2, 12, 12]);
  assert.ok(r.isF32);
  assert.deepEqual(r.scores, [2, 2]);
  assert.ok(Number.isFinite(r.probeLoss));
  assert.ok(r.turns > 6, `the main thread ran ${r.turns} event-loop turns while the Worker trained`);
  assert.deepEqual(await collectProblems(page, problems), []);
});

test('the Worker loads its WebAssembly instance under the strict CSP and reports errors as rejections', async () => {
  const message = await page.evaluate(async () => {
    const { createTrainer } = await import('/lib/trainer.js');
    try {
      await createTrainer({ model: { vocabSize: 12, contextLength: 12, dModel: 16, numLayers: 1, numHeads: 3 } });
      return 'no error';
    } catch (err) {
      return err.message;
    }
  });
  // The model rejects 3 heads for dModel 16; a build without the model has no attn.transformer yet.
  assert.match(message, /^trainer: .*(numHeads|transformer)/);
  assert.deepEqual(await collectProblems(page, problems), []);
});

test('the Worker grows an induction head in Chromium that works on an unseen repeat length', async (t) => {
  if (!hasModel) return t.skip('attn.transformer is not in this build yet');
  // The run of tests/js/induction.test.mjs (same preset, seed and steps), here through the Worker.
  const config = { ...inductionConfig('small', 2), reportEvery: 150 };
  const r = await page.evaluate(async (cfg) => {
    const { createTrainer } = await import('/lib/trainer.js');
    const trainer = await createTrainer(cfg);
    const before = await trainer.probe();
    const stopped = new Promise((resolve, reject) => { trainer.onStopped = resolve; trainer.onError = reject; });
    await trainer.start({ maxSteps: 450 });
    await stopped;
    const after = await trainer.probe();
    await trainer.terminate();
    return { before, after };
  }, config);
  const induction = r.after.headScores[1].induction;
  const summary = `held-out loss ${r.before.loss.toFixed(2)} → ${r.after.loss.toFixed(3)}, layer-2 induction ${induction.map((x) => x.toFixed(2))}`;
  assert.ok(r.before.loss > 3, summary);
  assert.ok(r.after.loss < 0.8, summary);
  assert.ok(Math.max(...induction) > 0.3, summary);
  assert.ok(induction[0] + induction[1] > 0.5, summary);
  assert.deepEqual(await collectProblems(page, problems), []);
});
