// The conventions Hugging Face users bring to attn.transformer: `{ labels }` shifted inside
// (labels[t + 1] is the target of position t) against PyTorch float64 autograd on data written by
// scripts/reference/generate_labels_reference.py (tests/data/labels-reference.json); −100 ignored
// like −1 in gradients, trainStep, loss and lossByPosition; forward(tokens, { logits: 'last' })
// against the reference's last-position logits and the full forward. Both builds.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createAttention } from '../../web/lib/attention.js';

const reference = JSON.parse(readFileSync(new URL('../data/labels-reference.json', import.meta.url), 'utf8'));
const SMALL = { vocabSize: 7, contextLength: 6, dModel: 8, numLayers: 2, numHeads: 2 };
const TOKENS = [
  [0, 3, 1, 6, 2],
  [2, 6, 1, 0, 3],
];
const TARGETS = [
  [3, 1, -1, 2, 2],
  [6, 1, -1, 3, 0],
];
const HF_TARGETS = TARGETS.map((row) => row.map((x) => (x === -1 ? -100 : x)));

const maxAbs = (data) => data.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
const snapshot = (state) => Object.fromEntries(Object.entries(state).map(([k, v]) => [k, Array.from(v.data)]));

// |actual − expected| ≤ 1e-5 × the largest expected magnitude + 1e-7 (float32 rounding; a missing or
// wrong shift changes the loss and gradients by far more).
function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  const tol = 1e-5 * maxAbs(expected) + 1e-7;
  for (let i = 0; i < expected.length; i++)
    assert.ok(
      Math.abs(actual[i] - expected[i]) <= tol,
      `${what}[${i}]: ${actual[i]} vs ${expected[i]} (tolerance ${tol})`,
    );
}

function loadCase(attn, c) {
  const model = attn.transformer(c.config);
  model.loadState(
    Object.fromEntries(
      Object.entries(c.state).map(([n, t]) => [n, { data: Float32Array.from(t.data), shape: t.shape }]),
    ),
  );
  return model;
}

// Our targets for Hugging Face's labels: shifted left by one, the last position ignored.
const shifted = (labels) => labels.map((row) => row.map((_, t) => (t + 1 < row.length ? row[t + 1] : -1)));

