// State -> every number the page shows, computed by the WebAssembly core through the JS API.
// The page does no attention arithmetic of its own; the only JS arithmetic here is bookkeeping
// (slicing a head's columns out of a projection) and the row diagnostics (sum, entropy, max),
// which summarise weights the core produced.
import { activeMatrices, dims, maskOptions, scaleFactor, tokenLabels, usesDefaultScale } from './state.js';

const tensor = (m) => ({ data: m.data, shape: [m.rows, m.cols] });

// Columns [from, from + count) of a row-major [rows, cols] tensor, as a new [rows, count] tensor.
function columns(t, from, count) {
  const [rows, cols] = t.shape;
  const data = new Float32Array(rows * count);
  for (let i = 0; i < rows; i++) data.set(t.data.subarray(i * cols + from, i * cols + from + count), i * count);
  return { data, shape: [rows, count] };
}

// Zero-pads a [rows, cols] matrix to [R, C]; zeros add exact zeros to every product.
function padded(m, R, C) {
  if (m.rows === R && m.cols === C) return tensor(m);
  const data = new Float32Array(R * C);
  for (let i = 0; i < m.rows; i++)
    for (let j = 0; j < m.cols; j++) data[i * C + j] = m.data[i * m.cols + j];
  return { data, shape: [R, C] };
}

function rowStats(weights, n, m) {
  const rowSums = new Float64Array(n);
  const entropy = new Float64Array(n);
  const maxWeight = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let h = 0;
    let max = 0;
    for (let j = 0; j < m; j++) {
      const w = weights[i * m + j];
      sum += w;
      if (w > 0) h -= w * Math.log(w);
      if (w > max) max = w;
    }
    rowSums[i] = sum;
    entropy[i] = h;
    maxWeight[i] = max;
  }
  return { rowSums, entropy, maxWeight };
}

