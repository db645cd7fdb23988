// Positions and key/value heads in attn.transformer against PyTorch autograd in float64, on data
// written by scripts/reference/generate_positions_reference.py (tests/data/positions-reference.json):
// RoPE, ALiBi (four heads and six), GQA, MQA, sliding windows and their combinations; logits,
// attentions, loss, every gradient and three Adam steps, on both WebAssembly builds. Tolerances as
// in transformer-torch.test.mjs (tests/js/support/transformer-reference.mjs).
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createAttention } from '../../web/lib/attention.js';
import { createTrainer } from '../../web/lib/trainer.js';
import { TrainingSession } from '../../web/lib/trainer-session.js';
import {
  ATOL_REL,
  F32_SLACK,
  assertClose,
  flat,
  loadModel,
  optimizerOptions,
  zeroGradientSkip,
} from './support/transformer-reference.mjs';

const reference = JSON.parse(readFileSync(new URL('../data/positions-reference.json', import.meta.url), 'utf8'));

// Query i sees key j exactly when j ≤ i and, with a window W, j > i − W.
const visible = (config, i, j) => j <= i && (config.attentionWindow === undefined || j > i - config.attentionWindow);

function modelTests(getAttn, c) {
  const dev = c.float32Deviation;

  test(`${c.name}: shapes, parameter count, logits and attentions`, () => {
    const model = loadModel(getAttn(), c);
    try {
      const state = model.getState();
      assert.deepEqual(Object.keys(state).sort(), Object.keys(c.state).sort(), 'getState names');
      for (const [name, t] of Object.entries(c.state)) assert.deepEqual(state[name].shape, t.shape, `${name} shape`);
      const count = Object.values(c.state).reduce((sum, t) => sum + t.data.length, 0);
      assert.equal(model.parameterCount(), count);
      assert.equal('wpe.weight' in state, c.config.positions === 'learned');
      const out = model.forward(c.tokens, { needWeights: true });
      assertClose(out.logits, c.logits, dev.logits, 'logits');
      c.attentions.forEach((a, l) => assertClose(out.attentions[l], a, dev.attentions, `attentions[${l}]`));
      const [B, H, T] = c.attentions[0].shape;
      for (const a of out.attentions)
        // hidden keys are exactly 0, not merely small
        for (let row = 0; row < B * H * T; row++)
          for (let j = 0; j < T; j++)
            if (!visible(c.config, row % T, j)) assert.equal(a.data[row * T + j], 0, `row ${row}, key ${j}`);
      const streamed = model.forward(c.tokens, { needWeights: false });
      assertClose(streamed.logits, c.logits, dev.logits, 'logits without weights (streaming heads)');
    } finally {
      model.dispose();
    }
  });

  test(`${c.name}: loss and every gradient`, () => {
    const model = loadModel(getAttn(), c);
    try {
      const { loss, grads } = model.gradients(c.tokens, c.targets);
      assert.ok(
        Math.abs(loss - c.loss) <= ATOL_REL * Math.abs(c.loss) + F32_SLACK * dev.loss,
        `loss ${loss}, expected ${c.loss}`,
      );
      assert.deepEqual(Object.keys(grads).sort(), Object.keys(c.grads).sort(), 'gradient names');
      for (const [name, g] of Object.entries(c.grads)) assertClose(grads[name], g, dev.grads[name], `grad ${name}`);
    } finally {
      model.dispose();
    }
  });

  test(`${c.name}: parameters after ${c.optimizer.steps} Adam steps`, () => {
    const model = loadModel(getAttn(), c);
    try {
      const options = optimizerOptions(c.optimizer);
      c.steps.losses.forEach((expected, step) => {
        const { loss } = model.trainStep(c.tokens, c.targets, options);
        assert.ok(
          Math.abs(loss - expected) <= ATOL_REL * Math.abs(expected) + F32_SLACK * dev.loss + 1e-6,
          `loss before step ${step + 1}: ${loss}, expected ${expected}`,
        );
      });
      const after = model.getState();
      const o = c.optimizer;
      for (const [name, want] of Object.entries(c.steps.after)) {
        const skip = zeroGradientSkip(c, name);
        assertClose(after[name], want, dev.after[name], `after ${name}`, skip);
        if (!skip) continue;
        // Zero in exact arithmetic: float32 noise moves them by at most Adam's step bound.
        const bound =
          o.steps * o.learningRate * ((1 - o.betas[0]) / Math.sqrt(1 - o.betas[1]) + o.weightDecay * 10) + 1e-6;
        const got = flat(after[name]).data;
        for (let i = 0; i < got.length; i++)
          if (skip(i)) assert.ok(Math.abs(got[i] - c.state[name].data[i]) <= bound, `${name}[${i}] moved too far`);
      }
    } finally {
      model.dispose();
    }
  });
}

