// The trainer on the caller's own batches (data: { kind: 'batches', source }): the main thread
// pulls from a function or an (async) iterable only as far as the Worker asks (back-pressure),
// checks each batch where the message can name it, and the Worker trains on exactly those batches.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/lib/attention.js';
import { createTrainer } from '../../web/lib/trainer.js';

const MODEL = { vocabSize: 12, contextLength: 10, dModel: 16, numLayers: 1, numHeads: 2, mlp: false, seed: 4 };
const OPTIMIZER = { learningRate: 1e-2 };

// Batch k: 3 sequences of 8 tokens; next-token targets, the last position ignored.
function batchOf(k) {
  const tokens = Array.from({ length: 3 }, (_, b) =>
    Array.from({ length: 8 }, (_, i) => (k * 5 + b * 3 + i * (b + 1)) % 12),
  );
  const targets = tokens.map((row) => row.map((_, i) => (i + 1 < row.length ? row[i + 1] : -1)));
  return { tokens, targets };
}

let attn;
before(async () => {
  attn = await createAttention();
});

// The losses of the same batches trained in this thread, with the same model config.
function localLosses(batches) {
  const model = attn.transformer(MODEL);
  try {
    return batches.map(({ tokens, targets }) => model.trainStep(tokens, targets, OPTIMIZER).loss);
  } finally {
    model.dispose();
  }
}

test('a generator of batches: pulled only as far as the Worker asks, trained exactly as in this thread', async () => {
  let pulled = 0;
  function* batches() {
    for (let k = 0; ; k++) {
      pulled++;
      yield batchOf(k);
    }
  }
  const trainer = await createTrainer({
    model: MODEL,
    optimizer: OPTIMIZER,
    data: { kind: 'batches', source: batches(), prefetch: 2 },
  });
  try {
    assert.equal(pulled, 0, 'nothing pulled before training');
    assert.deepEqual(trainer.config.data, { kind: 'batches', prefetch: 2 });
    assert.equal(trainer.config.probe, false, 'no probe unless probe.batch is given');
    const progress = await trainer.step(6);
    assert.equal(progress.step, 6);
    assert.ok(pulled >= 6 && pulled <= 6 + 2, `${pulled} batches pulled for 6 steps with prefetch 2`);
    // Float32 results of the same build agree to the bit.
    assert.deepEqual(progress.losses, localLosses([0, 1, 2, 3, 4, 5].map(batchOf)));
    await new Promise((resolve) => {
      setTimeout(resolve, 50);
    });
    assert.ok(pulled <= 6 + 2, 'an idle trainer pulls no more');
  } finally {
    await trainer.terminate();
  }
});

test("an async source that is slower than the model, with Hugging Face's −100 as the ignored label", async () => {
  async function* batches() {
    for (let k = 0; k < 4; k++) {
      await new Promise((resolve) => {
        setTimeout(resolve, 15);
      });
      const { tokens, targets } = batchOf(k);
      yield { tokens, targets: targets.map((row) => row.map((x) => (x === -1 ? -100 : x))) };
    }
  }
  const trainer = await createTrainer({
    model: MODEL,
    optimizer: OPTIMIZER,
    data: { kind: 'batches', source: batches() },
  });
  try {
    const end = await trainer.start();
    assert.deepEqual(end, { step: 4, reason: 'endOfData' }, 'start() resolves when the data ends');
    const state = await trainer.getState();
    const model = attn.transformer(MODEL);
    try {
      for (let k = 0; k < 4; k++) model.trainStep(batchOf(k).tokens, batchOf(k).targets, OPTIMIZER);
      const want = model.getState();
      for (const name of Object.keys(want)) assert.deepEqual(state[name].data, want[name].data, name);
    } finally {
      model.dispose();
    }
  } finally {
    await trainer.terminate();
  }
});

