// Checks the JS API against reference data computed independently with PyTorch 1.13 and NumPy
// (tests/data/torch-reference.json, written by scripts/reference/generate_reference.py), on both
// WebAssembly builds: SIMD and scalar.
//
// Tolerance: 1e-4 absolute on attention outputs and weights (the API computes in float32, the
// references are float64). NumPy RNG values must match exactly, bit for bit.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/lib/attention.js';
import {
  floatTensor,
  mhaInputs,
  mhaOptions,
  readReference,
  sdpaOptions,
  toNumber,
  torchState,
} from './support/reference-data.mjs';

const ATOL = 1e-4;
const reference = readReference('torch-reference.json');

function nested(data, shape) {
  if (shape.length === 1) return Array.from(data);
  const stride = data.length / shape[0];
  return Array.from({ length: shape[0] }, (_, i) => nested(data.slice(i * stride, (i + 1) * stride), shape.slice(1)));
}

/**
 * Element-wise |actual - expected| <= atol (equal infinities match). On failure, names the case,
 * the first mismatching flat index with both values, the max error and the shape.
 */
function assertClose(actual, expected, what, atol = ATOL) {
  assert.ok(actual && actual.data && actual.shape, `${what}: expected a { data, shape } tensor, got ${actual}`);
  assert.deepEqual(Array.from(actual.shape), expected.shape, `${what}: shape`);
  const want = expected.data.map(toNumber);
  assert.equal(actual.data.length, want.length, `${what}: length`);
  let maxError = 0;
  let first = -1;
  for (let i = 0; i < want.length; i++) {
    const a = actual.data[i];
    const e = want[i];
    const error = a === e ? 0 : Math.abs(a - e);
    if (!(error <= atol)) {
      if (first < 0) first = i;
      maxError = Number.isNaN(error) ? NaN : Math.max(maxError, error);
    } else if (error > maxError) {
      maxError = error;
    }
  }
  if (first >= 0) {
    assert.fail(
      `${what}: mismatch at index ${first} (actual ${actual.data[first]}, expected ${want[first]}); ` +
        `max error ${maxError} > ${atol} over ${want.length} values, shape [${expected.shape.join(', ')}]`,
    );
  }
}

function assertExact(actual, expected, what) {
  assert.ok(actual && actual.data && actual.shape, `${what}: expected a { data, shape } result, got ${actual}`);
  assert.deepEqual(Array.from(actual.shape), expected.shape, `${what}: shape`);
  assert.ok(actual.data instanceof Float64Array, `${what}: data must be a Float64Array`);
  assert.equal(actual.data.length, expected.data.length, `${what}: length`);
  for (let i = 0; i < expected.data.length; i++) {
    if (!Object.is(actual.data[i], expected.data[i]))
      assert.fail(`${what}: index ${i} is ${actual.data[i]}, NumPy gives ${expected.data[i]}`);
  }
}

function checkForward(mha, c, what) {
  const [query, key, value] = mhaInputs(c);
  const r = mha.forward(
    query,
    key,
    value,
    mhaOptions(c.options, { needWeights: c.options.needWeights, averageWeights: c.options.averageWeights }),
  );
  assertClose(r.output, c.output, `${what}: output`);
  if (c.weights) assertClose(r.weights, c.weights, `${what}: weights`);
  else assert.ok(r.weights == null, `${what}: needWeights false, yet weights were returned`);
}

// PyTorch layout (out, in) with y = x W^T + b  ->  the API's x·W + b layout, W is [in, out].
function transposed(t, rowStart = 0, rows = t.shape[0]) {
  const cols = t.shape[1];
  const data = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) data[c * rows + r] = toNumber(t.data[(rowStart + r) * cols + c]);
  return { data, shape: [cols, rows] };
}

function slice1d(t, start, length) {
  return { data: Float32Array.from(t.data.slice(start, start + length), toNumber), shape: [length] };
}

function torchStateToWeights(state, embedDim) {
  const E = embedDim;
  const weights = state.in_proj_weight
    ? {
        wq: transposed(state.in_proj_weight, 0, E),
        wk: transposed(state.in_proj_weight, E, E),
        wv: transposed(state.in_proj_weight, 2 * E, E),
      }
    : { wq: transposed(state.q_proj_weight), wk: transposed(state.k_proj_weight), wv: transposed(state.v_proj_weight) };
  weights.wo = transposed(state['out_proj.weight']);
  if (state.in_proj_bias) {
    weights.bq = slice1d(state.in_proj_bias, 0, E);
    weights.bk = slice1d(state.in_proj_bias, E, E);
    weights.bv = slice1d(state.in_proj_bias, 2 * E, E);
  }
  if (state['out_proj.bias']) weights.bo = slice1d(state['out_proj.bias'], 0, E);
  return weights;
}

function matmul64(a, b) {
  const [n, k] = a.shape;
  const m = b.shape[1];
  const data = new Float64Array(n * m);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < m; j++) {
      let sum = 0;
      for (let p = 0; p < k; p++) sum += a.data[i * k + p] * b.data[p * m + j];
      data[i * m + j] = sum;
    }
  return { data, shape: [n, m] };
}

