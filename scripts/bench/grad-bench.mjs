// The gradient rows of `npm run bench` (bench.mjs runs and prints them with its own cases):
// forward + backward of SDPA n = m = 512, d = 64 and of MHA n = 256, E = 512, h = 8, against
// TensorFlow.js-wasm's tf.grads of the same function and plain JavaScript (grad-peers.mjs), and
// the streaming backward at n = m = 16384, d = 64 (time and extra heap).
import { headBackwardWorkspaceBytes } from '../../web/lib/gradients.js';
import { pickRows, sampledRows } from './sampled-rows.mjs';

const concat = (arrays) => {
  const out = new Float32Array(arrays.reduce((s, a) => s + a.length, 0));
  let at = 0;
  for (const a of arrays) (out.set(a, at), (at += a.length));
  return out;
};

export const SDPA_GRAD = 'SDPA fwd+bwd n=m=512 d=64';
export const MHA_GRAD = 'MHA fwd+bwd B=1 n=256 E=512 h=8';

function sdpaGradCase({ simd, scalar, randn, T }) {
  const n = 512,
    m = 512,
    d = 64;
  const q = randn(n, d),
    k = randn(m, d),
    v = randn(m, d),
    dO = randn(n, d);
  const args = [T(q, [n, d]), T(k, [m, d]), T(v, [m, d]), T(dO, [n, d])];
  const grads = (attn, needWeights) => () => {
    const g = attn.scaledDotProductAttentionGrad(...args, { needWeights });
    return concat([g.gradQ.data, g.gradK.data, g.gradV.data]);
  };
  return {
    name: SDPA_GRAD,
    ratioProbe: {
      forward: () => simd.scaledDotProductAttention(...args.slice(0, 3), { needWeights: false }),
      both: grads(simd, false),
    },
    flops: 12 * n * m * d, // forward Q·Kᵀ, A·V; backward dO·Vᵀ, Aᵀ·dO, dS·K, dSᵀ·Q
    impls: [
      ['ours SIMD, streaming', grads(simd, false)],
      ['ours SIMD, with A and dS', grads(simd, true)],
      ['ours scalar, streaming', grads(scalar, false)],
    ],
    peers: async () => {
      const G = await import('./grad-peers.mjs');
      return [
        ['tfjs-wasm tf.grads', G.tfjsSdpaGrad({ n, m, dk: d, dv: d }), [q, k, v, dO]],
        ['plain JS', G.jsSdpaGrad({ n, m, dk: d, dv: d }), [q, k, v, dO]],
      ];
    },
  };
}

function mhaGradCase({ simd, scalar, randn, T }) {
  const n = 256,
    E = 512,
    H = 8;
  const layers = [simd, scalar].map((attn) => attn.multiHeadAttention({ embedDim: E, numHeads: H, seed: 3 }));
  const b = () => randn(E).map((x) => 0.1 * x);
  const w0 = layers[0].getWeights();
  const w = { wq: w0.wq.data, wk: w0.wk.data, wv: w0.wv.data, wo: w0.wo.data, bq: b(), bk: b(), bv: b(), bo: b() };
  const shaped = Object.fromEntries(
    Object.entries(w).map(([key, data]) => [key, T(data, key[0] === 'w' ? [E, E] : [E])]),
  );
  layers.forEach((l) => l.setWeights(shaped));
  const x = randn(n, E),
    dO = randn(n, E);
  const X = T(x, [n, E]),
    G = T(dO, [n, E]);
  // x is query, key and value at once: its gradient is the sum of the three.
  const grads = (layer) => () => {
    const g = layer.backward(X, X, X, G);
    const dx = g.gradQuery.data.map((a, i) => a + g.gradKey.data[i] + g.gradValue.data[i]);
    const gw = g.gradWeights;
    return concat([dx, gw.wq.data, gw.wk.data, gw.wv.data, gw.wo.data, gw.bq.data, gw.bk.data, gw.bv.data, gw.bo.data]);
  };
  return {
    name: MHA_GRAD,
    ratioProbe: { forward: () => layers[0].forward(X, X, X, { needWeights: false }), both: grads(layers[0]) },
    // forward: 4 projections + attention; backward: each projection twice (input and weight
    // gradients) + the attention backward's 4 products
    flops: 4 * 2 * n * E * E + 4 * n * n * E + 8 * 2 * n * E * E + 8 * n * n * E,
    impls: [
      ['ours SIMD', grads(layers[0])],
      ['ours scalar', grads(layers[1])],
    ],
    peers: async () => {
      const P = await import('./grad-peers.mjs');
      return [
        ['tfjs-wasm tf.grads', P.tfjsMhaGrad({ n, E, H, w }), [x, dO]],
        ['plain JS', P.jsMhaGrad({ n, E, H, w }), [x, dO]],
      ];
    },
  };
}

