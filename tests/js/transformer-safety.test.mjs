// No valid call leaves NaN or ±Infinity in an attn.transformer, and no config outgrows the module:
// Adam's options out of range are refused naming the option and the range; a step whose logits,
// loss, gradients or update would not be finite throws naming the cause and changes nothing (the
// parameters, Adam's moments and its step count); forward refuses non-finite logits; a model keeps
// reloading its own state; sizes beyond the bounds are refused at once with the limit, never an
// abort of the module; detached and BigInt token arrays and a tied lm_head of another shape are
// refused naming the argument. Both builds (the largest model only on one).
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/lib/attention.js';

const SMALL = { vocabSize: 7, contextLength: 6, dModel: 8, numLayers: 2, numHeads: 2 };
const TOKENS = [
  [0, 3, 1, 6, 2],
  [2, 6, 1, 0, 3],
];
const TARGETS = [
  [3, 1, -1, 2, 2],
  [6, 1, -1, 3, 0],
];

const snapshot = (state) => Object.fromEntries(Object.entries(state).map(([k, v]) => [k, Array.from(v.data)]));
const allFinite = (state) => Object.values(state).every((t) => t.data.every(Number.isFinite));

function detached(values) {
  const a = Int32Array.from(values);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}

for (const simd of [true, false]) {
  describe(`transformer safety, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    test('options out of range are refused naming the option and the range; nothing changes', () => {
      const model = attn.transformer(SMALL);
      try {
        const start = snapshot(model.getState());
        const cases = [
          [{ eps: 0 }, /eps must be a number in \[1e-30, 1\] \(0 would divide 0 by 0\), got 0/],
          [{ eps: -1e-8 }, /eps must be a number in \[1e-30, 1\]/],
          [{ eps: NaN }, /eps must be a number in \[1e-30, 1\].*got NaN/],
          [{ learningRate: 1e30 }, /learningRate must be a number in \[0, 10\], got 1e\+30/],
          [{ learningRate: Infinity }, /learningRate must be a number in \[0, 10\], got Infinity/],
          [{ learningRate: '0.1' }, /learningRate must be a number in \[0, 10\], got "0\.1"/],
          [{ betas: [1, 0.999] }, /betas\[0\] must be a number in \[0, 1\), got 1/],
          [{ betas: [0.9, -0.1] }, /betas\[1\] must be a number in \[0, 1\)/],
          [{ weightDecay: -0.01 }, /weightDecay must be a number in \[0, ∞\), got -0\.01/],
          [{ learningRate: 1, weightDecay: 2 }, /learningRate × weightDecay must be at most 1/],
          [{ clipNorm: 0 }, /clipNorm must be a positive finite number, got 0/],
          [{ clipNorm: -1 }, /clipNorm must be a positive finite number/],
        ];
        for (const [options, message] of cases)
          assert.throws(() => model.trainStep(TOKENS, TARGETS, options), message, JSON.stringify(options));
        assert.deepEqual(snapshot(model.getState()), start);
        // The edges of the ranges are accepted.
        model.trainStep(TOKENS, TARGETS, { learningRate: 10, eps: 1e-30, betas: [0, 0], weightDecay: 0.1 });
        assert.ok(allFinite(model.getState()));
      } finally {
        model.dispose();
      }
    });

    test('weights of 3e38: forward, loss, gradients and trainStep throw; the state still round-trips', () => {
      const model = attn.transformer(SMALL);
      try {
        model.trainStep(TOKENS, TARGETS);
        const state = model.getState();
        state['ln_f.bias'].data.fill(3e38);
        model.loadState(state); // finite, so accepted: it is the forward that overflows
        const before = snapshot(model.getState());
        const overflow =
          /the logits are not finite \(NaN or ±Infinity\): the parameters make the activations overflow float32/;
        assert.throws(() => model.forward(TOKENS), overflow);
        assert.throws(() => model.forward(TOKENS, { logits: 'last' }), overflow);
        assert.throws(() => model.loss(TOKENS, TARGETS), overflow);
        assert.throws(() => model.gradients(TOKENS, TARGETS), overflow);
        assert.throws(() => model.trainStep(TOKENS, TARGETS), overflow);
        assert.deepEqual(snapshot(model.getState()), before);
        model.loadState(model.getState());
        const copy = attn.transformerFromSafetensors(model.toSafetensors(), model.config);
        assert.deepEqual(snapshot(copy.getState()), before);
        copy.dispose();
      } finally {
        model.dispose();
      }
    });

    // One huge embedding overflows only the rows that reach it: what a call returns is either
    // finite or an Error, never NaN.
    test('an overflowing embedding: every forward returns finite logits or throws', () => {
      const model = attn.transformer(SMALL);
      try {
        const state = model.getState();
        state['wte.weight'].data[3] = 3e38;
        model.loadState(state);
        assert.throws(() => model.forward(TOKENS), /the logits are not finite/);
        for (const options of [{ logits: 'last' }, { logits: 'all' }, { needWeights: false }]) {
          for (const tokens of [TOKENS, TOKENS[1], [1, 2, 3], [6, 0]]) {
            let out = null;
            try {
              out = model.forward(tokens, options);
            } catch (err) {
              assert.match(err.message, /the logits are not finite/);
            }
            if (out)
              assert.ok(out.logits.data.every(Number.isFinite), `${JSON.stringify(tokens)} ${JSON.stringify(options)}`);
          }
        }
      } finally {
        model.dispose();
      }
    });

    // ln_f.weight = 1e20 with lm_head scaled by 1e-22 keeps the logits moderate, but ∂lm_head is
    // ~1e20 and its square overflows Adam's second moment. The refused model then takes the same
    // next step as an identical model that never saw the bad one: bitwise equal parameters prove
    // that the moments and the step count were left exactly as they were.
    test('a step whose update would not be finite throws and leaves parameters, moments and step count', () => {
      const config = { ...SMALL, tieEmbeddings: false, seed: 8 };
      const refused = attn.transformer(config),
        reference = attn.transformer(config);
      try {
        for (const m of [refused, reference]) m.trainStep(TOKENS, TARGETS, { learningRate: 1e-2 });
        const saved = refused.getState();
        const bad = refused.getState();
        bad['ln_f.weight'].data.fill(1e20);
        bad['lm_head.weight'].data.forEach((x, i, a) => {
          a[i] = x * 1e-22;
        });
        refused.loadState(bad);
        const before = snapshot(refused.getState());
        assert.throws(
          () => refused.trainStep(TOKENS, TARGETS, { learningRate: 1e-2 }),
          /the update of lm_head\.weight would not be finite \(NaN or ±Infinity\); the parameters, Adam's moments and step count are unchanged/,
        );
        assert.deepEqual(snapshot(refused.getState()), before);
        refused.loadState(saved);
        for (const m of [refused, reference]) m.trainStep(TOKENS, TARGETS, { learningRate: 1e-2 });
        assert.deepEqual(snapshot(refused.getState()), snapshot(reference.getState()));
      } finally {
        refused.dispose();
        reference.dispose();
      }
    });

    test('training at the largest learning rate never leaves NaN: steps either stay finite or throw', () => {
      const model = attn.transformer({ ...SMALL, seed: 2 });
      try {
        for (let i = 0; i < 200; i++) {
          try {
            model.trainStep(TOKENS, TARGETS, { learningRate: 10, eps: 1e-30 });
          } catch (err) {
            assert.match(err.message, /not finite/);
          }
        }
        assert.ok(allFinite(model.getState()), 'every parameter finite');
        model.loadState(model.getState());
      } finally {
        model.dispose();
      }
    });

    test('sizes beyond the bounds are refused at once with the limit; the module keeps working', () => {
      const cases = [
        [
          { vocabSize: 2, contextLength: 2, dModel: 1, numHeads: 1, numLayers: 2 ** 19 },
          /numLayers must be at most 256, got 524288/,
        ],
        [
          { vocabSize: 2, contextLength: 2, dModel: 1, numHeads: 1, numLayers: 2 ** 20 },
          /numLayers must be at most 256, got 1048576/,
        ],
        [
          { vocabSize: 2, contextLength: 2, dModel: 1, numHeads: 1, numLayers: 2 ** 40 },
          /numLayers must be at most 256/,
        ],
        [{ ...SMALL, dModel: 2 ** 17, numHeads: 1 }, /dModel must be at most 65536/],
        [{ ...SMALL, vocabSize: 2 ** 20 + 1 }, /vocabSize must be at most 1048576/],
        [{ ...SMALL, contextLength: 2 ** 31 }, /contextLength must be at most 1048576/],
        [{ ...SMALL, dModel: 4096, numLayers: 20 }, /more than the 400000000/],
      ];
      for (const [config, message] of cases) {
        const start = Date.now();
        assert.throws(() => attn.transformer(config), message, JSON.stringify(config));
        assert.ok(Date.now() - start < 2000, `refused before building (${Date.now() - start} ms)`);
      }
      const deepest = attn.transformer({ vocabSize: 2, contextLength: 2, dModel: 1, numHeads: 1, numLayers: 256 });
      assert.equal(Object.keys(deepest.getState()).length, 1 + 1 + 256 * 12 + 2);
      deepest.trainStep([0, 1], [1, 0]);
      deepest.dispose();
      const model = attn.transformer(SMALL);
      assert.deepEqual(model.forward(TOKENS).logits.shape, [2, 5, 7]);
      model.dispose();
    });

    test('detached and BigInt token arrays and a tied lm_head of another shape are refused naming them', () => {
      const model = attn.transformer(SMALL);
      try {
        assert.throws(
          () => model.forward(detached([0, 1, 2])),
          /tokens is an Int32Array whose ArrayBuffer was detached \(transferred\)/,
        );
        assert.throws(
          () => model.forward({ data: detached([0, 1]), shape: [2] }),
          /tokens\.data is an Int32Array whose ArrayBuffer was detached/,
        );
        assert.throws(
          () => model.gradients(TOKENS[0], detached(TARGETS[0])),
          /targets is an Int32Array whose ArrayBuffer was detached/,
        );
        assert.throws(
          () => model.forward(new BigInt64Array([0n, 1n])),
          /tokens is a BigInt64Array; token ids must be numbers/,
        );
        assert.throws(
          () => model.loss(TOKENS[0], new BigUint64Array(5)),
          /targets is a BigUint64Array; token ids must be numbers/,
        );
        assert.throws(
          () => model.forward({ data: new BigInt64Array(2), shape: [2] }),
          /tokens\.data must be a typed array or an array of numbers, got a BigInt64Array/,
        );
        assert.throws(
          () =>
            attn.headScores(detached([0, 1]), [
              [1, 0],
              [0.5, 0.5],
            ]),
          /tokens is an Int32Array whose ArrayBuffer was detached/,
        );
        const state = model.getState();
        const before = snapshot(state);
        const wte = state['wte.weight'];
        assert.throws(
          () => model.loadState({ ...state, 'lm_head.weight': { data: wte.data, shape: [56] } }),
          /loadState: "lm_head\.weight" must have wte\.weight's shape \[7, 8\] in a model with tied embeddings, got \[56\]/,
        );
        assert.throws(
          () => model.loadState({ ...state, 'lm_head.weight': { data: wte.data, shape: [8, 7] } }),
          /must have wte\.weight's shape \[7, 8\]/,
        );
        // Hugging Face's tied checkpoints carry lm_head.weight equal to wte.weight: accepted.
        model.loadState({ ...state, 'lm_head.weight': { data: wte.data.slice(), shape: [7, 8] } });
        assert.deepEqual(snapshot(model.getState()), before);
        assert.deepEqual(model.forward(TOKENS).logits.shape, [2, 5, 7]);
      } finally {
        model.dispose();
      }
    });

    if (simd) {
      // 109 M parameters (436 MB) load, but training would need 4 × that: refused at the first step
      // with the sizes and the limit, before the gradients or moments are allocated.
      test('training a model whose gradients and moments would not fit is refused with the limit', () => {
        const model = attn.transformer({
          vocabSize: 2 ** 20,
          contextLength: 4,
          dModel: 104,
          numLayers: 1,
          numHeads: 1,
          mlp: false,
        });
        try {
          assert.throws(
            () => model.trainStep([0, 1], [1, 2]),
            /transformer\.trainStep: training needs \d+ MiB for the parameters \(\d+ MiB\) and their gradients and Adam's two moments, more than the 1536 MiB/,
          );
          assert.deepEqual(model.forward([0, 1], { logits: 'last', needWeights: false }).logits.shape, [1, 2 ** 20]);
        } finally {
          model.dispose();
        }
      });
    }
  });
}
