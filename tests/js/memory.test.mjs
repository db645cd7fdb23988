// Memory the package holds: multi-head attention without weights streams each head (no n × m
// matrix, so n = m = 32768 runs inside the module's initial memory), and attn.dispose() ends an
// instance so its WebAssembly memory can go, with a fresh createAttention() giving the same numbers.
//
// The module's memory is read through support/module-spy.mjs (the API keeps the module private).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { modules } from './support/module-spy.mjs';

const { createAttention } = await import('../../web/lib/attention.js');

// Layer output rows in float64 from the layer's own weights (no biases), for sampled queries.
function referenceRows(weights, x, n, E, H, rows, causal) {
  const project = (w) => {
    const out = new Float64Array(n * E);
    for (let t = 0; t < n; t++)
      for (let j = 0; j < E; j++) {
        let s = 0;
        for (let i = 0; i < E; i++) s += x[t * E + i] * w[i * E + j];
        out[t * E + j] = s;
      }
    return out;
  };
  const [q, k, v] = [weights.wq.data, weights.wk.data, weights.wv.data].map(project);
  const d = E / H;
  return rows.map((r) => {
    const concat = new Float64Array(E);
    for (let h = 0; h < H; h++) {
      const keys = causal ? r + 1 : n;
      const scores = new Float64Array(keys);
      let max = -Infinity;
      for (let t = 0; t < keys; t++) {
        let s = 0;
        for (let i = 0; i < d; i++) s += q[r * E + h * d + i] * k[t * E + h * d + i];
        scores[t] = s / Math.sqrt(d);
        max = Math.max(max, scores[t]);
      }
      let sum = 0;
      for (let t = 0; t < keys; t++) sum += scores[t] = Math.exp(scores[t] - max);
      for (let t = 0; t < keys; t++)
        for (let i = 0; i < d; i++) concat[h * d + i] += (scores[t] / sum) * v[t * E + h * d + i];
    }
    return Array.from({ length: E }, (_, j) => concat.reduce((s, c, i) => s + c * weights.wo.data[i * E + j], 0));
  });
}

describe('memory', () => {
  test('multi-head output only at n = m = 32768 streams each head: WebAssembly memory does not grow', async () => {
    const attn = await createAttention({ simd: 'auto' });
    modules.clear();
    const E = 8,
      H = 2,
      n = 32768;
    const layer = attn.multiHeadAttention({ embedDim: E, numHeads: H, bias: false, seed: 2 });
    assert.equal(modules.size, 1);
    const [module] = modules;
    const x = Float32Array.from({ length: n * E }, (_, i) => Math.sin(i * 0.61));
    const before = module.HEAPU8.length;
    // The n × m weights alone would be 4 GiB; the bound is the module's initial 16 MiB.
    const r = layer.forward({ data: x, shape: [n, E] }, undefined, undefined, { needWeights: false, causal: true });
    assert.equal(r.weights, null);
    assert.equal(module.HEAPU8.length, before, `memory grew from ${before} to ${module.HEAPU8.length} bytes`);
    assert.ok(module.HEAPU8.length <= 16 * 2 ** 20);
    const rows = [0, 1, 777, 20000, n - 1];
    const want = referenceRows(layer.getWeights(), x, n, E, H, rows, true);
    rows.forEach((row, i) => {
      for (let j = 0; j < E; j++) {
        const got = r.output.data[row * E + j];
        assert.ok(
          Math.abs(got - want[i][j]) <= 1e-5 + 1e-4 * Math.abs(want[i][j]),
          `row ${row}, column ${j}: ${got} vs ${want[i][j]}`,
        );
      }
    });
    // Asking for the weights at this size is refused up front, naming the size.
    assert.throws(() => layer.forward({ data: x, shape: [n, E] }), /needs about [\d.]+ GiB/);
    layer.dispose();
  });

  test('a layer refused for memory does not suggest needWeights: false to a call that passes it', async () => {
    const attn = await createAttention();
    const layer = attn.multiHeadAttention({ embedDim: 4, numHeads: 1, bias: false });
    const x = { data: new Float32Array(16000 * 4), shape: [16000, 4] };
    assert.throws(
      () => layer.forward(x, undefined, undefined, { needWeights: false, trace: true }),
      (err) => /needs about/.test(err.message) && /without trace/.test(err.message),
    );
    assert.throws(
      () =>
        attn.matmul(
          { data: new Float32Array(30000), shape: [30000, 1] },
          { data: new Float32Array(30000), shape: [1, 30000] },
        ),
      (err) => /matmul needs about/.test(err.message) && !/needWeights/.test(err.message),
    );
    const long = { data: new Float32Array(30000), shape: [30000, 1] };
    assert.throws(
      () => attn.scaledDotProductAttention(long, long, long, { pitfall: 'mask-value-zero', needWeights: false }),
      (err) => !/needWeights: false/.test(err.message),
    );
    attn.dispose();
  });

  test('attn.dispose() ends the instance; a fresh createAttention() gives the same numbers', async () => {
    const attn = await createAttention();
    const q = { data: Float32Array.from({ length: 12 }, (_, i) => Math.cos(i)), shape: [3, 4] };
    const layer = attn.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 9 });
    const rng = attn.randomState(3);
    const sdpa = attn.scaledDotProductAttention(q, q, q);
    const forward = layer.forward(q);
    const draws = rng.randn(4);
    attn.dispose();
    attn.dispose(); // twice is harmless
    const disposed = /attention instance was disposed.*createAttention\(\)/;
    assert.throws(() => attn.scaledDotProductAttention(q, q, q), disposed);
    assert.throws(() => attn.matmul(q, { data: new Float32Array(4), shape: [4, 1] }), disposed);
    assert.throws(() => attn.multiHeadAttention({ embedDim: 4, numHeads: 2 }), disposed);
    assert.throws(() => attn.randomState(1), disposed);
    assert.throws(() => attn.lessons.softmax([[1, 2]]), disposed);
    assert.throws(() => attn.lessons.sampleDotProducts({ dk: 4, count: 10 }), disposed);
    assert.throws(() => layer.forward(q), disposed);
    assert.throws(() => layer.getWeights(), disposed);
    assert.throws(() => rng.randn(2), disposed);
    layer.dispose(); // a layer of a disposed instance can still be disposed
    rng.dispose();

    const fresh = await createAttention();
    assert.deepEqual(fresh.scaledDotProductAttention(q, q, q), sdpa);
    assert.deepEqual(fresh.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 9 }).forward(q), forward);
    assert.deepEqual(fresh.randomState(3).randn(4), draws);
  });
});
