// The Worker trainer in Node (worker_threads) with the real model: the Worker's own WebAssembly
// instance trains exactly as the same session does in this thread, start/pause/step/reset work
// across the thread boundary, and bad configs fail before a Worker starts.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire, syncBuiltinESMExports } from 'node:module';

import { createAttention } from '../../web/lib/attention.js';
import { createTrainer } from '../../web/lib/trainer.js';
import { TrainingSession } from '../../web/lib/trainer-session.js';

const CONFIG = {
  model: { vocabSize: 12, contextLength: 12, dModel: 16, numLayers: 2, numHeads: 2, mlp: false, seed: 1 },
  batchSize: 8,
  reportEvery: 4,
  seed: 3,
  optimizer: { learningRate: 3e-3 },
  probe: { batchSize: 4, repeatLengths: [4] },
};

let attn;
let skip = null;
before(async () => {
  attn = await createAttention();
  if (typeof attn.transformer !== 'function') skip = 'attn.transformer is not in this build yet';
});

// A test with a fresh Worker trainer, terminated however the test ends.
function trainerTest(name, body) {
  test(name, async (t) => {
    if (skip) return t.skip(skip);
    const trainer = await createTrainer(CONFIG);
    try {
      await body(trainer);
    } finally {
      await trainer.terminate();
    }
  });
}

trainerTest('steps in the Worker equal the same steps in this thread', async (trainer) => {
  assert.equal(trainer.config.batchSize, 8);
  assert.ok(trainer.parameterCount > 0);
  const progress = await trainer.step(5);
  assert.equal(progress.step, 5);
  assert.equal(progress.losses.length, 5);
  const local = [];
  const session = new TrainingSession(attn, CONFIG, (m) => local.push(m));
  session.handle({ type: 'step', count: 5 });
  session.dispose();
  // Both load the same build ('auto'), so float32 results agree to the bit.
  assert.deepEqual(progress.losses, local[0].losses);
  assert.equal(progress.probe.headScores.length, 2);
  assert.deepEqual(progress.probe.attentions[0].shape, [2, 12, 12]);
  assert.ok(progress.probe.attentions[0].data instanceof Float32Array);
});

trainerTest(
  'ablation zeroes one head in a copy: downstream changes, upstream and the trained model do not',
  async (trainer) => {
    await trainer.step(20);
    const base = await trainer.probe();
    assert.equal(base.lossByPosition.length, 12);
    const first = await trainer.ablate(0, 1);
    const last = await trainer.ablate(1, 0);
    const same = (a, b) => a.data.every((x, i) => x === b.data[i]);
    // A layer-0 head feeds layer 1: layer-0 attention is unchanged, layer-1 attention moves.
    assert.ok(same(first.attentions[0], base.attentions[0]));
    assert.ok(!same(first.attentions[1], base.attentions[1]));
    // A last-layer head changes only the output.
    assert.ok(same(last.attentions[0], base.attentions[0]) && same(last.attentions[1], base.attentions[1]));
    assert.notEqual(last.loss, base.loss);
    assert.deepEqual((await trainer.probe()).lossByPosition, base.lossByPosition, 'the trained model is untouched');
    await assert.rejects(trainer.ablate(2, 0), /trainer: layer must be an integer from 0 to 1/);
    await assert.rejects(trainer.ablate(0, 2), /trainer: head must be an integer from 0 to 1/);
  },
);

