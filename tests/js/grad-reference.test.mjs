// Gradients from the JS API (attn.scaledDotProductAttentionGrad, MultiHeadAttention#backward)
// against PyTorch 1.13 autograd in float64 (tests/data/grad-reference.json, written by
// scripts/reference/generate_grad_reference.py), on both WebAssembly builds.
//
// Tolerance: every element within 1e-5 × the largest magnitude of the expected tensor (+ 1e-7):
// the API computes in float32 and a gradient sums many products, so its error scales with the
// tensor's largest values, not with each element (errors seen here stay below 1e-6 of them).
// Exception: the gradient of b_K is 0 in exact arithmetic
// (the softmax ignores adding q·b_K to a whole row of scores), so it is judged on the scale of the
// sums that cancel in it, W_K's gradient.
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

const RTOL = 1e-5;
const FLOOR = 1e-7;
const reference = readReference('grad-reference.json');
const largest = (t) => t.data.reduce((a, x) => Math.max(a, Math.abs(toNumber(x))), 0);

function assertClose(actual, expected, what, scaleOf = expected) {
  assert.ok(actual && actual.data instanceof Float32Array, `${what}: expected a Float32Array tensor`);
  assert.deepEqual(Array.from(actual.shape), expected.shape, `${what}: shape`);
  const atol = RTOL * largest(scaleOf) + FLOOR;
  let first = -1,
    worst = 0;
  for (let i = 0; i < expected.data.length; i++) {
    const error = Math.abs(actual.data[i] - toNumber(expected.data[i]));
    if (!(error <= atol) && first < 0) first = i;
    if (!(error <= worst)) worst = error;
  }
  if (first >= 0)
    assert.fail(
      `${what}: mismatch at index ${first} (actual ${actual.data[first]}, expected ` +
        `${expected.data[first]}); max error ${worst} > ${atol}, shape [${expected.shape.join(', ')}]`,
    );
}

for (const simd of [true, false]) {
  describe(`gradients vs PyTorch autograd (float64), ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    describe('scaledDotProductAttentionGrad', () => {
      for (const c of reference.sdpa) {
        test(c.name, () => {
          const r = attn.scaledDotProductAttentionGrad(
            floatTensor(c.q),
            floatTensor(c.k),
            floatTensor(c.v),
            floatTensor(c.gradOutput),
            sdpaOptions(c.options),
          );
          for (const key of ['output', 'weights', 'gradQ', 'gradK', 'gradV', 'gradScores'])
            assertClose(r[key], c[key], `${c.name}: ${key}`);
          // Hidden cells and fully masked rows: exactly zero, never -0.
          for (let i = 0; i < c.weights.data.length; i++)
            if (c.weights.data[i] === 0 && r.weights.data[i] === 0)
              assert.ok(
                Object.is(r.gradScores.data[i], 0),
                `${c.name}: gradScores[${i}] of a hidden cell is ${r.gradScores.data[i]}`,
              );
          const [n, dk] = c.q.shape.slice(-2);
          for (const row of c.fullyMaskedRows)
            for (let j = 0; j < dk; j++)
              assert.equal(r.gradQ.data[row * dk + j], 0, `${c.name}: gradQ of fully masked row ${row}`);
          assert.ok(n > 0);
        });
      }

      test('needWeights: false streams and gives the same gradients, without weights or gradScores', () => {
        for (const c of reference.sdpa) {
          const r = attn.scaledDotProductAttentionGrad(
            floatTensor(c.q),
            floatTensor(c.k),
            floatTensor(c.v),
            floatTensor(c.gradOutput),
            sdpaOptions(c.options, { needWeights: false }),
          );
          assert.equal(r.weights, null);
          assert.equal(r.gradScores, null);
          for (const key of ['output', 'gradQ', 'gradK', 'gradV'])
            assertClose(r[key], c[key], `${c.name} (streaming): ${key}`);
        }
      });
    });

    describe('multiHeadAttention backward vs torch.nn.MultiheadAttention', () => {
      for (const c of reference.mha) {
        test(c.name, () => {
          const mha = attn.multiHeadAttention(c.config);
          try {
            mha.loadTorchState(torchState(c.state));
            const [query, key, value] = mhaInputs(c);
            const r = mha.backward(query, key, value, floatTensor(c.gradOutput), mhaOptions(c.options));
            for (const k of ['output', 'gradQuery', 'gradKey', 'gradValue']) assertClose(r[k], c[k], `${c.name}: ${k}`);
            assert.deepEqual(
              Object.keys(r.gradWeights).sort(),
              Object.keys(c.gradWeights).sort(),
              `${c.name}: gradWeights keys`,
            );
            for (const [k, expected] of Object.entries(c.gradWeights))
              assertClose(
                r.gradWeights[k],
                expected,
                `${c.name}: gradWeights.${k}`,
                k === 'bk' ? c.gradWeights.wk : expected,
              );
            // The forward of the layer agrees with the backward's output.
            assertClose(
              mha.forward(query, key, value, mhaOptions(c.options, { needWeights: false })).output,
              c.output,
              `${c.name}: forward output`,
            );
          } finally {
            mha.dispose();
          }
        });
      }
    });
  });
}
