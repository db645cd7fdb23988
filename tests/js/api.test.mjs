// The JS API's contract beyond the numbers (which torch-reference.test.mjs checks against PyTorch):
// input forms, shapes, options, traces, layers, generators, and errors that leave the module usable.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention, simdSupported } from '../../web/lib/attention.js';

const TOL = 1e-5;

function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  let worst = 0,
    at = -1;
  for (let i = 0; i < actual.length; i++) {
    const err = Math.abs(actual[i] - expected[i]);
    if (!(err <= worst)) ((worst = err), (at = i)); // NaN counts as worst
  }
  assert.ok(
    worst <= tol,
    `${what}: max error ${worst} at index ${at} (actual ${actual[at]}, expected ${expected[at]}), tolerance ${tol}`,
  );
}

function tensor(rng, ...shape) {
  return { data: Float32Array.from(rng.randn(...shape).data), shape };
}

function toNested({ data, shape }) {
  const build = (offset, dims) => {
    if (dims.length === 1) return Array.from(data.subarray(offset, offset + dims[0]));
    const stride = dims.slice(1).reduce((a, b) => a * b, 1);
    return Array.from({ length: dims[0] }, (_, i) => build(offset + i * stride, dims.slice(1)));
  };
  return build(0, shape);
}

// Bad arguments of scaledDotProductAttention: [[q, k, v, options?], the message naming the argument].
const BAD_SDPA_ARGUMENTS = [
  [[[[1, 2], [3]], [[1, 2]], [[1]]], /q is ragged: q\[1\] has 1 entries, expected 2/],
  [
    [{ data: new Float32Array(5), shape: [2, 3] }, [[1, 2, 3]], [[1]]],
    /q.data has 5 values but shape \[2, 3\] needs 6/,
  ],
  [[{ data: [], shape: [0, 3] }, [[1, 2, 3]], [[1]]], /q.shape must hold positive integers/],
  [[{ data: [1, 2], shape: [1.5, 2] }, [[1, 2]], [[1]]], /q.shape must hold positive integers/],
  [[[[1, 2]], [[1, Infinity]], [[1]]], /k\[0\]\[1\] is Infinity/],
  [[[[1, 2]], [[1, 2]], [['x']]], /v\[0\]\[0\] is string x, expected a number/],
  [[new Float32Array(4), [[1, 2]], [[1]]], /q must be a nested array or \{ data, shape \}/],
  [[[1, 2], [[1, 2]], [[1]]], /q must have at least 2 dimensions/],
  [
    [
      [[1, 2]],
      [
        [1, 2],
        [3, 4],
      ],
      [[1]],
    ],
    /k and v must have the same number of rows m/,
  ],
  [[[[1, 2]], [[1, 2]], [[1]], { scale: 0 }], /options.scale must be a positive finite number, got 0/],
  [[[[1, 2]], [[1, 2]], [[1]], { scale: NaN }], /options.scale/],
  [[[[1, 2]], [[1, 2]], [[1]], { mask: [[true, false]] }], /options.mask must have shape \[n, m\] = \[1, 1\]/],
  [[[[1, 2]], [[1, 2]], [[1]], { mask: [[2]] }], /options.mask\[0\]\[0\] is number 2, expected a boolean/],
  [[[[1, 2]], [[1, 2]], [[1]], { causal: 'yes' }], /options.causal must be true or false/],
  [
    [[[1, 2]], [[1, 2]], [[1]], { keyPaddingMask: [true, false] }],
    /options.keyPaddingMask must have shape \[m\] = \[1\]/,
  ],
  [[[[1e39, 2]], [[1, 2]], [[1]]], /too large for float32/],
  [
    [{ data: { length: 2 ** 28 }, shape: [2 ** 14, 2 ** 14] }, { data: { length: 1 }, shape: [1, 2 ** 14] }, [[1]]],
    /q.data must be a typed array/,
  ],
];