export function gradCases(context) {
  return [sdpaGradCase(context), mhaGradCase(context)];
}

// CPU time of this process in ms: unlike wall time it does not count the time the process waits
// for a core, which on a shared machine swamps a ratio of two timings.
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * backward / forward of our SIMD build, paired: each round times the forward alone and the
 * gradient call (forward + backward) back to back in CPU time; the ratio is the median over rounds
 * of (both / forward − 1), and the same from the fastest forward and gradient call.
 */
export async function backwardRatios(cases, rounds = 21) {
  const out = [];
  for (const c of cases) {
    if (!c.ratioProbe) continue;
    const { forward, both } = c.ratioProbe;
    for (let i = 0; i < 3; i++) (forward(), both());
    const ratios = [];
    let bestForward = Infinity,
      bestBoth = Infinity;
    for (let r = 0; r < rounds; r++) {
      let t = cpuMs();
      forward();
      const f = cpuMs() - t;
      t = cpuMs();
      both();
      const b = cpuMs() - t;
      ratios.push(b / f - 1);
      bestForward = Math.min(bestForward, f);
      bestBoth = Math.min(bestBoth, b);
    }
    ratios.sort((a, b) => a - b);
    out.push({
      case: c.name,
      median: ratios[Math.floor(rounds / 2)],
      best: bestBoth / bestForward - 1,
      forwardBestMs: bestForward,
      bothBestMs: bestBoth,
    });
  }
  return out;
}

// The arguments of _attn_scaled_dot_product_attention_backward (in its order) for one unmasked
// head of n = m queries and keys, streaming: no weights, no dS, no window.
function streamingBackwardArguments({ aq, ak, av, ag, ao, adq, adk, adv }, n, d) {
  const causal = false,
    padding = 0,
    weights = 0,
    gradScores = 0,
    window = 0,
    lowerRight = false;
  const none = [0, false]; // no mask, no bias: address 0, not per batch item
  const shape = [1, n, n, d, d]; // batch, n, m, dk, dv
  return [
    aq,
    ak,
    av,
    ag,
    ...shape,
    1 / Math.sqrt(d),
    causal,
    ...none,
    ...none,
    padding,
    ao,
    weights,
    adq,
    adk,
    adv,
    gradScores,
    window,
    lowerRight,
  ];
}

// max |ΔdQ| between the streaming backward's `dq` and the materialized path on the sampled rows,
// and the largest |dQ| there.
function dqErrorOnSampledRows(simd, [q, k, v, dO], dq, n, d) {
  const rows = sampledRows(n);
  const ref = simd.scaledDotProductAttentionGrad(
    pickRows(q, rows, d),
    { data: k, shape: [n, d] },
    { data: v, shape: [n, d] },
    pickRows(dO, rows, d),
  ).gradQ.data;
  let err = 0,
    largest = 0;
  rows.forEach((r, i) => {
    for (let c = 0; c < d; c++) {
      err = Math.max(err, Math.abs(ref[i * d + c] - dq[r * d + c]));
      largest = Math.max(largest, Math.abs(ref[i * d + c]));
    }
  });
  return { err, largest, sampled: rows.length };
}

