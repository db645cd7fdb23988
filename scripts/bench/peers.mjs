// The peers `npm run bench` compares against, each used the way its documentation recommends for
// speed, on one thread: onnxruntime-web (wasm, the com.microsoft.MultiHeadAttention contrib op),
// @tensorflow/tfjs with the wasm backend (XNNPACK: explicit Kᵀ and one 2-D matmul per head, since
// it only routes untransposed batch-1 matmuls to XNNPACK), and plain JavaScript loops.
// Every runner returns the output as a Float32Array so the bench can check it against ours.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ortPeers } from './ort-peer.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------- onnxruntime
let ortPeer;
export async function loadOrt() {
  const ort = require('onnxruntime-web');
  ortPeer = ortPeers(ort);
  return ort.env.versions?.web ?? require('onnxruntime-web/package.json').version;
}
export const ortSdpa = (shape) => ortPeer.sdpa(shape);
export const ortMha = (layer) => ortPeer.mha(layer);

// ------------------------------------------------------------------------------ tfjs + wasm
let tf;
export async function loadTfjs() {
  tf = require('@tensorflow/tfjs');
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  wasm.setWasmPaths(path.join(here, 'node_modules/@tensorflow/tfjs-backend-wasm/dist') + path.sep);
  if (wasm.setThreadsCount) wasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  return tf.version.tfjs;
}

export function tfjsSdpa({ n, m, dk, dv, causal }) {
  const scale = 1 / Math.sqrt(dk);
  const causalBias = causal
    ? tf.tensor2d(
        Float32Array.from({ length: n * m }, (_, i) => (i % m > Math.floor(i / m) ? -1e30 : 0)),
        [n, m],
      )
    : null;
  return (q, k, v) => {
    const out = tf.tidy(() => {
      const kt = tf.transpose(tf.tensor2d(k, [m, dk]));
      let s = tf.mul(tf.matMul(tf.tensor2d(q, [n, dk]), kt), scale);
      if (causalBias) s = tf.add(s, causalBias);
      return tf.matMul(tf.softmax(s), tf.tensor2d(v, [m, dv]));
    });
    const data = out.dataSync();
    out.dispose();
    return data;
  };
}

export function tfjsMha({ n, E, H, w }) {
  const t = (data, shape) => tf.keep(tf.tensor(data, shape));
  const W = {
    wq: t(w.wq, [E, E]),
    wk: t(w.wk, [E, E]),
    wv: t(w.wv, [E, E]),
    wo: t(w.wo, [E, E]),
    bq: t(w.bq, [E]),
    bk: t(w.bk, [E]),
    bv: t(w.bv, [E]),
    bo: t(w.bo, [E]),
  };
  return (x) => {
    const out = tf.tidy(() => tfMhaForward(tf, tf.tensor2d(x, [n, E]), W, { n, H }));
    const data = out.dataSync();
    out.dispose();
    return data;
  };
}

/**
 * Self-attention of x [n, E] through the tensors W = { wq, wk, wv, wo, bq, bk, bv, bo }, one 2-D
 * matmul per head; grad-peers.mjs differentiates this same function. `tf` is the loaded module.
 */
export function tfMhaForward(tf, x, W, { n, H }) {
  const d = x.shape[1] / H;
  const scale = 1 / Math.sqrt(d);
  const q = tf.add(tf.matMul(x, W.wq), W.bq);
  const k = tf.add(tf.matMul(x, W.wk), W.bk);
  const v = tf.add(tf.matMul(x, W.wv), W.bv);
  const heads = [];
  for (let h = 0; h < H; h++) {
    const qh = tf.slice(q, [0, h * d], [n, d]);
    const kt = tf.transpose(tf.slice(k, [0, h * d], [n, d]));
    const vh = tf.slice(v, [0, h * d], [n, d]);
    heads.push(tf.matMul(tf.softmax(tf.mul(tf.matMul(qh, kt), scale)), vh));
  }
  return tf.add(tf.matMul(tf.concat(heads, 1), W.wo), W.bo);
}

// ------------------------------------------------------------------------------------ plain JS
// The loops a JavaScript user would write: row by row, Float32Array storage, double arithmetic.
export function jsSdpa({ n, m, dk, dv, causal }) {
  const scale = 1 / Math.sqrt(dk);
  const row = new Float64Array(m);
  return (q, k, v) => {
    const out = new Float32Array(n * dv);
    for (let i = 0; i < n; i++) {
      const end = causal ? Math.min(m, i + 1) : m;
      softmaxRow(q, k, i, dk, end, scale, row);
      for (let j = 0; j < end; j++) for (let c = 0; c < dv; c++) out[i * dv + c] += row[j] * v[j * dv + c];
    }
    return out;
  };
}

/** row[0..end) = softmax over keys j < end of scale · q_i·k_j, for rows of length d. */
export function softmaxRow(q, k, i, d, end, scale, row) {
  let max = -Infinity;
  for (let j = 0; j < end; j++) {
    let s = 0;
    for (let p = 0; p < d; p++) s += q[i * d + p] * k[j * d + p];
    row[j] = s * scale;
    if (row[j] > max) max = row[j];
  }
  let sum = 0;
  for (let j = 0; j < end; j++) sum += row[j] = Math.exp(row[j] - max);
  for (let j = 0; j < end; j++) row[j] /= sum;
}

function jsLinear(x, rows, inDim, w, b, outDim) {
  const y = new Float32Array(rows * outDim);
  for (let r = 0; r < rows; r++) {
    const acc = new Float64Array(outDim);
    if (b) for (let c = 0; c < outDim; c++) acc[c] = b[c];
    for (let p = 0; p < inDim; p++) {
      const xv = x[r * inDim + p];
      for (let c = 0; c < outDim; c++) acc[c] += xv * w[p * outDim + c];
    }
    y.set(acc, r * outDim);
  }
  return y;
}

export function jsMha({ n, E, H, w }) {
  const d = E / H;
  const head = jsSdpa({ n, m: n, dk: d, dv: d, causal: false });
  const slice = (t, h) => {
    const out = new Float32Array(n * d);
    for (let i = 0; i < n; i++) out.set(t.subarray(i * E + h * d, i * E + (h + 1) * d), i * d);
    return out;
  };
  return (x) => {
    const q = jsLinear(x, n, E, w.wq, w.bq, E);
    const k = jsLinear(x, n, E, w.wk, w.bk, E);
    const v = jsLinear(x, n, E, w.wv, w.bv, E);
    const concat = new Float32Array(n * E);
    for (let h = 0; h < H; h++) {
      const o = head(slice(q, h), slice(k, h), slice(v, h));
      for (let i = 0; i < n; i++) concat.set(o.subarray(i * d, (i + 1) * d), i * E + h * d);
    }
    return jsLinear(concat, n, E, w.wo, w.bo, E);
  };
}
