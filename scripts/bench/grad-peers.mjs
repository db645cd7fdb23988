// Forward + backward peers for `npm run bench`: TensorFlow.js (wasm backend) differentiating the
// same functions as peers.mjs's forward with tf.grads, and plain JavaScript loops of the textbook
// backward. Each runner returns the gradients concatenated in one Float32Array, in the order the
// bench's own rows use: SDPA [dQ, dK, dV]; MHA [dx, dW_Q, dW_K, dW_V, dW_O, db_Q, db_K, db_V, db_O]
// (x is query, key and value at once, so dx is the sum of the three input gradients).
import { createRequire } from 'node:module';
import { softmaxRow, tfMhaForward } from './peers.mjs';

const require = createRequire(import.meta.url);
const tf = () => require('@tensorflow/tfjs'); // loaded (and set to wasm) by peers.mjs's loadTfjs

function concat(arrays) {
  const out = new Float32Array(arrays.reduce((s, a) => s + a.length, 0));
  let at = 0;
  for (const a of arrays) (out.set(a, at), (at += a.length));
  return out;
}

// Reads tensors back outside tf.tidy (dataSync inside it is ~100× slower) and frees them.
function readAll(tensors) {
  const data = tensors.map((t) => t.dataSync());
  tensors.forEach((t) => t.dispose());
  return concat(data);
}

export function tfjsSdpaGrad({ n, m, dk, dv }) {
  const t = tf();
  const scale = 1 / Math.sqrt(dk);
  const f = (q, k, v) => t.matMul(t.softmax(t.mul(t.matMul(q, t.transpose(k)), scale)), v);
  const grads = t.grads(f);
  return (q, k, v, dO) =>
    readAll(
      t.tidy(() =>
        grads([t.tensor2d(q, [n, dk]), t.tensor2d(k, [m, dk]), t.tensor2d(v, [m, dv])], t.tensor2d(dO, [n, dv])),
      ),
    );
}

export function tfjsMhaGrad({ n, E, H, w }) {
  const t = tf();
  const names = ['wq', 'wk', 'wv', 'wo', 'bq', 'bk', 'bv', 'bo'];
  const W = names.map((k) => t.keep(t.tensor(w[k], k[0] === 'w' ? [E, E] : [E])));
  const f = (x, wq, wk, wv, wo, bq, bk, bv, bo) => tfMhaForward(t, x, { wq, wk, wv, wo, bq, bk, bv, bo }, { n, H });
  const grads = t.grads(f);
  return (x, dO) => readAll(t.tidy(() => grads([t.tensor2d(x, [n, E]), ...W], t.tensor2d(dO, [n, E]))));
}

// ------------------------------------------------------------------------------------ plain JS
// One head: returns { o, dq, dk, dv } for q (n×d), k (m×d), v (m×dv), dO (n×dv), float64 rows.
function jsHeadGrad(q, k, v, dO, n, m, d, dv, scale) {
  const dq = new Float64Array(n * d),
    dk = new Float64Array(m * d),
    dvOut = new Float64Array(m * dv);
  const o = new Float64Array(n * dv);
  const p = new Float64Array(m),
    dp = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    softmaxRow(q, k, i, d, m, scale, p);
    let delta = 0;
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let c = 0; c < dv; c++) {
        o[i * dv + c] += p[j] * v[j * dv + c];
        s += dO[i * dv + c] * v[j * dv + c];
        dvOut[j * dv + c] += p[j] * dO[i * dv + c];
      }
      dp[j] = s;
      delta += s * p[j];
    }
    for (let j = 0; j < m; j++) {
      const ds = p[j] * (dp[j] - delta) * scale;
      for (let c = 0; c < d; c++) {
        dq[i * d + c] += ds * k[j * d + c];
        dk[j * d + c] += ds * q[i * d + c];
      }
    }
  }
  return { o, dq, dk, dv: dvOut };
}