trainerTest('start, progress, pause, getState and reset across the thread boundary', async (trainer) => {
  const seen = [];
  const stopped = new Promise((resolve, reject) => {
    trainer.onStopped = resolve;
    trainer.onError = reject;
  });
  trainer.onProgress = (p) => seen.push(p.step);
  assert.deepEqual(
    await trainer.start({ maxSteps: 10 }),
    { step: 10, reason: 'maxSteps' },
    'start() resolves when the run ends',
  );
  assert.equal((await stopped).step, 10);
  assert.deepEqual(seen, [4, 8, 10]);
  const first = await trainer.getState();
  assert.ok(first['wte.weight'].data instanceof Float32Array);
  assert.deepEqual(first['h.0.attn.c_attn.weight'].shape, [16, 48]);
  // An open-ended run stops when paused, and no step runs after that.
  const run = trainer.start();
  await new Promise((resolve, reject) => {
    trainer.onProgress = (p) => {
      if (p.step >= 18) resolve();
    };
    trainer.onError = reject; // an error while running would otherwise leave this waiting
  });
  const paused = await trainer.pause();
  assert.deepEqual(await run, { step: paused.step, reason: 'paused' });
  const after = await trainer.step(1);
  assert.equal(after.step, paused.step + 1);
  const reset = await trainer.reset();
  assert.equal(reset.step, 0);
  const again = await trainer.step(5);
  const fresh = await createTrainer(CONFIG);
  try {
    assert.deepEqual(again.losses, (await fresh.step(5)).losses, 'reset gives the same run as a new trainer');
  } finally {
    await fresh.terminate();
  }
});

test('bad configs and requests fail with clear Errors', async (t) => {
  await assert.rejects(createTrainer({ model: CONFIG.model, batchSize: 0 }), /batchSize must be an integer from 1/);
  await assert.rejects(
    createTrainer({ model: CONFIG.model, data: { seqLength: 40 } }),
    /data.seqLength 40 exceeds model.contextLength 12/,
  );
  if (skip) return t.skip(skip);
  await assert.rejects(createTrainer({ model: { ...CONFIG.model, numHeads: 3 } }), /trainer: .*numHeads/);
  const trainer = await createTrainer(CONFIG);
  try {
    await assert.rejects(trainer.step(0), /trainer: count must be an integer from 1/);
    assert.equal((await trainer.step(1)).step, 1, 'the Worker keeps working after an error');
  } finally {
    await trainer.terminate();
  }
  await assert.rejects(trainer.step(1), /terminated/);
});

test("attend: the model's attention on a sequence of your own equals its forward, with head scores; bad ids are refused", async (t) => {
  if (skip) return t.skip(skip);
  const trainer = await createTrainer(CONFIG);
  try {
    await trainer.step(3);
    const tokens = [0, 5, 7, 5, 7, 3];
    const got = await trainer.attend(tokens);
    assert.equal(got.step, 3);
    const model = attn.transformer(CONFIG.model);
    try {
      model.loadState(await trainer.getState());
      const want = model.forward(tokens).attentions;
      assert.equal(got.attentions.length, 2);
      for (let l = 0; l < 2; l++) {
        assert.deepEqual(got.attentions[l].shape, [2, 6, 6]);
        assert.deepEqual(Array.from(got.attentions[l].data), Array.from(want[l].data));
        const scores = attn.headScores(tokens, want[l]);
        assert.deepEqual(got.headScores[l].previousToken, Array.from(scores.previousToken));
      }
    } finally {
      model.dispose();
    }
    await assert.rejects(trainer.attend([0, 99]), /trainer: tokens\[1\] is 99, outside \[0, vocabSize = 12\)/);
    await assert.rejects(trainer.attend(new Array(13).fill(1)), /more than contextLength \(12\)/);
    assert.equal((await trainer.attend([1, 2])).attentions[0].shape[1], 2); // still working
  } finally {
    await trainer.terminate();
  }
});

// Counts the worker_threads Workers started while `body` runs (the product has no hook for this:
// the module's Worker class is swapped for a counting subclass).
async function countingWorkers(body) {
  const workerThreads = createRequire(import.meta.url)('node:worker_threads');
  const Original = workerThreads.Worker;
  let spawned = 0;
  workerThreads.Worker = class extends Original {
    constructor(...args) {
      spawned++;
      super(...args);
    }
  };
  syncBuiltinESMExports();
  try {
    await body(() => spawned);
  } finally {
    workerThreads.Worker = Original;
    syncBuiltinESMExports();
  }
}