for (const simd of [true, false]) {
  describe(`PyTorch/NumPy reference, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    test('the requested build is loaded', () => {
      assert.equal(attn.simd, simd);
    });

    describe('scaledDotProductAttention vs softmax(q k^T * scale + mask) v in float64 torch', () => {
      for (const c of reference.sdpa) {
        test(c.name, () => {
          const options = sdpaOptions(c.options, c.trace ? { trace: true } : {});
          const r = attn.scaledDotProductAttention(floatTensor(c.q), floatTensor(c.k), floatTensor(c.v), options);
          assertClose(r.output, c.output, `${c.name}: output`);
          assertClose(r.weights, c.weights, `${c.name}: weights`);
          assert.deepEqual(Array.from(r.fullyMaskedRows ?? []), c.fullyMaskedRows, `${c.name}: fullyMaskedRows`);
          if (c.trace) {
            assert.ok(r.trace, `${c.name}: trace requested but not returned`);
            for (const key of ['scores', 'scaled', 'masked'])
              assertClose(r.trace[key], c.trace[key], `${c.name}: trace.${key}`);
          }
        });
      }

      test('needWeights: false still gives the same output', () => {
        const c = reference.sdpa.find((x) => x.name === 'sdpa_batched_all_b2_n4_m6');
        const r = attn.scaledDotProductAttention(
          floatTensor(c.q),
          floatTensor(c.k),
          floatTensor(c.v),
          sdpaOptions(c.options, { needWeights: false }),
        );
        assertClose(r.output, c.output, `${c.name} (needWeights false): output`);
      });
    });

    // The same cases through both ways of loading PyTorch weights.
    const loaders = {
      loadTorchState: (mha, c) => {
        mha.loadTorchState(torchState(c.state));
        assert.equal(mha.parameterCount(), c.parameterCount, `${c.name}: parameterCount`);
      },
      'setWeights, x·W + b layout': (mha, c) => mha.setWeights(torchStateToWeights(c.state, c.config.embedDim)),
    };
    for (const [how, load] of Object.entries(loaders)) {
      describe(`multiHeadAttention vs torch.nn.MultiheadAttention (${how})`, () => {
        for (const c of reference.mha) {
          test(c.name, () => {
            const mha = attn.multiHeadAttention(c.config);
            try {
              load(mha, c);
              checkForward(mha, c, `${c.name} (${how})`);
            } finally {
              mha.dispose();
            }
          });
        }
      });
    }

    describe('randomState vs np.random (legacy seed/randn/rand), exact', () => {
      for (const c of reference.rng) {
        test(c.name, () => {
          const rng = attn.randomState(c.seed);
          c.calls.forEach((call, i) => {
            assertExact(rng[call.fn](...call.shape), call, `${c.name}: call ${i} ${call.fn}(${call.shape.join(', ')})`);
          });
        });
      }
    });

    test(`lesson example: ${reference.lesson.name}`, () => {
      const L = reference.lesson;
      const rng = attn.randomState(L.seed);
      const X = rng.randn(4, 8);
      const [Wq, Wk, Wv] = [0, 1, 2].map(() => rng.randn(8, 4));
      assertExact(X, L.X, 'lesson X');
      assertExact(Wq, L.Wq, 'lesson Wq');
      assertExact(Wk, L.Wk, 'lesson Wk');
      assertExact(Wv, L.Wv, 'lesson Wv');
      const [Q, K, V] = [Wq, Wk, Wv].map((W) => matmul64(X, W));
      assertClose(Q, L.Q, 'lesson Q', 1e-12);
      assertClose(K, L.K, 'lesson K', 1e-12);
      assertClose(V, L.V, 'lesson V', 1e-12);
      const r = attn.scaledDotProductAttention(Q, K, V);
      assertClose(r.weights, L.weights, 'lesson weights');
      assertClose(r.output, L.output, 'lesson output');
    });
  });
}

describe('newcomer: the README example through the package name', () => {
  test('reproduces nn.MultiheadAttention from a state dict with documented calls only', async () => {
    const c = reference.mha.find((x) => x.name === 'mha_self_e8_h2_b2_n4');
    // What a learner pastes from Python: {k: v.tolist() for k, v in mha.state_dict().items()}.
    const state = Object.fromEntries(Object.entries(c.state).map(([k, t]) => [k, nested(t.data, t.shape)]));
    const x = nested(c.query.data, c.query.shape);

    const { createAttention: create } = await import('attention-explorer');
    const attention = await create();
    const mha = attention.multiHeadAttention({ embedDim: 8, numHeads: 2 });
    mha.loadTorchState(state);
    const { output, weights } = mha.forward(x, x, x);
    mha.dispose();

    assertClose(output, c.output, 'newcomer output');
    assertClose(weights, c.weights, 'newcomer weights');
  });
});