/** Keeps the WebAssembly layers it needs between calls and recreates them when sizes change. */
export function createComputer(attn) {
  let projector = null;  // single-head projections: { E, layer }
  let layer = null;      // multi-head: { E, h, layer }

  function projectorFor(E) {
    if (projector?.E !== E) {
      projector?.layer.dispose();
      projector = { E, layer: attn.multiHeadAttention({ embedDim: E, numHeads: 1, bias: false }) };
    }
    return projector.layer;
  }

  function layerFor(E, h) {
    if (layer?.E !== E || layer?.h !== h) {
      layer?.layer.dispose();
      layer = null;
      layer = { E, h, layer: attn.multiHeadAttention({ embedDim: E, numHeads: h, bias: false }) };
    }
    return layer.layer;
  }

  // Q = X·W_Q, K = X·W_K, V = X·W_V for one head of free width d_k, d_v. The core's projection is
  // a multi-head layer's input projection, which is square (E × E): the matrices are zero-padded
  // to E = max(d_model, d_k, d_v) and the first d_k (d_v) columns of the result are kept.
  function project(s, d) {
    const E = Math.max(d.dModel, d.dk, d.dv);
    const M = s.matrices;
    const proj = projectorFor(E);
    proj.setWeights({ wq: padded(M.WQ, E, E), wk: padded(M.WK, E, E), wv: padded(M.WV, E, E) });
    const x = padded(M.X, d.n, E);
    const r = proj.forward(x, x, x, { needWeights: false, trace: true });
    return { Q: columns(r.trace.q, 0, d.dk), K: columns(r.trace.k, 0, d.dk), V: columns(r.trace.v, 0, d.dv) };
  }

  function single(s, d) {
    const proj = d.sentence ? project(s, d) : null;
    const q = proj ? proj.Q : tensor(s.matrices.Q);
    const k = proj ? proj.K : tensor(s.matrices.K);
    const v = proj ? proj.V : tensor(s.matrices.V);
    const scale = scaleFactor(s);
    const r = attn.scaledDotProductAttention(q, k, v, { ...maskOptions(s), scale, trace: true });
    return {
      proj,
      head: {
        index: 0, q, k, v, scale, dk: d.dk,
        scores: r.trace.scores, scaled: r.trace.scaled, masked: r.trace.masked,
        weights: r.weights, output: r.output,
      },
      fullyMaskedRows: r.fullyMaskedRows,
      multi: null,
    };
  }

  function multi(s, d) {
    const E = d.dModel;
    const h = d.heads;
    const hd = E / h;
    const M = s.matrices;
    const mha = layerFor(E, h);
    mha.setWeights({ wq: tensor(M.WQ), wk: tensor(M.WK), wv: tensor(M.WV), wo: tensor(M.WO) });
    const x = tensor(M.X);
    const opts = maskOptions(s);
    const forwardOpts = { trace: true, needWeights: true, averageWeights: true };
    if (opts.causal) forwardOpts.causal = true;
    if (opts.keyPaddingMask) forwardOpts.keyPaddingMask = opts.keyPaddingMask;
    if (opts.mask) forwardOpts.attnMask = opts.mask;
    const r = mha.forward(x, x, x, forwardOpts);
    const t = r.trace;
    const nm = d.n * d.m;
    const perHead = (all, i, rows, cols) => ({ data: all.data.subarray(i * rows * cols, (i + 1) * rows * cols), shape: [rows, cols] });
    const sel = s.view.head;
    return {
      proj: { Q: t.q, K: t.k, V: t.v },
      head: {
        index: sel, dk: hd, scale: 1 / Math.sqrt(hd),
        q: columns(t.q, sel * hd, hd), k: columns(t.k, sel * hd, hd), v: columns(t.v, sel * hd, hd),
        scores: perHead(t.scores, sel, d.n, d.m), scaled: perHead(t.scaled, sel, d.n, d.m),
        masked: perHead(t.masked, sel, d.n, d.m), weights: perHead(t.weights, sel, d.n, d.m),
        output: perHead(t.headOutputs, sel, d.n, hd),
      },
      fullyMaskedRows: r.fullyMaskedRows,
      multi: {
        heads: Array.from({ length: h }, (_, i) => perHead(t.weights, i, d.n, d.m)),
        average: r.weights,
        headOutputs: Array.from({ length: h }, (_, i) => perHead(t.headOutputs, i, d.n, hd)),
        concat: t.concat,
        output: r.output,
        headDim: hd,
        parameterCount: mha.parameterCount(),
      },
      nm,
    };
  }

  return {
    /** Everything the page shows for `state`, or { error } with the core's message. */
    compute(s) {
      const d = dims(s);
      const labels = tokenLabels(s);
      const base = { dims: d, labels, defaultScale: usesDefaultScale(s) };
      try {
        if (!d.divisible)
          throw new Error(`d_model (${d.dModel}) must be divisible by the number of heads (${d.heads}): each head gets d_model / heads features`);
        for (const [name, rows, cols] of activeMatrices(s)) {
          const mat = s.matrices[name];
          if (!mat || mat.rows !== rows || mat.cols !== cols) throw new Error(`${name} is not ${rows} × ${cols} yet`);
        }
        const out = d.multi ? multi(s, d) : single(s, d);
        const { masked, weights } = out.head;
        const hidden = new Uint8Array(d.n * d.m);
        for (let i = 0; i < hidden.length; i++) hidden[i] = masked.data[i] === -Infinity ? 1 : 0;
        return {
          ...base, ...out, error: null, hidden,
          fullyMasked: new Set(out.fullyMaskedRows),
          stats: rowStats(weights.data, d.n, d.m),
        };
      } catch (err) {
        return { ...base, error: err instanceof Error ? err.message : String(err) };
      }
    },
    dispose() {
      projector?.layer.dispose();
      layer?.layer.dispose();
      projector = layer = null;
    },
  };
}
