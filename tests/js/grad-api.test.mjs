// The gradient calls of the JS API on both builds: the directional derivative of L = Σ(O ⊙ R)
// along a random direction equals the central finite difference of an independent float64
// forward (support/float64-reference.mjs), for random problems with every mask kind; and bad
// input throws a clear Error, after which the module keeps working.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/lib/attention.js';
import { referenceAttention, referenceMultiHead } from './support/float64-reference.mjs';
import { biasValues, flags, maskRows, prng } from './support/attention-cases.mjs';

const RUNS = { sdpa: 150, mha: 40 };
// The finite difference in float64 with step H is exact to ~H²·(third derivative) ≈ 1e-8 here;
// the float32 gradient's error is ~1e-6 of Σ|gᵢ·dᵢ|, the scale the tolerance is relative to.
const H = 1e-4;
const RTOL = 1e-4;

const uniform = (rand, count, s = 1) => Float64Array.from({ length: count }, () => (2 * rand() - 1) * s);
const f32 = (x) => Float32Array.from(x);
const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
const absDot = (a, b) => a.reduce((sum, x, i) => sum + Math.abs(x * b[i]), 0);
const along = (x, d, t) => x.map((v, i) => v + t * d[i]);

function expectDirectional(analytic, scale, lossAt, what) {
  const fd = (lossAt(H) - lossAt(-H)) / (2 * H);
  const tol = RTOL * scale + 1e-7;
  assert.ok(
    Math.abs(analytic - fd) <= tol,
    `${what}: directional derivative ${analytic}, finite difference ${fd}, |diff| ${Math.abs(analytic - fd)} > ${tol}`,
  );
}

function randomSdpa(seed) {
  const rand = prng(seed);
  const pick = (options) => options[Math.floor(rand() * options.length)];
  const batch = pick([1, 1, 2]),
    n = pick([1, 2, 3, 5, 8, 17]),
    m = pick([1, 3, 4, 7, 16, 33]);
  const dk = pick([1, 2, 4, 5, 9, 16]),
    dv = pick([1, 3, 4, 8]);
  const c = { batch, n, m, dk, dv, scale: pick([undefined, 0.25, 1, 2]) };
  ((c.q = f32(uniform(rand, batch * n * dk))), (c.k = f32(uniform(rand, batch * m * dk))));
  ((c.v = f32(uniform(rand, batch * m * dv, 2))), (c.r = f32(uniform(rand, batch * n * dv))));
  c.causal = rand() < 0.3;
  c.mask = rand() < 0.3 ? maskRows(rand, 1, n, m, 0.3, 0.1) : null;
  c.bias = rand() < 0.3 ? biasValues(rand, n * m, 0, 0.1) : null;
  c.padding = rand() < 0.3 ? flags(rand, batch * m, 0.3) : null;
  c.direction = {
    q: uniform(rand, c.q.length),
    k: uniform(rand, c.k.length),
    v: uniform(rand, c.v.length),
    bias: c.bias ? uniform(rand, n * m) : null,
  };
  return c;
}

function sdpaLoss64(c, t) {
  const d = c.direction;
  const bias = c.bias && Float64Array.from(c.bias, (b, i) => (b === -Infinity ? b : b + t * d.bias[i]));
  const r = referenceAttention({
    batch: c.batch,
    n: c.n,
    m: c.m,
    dk: c.dk,
    dv: c.dv,
    scale: c.scale ?? 1 / Math.sqrt(c.dk),
    q: along(Float64Array.from(c.q), d.q, t),
    k: along(Float64Array.from(c.k), d.k, t),
    v: along(Float64Array.from(c.v), d.v, t),
    causal: c.causal,
    mask: c.mask,
    bias,
    keyPadding: c.padding,
  });
  return dot(r.output, c.r);
}

function randomMha(seed) {
  const rand = prng(seed);
  const pick = (options) => options[Math.floor(rand() * options.length)];
  const H = pick([1, 2, 4]),
    E = H * pick([1, 2, 3, 5]),
    B = pick([1, 2]);
  const self = rand() < 0.4;
  const n = pick([1, 3, 5]),
    m = self ? n : pick([2, 4, 6]);
  const kdim = self ? E : pick([E, 3]),
    vdim = self ? E : pick([E, 5]);
  const c = { B, n, m, E, H, kdim, vdim, self, bias: rand() < 0.6 };
  c.query = f32(uniform(rand, B * n * E));
  c.key = self ? c.query : f32(uniform(rand, B * m * kdim));
  c.value = self ? c.query : f32(uniform(rand, B * m * vdim));
  c.r = f32(uniform(rand, B * n * E));
  c.causal = rand() < 0.3;
  c.mask = rand() < 0.3 ? maskRows(rand, 1, n, m, 0.3, 0) : null;
  c.padding = rand() < 0.3 ? flags(rand, B * m, 0.3) : null;
  const shapes = { wq: E * E, wk: kdim * E, wv: vdim * E, wo: E * E };
  if (c.bias) Object.assign(shapes, { bq: E, bk: E, bv: E, bo: E });
  c.weights = Object.fromEntries(Object.entries(shapes).map(([k, size]) => [k, f32(uniform(rand, size, 0.6))]));
  c.direction = Object.fromEntries(
    ['query', 'key', 'value', ...Object.keys(shapes)].map((k) => [k, uniform(rand, (c[k] ?? c.weights[k]).length)]),
  );
  return c;
}