for (const simd of [true, false]) {
  describe(`transformer conventions, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    for (const c of reference.cases) {
      test(`{ labels } is shifted inside as in Hugging Face's GPT2LMHeadModel: ${c.name}`, () => {
        const model = loadCase(attn, c);
        try {
          assertClose([model.loss(c.tokens, { labels: c.labels }).loss], [c.loss], 'loss');
          const { loss, grads } = model.gradients(c.tokens, { labels: c.labels });
          assertClose([loss], [c.loss], 'gradients loss');
          for (const [name, g] of Object.entries(c.grads)) assertClose(grads[name].data, g.data, `∂loss/∂${name}`);
          // Unshifted, the same labels as plain targets would be a different loss.
          const unshifted = model.loss(
            c.tokens,
            c.labels.map((row) => row.map((x) => (x === -100 ? -1 : x))),
          ).loss;
          assert.ok(Math.abs(unshifted - c.loss) > 0.1, `plain targets give ${unshifted}, labels ${c.loss}`);
          assert.equal(model.trainStep(c.tokens, { labels: c.labels }).loss, loss);
        } finally {
          model.dispose();
        }
      });

      test(`forward(tokens, { logits: 'last' }) is the last position's logits [B, 1, V]: ${c.name}`, () => {
        const model = loadCase(attn, c);
        try {
          const last = model.forward(c.tokens, { logits: 'last', needWeights: false });
          assert.deepEqual(last.logits.shape, c.lastLogits.shape);
          assert.equal(last.attentions, null);
          assertClose(last.logits.data, c.lastLogits.data, 'last logits');
          const full = model.forward(c.tokens);
          const [B, T, V] = full.logits.shape;
          for (let b = 0; b < B; b++)
            assertClose(
              last.logits.data.subarray(b * V, (b + 1) * V),
              full.logits.data.subarray(((b + 1) * T - 1) * V, (b + 1) * T * V),
              `row ${b}`,
            );
          const withWeights = model.forward(c.tokens, { logits: 'last' });
          assert.deepEqual(
            withWeights.attentions.map((a) => Array.from(a.data)),
            full.attentions.map((a) => Array.from(a.data)),
          );
          const one = model.forward(c.tokens[1], { logits: 'last' });
          assert.deepEqual(one.logits.shape, [1, V]);
          assertClose(one.logits.data, last.logits.data.subarray(V), 'unbatched');
        } finally {
          model.dispose();
        }
      });
    }

    test('{ labels } equals our targets shifted by one; { targets } equals plain targets', () => {
      const a = attn.transformer({ ...SMALL, seed: 4 }),
        b = attn.transformer({ ...SMALL, seed: 4 });
      try {
        const labels = [
          [0, 3, -100, 6, 2],
          [2, 6, 1, 0, 3],
        ];
        const viaLabels = a.gradients(TOKENS, { labels });
        const viaTargets = b.gradients(TOKENS, shifted(labels));
        assert.equal(viaLabels.loss, viaTargets.loss);
        assert.deepEqual(snapshot(viaLabels.grads), snapshot(viaTargets.grads));
        for (let i = 0; i < 3; i++) a.trainStep(TOKENS, { labels }, { learningRate: 1e-2 });
        for (let i = 0; i < 3; i++) b.trainStep(TOKENS, { targets: shifted(labels) }, { learningRate: 1e-2 });
        assert.deepEqual(snapshot(a.getState()), snapshot(b.getState()));
        assert.equal(a.loss(TOKENS, { labels }).loss, b.loss(TOKENS, { targets: shifted(labels) }).loss);
      } finally {
        a.dispose();
        b.dispose();
      }
    });

    test('−100 is ignored like −1 by gradients, trainStep, loss and lossByPosition', () => {
      const a = attn.transformer({ ...SMALL, seed: 5 }),
        b = attn.transformer({ ...SMALL, seed: 5 });
      try {
        const one = a.gradients(TOKENS, TARGETS),
          hundred = b.gradients(TOKENS, HF_TARGETS);
        assert.equal(one.loss, hundred.loss);
        assert.deepEqual(snapshot(one.grads), snapshot(hundred.grads));
        for (let i = 0; i < 3; i++)
          assert.equal(a.trainStep(TOKENS, TARGETS).loss, b.trainStep(TOKENS, HF_TARGETS).loss);
        assert.deepEqual(snapshot(a.getState()), snapshot(b.getState()));
        assert.ok(Math.abs(a.loss(TOKENS, TARGETS).loss - b.loss(TOKENS, HF_TARGETS).loss) === 0);
        const { logits } = a.forward(TOKENS);
        const byPosition = attn.lossByPosition(logits, HF_TARGETS);
        assert.deepEqual(byPosition, attn.lossByPosition(logits, TARGETS));
        assert.deepEqual(byPosition.count, [2, 2, 0, 2, 2]);
        assert.throws(
          () => a.gradients(TOKENS, [[3, 1, -2, 2, 2], TARGETS[1]]),
          /targets\[0\]\[2\] is -2, outside \[0, vocabSize = 7\) \(−1 or −100 = ignored\)/,
        );
        assert.throws(
          () =>
            a.loss(TOKENS, [
              [-100, -100, -1, -1, -100],
              [-1, -1, -1, -1, -1],
            ]),
          /targets are all −1 \(or −100\)/,
        );
        assert.throws(() => attn.lossByPosition(logits, [[3, 1, -99, 2, 2], TARGETS[1]]), /neither −1 or −100/);
      } finally {
        a.dispose();
        b.dispose();
      }
    });

    test("model.loss equals the gradients' loss and needs no gradients", () => {
      const model = attn.transformer({ ...SMALL, tieEmbeddings: false, layerNorm: false, seed: 6 });
      try {
        const { loss } = model.loss(TOKENS, TARGETS);
        assert.ok(Math.abs(loss - model.gradients(TOKENS, TARGETS).loss) < 1e-6);
        assert.equal(model.loss(TOKENS[0], TARGETS[0]).loss, model.loss([TOKENS[0]], [TARGETS[0]]).loss);
      } finally {
        model.dispose();
      }
    });

    test('bad labels, target forms and logits options give Errors naming them; the model keeps working', () => {
      const model = attn.transformer(SMALL);
      try {
        const before = model.forward(TOKENS).logits.data;
        assert.throws(
          () => model.loss(TOKENS, { labels: [[0, 1]] }),
          /loss: labels must have the shape of tokens \[2, 5\], got \[1, 2\]/,
        );
        assert.throws(
          () => model.gradients(TOKENS, { labels: [[0, 1, 2, 3, 9], TOKENS[1]] }),
          /labels\[0\]\[4\] is 9, outside \[0, vocabSize = 7\)/,
        );
        assert.throws(
          () => model.trainStep(TOKENS, { labels: TOKENS, targets: TARGETS }),
          /pass either \{ targets \} or \{ labels \}, not both/,
        );
        assert.throws(() => model.loss(TOKENS, { labels: TOKENS, shift: true }), /unknown option "shift"/);
        assert.throws(
          () => model.loss([3], { labels: [3] }),
          /labels give no target: position t is scored against labels\[t \+ 1\]/,
        );
        assert.throws(
          () =>
            model.loss(TOKENS, {
              labels: [
                [1, -100, -100, -100, -100],
                [1, -1, -1, -1, -1],
              ],
            }),
          /labels give no target/,
        );
        assert.throws(
          () => model.forward(TOKENS, { logits: 'first' }),
          /options\.logits must be one of 'all', 'last', got "first"/,
        );
        assert.throws(() => model.forward(TOKENS, { logits: true }), /options\.logits must be one of 'all', 'last'/);
        assert.deepEqual(model.forward(TOKENS).logits.data, before);
        assert.deepEqual(model.forward(TOKENS, { logits: 'all' }).logits.data, before);
      } finally {
        model.dispose();
      }
    });
  });
}