test("a function source gets each batch's index and ends the data with null; probe.batch is the probe", async () => {
  const indices = [];
  const source = async (index) => {
    indices.push(index);
    return index < 5 ? batchOf(index) : null;
  };
  const probeBatch = batchOf(99);
  const trainer = await createTrainer({
    model: MODEL,
    optimizer: OPTIMIZER,
    data: { kind: 'batches', source },
    probe: { batch: probeBatch },
  });
  try {
    const before = await trainer.probe();
    assert.deepEqual(before.tokens, probeBatch.tokens[0]);
    const model = attn.transformer(MODEL);
    try {
      const { loss, count } = attn.lossByPosition(model.forward(probeBatch.tokens).logits, probeBatch.targets);
      const mean = loss.reduce((a, x, i) => a + x * count[i], 0) / count.reduce((a, b) => a + b, 0);
      assert.ok(
        Math.abs(before.loss - mean) < 1e-6,
        `probe loss ${before.loss}, the untrained model's loss on probe.batch ${mean}`,
      );
    } finally {
      model.dispose();
    }
    const cut = await trainer.step(8);
    assert.equal(cut.interrupted, 'endOfData');
    assert.equal(cut.step, 5);
    assert.deepEqual(indices, [0, 1, 2, 3, 4, 5]);
    assert.notEqual(cut.probe.loss, before.loss, 'the probe is evaluated with the progress, after training');
    assert.deepEqual(
      await trainer.start(),
      { step: 5, reason: 'endOfData' },
      'an ended source ends every later run at once',
    );
  } finally {
    await trainer.terminate();
  }
});

test('bad batches stop training with an Error that names the batch and the value; the trainer keeps working', async () => {
  const cases = [
    [{ tokens: [[1, 2, 99]], targets: [[2, 3, -1]] }, 'data.source[1].tokens[0][2] is 99, outside [0, vocabSize = 12)'],
    [
      { tokens: [[1, 2, 3]], targets: [[2, 3]] },
      'data.source[1].targets must have the shape of data.source[1].tokens [1, 3], got [1, 2]',
    ],
    [
      { tokens: [[1, 2, 3]], targets: [[2, 3, -7]] },
      'data.source[1].targets[0][2] is -7, outside [0, vocabSize = 12) (−1 or −100 = ignored)',
    ],
    [
      { tokens: [[1, 2, 3]], targets: [[-1, -100, -1]] },
      'data.source[1].targets are all ignored (−1 or −100): there is no loss to train on',
    ],
    [
      { tokens: [new Array(11).fill(1)], targets: [new Array(11).fill(1)] },
      'data.source[1].tokens has 11 tokens per sequence, more than model.contextLength (10)',
    ],
    [{ tokens: [[1, 2.5]], targets: [[1, 1]] }, 'data.source[1].tokens[0][1] is 2.5; token ids must be integers'],
    [
      { tokens: [[1, 2]] },
      'data.source[1].targets is required: the next token of each position (−1 or −100 = ignored)',
    ],
    ['tokens', 'data.source[1] must be { tokens, targets }, got "tokens"'],
  ];
  for (const [bad, message] of cases) {
    const trainer = await createTrainer({
      model: MODEL,
      data: { kind: 'batches', source: [batchOf(0), bad, batchOf(2)] },
    });
    try {
      await assert.rejects(trainer.start(), { message: `trainer: ${message}` });
      assert.equal(trainer.lastStep, 1, 'the good batch before it was trained');
      assert.equal((await trainer.getState())['wte.weight'].shape[0], 12, 'the trainer still answers');
    } finally {
      await trainer.terminate();
    }
  }
  const throwing = await createTrainer({
    model: MODEL,
    data: {
      kind: 'batches',
      source: () => {
        throw new Error('the file is gone');
      },
    },
  });
  try {
    await assert.rejects(throwing.step(2), { message: 'trainer: data.source failed at batch 0: the file is gone' });
  } finally {
    await throwing.terminate();
  }
});
