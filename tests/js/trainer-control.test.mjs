// The Worker trainer stops when told, with a real model slow enough (~0.3–1 s a step on this
// machine) that the old loop, which ran reportEvery steps (or all of step(n)) before reading a
// message, took tens of seconds to pause or terminate. Bounds are in steps where the test can
// count them, and loose in time otherwise (this runs on a loaded 2-core machine).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createTrainer } from '../../web/lib/trainer.js';

// A big model for this machine: d_model 256, 128 tokens, batch 16.
const SLOW = {
  model: { vocabSize: 32, contextLength: 128, dModel: 256, numLayers: 2, numHeads: 4, mlp: true, seed: 1 },
  batchSize: 16,
  reportEvery: 3,
  probe: false,
  optimizer: { learningRate: 1e-3 },
};

const withTimeout = (promise, ms, what) =>
  Promise.race([
    promise,
    new Promise((_, reject) => {
      setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms).unref();
    }),
  ]);

test('pause() during start() on a slow model stops after at most the step under way', { timeout: 120000 }, async () => {
  const trainer = await createTrainer(SLOW);
  try {
    const run = trainer.start();
    // Asked for the moment the first progress (step 3) arrives; the old loop had begun 3 more steps.
    const { asked, paused } = await withTimeout(
      new Promise((resolve, reject) => {
        trainer.onError = reject;
        trainer.onProgress = (p) => {
          trainer.onProgress = null;
          trainer.pause().then((r) => resolve({ asked: p.step, paused: r }), reject);
        };
      }),
      60000,
      'the first progress and the pause',
    );
    assert.equal(asked, 3);
    assert.ok(paused.step - asked <= 1, `${paused.step - asked} steps ran after pause() was asked at step ${asked}`);
    assert.deepEqual(await run, { step: paused.step, reason: 'paused' }, 'start() resolves when the run ends');
  } finally {
    await trainer.terminate();
  }
});

test(
  'step(3000) on a slow model can be paused: it resolves early with the steps that ran, and nothing runs after',
  { timeout: 120000 },
  async () => {
    const trainer = await createTrainer(SLOW);
    try {
      const t0 = performance.now();
      const one = await trainer.step(1);
      const stepMs = performance.now() - t0;
      const long = trainer.step(3000);
      await new Promise((resolve) => {
        setTimeout(resolve, 1.5 * stepMs);
      });
      const asked = performance.now();
      const paused = await withTimeout(trainer.pause(), 3 * stepMs + 2000, 'pause() during step(3000)');
      const waited = performance.now() - asked;
      const cut = await long;
      assert.equal(cut.interrupted, 'paused');
      assert.equal(cut.step, paused.step);
      assert.ok(cut.step > one.step && cut.step < 3000, `step ${cut.step}`);
      assert.equal(cut.losses.length, cut.step - one.step, 'the reply carries the loss of every step that ran');
      await new Promise((resolve) => {
        setTimeout(resolve, 2 * stepMs);
      });
      assert.equal((await trainer.step(1)).step, paused.step + 1, 'no step ran after the pause');
      console.log(`# one step ${stepMs.toFixed(0)} ms; pause answered in ${waited.toFixed(0)} ms`);
    } finally {
      await trainer.terminate();
    }
  },
);

test(
  'terminate() during step(3000) on a slow model ends the Worker at once and rejects what is pending',
  { timeout: 120000 },
  async () => {
    const trainer = await createTrainer(SLOW);
    const running = [trainer.step(3000), trainer.start()];
    await new Promise((resolve) => {
      setTimeout(resolve, 300);
    });
    const pending = Promise.allSettled([...running, trainer.getState()]); // asked during a step
    const t0 = performance.now();
    await withTimeout(trainer.terminate(), 2000, 'terminate()');
    const took = performance.now() - t0;
    const [long, run, state] = await pending;
    assert.equal(long.reason.message, 'trainer: step() did not finish: terminate() stopped the trainer');
    assert.equal(run.reason.message, 'trainer: start() did not finish: terminate() stopped the trainer');
    assert.equal(state.reason.message, 'trainer: getState() did not finish: terminate() stopped the trainer');
    await assert.rejects(trainer.step(1), /trainer: step\(\) after terminate\(\)/);
    await trainer.terminate(); // again: nothing happens
    // The grace period is 30 ms; worker_threads' terminate() cuts the WebAssembly step short.
    console.log(`# terminate() took ${took.toFixed(0)} ms`);
  },
);