function mhaLoss64(c, t) {
  const d = c.direction;
  const weights = Object.fromEntries(
    Object.entries(c.weights).map(([k, w]) => [k, along(Float64Array.from(w), d[k], t)]),
  );
  const r = referenceMultiHead({
    B: c.B,
    n: c.n,
    m: c.m,
    E: c.E,
    H: c.H,
    kdim: c.kdim,
    vdim: c.vdim,
    weights,
    query: along(Float64Array.from(c.query), d.query, t),
    key: along(Float64Array.from(c.key), d.key, t),
    value: along(Float64Array.from(c.value), d.value, t),
    causal: c.causal,
    mask: c.mask,
    keyPadding: c.padding,
  });
  return dot(r.output, c.r);
}

for (const simd of [true, false]) {
  describe(`gradients of the JS API, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    test(`scaledDotProductAttentionGrad: directional derivative = finite difference (${RUNS.sdpa} random problems)`, () => {
      for (let seed = 1; seed <= RUNS.sdpa; seed++) {
        const c = randomSdpa(seed);
        const lead = c.batch > 1 ? [c.batch] : [];
        const options = { causal: c.causal, needWeights: seed % 2 === 0 };
        if (c.scale !== undefined) options.scale = c.scale;
        if (c.mask) options.mask = { data: c.mask, shape: [c.n, c.m] };
        if (c.bias) options.bias = { data: c.bias, shape: [c.n, c.m] };
        if (c.padding) options.keyPaddingMask = { data: c.padding, shape: [...lead, c.m] };
        const t = (data, rows, cols) => ({ data, shape: [...lead, rows, cols] });
        const g = attn.scaledDotProductAttentionGrad(
          t(c.q, c.n, c.dk),
          t(c.k, c.m, c.dk),
          t(c.v, c.m, c.dv),
          t(c.r, c.n, c.dv),
          options,
        );
        const d = c.direction;
        let analytic = dot(g.gradQ.data, d.q) + dot(g.gradK.data, d.k) + dot(g.gradV.data, d.v);
        let scale = absDot(g.gradQ.data, d.q) + absDot(g.gradK.data, d.k) + absDot(g.gradV.data, d.v);
        if (c.bias && g.gradScores) {
          // A shared bias's gradient is gradScores summed over the batch.
          for (let b = 0; b < c.batch; b++) {
            const s = g.gradScores.data.subarray(b * c.n * c.m, (b + 1) * c.n * c.m);
            analytic += dot(s, d.bias);
            scale += absDot(s, d.bias);
          }
        } else if (c.bias) {
          continue; // without gradScores the bias direction has no analytic counterpart
        }
        expectDirectional(
          analytic,
          scale,
          (h) => sdpaLoss64(c, h),
          `case ${seed} ${JSON.stringify({ ...c, q: undefined, k: undefined, v: undefined, r: undefined, direction: undefined })}`,
        );
      }
    });

    test(`multiHeadAttention.backward: directional derivative = finite difference (${RUNS.mha} random layers)`, () => {
      for (let seed = 1; seed <= RUNS.mha; seed++) {
        const c = randomMha(seed);
        const lead = c.B > 1 ? [c.B] : [];
        const mha = attn.multiHeadAttention({ embedDim: c.E, numHeads: c.H, kdim: c.kdim, vdim: c.vdim, bias: c.bias });
        try {
          mha.setWeights(
            Object.fromEntries(
              Object.entries(c.weights).map(([k, data]) => [
                k,
                { data, shape: k[0] === 'b' ? [c.E] : [data.length / c.E, c.E] },
              ]),
            ),
          );
          const options = { causal: c.causal };
          if (c.mask) options.attnMask = { data: c.mask, shape: [c.n, c.m] };
          if (c.padding) options.keyPaddingMask = { data: c.padding, shape: [...lead, c.m] };
          const query = { data: c.query, shape: [...lead, c.n, c.E] };
          const key = c.self ? query : { data: c.key, shape: [...lead, c.m, c.kdim] };
          const value = c.self ? query : { data: c.value, shape: [...lead, c.m, c.vdim] };
          const g = mha.backward(query, key, value, { data: c.r, shape: [...lead, c.n, c.E] }, options);
          const grads = {
            query: g.gradQuery.data,
            key: g.gradKey.data,
            value: g.gradValue.data,
            ...Object.fromEntries(Object.entries(g.gradWeights).map(([k, t]) => [k, t.data])),
          };
          assert.deepEqual(Object.keys(grads).sort(), Object.keys(c.direction).sort());
          let analytic = 0,
            scale = 0;
          for (const [k, gk] of Object.entries(grads)) {
            analytic += dot(gk, c.direction[k]);
            scale += absDot(gk, c.direction[k]);
          }
          // Self-attention: the reference perturbs query, key and value separately too.
          expectDirectional(analytic, scale, (h) => mhaLoss64(c, h), `layer ${seed}`);
        } finally {
          mha.dispose();
        }
      }
    });

    test('scaledDotProductAttentionGrad rejects bad input with a clear Error and keeps working', () => {
      const q = [
          [1, 0],
          [0, 1],
        ],
        k = [
          [1, 0],
          [0, 1],
          [1, 1],
        ],
        v = [[1], [2], [3]];
      const gO = [[1], [-1]];
      const bad = [
        [() => attn.scaledDotProductAttentionGrad(q, k, v), /gradOutput is required/],
        [
          () =>
            attn.scaledDotProductAttentionGrad(q, k, v, [
              [1, 2],
              [3, 4],
            ]),
          /gradOutput must have the output's shape \[2, 1\], got \[2, 2\]/,
        ],
        [() => attn.scaledDotProductAttentionGrad(q, k, v, [[NaN], [0]]), /gradOutput\[0\]\[0\] is NaN/],
        [() => attn.scaledDotProductAttentionGrad(q, k, v, [[Infinity], [0]]), /gradOutput\[0\]\[0\] is Infinity/],
        [() => attn.scaledDotProductAttentionGrad(q, k, v, gO, { trace: true }), /unknown option "trace"/],
        [() => attn.scaledDotProductAttentionGrad(q, k, v, gO, { scale: -1 }), /options.scale must be a positive/],
        [() => attn.scaledDotProductAttentionGrad(q, [[1, 0, 0]], v, gO), /same last dimension dk/],
        [
          () => attn.scaledDotProductAttentionGrad(q, k, v, gO, { mask: [[true]] }),
          /options.mask must have shape \[n, m\] = \[2, 3\]/,
        ],
        [
          () => attn.scaledDotProductAttentionGrad(q, k, v, gO, { keyPaddingMask: [true] }),
          /options.keyPaddingMask must have shape \[m\]/,
        ],
        [
          () => attn.scaledDotProductAttentionGrad(q, k, v, gO, { causal: 'yes' }),
          /options.causal must be true or false/,
        ],
        [() => attn.scaledDotProductAttentionGrad([[1e20, 0]], [[1e20, 0]], [[1]], [[1]]), /overflow/],
      ];
      for (const [call, message] of bad) assert.throws(call, message);
      const g = attn.scaledDotProductAttentionGrad([[0, 0]], k, v, [[3]]); // uniform weights 1/3
      assert.deepEqual(Array.from(g.gradV.data), [1, 1, 1]);
      assert.ok(Math.abs(g.output.data[0] - 2) < 1e-6);
    });

    test('multiHeadAttention.backward rejects bad input with a clear Error and keeps working', () => {
      const mha = attn.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 3 });
      const x = [
        [1, 2, 3, 4],
        [0, 1, 0, 1],
      ];
      const gO = [
        [1, 0, 0, 0],
        [0, 0, 1, 0],
      ];
      const bad = [
        [() => mha.backward(x, x, x), /gradOutput is required/],
        [() => mha.backward(x, x, x, [[1, 2, 3, 4]]), /gradOutput must have the output's shape \[2, 4\], got \[1, 4\]/],
        [
          () =>
            mha.backward(x, x, x, [
              [1, 2, 3, NaN],
              [0, 0, 0, 0],
            ]),
          /gradOutput\[0\]\[3\] is NaN/,
        ],
        [() => mha.backward(x, x, x, gO, { needWeights: true }), /unknown option "needWeights"/],
        [() => mha.backward([[1, 2, 3]], x, x, gO), /query's last dimension must be embedDim \(4\)/],
        [
          () => mha.backward(x, x, x, gO, { attnMask: [[true]] }),
          /options.attnMask must have shape \[n, m\] = \[2, 2\]/,
        ],
        [() => mha.backward(x, x, x, gO, { scale: 0 }), /options.scale must be a positive/],
      ];
      for (const [call, message] of bad) assert.throws(call, message);
      const g = mha.backward(x, undefined, undefined, gO);
      assert.deepEqual(g.gradKey.shape, [2, 4]);
      assert.deepEqual(Object.keys(g.gradWeights), ['wq', 'wk', 'wv', 'wo', 'bq', 'bk', 'bv', 'bo']);
      // b_O's gradient is Σ over rows of gradOutput, exactly.
      assert.deepEqual(Array.from(g.gradWeights.bo.data), [1, 0, 1, 0]);
      mha.dispose();
      assert.throws(() => mha.backward(x, x, x, gO), /disposed/);
    });
  });
}
