// attn.lessons and the pitfall option: values checked against float64 JavaScript computed here.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/lib/attention.js';

function softmax64(row) {
  const mx = Math.max(...row);
  if (mx === -Infinity) return row.map(() => 0);
  const e = row.map((x) => Math.exp(x - mx));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

for (const simd of [true, false]) {
  describe(`${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    test('sampleDotProducts: dot products of NumPy normals, std ≈ √dk before scaling and ≈ 1 after', () => {
      const s = attn.lessons.sampleDotProducts({ dk: 3, count: 2, seed: 42, bins: 4 });
      const x = attn.randomState(42).randn(12).data; // q0, k0, q1, k1
      assert.equal(s.raw.values[0], x[0] * x[3] + x[1] * x[4] + x[2] * x[5]);
      assert.ok(Math.abs(s.scaled.values[1] - s.raw.values[1] / Math.sqrt(3)) < 1e-15);
      for (const dk of [4, 256]) {
        const r = attn.lessons.sampleDotProducts({ dk, count: 10000, seed: 1 });
        assert.ok(Math.abs(r.raw.std / Math.sqrt(dk) - 1) < 0.04, `raw std ${r.raw.std} for dk ${dk}`);
        assert.ok(Math.abs(r.scaled.std - 1) < 0.04, `scaled std ${r.scaled.std}`);
        // Independent check of the moments and the histogram from the returned values.
        const mean = r.raw.values.reduce((a, b) => a + b, 0) / 10000;
        assert.ok(Math.abs(mean - r.raw.mean) < 1e-9);
        const { lo, hi, counts } = r.scaled.histogram;
        assert.equal(counts.length, 41);
        assert.equal(
          counts.reduce((a, b) => a + b, 0),
          10000,
        );
        const width = (hi - lo) / 41;
        const expected = new Array(41).fill(0);
        for (const v of r.scaled.values) expected[Math.min(40, Math.max(0, Math.floor((v - lo) / width)))]++;
        assert.deepEqual(Array.from(counts), expected);
      }
      assert.throws(() => attn.lessons.sampleDotProducts({ dk: 0 }), /dk must be a positive integer/);
      assert.throws(() => attn.lessons.sampleDotProducts({ dk: 4096, count: 100000 }), /too much work/);
    });

    test('softmax with and without scaling: entropy in nats, rows of -Infinity give zeros', () => {
      const scores = [
        [3, 1, -2, 0.5],
        [-Infinity, -Infinity, -Infinity, -Infinity],
      ];
      for (const scale of [1, 0.5]) {
        const r = attn.lessons.softmax(scores, { scale });
        const p = softmax64(scores[0].map((x) => x * scale));
        p.forEach((x, j) => assert.ok(Math.abs(r.weights.data[j] - x) < 1e-6));
        const h = -p.reduce((a, x) => a + x * Math.log(x), 0);
        assert.ok(Math.abs(r.entropy.data[0] - h) < 1e-5);
        assert.equal(r.max.data[0], r.weights.data[0]);
        assert.deepEqual(Array.from(r.weights.data.subarray(4)), [0, 0, 0, 0]);
        assert.equal(r.entropy.data[1], 0);
      }
      const sharp = attn.lessons.softmax(scores, { scale: 1 }).entropy.data[0];
      const soft = attn.lessons.softmax(scores, { scale: 0.5 }).entropy.data[0];
      assert.ok(soft > sharp, 'scaling down the scores raises the entropy');
    });

    test('rowStats of attention weights', () => {
      const r = attn.lessons.rowStats([
        [0.5, 0.5],
        [1, 0],
      ]);
      assert.ok(Math.abs(r.entropy.data[0] - Math.LN2) < 1e-6);
      assert.equal(r.entropy.data[1], 0);
      assert.deepEqual(Array.from(r.sum.data), [1, 1]);
    });

    test('attentionCost follows the formulas and the parameter count ignores the head count', () => {
      const c = attn.lessons.attentionCost({ n: 100, dModel: 64, numHeads: 4 });
      assert.equal(c.parameters, 4 * 64 * 64 + 4 * 64);
      assert.equal(attn.lessons.attentionCost({ n: 100, dModel: 64, numHeads: 1 }).parameters, c.parameters);
      assert.equal(c.projectionFlops, 2 * 64 * 64 * 400);
      assert.equal(c.scoreFlops, 4 * 100 * 100 * 64);
      assert.equal(c.attentionMatrixBytes, 4 * 4 * 100 * 100);
      // The quadratic term overtakes the projections once n passes about 2·d.
      const small = attn.lessons.attentionCost({ n: 16, dModel: 512, numHeads: 8 });
      const large = attn.lessons.attentionCost({ n: 8192, dModel: 512, numHeads: 8 });
      assert.ok(small.scoreFlops < small.projectionFlops && large.scoreFlops > large.projectionFlops);
      assert.throws(() => attn.lessons.attentionCost({ n: 4, dModel: 10, numHeads: 3 }), /divide/);
    });

    test('pitfalls on scaled dot-product attention', () => {
      const q = [
        [1, 0.5],
        [0.2, 1],
        [1, 1],
      ];
      const k = [
        [1, 0],
        [0, 1],
        [0.5, 0.5],
      ];
      const v = [
        [1, 2],
        [3, 4],
        [5, 6],
      ];
      const right = attn.scaledDotProductAttention(q, k, v, { causal: true }).weights.data;
      const afterSoftmax = attn.scaledDotProductAttention(q, k, v, { causal: true, pitfall: 'mask-after-softmax' })
        .weights.data;
      const zero = attn.scaledDotProductAttention(q, k, v, { causal: true, pitfall: 'mask-value-zero' }).weights.data;
      const byDk = attn.scaledDotProductAttention(q, k, v, { causal: true, pitfall: 'scale-by-dk' }).weights.data;
      const none = attn.scaledDotProductAttention(q, k, v, { causal: true, pitfall: 'none' }).weights.data;
      assert.deepEqual(none, right);
      for (let i = 0; i < 3; i++) {
        const scores = k.map((kj) => (q[i][0] * kj[0] + q[i][1] * kj[1]) / Math.sqrt(2));
        const all = softmax64(scores);
        for (let j = 0; j < 3; j++) {
          assert.ok(Math.abs(afterSoftmax[i * 3 + j] - (j > i ? 0 : all[j])) < 1e-6);
          const zeroed = softmax64(scores.map((s, jj) => (jj > i ? 0 : s)));
          assert.ok(Math.abs(zero[i * 3 + j] - zeroed[j]) < 1e-6);
          const flat = softmax64(scores.map((s, jj) => (jj > i ? -Infinity : (s * Math.sqrt(2)) / 2)));
          assert.ok(Math.abs(byDk[i * 3 + j] - flat[j]) < 1e-6);
        }
      }
      assert.throws(
        () => attn.scaledDotProductAttention(q, k, v, { pitfall: 'skip-wo' }),
        /options.pitfall must be one of/,
      );
      assert.throws(
        () => attn.scaledDotProductAttention(q, k, v, { pitfall: 'mask-value-zero', trace: true }),
        /cannot be combined/,
      );
    });

    test('pitfalls on multi-head attention: skip-wo returns the concatenation', () => {
      const mha = attn.multiHeadAttention({ embedDim: 8, numHeads: 4, seed: 2 });
      const x = attn.randomState(5).randn(5, 8);
      const traced = mha.forward(x, x, x, { trace: true });
      const skipped = mha.forward(x, x, x, { pitfall: 'skip-wo' });
      const none = mha.forward(x, x, x, { pitfall: 'none' });
      for (let i = 0; i < 40; i++) {
        assert.ok(Math.abs(skipped.output.data[i] - traced.trace.concat.data[i]) < 1e-5);
        assert.ok(Math.abs(none.output.data[i] - traced.output.data[i]) < 1e-5);
      }
      const wrongScale = mha.forward(x, x, x, { pitfall: 'scale-by-dmodel' });
      assert.ok(wrongScale.output.data.some((y, i) => Math.abs(y - traced.output.data[i]) > 1e-4));
      assert.throws(() => mha.forward(x, x, x, { pitfall: 'skip-wo', averageWeights: false }), /averageWeights: true/);
      mha.dispose();
    });
  });
}
