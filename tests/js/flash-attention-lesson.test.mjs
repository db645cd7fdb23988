// attn.lessons.flashAttention against FlashAttention-2's forward written with block matrices in
// PyTorch float64 (scripts/reference/generate_positions_reference.py): every step's row max, row
// sum and partial output, the skipped tiles and the output, on both builds; the output equals
// scaledDotProductAttention's; bad input gives Errors naming the argument.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createAttention } from '../../web/lib/attention.js';
import { assertClose } from './support/transformer-reference.mjs';

const { flashAttention: cases } = JSON.parse(
  readFileSync(new URL('../data/positions-reference.json', import.meta.url), 'utf8'),
);
const F32 = 2e-7;
const input = (t) => ({ data: Float32Array.from(t.data), shape: t.shape });
const number = (x) => (x === '-Infinity' ? -Infinity : x);

for (const simd of [true, false]) {
  describe(`lessons.flashAttention vs PyTorch, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    for (const c of cases) {
      test(`${c.name}: every step's state, the skipped tiles and the output`, () => {
        const [q, k, v] = [input(c.q), input(c.k), input(c.v)];
        const { output, steps } = attn.lessons.flashAttention(q, k, v, c.options);
        assertClose(output, c.output, 4 * F32, 'output');
        assert.equal(steps.length, c.steps.length);
        steps.forEach((s, i) => {
          const want = c.steps[i];
          const what = `step ${i} (row block ${want.rowBlock}, column block ${want.colBlock})`;
          assert.deepEqual([s.rowBlock, s.colBlock, s.skipped], [want.rowBlock, want.colBlock, want.skipped], what);
          assert.ok(s.rowMax instanceof Float32Array && s.rowSum instanceof Float32Array, what);
          want.rowMax.map(number).forEach((x, r) => {
            if (x === -Infinity) assert.equal(s.rowMax[r], -Infinity, `${what}: rowMax[${r}] before any key`);
            else
              assert.ok(
                Math.abs(s.rowMax[r] - x) <= 1e-6 * (1 + Math.abs(x)),
                `${what}: rowMax[${r}] ${s.rowMax[r]}, expected ${x}`,
              );
          });
          want.rowSum.forEach((x, r) =>
            assert.ok(
              Math.abs(s.rowSum[r] - x) <= 1e-6 * (1 + x),
              `${what}: rowSum[${r}] ${s.rowSum[r]}, expected ${x}`,
            ),
          );
          assertClose(s.partialOutput, want.partialOutput, 4 * F32, `${what}: partialOutput`);
          if (s.skipped && i > 0)
            assert.deepEqual(
              s.partialOutput.data,
              steps[i - 1].partialOutput.data,
              `${what}: a skipped tile changes nothing`,
            );
        });
        const sdpa = attn.scaledDotProductAttention(q, k, v, {
          causal: c.options.causal,
          scale: c.options.scale,
          needWeights: false,
        });
        for (let i = 0; i < output.data.length; i++)
          assert.ok(Math.abs(output.data[i] - sdpa.output.data[i]) < 1e-5, `output[${i}] vs scaledDotProductAttention`);
      });
    }

    test("the final output is partialOutput / rowSum of each row block's last step", () => {
      const c = cases[0];
      const { output, steps } = attn.lessons.flashAttention(input(c.q), input(c.k), input(c.v), c.options);
      const C = Math.max(...steps.map((s) => s.colBlock)) + 1;
      const dv = c.v.shape[1];
      for (const s of steps.filter((x) => x.colBlock === C - 1))
        for (let r = 0; r < s.rowSum.length; r++)
          for (let j = 0; j < dv; j++) {
            const i = s.rowBlock * c.options.blockRows + r;
            assert.ok(Math.abs(output.data[i * dv + j] - s.partialOutput.data[r * dv + j] / s.rowSum[r]) < 1e-6);
          }
    });

    test('defaults (4 × 4 tiles, not causal, 1/√dk) and bad input', () => {
      const q = [
        [1, 0],
        [0, 1],
        [1, 1],
        [0, 0],
        [2, 1],
      ];
      const { steps } = attn.lessons.flashAttention(q, q, q);
      assert.deepEqual(
        steps.map((s) => [s.rowBlock, s.colBlock]),
        [
          [0, 0],
          [0, 1],
          [1, 0],
          [1, 1],
        ],
      );
      assert.deepEqual(steps[2].partialOutput.shape, [1, 2]);
      for (const [options, message] of [
        [{ blockRows: 0 }, /blockRows must be a positive integer/],
        [{ blockCols: 1.5 }, /blockCols must be a positive integer/],
        [{ causal: 'yes' }, /options.causal must be true or false/],
        [{ scale: -1 }, /options.scale must be a positive finite number/],
        [{ window: 2 }, /unknown option "window"/],
      ])
        assert.throws(() => attn.lessons.flashAttention(q, q, q, options), message, JSON.stringify(options));
      assert.throws(() => attn.lessons.flashAttention([[[1]]], [[1]], [[1]]), /q must be a matrix \[n, dk\]/);
      assert.throws(
        () => attn.lessons.flashAttention([[1, 2]], [[1]], [[1]]),
        /q and k must have the same number of columns dk/,
      );
      assert.throws(
        () => attn.lessons.flashAttention([[1]], [[1], [2]], [[1]]),
        /k and v must have the same number of rows m/,
      );
      const big = { data: new Float32Array(4096 * 8), shape: [4096, 8] };
      assert.throws(
        () => attn.lessons.flashAttention(big, big, big, { blockCols: 1 }),
        /every step's state would need/,
      );
      assert.equal(attn.lessons.flashAttention(q, q, q).output.shape[0], 5, 'still works');
    });
  });
}