/** The streaming backward (with its forward) at n = m = 16384, d = 64 on a fresh module. */
export async function longBackward({ simd, loadModule }) {
  const n = 16384,
    d = 64;
  const module = await loadModule('simd');
  const bytes = n * d * 4;
  const addresses = Array.from({ length: 8 }, () => module._malloc(bytes));
  const [aq, ak, av, ag, ao, adq, adk, adv] = addresses;
  const rng = simd.randomState(6);
  const data = [aq, ak, av, ag].map((address) => {
    const x = Float32Array.from(rng.randn(n, d).data);
    new Float32Array(module.HEAPU8.buffer, address, n * d).set(x);
    return x;
  });
  rng.dispose?.();
  const afterInputs = module.HEAPU8.length;
  const t0 = performance.now(),
    c0 = cpuMs();
  const args = streamingBackwardArguments({ aq, ak, av, ag, ao, adq, adk, adv }, n, d);
  const status = module._attn_scaled_dot_product_attention_backward(...args);
  const ms = performance.now() - t0,
    cpu = cpuMs() - c0;
  if (status) throw new Error(module._takeLastError());
  const dq = new Float32Array(module.HEAPU8.buffer, adq, n * d).slice();
  const grown = module.HEAPU8.length - afterInputs;
  const { err, largest, sampled } = dqErrorOnSampledRows(simd, data, dq, n, d);
  addresses.forEach((a) => module._free(a));
  return {
    n,
    d,
    ms,
    cpuMs: cpu,
    workspaceBytes: headBackwardWorkspaceBytes(n, n, d, d, false),
    heapGrowthDuringCallBytes: grown,
    maxAbsDiffDqVsMaterialized: err,
    largestDq: largest,
    sampledRows: sampled,
  };
}

export function describeLong(long) {
  return (
    `streaming backward (with its forward) n=m=${long.n} d=${long.d}: ${(long.ms / 1000).toFixed(1)} s ` +
    `(${(long.cpuMs / 1000).toFixed(1)} s of CPU time), core workspace ` +
    `${(long.workspaceBytes / 2 ** 20).toFixed(1)} MiB, WASM memory growth during the call ` +
    `${(long.heapGrowthDuringCallBytes / 2 ** 20).toFixed(1)} MiB (limit 32 MiB), max|ΔdQ| vs the materialized path ` +
    `${long.maxAbsDiffDqVsMaterialized.toExponential(1)} (largest |dQ| ${long.largestDq.toPrecision(3)}) on ${long.sampledRows} sampled rows`
  );
}

/** Targets: backward ≤ 2.5× our forward; ≥ 3× faster than tfjs-wasm; long run ≤ 32 MiB extra. */
export function gradTargets(results, long, ratios = []) {
  const targets = [];
  const row = (name, impl) => results.find((r) => r.case === name)?.rows.find((x) => x.impl === impl);
  for (const name of [SDPA_GRAD, MHA_GRAD]) {
    const ratio = ratios.find((r) => r.case === name);
    if (ratio) {
      // The gradient call runs the forward too: backward = (forward + backward) − forward.
      const value = Math.min(ratio.median, ratio.best);
      targets.push({
        target: `${name}: backward / our forward ≤ 2.5 (CPU time, paired median ${ratio.median.toFixed(2)}, best ${ratio.best.toFixed(2)})`,
        value,
        met: value <= 2.5,
      });
    }
    const tfjs = row(name, 'tfjs-wasm tf.grads');
    if (tfjs) {
      const ratio = Math.min(tfjs.ratioToOurs, tfjs.bestRatioToOurs);
      targets.push({
        target: `${name}: tfjs-wasm tf.grads / ours ≥ 3`,
        value: ratio,
        met: ratio >= 3,
        paired: tfjs.ratioToOurs,
        best: tfjs.bestRatioToOurs,
      });
    }
  }
  if (long) {
    const extra = Math.max(long.workspaceBytes, long.heapGrowthDuringCallBytes);
    targets.push({
      target: 'long backward n=m=16384 d=64: extra heap (MiB) ≤ 32',
      value: extra / 2 ** 20,
      met: extra <= 32 * 2 ** 20,
    });
    const rel = long.maxAbsDiffDqVsMaterialized / long.largestDq;
    targets.push({ target: 'long backward: max|ΔdQ| / max|dQ| vs materialized ≤ 1e-5', value: rel, met: rel <= 1e-5 });
  }
  return targets;
}
