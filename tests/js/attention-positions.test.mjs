// options.window and causal: 'lower-right' of attn.scaledDotProductAttention(Grad) and of the
// multi-head layer's forward and backward, and attn.rope, against PyTorch float64 (masks built from
// their definitions, RoPE in Hugging Face Llama's form; scripts/reference/
// generate_positions_reference.py), on both builds; and the errors for bad values.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createAttention } from '../../web/lib/attention.js';
import { assertClose } from './support/transformer-reference.mjs';

const { attention, rope } = JSON.parse(
  readFileSync(new URL('../data/positions-reference.json', import.meta.url), 'utf8'),
);
// float32 inputs in every case: the float32 computation's own rounding is the only difference.
const F32 = 2e-7;

const input = (t) => ({ data: Float32Array.from(t.data), shape: t.shape });

for (const simd of [true, false]) {
  describe(`attention windows and lower-right alignment vs PyTorch, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    for (const c of attention.sdpa) {
      test(`scaledDotProductAttention, ${c.name}: output, weights, hidden keys exactly 0, gradients`, () => {
        const [q, k, v] = [input(c.q), input(c.k), input(c.v)];
        for (const needWeights of [true, false]) {
          const out = attn.scaledDotProductAttention(q, k, v, { ...c.options, needWeights });
          assertClose(out.output, c.output, F32, `output (needWeights ${needWeights})`);
          if (!needWeights) continue;
          assertClose(out.weights, c.weights, F32, 'weights');
          c.weights.data.forEach((w, i) => {
            if (w === 0) assert.equal(out.weights.data[i], 0, `weight ${i}`);
          });
          const rows = c.weights.data.length / c.weights.shape.at(-1);
          const empty = [];
          for (let r = 0; r < rows; r++)
            if (
              c.weights.data.slice(r * c.weights.shape.at(-1), (r + 1) * c.weights.shape.at(-1)).every((w) => w === 0)
            )
              empty.push(r);
          assert.deepEqual(out.fullyMaskedRows, empty);
        }
        for (const needWeights of [true, false]) {
          const g = attn.scaledDotProductAttentionGrad(q, k, v, input(c.gradOutput), { ...c.options, needWeights });
          assertClose(g.gradQ, c.gradQ, 4 * F32, `gradQ (needWeights ${needWeights})`);
          assertClose(g.gradK, c.gradK, 4 * F32, `gradK (needWeights ${needWeights})`);
          assertClose(g.gradV, c.gradV, 4 * F32, `gradV (needWeights ${needWeights})`);
        }
      });
    }

    for (const c of attention.mha) {
      test(`multiHeadAttention, ${c.name}: forward and backward`, () => {
        const layer = attn.multiHeadAttention({ embedDim: 8, numHeads: 2 });
        try {
          const state = {};
          for (const [name, t] of Object.entries(c.state)) state[name] = input(t);
          layer.loadTorchState(state);
          const query = input(c.query);
          const key = c.key ? input(c.key) : undefined;
          const out = layer.forward(query, key, key, c.options);
          assertClose(out.output, c.output, F32, 'output');
          assertClose(out.weights, c.weights, F32, 'averaged weights');
          const back = layer.backward(query, key, key, input(c.gradOutput), c.options);
          // Self-attention: the one tensor's gradient is the sum over its three uses.
          const gradQuery = key
            ? back.gradQuery
            : {
                data: back.gradQuery.data.map((x, i) => x + back.gradKey.data[i] + back.gradValue.data[i]),
                shape: back.gradQuery.shape,
              };
          assertClose(gradQuery, c.gradQuery, 8 * F32, 'gradQuery');
          if (key)
            assertClose(
              { data: back.gradKey.data.map((x, i) => x + back.gradValue.data[i]), shape: back.gradKey.shape },
              c.gradKey,
              8 * F32,
              'gradKey',
            );
          assertClose(back.gradWeights.wq, c.gradWq, 8 * F32, 'gradWeights.wq');
          assertClose(back.gradWeights.wk, c.gradWk, 8 * F32, 'gradWeights.wk');
          assertClose(back.gradWeights.wo, c.gradWo, 8 * F32, 'gradWeights.wo');
        } finally {
          layer.dispose();
        }
      });
    }

    for (const c of rope) {
      test(`rope, ${c.name}`, () => {
        const x = input(c.x);
        const out = attn.rope(x, c.options);
        assertClose(out, c.output, 4 * F32, 'rotated');
        // The rotation keeps each pair's length: |x′|² = |x|² row by row.
        const d = c.x.shape.at(-1);
        for (let r = 0; r < x.data.length / d; r++) {
          let a = 0,
            b = 0;
          for (let i = 0; i < d; i++) ((a += x.data[r * d + i] ** 2), (b += out.data[r * d + i] ** 2));
          assert.ok(Math.abs(a - b) <= 1e-5 * a, `row ${r}: ${a} vs ${b}`);
        }
      });
    }

    test('rope: bad input throws Errors naming the argument', () => {
      const x = [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
      ];
      for (const [args, message] of [
        [
          [
            [
              [1, 2, 3],
              [4, 5, 6],
            ],
          ],
          /x's last dimension d must be even/,
        ],
        [[[1, 2]], /x must have at least 2 dimensions/],
        [[x, { base: 0 }], /options.base must be a positive finite number, got 0/],
        [[x, { positions: [0] }], /options.positions must hold one position per row of x \(T = 2\), got 1/],
        [[x, { positions: [0, NaN] }], /options.positions\[1\] is NaN/],
        [[x, { positions: 'ab' }], /options.positions must be an array of 2 numbers/],
        [[x, { offset: 3 }], /unknown option "offset"/],
      ])
        assert.throws(() => attn.rope(...args), message, JSON.stringify(args));
      assert.deepEqual(Array.from(attn.rope(x, { positions: Int32Array.of(0, 0) }).data), [1, 2, 3, 4, 5, 6, 7, 8]);
    });

    test('bad window or causal values throw Errors naming the option, and the next call works', () => {
      const q = [
        [1, 0],
        [0, 1],
      ];
      for (const [options, message] of [
        [{ window: 0 }, /options.window must be a positive integer/],
        [{ window: -2 }, /options.window must be a positive integer/],
        [{ window: 1.5 }, /options.window must be a positive integer/],
        [{ window: '2' }, /options.window must be a positive integer .*got "2"/],
        [{ causal: 'lower_right' }, /options.causal must be true or false \(or 'lower-right'\)/],
        [
          { causal: 'lower-right', pitfall: 'mask-value-zero' },
          /pitfall cannot be combined with options.window or causal: 'lower-right'/,
        ],
        [{ window: 2, pitfall: 'scale-by-dk' }, /pitfall cannot be combined/],
      ])
        assert.throws(() => attn.scaledDotProductAttention(q, q, q, options), message, JSON.stringify(options));
      const layer = attn.multiHeadAttention({ embedDim: 2, numHeads: 1 });
      assert.throws(
        () => layer.forward(q, undefined, undefined, { window: 0 }),
        /options.window must be a positive integer/,
      );
      assert.throws(
        () => layer.backward(q, undefined, undefined, q, { causal: 'yes' }),
        /options.causal must be true or false/,
      );
      layer.dispose();
      const { weights } = attn.scaledDotProductAttention(q, q, q, { causal: true, window: 1 });
      assert.deepEqual(Array.from(weights.data), [1, 0, 0, 1]);
    });
  });
}