test('a bad config rejects before any Worker starts, with a message that names the option', async () => {
  await countingWorkers(async (spawned) => {
    const bad = [
      [{ model: { ...CONFIG.model, numHeads: 3 } }, /^trainer: numHeads \(3\) must divide dModel \(16\)/],
      [{ model: { ...CONFIG.model, vocabSize: undefined } }, /^trainer: vocabSize must be a positive integer/],
      [{ model: { ...CONFIG.model, dropout: 0.1 } }, /^trainer: transformer config has an unknown option "dropout"/],
      [{ model: CONFIG.model, optimizer: { learningrate: 1 } }, /^trainer: optimizer has no option "learningrate"/],
      [
        { model: CONFIG.model, optimizer: { learningRate: NaN } },
        /^trainer: optimizer.learningRate must be a finite number, got NaN/,
      ],
      [{ model: CONFIG.model, optimizer: { eps: 0 } }, /^trainer: optimizer.eps must be a number in \[1e-30, 1\]/],
      [
        { model: CONFIG.model, optimizer: { learningRate: 1e30 } },
        /^trainer: optimizer.learningRate must be a number in \[0, 10\]/,
      ],
      [{ model: CONFIG.model, optimizer: { betas: [0.9, 1] } }, /^trainer: optimizer.betas\[1\] must be/],
      [{ model: CONFIG.model, data: { minRepeat: 9 } }, /^trainer: minRepeat/],
      [{ model: CONFIG.model, probe: { repeatLengths: [20] } }, /^trainer: repeatLengths\[0\]/],
      [{ model: CONFIG.model, data: { kind: 'text', text: 'abc' } }, /^trainer: text has 3 characters/],
      [
        { model: CONFIG.model, data: { kind: 'batches' } },
        /^trainer: data.source is required with data.kind "batches"/,
      ],
      [{ model: CONFIG.model, data: { kind: 'batches', source: 42 } }, /^trainer: data.source is required/],
      [{ model: CONFIG.model, simd: 'yes' }, /^trainer: simd must be 'auto', true or false/],
    ];
    for (const [config, message] of bad) await assert.rejects(createTrainer(config), { message });
    assert.equal(spawned(), 0, 'no Worker started for a bad config');
    if (skip) return;
    const trainer = await createTrainer(CONFIG);
    await trainer.terminate();
    assert.equal(spawned(), 1, 'a good config starts one Worker (so the count is real)');
  });
});

test('mode "main-thread": the same training on this thread, in slices, with no Worker', async (t) => {
  if (skip) return t.skip(skip);
  await countingWorkers(async (spawned) => {
    const trainer = await createTrainer(CONFIG, { mode: 'main-thread' });
    try {
      assert.equal(trainer.mode, 'main-thread');
      const inWorker = await createTrainer(CONFIG);
      assert.equal(inWorker.mode, 'worker');
      const [here, there] = [await trainer.step(5), await inWorker.step(5)];
      await inWorker.terminate();
      assert.equal(spawned(), 1, 'only the comparison trainer started a Worker');
      assert.deepEqual(here.losses, there.losses);
      // The event loop keeps turning while a run trains here: a run that held the thread to its end
      // would let no timer fire before it resolved (counted as it resolves, however slow the steps).
      let turns = 0;
      const timer = setInterval(() => {
        turns++;
      }, 1);
      const end = await trainer.start({ maxSteps: 150 });
      const turnsDuringRun = turns;
      clearInterval(timer);
      assert.deepEqual(end, { step: 155, reason: 'maxSteps' });
      assert.ok(turnsDuringRun >= 3, `${turnsDuringRun} timer turns during 150 steps`);
      // pause() ends a run here as in a Worker.
      const run = trainer.start();
      while (trainer.lastStep < 170)
        await new Promise((resolve) => {
          setTimeout(resolve, 5);
        });
      const paused = await trainer.pause();
      assert.deepEqual(await run, { step: paused.step, reason: 'paused' });
    } finally {
      await trainer.terminate();
    }
    const last = trainer.lastStep;
    await new Promise((resolve) => {
      setTimeout(resolve, 50);
    });
    assert.equal(trainer.lastStep, last);
  });
});