test('createAttention picks SIMD automatically in Node and validates its options', async () => {
  assert.equal(simdSupported(), true);
  const auto = await createAttention();
  assert.equal(auto.simd, true);
  assert.match(auto.variant, /^xsimd\//);
  assert.equal((await createAttention({ simd: false })).variant, 'scalar');
  await assert.rejects(createAttention({ simd: 'yes' }), /simd must be "auto", true or false/);
  await assert.rejects(createAttention({ sims: true }), /unknown option "sims"/);
});

for (const simd of [true, false]) {
  describe(`${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    let rng;
    before(async () => {
      attn = await createAttention({ simd });
      rng = attn.randomState(1234);
    });

    test('nested arrays, Float32Array and Float64Array inputs give the same result', () => {
      const q = tensor(rng, 3, 4),
        k = tensor(rng, 5, 4),
        v = tensor(rng, 5, 2);
      const a = attn.scaledDotProductAttention(q, k, v);
      const b = attn.scaledDotProductAttention(toNested(q), toNested(k), toNested(v));
      const c = attn.scaledDotProductAttention({ data: Float64Array.from(q.data), shape: [3, 4] }, k, v);
      assert.deepEqual(a.output.shape, [3, 2]);
      assert.deepEqual(a.weights.shape, [3, 5]);
      assert.ok(a.output.data instanceof Float32Array && a.weights.data instanceof Float32Array);
      assert.deepEqual(b.output.data, a.output.data);
      assert.deepEqual(c.output.data, a.output.data);
    });

    test('trace: scaled = scores · scale, masked = scaled + bias with hidden keys at -Infinity', () => {
      const q = tensor(rng, 4, 8),
        k = tensor(rng, 6, 8),
        v = tensor(rng, 6, 3);
      const bias = tensor(rng, 4, 6);
      const mask = Array.from({ length: 4 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i + j) % 4 === 0));
      const r = attn.scaledDotProductAttention(q, k, v, { trace: true, bias, mask, scale: 0.3 });
      const { scores, scaled, masked } = r.trace;
      for (let i = 0; i < 4; i++)
        for (let j = 0; j < 6; j++) {
          const x = i * 6 + j;
          assert.ok(Math.abs(scaled.data[x] - scores.data[x] * 0.3) <= 1e-6);
          if (mask[i][j]) {
            assert.equal(masked.data[x], -Infinity);
            assert.equal(r.weights.data[x], 0);
          } else {
            assert.ok(Math.abs(masked.data[x] - (scaled.data[x] + bias.data[x])) <= 1e-5);
          }
        }
    });

    test('default scale is 1/sqrt(dk); scale 1 gives sharper weights', () => {
      const q = tensor(rng, 2, 16),
        k = tensor(rng, 3, 16),
        v = tensor(rng, 3, 2);
      const r = attn.scaledDotProductAttention(q, k, v, { trace: true });
      for (let i = 0; i < 6; i++) assert.ok(Math.abs(r.trace.scaled.data[i] - r.trace.scores.data[i] / 4) <= 1e-6);
      const explicit = attn.scaledDotProductAttention(q, k, v, { scale: 0.25 });
      assert.deepEqual(explicit.output.data, r.output.data);
    });

    test('output-only mode equals the materializing path and returns no weights', () => {
      for (const causal of [false, true]) {
        const q = tensor(rng, 2, 70, 24),
          k = tensor(rng, 2, 300, 24),
          v = tensor(rng, 2, 300, 5);
        const full = attn.scaledDotProductAttention(q, k, v, { causal });
        const lean = attn.scaledDotProductAttention(q, k, v, { causal, needWeights: false });
        assert.equal(lean.weights, null);
        assertClose(lean.output.data, full.output.data, TOL, `causal=${causal}`);
      }
    });

    test('batch dimensions: each batch item equals its own call; shared and per-batch masks', () => {
      const q = tensor(rng, 2, 3, 4, 5),
        k = tensor(rng, 2, 3, 6, 5),
        v = tensor(rng, 2, 3, 6, 2);
      const pad = [true, false, false, false, false, true];
      const r = attn.scaledDotProductAttention(q, k, v, { keyPaddingMask: pad, causal: true });
      assert.deepEqual(r.output.shape, [2, 3, 4, 2]);
      assert.deepEqual(r.weights.shape, [2, 3, 4, 6]);
      // Query 0 sees key 0 only (causal), which is padding: row 0 of every batch item is fully masked.
      assert.deepEqual(r.fullyMaskedRows, [0, 4, 8, 12, 16, 20]);
      for (let b = 0; b < 6; b++) {
        const slice = (t, rows, cols) => ({
          data: t.data.subarray(b * rows * cols, (b + 1) * rows * cols),
          shape: [rows, cols],
        });
        const one = attn.scaledDotProductAttention(slice(q, 4, 5), slice(k, 6, 5), slice(v, 6, 2), {
          keyPaddingMask: pad,
          causal: true,
        });
        assertClose(r.output.data.subarray(b * 8, (b + 1) * 8), one.output.data, 1e-6, `batch item ${b}`);
        assert.deepEqual(one.fullyMaskedRows, [0]);
      }
      const perBatchPad = { data: new Uint8Array(36), shape: [2, 3, 6] };
      perBatchPad.data[5] = 1;
      const r2 = attn.scaledDotProductAttention(q, k, v, { keyPaddingMask: perBatchPad });
      for (let i = 0; i < 4; i++) assert.equal(r2.weights.data[i * 6 + 5], 0);
      assert.ok(r2.weights.data[24 + 5] > 0, 'other batch items see key 5');
    });

    test('a fully masked row yields zeros, never NaN, in both paths', () => {
      const q = tensor(rng, 3, 4),
        k = tensor(rng, 3, 4),
        v = tensor(rng, 3, 4);
      const mask = [
        [false, true, true],
        [true, true, true],
        [false, false, false],
      ];
      for (const needWeights of [true, false]) {
        const r = attn.scaledDotProductAttention(q, k, v, { mask, needWeights });
        assert.deepEqual(r.fullyMaskedRows, [1]);
        assert.deepEqual(Array.from(r.output.data.subarray(4, 8)), [0, 0, 0, 0]);
        assert.ok(r.output.data.every(Number.isFinite));
        if (needWeights) assert.deepEqual(Array.from(r.weights.data.subarray(3, 6)), [0, 0, 0]);
      }
    });

    test('long sequences stream without building the n × m matrix', () => {
      const n = 2048;
      const q = tensor(rng, n, 64),
        k = tensor(rng, n, 64),
        v = tensor(rng, n, 64);
      const r = attn.scaledDotProductAttention(q, k, v, { needWeights: false, causal: true });
      assert.deepEqual(r.output.shape, [n, 64]);
      assert.ok(r.output.data.every(Number.isFinite));
      // Row 0 attends to key 0 only: its output is exactly v's first row (weight 1).
      assertClose(r.output.data.subarray(0, 64), v.data.subarray(0, 64), 1e-6, 'row 0');
    });

    test('errors name the argument and the next call still works', () => {
      const good = () => attn.scaledDotProductAttention([[1, 2]], [[3, 4]], [[5]]);
      for (const [args, message] of BAD_SDPA_ARGUMENTS) {
        const call = () => attn.scaledDotProductAttention(...args);
        assert.throws(call, (err) => err instanceof Error && message.test(err.message), String(message));
        assert.ok(Math.abs(good().output.data[0] - 5) < 1e-6, 'the module still works');
      }
    });

    test('sizes beyond WebAssembly memory are refused up front with the size asked for', () => {
      const n = 32768,
        m = 32768;
      const q = { data: new Float32Array(n), shape: [n, 1] };
      const k = { data: new Float32Array(m), shape: [m, 1] };
      assert.throws(() => attn.scaledDotProductAttention(q, k, k), /needs about 8\.\d+ GiB of WebAssembly memory/);
      // The streaming path needs no n × m matrix.
      const small = { data: new Float32Array(4096), shape: [4096, 1] };
      const r = attn.scaledDotProductAttention(small, k, k, { needWeights: false });
      assert.equal(r.output.data.length, 4096);
    });

    test('matmul: [..., n, k] · [k, m] against float64 loops, with shape errors', () => {
      const a = tensor(rng, 2, 3, 5),
        b = tensor(rng, 5, 4);
      const c = attn.matmul(a, b);
      assert.deepEqual(c.shape, [2, 3, 4]);
      for (let i = 0; i < 6; i++)
        for (let j = 0; j < 4; j++) {
          let sum = 0;
          for (let p = 0; p < 5; p++) sum += a.data[i * 5 + p] * b.data[p * 4 + j];
          assert.ok(Math.abs(c.data[i * 4 + j] - sum) < 1e-5);
        }
      assert.throws(() => attn.matmul(a, tensor(rng, 4, 4)), /a's last dimension \(5\) must equal b's first \(4\)/);
      assert.throws(() => attn.matmul([1, 2], [[1], [2]]), /a must have at least 2 dimensions/);
    });

    test('randomState: NumPy call forms, reseeding, validation, dispose', () => {
      const a = attn.randomState(42);
      const first = a.randn();
      assert.equal(typeof first, 'number');
      assert.equal(first, 0.4967141530112327);
      a.seed(42);
      assert.deepEqual(a.randn([2, 3]).data, attn.randomState(42).randn(2, 3).data);
      assert.equal(a.rand(0, 3).data.length, 0);
      assert.throws(() => attn.randomState(-1), /seed must be an integer from 0 to 2\*\*32 - 1/);
      assert.throws(() => attn.randomState(2 ** 32), /seed must be an integer/);
      assert.throws(() => a.randn(2.5), /randn: dimensions must be non-negative integers/);
      a.dispose();
      assert.throws(() => a.rand(), /disposed/);
      a.dispose(); // twice is harmless
    });

    describe('multiHeadAttention', () => {
      test('shapes, defaults and parameter count', () => {
        const mha = attn.multiHeadAttention({ embedDim: 16, numHeads: 4, seed: 3 });
        assert.equal(mha.headDim, 4);
        assert.equal(mha.parameterCount(), 4 * 16 * 16 + 4 * 16);
        assert.equal(attn.multiHeadAttention({ embedDim: 16, numHeads: 1, bias: false }).parameterCount(), 4 * 256);
        const x = tensor(rng, 2, 5, 16);
        const self = mha.forward(x);
        const explicit = mha.forward(x, x, x);
        assert.deepEqual(self.output.data, explicit.output.data);
        assert.deepEqual(self.output.shape, [2, 5, 16]);
        assert.deepEqual(self.weights.shape, [2, 5, 5]);
        const perHead = mha.forward(x, x, x, { averageWeights: false });
        assert.deepEqual(perHead.weights.shape, [2, 4, 5, 5]);
        // The average over heads of per-head weights is the averaged weights.
        for (let b = 0; b < 2; b++)
          for (let x2 = 0; x2 < 25; x2++) {
            let sum = 0;
            for (let h = 0; h < 4; h++) sum += perHead.weights.data[(b * 4 + h) * 25 + x2];
            assert.ok(Math.abs(sum / 4 - self.weights.data[b * 25 + x2]) < 1e-6);
          }
        const unbatched = mha.forward({ data: x.data.subarray(0, 80), shape: [5, 16] });
        assert.deepEqual(unbatched.output.shape, [5, 16]);
        assertClose(unbatched.output.data, self.output.data.subarray(0, 80), 1e-6, 'unbatched = batch item 0');
        assert.equal(mha.forward(x, x, x, { needWeights: false }).weights, null);
        mha.dispose();
      });

      test('trace: projections, per-head matrices, head outputs and concat', () => {
        const mha = attn.multiHeadAttention({ embedDim: 8, numHeads: 2, seed: 5 });
        const x = tensor(rng, 3, 8);
        const r = mha.forward(x, undefined, undefined, { trace: true, causal: true });
        const t = r.trace;
        assert.deepEqual(t.q.shape, [3, 8]);
        assert.deepEqual(t.scores.shape, [2, 3, 3]);
        assert.deepEqual(t.headOutputs.shape, [2, 3, 4]);
        assert.deepEqual(t.concat.shape, [3, 8]);
        for (let h = 0; h < 2; h++)
          for (let i = 0; i < 3; i++) {
            for (let c = 0; c < 4; c++)
              assert.equal(t.headOutputs.data[(h * 3 + i) * 4 + c], t.concat.data[i * 8 + h * 4 + c]);
            for (let j = i + 1; j < 3; j++) {
              assert.equal(t.weights.data[(h * 3 + i) * 3 + j], 0);
              assert.equal(t.masked.data[(h * 3 + i) * 3 + j], -Infinity);
            }
          }
        // Q = x·W_Q + b_Q, checked in float64 from getWeights().
        const { wq, bq } = mha.getWeights();
        for (let i = 0; i < 3; i++)
          for (let c = 0; c < 8; c++) {
            let sum = bq.data[c];
            for (let p = 0; p < 8; p++) sum += x.data[i * 8 + p] * wq.data[p * 8 + c];
            assert.ok(Math.abs(t.q.data[i * 8 + c] - sum) < 1e-5);
          }
        mha.dispose();
      });

      test('setWeights validates everything before writing anything', () => {
        const mha = attn.multiHeadAttention({ embedDim: 4, numHeads: 2 });
        const before = mha.getWeights();
        const eye = { data: Float32Array.from({ length: 16 }, (_, i) => (i % 5 === 0 ? 1 : 0)), shape: [4, 4] };
        assert.throws(
          () => mha.setWeights({ wq: eye, wk: [[1, 2]] }),
          /wk must have shape \[4, 4\] \(\[in, out\]\), got \[1, 2\]/,
        );
        assert.deepEqual(mha.getWeights().wq.data, before.wq.data);
        assert.throws(() => mha.setWeights({ wz: eye }), /unknown weight "wz"/);
        mha.setWeights({ wq: eye });
        assert.deepEqual(mha.getWeights().wq.data, eye.data);
        const noBias = attn.multiHeadAttention({ embedDim: 4, numHeads: 2, bias: false });
        assert.throws(() => noBias.setWeights({ bq: [1, 2, 3, 4] }), /no biases/);
        assert.equal(noBias.getWeights().bq, undefined);
        mha.dispose();
        noBias.dispose();
      });

      test('configuration and forward errors, then a working call', () => {
        assert.throws(
          () => attn.multiHeadAttention({ embedDim: 10, numHeads: 3 }),
          /numHeads \(3\) must divide embedDim \(10\)/,
        );
        assert.throws(
          () => attn.multiHeadAttention({ embedDim: 0, numHeads: 1 }),
          /embedDim must be a positive integer/,
        );
        assert.throws(() => attn.multiHeadAttention({ embedDim: 8, numHeads: 2, heads: 2 }), /unknown option "heads"/);
        const mha = attn.multiHeadAttention({ embedDim: 8, numHeads: 2, kdim: 3, vdim: 5 });
        const q = tensor(rng, 2, 4, 8),
          k = tensor(rng, 2, 6, 3),
          v = tensor(rng, 2, 6, 5);
        assert.throws(() => mha.forward(q, v, v), /key's last dimension must be kdim \(3\)/);
        assert.throws(() => mha.forward(q, k, k), /value's last dimension must be vdim \(5\)/);
        assert.throws(
          () => mha.forward(q, k, v, { attnMask: [[true]] }),
          /options.attnMask must have shape \[n, m\] = \[4, 6\]/,
        );
        assert.throws(
          () => mha.forward(q, k, v, { keyPaddingMask: [true, false] }),
          /options.keyPaddingMask must have shape \[2, 6\]/,
        );
        assert.throws(() => mha.loadTorchState({ in_proj_weight: [[1]] }), /unexpected key "in_proj_weight"/);
        const r = mha.forward(q, k, v, { keyPaddingMask: { data: new Uint8Array(12).fill(1), shape: [2, 6] } });
        assert.deepEqual(r.fullyMaskedRows, [0, 1, 2, 3, 4, 5, 6, 7]);
        // A fully masked row's output is just the output bias.
        const { bo } = mha.getWeights();
        assertClose(r.output.data.subarray(0, 8), bo.data, 0, 'output = b_O');
        mha.dispose();
        assert.throws(() => mha.forward(q, k, v), /disposed/);
      });

      test('forward scale: default 1/√headDim, explicit values change the weights', () => {
        const mha = attn.multiHeadAttention({ embedDim: 8, numHeads: 2, seed: 4 });
        const x = tensor(rng, 4, 8);
        const base = mha.forward(x);
        assert.deepEqual(mha.forward(x, x, x, { scale: 0.5 }).output.data, base.output.data);
        const flat = mha.forward(x, x, x, { scale: 1e-6 });
        for (const w of flat.weights.data) assert.ok(Math.abs(w - 0.25) < 1e-4, 'a tiny scale gives uniform weights');
        assert.throws(() => mha.forward(x, x, x, { scale: -1 }), /options.scale must be a positive finite number/);
        mha.dispose();
      });

      test('boolean and additive attnMask agree', () => {
        const mha = attn.multiHeadAttention({ embedDim: 8, numHeads: 4, seed: 9 });
        const x = tensor(rng, 5, 8);
        const hidden = Array.from({ length: 5 }, (_, i) => Array.from({ length: 5 }, (_, j) => j > i));
        const additive = hidden.map((row) => row.map((h) => (h ? -Infinity : 0)));
        const a = mha.forward(x, x, x, { attnMask: hidden });
        const b = mha.forward(x, x, x, { attnMask: additive });
        const c = mha.forward(x, x, x, { causal: true });
        assertClose(b.output.data, a.output.data, 1e-6, 'additive vs boolean');
        assertClose(c.output.data, a.output.data, 1e-6, 'causal vs boolean');
        mha.dispose();
      });
    });
  });
}