for (const simd of [true, false]) {
  describe(`positions and key/value heads vs PyTorch, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });
    for (const c of reference.cases) modelTests(() => attn, c);

    test('the reference data covers rope, alibi (four and six heads), GQA, MQA, windows and combinations', () => {
      const configs = reference.cases.map((c) => c.config);
      assert.ok(configs.some((c) => c.positions === 'rope' && !c.numKVHeads && !c.attentionWindow));
      assert.ok(configs.some((c) => c.positions === 'alibi' && c.numHeads === 4));
      assert.ok(configs.some((c) => c.positions === 'alibi' && c.numHeads === 6));
      assert.ok(configs.some((c) => c.numKVHeads > 1 && c.numKVHeads < c.numHeads));
      assert.ok(configs.some((c) => c.numKVHeads === 1));
      assert.ok(configs.some((c) => c.attentionWindow && c.positions === 'learned'));
      assert.ok(configs.some((c) => c.positions === 'rope' && c.numKVHeads && c.attentionWindow));
      assert.ok(configs.some((c) => c.positions === 'alibi' && c.numKVHeads && c.attentionWindow));
      for (const c of reference.cases) assert.equal('wpe.weight' in c.state, c.config.positions === 'learned');
    });
  });
}

const TINY = { vocabSize: 11, contextLength: 8, dModel: 8, numLayers: 2, numHeads: 4 };

describe('the new config keys', () => {
  let attn;
  before(async () => {
    attn = await createAttention();
  });

  test('defaults: ropeBase 10000, numKVHeads = numHeads, no window; parameter counts follow c_attn', () => {
    const model = attn.transformer(TINY);
    const { ropeBase, numKVHeads, attentionWindow } = model.config;
    assert.deepEqual(
      { ropeBase, numKVHeads, attentionWindow },
      { ropeBase: 10000, numKVHeads: 4, attentionWindow: null },
    );
    const mqa = attn.transformer({ ...TINY, numKVHeads: 1, positions: 'rope' });
    // c_attn [E, E + 2·KV·d]: 8 × (8 + 2·1·2) instead of 8 × 24; rope drops wpe [8, 8].
    assert.deepEqual(mqa.getState()['h.0.attn.c_attn.weight'].shape, [8, 12]);
    assert.deepEqual(mqa.getState()['h.0.attn.c_attn.bias'].shape, [12]);
    const perLayer = (24 - 12) * (8 + 1);
    assert.equal(model.parameterCount() - mqa.parameterCount(), 2 * perLayer + 8 * 8);
    model.dispose();
    mqa.dispose();
  });

  test('bad values give Errors naming the key, and the module keeps working', () => {
    for (const [extra, message] of [
      [{ numKVHeads: 1.5 }, /numKVHeads must be a positive integer, got number 1.5/],
      [{ numKVHeads: 3 }, /numKVHeads \(3\) must divide numHeads \(4\)/],
      [{ numKVHeads: 0 }, /numKVHeads must be a positive integer/],
      [{ numKVHeads: 8 }, /numKVHeads \(8\) must divide numHeads \(4\)/],
      [{ positions: 'rope', dModel: 12 }, /positions 'rope' needs an even head dimension dModel \/ numHeads, got 3/],
      [{ positions: 'sinusoidal' }, /positions must be one of 'learned', 'none', 'rope', 'alibi'/],
      [{ attentionWindow: 0 }, /attentionWindow \(null for none\) must be a positive integer, got number 0/],
      [{ attentionWindow: -1 }, /attentionWindow .* must be a positive integer/],
      [{ attentionWindow: 2.5 }, /attentionWindow .* must be a positive integer/],
      [{ ropeBase: 0 }, /ropeBase must be a positive finite number, got 0/],
      [{ ropeBase: NaN }, /ropeBase must be a positive finite number/],
      [{ ropeBase: '10000' }, /ropeBase must be a positive finite number, got "10000"/],
    ])
      assert.throws(() => attn.transformer({ ...TINY, ...extra }), message, JSON.stringify(extra));
    const model = attn.transformer({ ...TINY, positions: 'alibi', numKVHeads: 2, attentionWindow: 3 });
    assert.equal(model.forward([1, 2, 3]).logits.shape[1], 11);
    model.dispose();
  });

  test('safetensors round trip of a rope, GQA, windowed model gives the same logits', () => {
    const config = { ...TINY, positions: 'rope', numKVHeads: 2, attentionWindow: 3, ropeBase: 300, seed: 4 };
    const model = attn.transformer(config);
    const copy = attn.transformerFromSafetensors(model.toSafetensors(), model.config);
    try {
      assert.deepEqual(copy.config, model.config);
      const tokens = [[3, 1, 4, 1, 5, 9, 2, 6]];
      assert.deepEqual(copy.forward(tokens).logits.data, model.forward(tokens).logits.data);
      const other = attn.transformer({ ...config, numKVHeads: 4 });
      assert.throws(
        () => other.loadState(model.getState()),
        /"h.0.attn.c_attn.weight" must have shape \[8, 24\], got \[8, 16\]/,
      );
      other.dispose();
    } finally {
      model.dispose();
      copy.dispose();
    }
  });

  test('the Worker trainer trains a rope, GQA, windowed model exactly as this thread does', async () => {
    const config = {
      model: {
        vocabSize: 12,
        contextLength: 12,
        dModel: 16,
        numLayers: 2,
        numHeads: 4,
        mlp: false,
        seed: 1,
        positions: 'rope',
        numKVHeads: 2,
        attentionWindow: 5,
      },
      batchSize: 4,
      reportEvery: 3,
      seed: 3,
      optimizer: { learningRate: 3e-3 },
      probe: { batchSize: 2, repeatLengths: [4] },
    };
    const trainer = await createTrainer(config);
    try {
      const progress = await trainer.step(3);
      const local = [];
      const session = new TrainingSession(attn, config, (m) => local.push(m));
      session.handle({ type: 'step', count: 3 });
      session.dispose();
      assert.deepEqual(progress.losses, local[0].losses);
      assert.ok(progress.losses.every(Number.isFinite));
      assert.deepEqual(progress.probe.attentions[0].shape, [4, 12, 12]);
    } finally {
      await trainer.terminate();
    }
  });
});
