// The browser half of `node scripts/bench/browser.mjs`: times this module (SIMD and scalar builds)
// and onnxruntime-web inside the page, under the strict Content-Security-Policy the explorer
// itself lives with, and leaves the rows in window.benchResult for the driver to collect.
import { createAttention } from '../../web/lib/attention.js';
import { ortPeers } from './ort-peer.mjs';
import { timeInterleaved } from './timing.mjs';

const params = new URLSearchParams(location.search);
const MIN_TIME_MS = Number(params.get('minTime') ?? 600);

// The SDPA cases: name, n = m, d.
const SDPA_CASES = [
  ['SDPA n=m=512 d=64', 512, 64],
  ['lesson SDPA n=m=8 d=8', 8, 8],
];

// onnxruntime-web from scripts/bench/node_modules, or null when it is not installed.
async function loadOrt() {
  try {
    const mod = await import('./node_modules/onnxruntime-web/dist/ort.wasm.min.mjs');
    mod.env.wasm.wasmPaths = new URL('./node_modules/onnxruntime-web/dist/', import.meta.url).href;
    return { ort: ortPeers(mod), ortVersion: mod.env.versions?.web ?? 'unknown' };
  } catch (err) {
    console.warn(`onnxruntime-web not available in the page: ${err.message}`);
    return { ort: null, ortVersion: null };
  }
}

// One result row per implementation, timed interleaved.
async function timedRows(impls) {
  const timed = await timeInterleaved(
    impls.map(([, fn]) => fn),
    MIN_TIME_MS,
  );
  return impls.map(([impl], i) => ({ impl, ms: timed[i].ms }));
}

async function sdpaResult({ simd, scalar, ort, randn, T }, [name, n, d]) {
  const q = randn(n, d),
    k = randn(n, d),
    v = randn(n, d);
  const args = [T(q, [n, d]), T(k, [n, d]), T(v, [n, d])];
  const impls = [
    ['ours SIMD, output only', () => simd.scaledDotProductAttention(...args, { needWeights: false })],
    ['ours scalar, output only', () => scalar.scaledDotProductAttention(...args, { needWeights: false })],
  ];
  if (ort) {
    const run = await ort.sdpa({ n, m: n, dk: d, dv: d });
    impls.push(['onnxruntime-web', () => run(q, k, v)]);
  }
  return { case: name, flops: 4 * n * n * d, rows: await timedRows(impls) };
}

async function mhaResult({ simd, scalar, ort, randn, T }) {
  const n = 256,
    E = 512,
    H = 8;
  const mha = simd.multiHeadAttention({ embedDim: E, numHeads: H, seed: 3 });
  const mhaScalar = scalar.multiHeadAttention({ embedDim: E, numHeads: H, seed: 3 });
  const w = mha.getWeights();
  mhaScalar.setWeights(w);
  const x = randn(1, n, E);
  const X = T(x, [1, n, E]);
  const impls = [
    ['ours SIMD, output only', () => mha.forward(X, X, X, { needWeights: false })],
    ['ours scalar, output only', () => mhaScalar.forward(X, X, X, { needWeights: false })],
  ];
  if (ort) {
    const weights = Object.fromEntries(Object.entries(w).map(([key, t]) => [key, t.data]));
    const run = await ort.mha({ B: 1, n, E, H, w: weights });
    impls.push(['onnxruntime-web', () => run(x)]);
  }
  return {
    case: 'MHA B=1 n=256 E=512 h=8',
    flops: 8 * n * E * E + 4 * n * n * E,
    rows: await timedRows(impls),
  };
}

async function main() {
  const simd = await createAttention({ simd: true });
  const scalar = await createAttention({ simd: false });
  const { ort, ortVersion } = await loadOrt();
  const rng = simd.randomState(2024);
  const randn = (...shape) => Float32Array.from(rng.randn(...shape).data);
  const T = (data, shape) => ({ data, shape });
  const context = { simd, scalar, ort, randn, T };
  const results = [];
  for (const sdpaCase of SDPA_CASES) results.push(await sdpaResult(context, sdpaCase));
  results.push(await mhaResult(context));
  return { userAgent: navigator.userAgent, ortVersion, results };
}

main().then(
  (r) => {
    window.benchResult = r;
    document.getElementById('status').textContent = 'done';
  },
  (err) => {
    window.benchResult = { error: String(err?.stack ?? err) };
    document.getElementById('status').textContent = `failed: ${err}`;
  },
);