export function jsSdpaGrad({ n, m, dk, dv }) {
  const scale = 1 / Math.sqrt(dk);
  return (q, k, v, dO) => {
    const g = jsHeadGrad(q, k, v, dO, n, m, dk, dv, scale);
    return concat([Float32Array.from(g.dq), Float32Array.from(g.dk), Float32Array.from(g.dv)]);
  };
}

// y (rows × out) = x·w + b, float64.
function linear(x, rows, inDim, w, b, outDim) {
  const y = new Float64Array(rows * outDim);
  for (let r = 0; r < rows; r++) {
    if (b) for (let c = 0; c < outDim; c++) y[r * outDim + c] = b[c];
    for (let p = 0; p < inDim; p++) {
      const xv = x[r * inDim + p];
      for (let c = 0; c < outDim; c++) y[r * outDim + c] += xv * w[p * outDim + c];
    }
  }
  return y;
}

// Backward of y = x·w + b: adds dy·wᵀ into dx; returns [dw = xᵀ·dy, db = Σ dy].
function linearBackward(x, dy, rows, inDim, w, outDim, dx) {
  const dw = new Float64Array(inDim * outDim),
    db = new Float64Array(outDim);
  for (let r = 0; r < rows; r++)
    for (let p = 0; p < inDim; p++) {
      const xv = x[r * inDim + p];
      let s = 0;
      for (let c = 0; c < outDim; c++) {
        const g = dy[r * outDim + c];
        dw[p * outDim + c] += xv * g;
        s += g * w[p * outDim + c];
      }
      dx[r * inDim + p] += s;
    }
  for (let r = 0; r < rows; r++) for (let c = 0; c < outDim; c++) db[c] += dy[r * outDim + c];
  return [dw, db];
}

export function jsMhaGrad({ n, E, H, w }) {
  const d = E / H;
  const scale = 1 / Math.sqrt(d);
  const cols = (t, h) => {
    const out = new Float64Array(n * d);
    for (let i = 0; i < n; i++) for (let c = 0; c < d; c++) out[i * d + c] = t[i * E + h * d + c];
    return out;
  };
  const scatter = (dst, src, h) => {
    for (let i = 0; i < n; i++) for (let c = 0; c < d; c++) dst[i * E + h * d + c] = src[i * d + c];
  };
  return (x, dO) => {
    const q = linear(x, n, E, w.wq, w.bq, E),
      k = linear(x, n, E, w.wk, w.bk, E),
      v = linear(x, n, E, w.wv, w.bv, E);
    const dConcat = new Float64Array(n * E); // dO·W_Oᵀ
    for (let r = 0; r < n; r++)
      for (let p = 0; p < E; p++) {
        let s = 0;
        for (let c = 0; c < E; c++) s += dO[r * E + c] * w.wo[p * E + c];
        dConcat[r * E + p] = s;
      }
    const concatOut = new Float64Array(n * E);
    const dq = new Float64Array(n * E),
      dk = new Float64Array(n * E),
      dv = new Float64Array(n * E);
    for (let h = 0; h < H; h++) {
      const g = jsHeadGrad(cols(q, h), cols(k, h), cols(v, h), cols(dConcat, h), n, n, d, d, scale);
      (scatter(concatOut, g.o, h), scatter(dq, g.dq, h), scatter(dk, g.dk, h), scatter(dv, g.dv, h));
    }
    const [dwo, dbo] = linearBackward(concatOut, dO, n, E, w.wo, E, new Float64Array(n * E));
    const dx = new Float64Array(n * E);
    const [dwq, dbq] = linearBackward(x, dq, n, E, w.wq, E, dx);
    const [dwk, dbk] = linearBackward(x, dk, n, E, w.wk, E, dx);
    const [dwv, dbv] = linearBackward(x, dv, n, E, w.wv, E, dx);
    return concat([dx, dwq, dwk, dwv, dwo, dbq, dbk, dbv, dbo].map((a) => Float32Array.from(a)));
  };
}
