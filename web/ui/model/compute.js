// State -> every number the page shows, computed by the WebAssembly core through the JS API:
// projections (attn.matmul), attention (scaledDotProductAttention / a multi-head layer) and the row
// diagnostics (attn.lessons.rowStats). The only JS here is bookkeeping: slicing a head's columns
// out of a projection and picking which rows count towards a mean.
import { activeMatrices, dims, maskOptions, scaleFactor, tokenLabels, usesDefaultScale } from './state.js';
import { layerMask, projectWithBias, subBias } from './compute-extras.js';

const tensor = (m) => ({ data: m.data, shape: [m.rows, m.cols] });
const vector = (m) => ({ data: m.data, shape: [m.cols] });

// Rows `index` (in that order) of a row-major [rows, cols] tensor, as a new tensor.
function rowsOf(t, index) {
  const cols = t.shape[1];
  const data = new Float32Array(index.length * cols);
  index.forEach((r, i) => {
    for (let c = 0; c < cols; c++) data[i * cols + c] = t.data[r * cols + c]; // typed or plain array
  });
  return { data, shape: [index.length, cols] };
}

// The page's mask options in the multi-head layer's vocabulary (attnMask instead of mask).
function forwardMask(opts) {
  const out = {};
  if (opts.causal) out.causal = true;
  if (opts.keyPaddingMask) out.keyPaddingMask = opts.keyPaddingMask;
  if (opts.mask) out.attnMask = opts.mask;
  return out;
}

// Columns [from, from + count) of a row-major [rows, cols] tensor, as a new [rows, count] tensor.
function columns(t, from, count) {
  const [rows, cols] = t.shape;
  const data = new Float32Array(rows * count);
  for (let i = 0; i < rows; i++) data.set(t.data.subarray(i * cols + from, i * cols + from + count), i * count);
  return { data, shape: [rows, count] };
}

/**
 * Row sums, entropies and maxima of an [n, m] weights tensor from the core, and their means over
 * the rows that see at least one key, also from the core: a [1, n] row of 1/count (0 for fully
 * masked rows) times the [n, 2] columns (entropy, max). `uniformEntropy` is the entropy of a
 * softmax over m equal scores (ln m), the most a row can have.
 */
function weightStats(attn, weights, fullyMasked) {
  const [n, m] = weights.shape;
  const st = attn.lessons.rowStats(weights);
  const visible = n - fullyMasked.size;
  const picks = new Float32Array(n);
  const columnsHM = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    picks[i] = visible && !fullyMasked.has(i) ? 1 / visible : 0;
    columnsHM[2 * i] = st.entropy.data[i];
    columnsHM[2 * i + 1] = st.max.data[i];
  }
  const means = attn.matmul({ data: picks, shape: [1, n] }, { data: columnsHM, shape: [n, 2] }).data;
  const uniform = attn.lessons.softmax({ data: new Float32Array(m), shape: [1, m] }).entropy.data[0];
  return {
    rowSums: st.sum.data,
    entropy: st.entropy.data,
    maxWeight: st.max.data,
    visibleRows: visible,
    meanEntropy: means[0],
    meanMax: means[1],
    uniformEntropy: uniform,
  };
}

/** Keeps the WebAssembly layers it needs between calls and recreates them when sizes change. */
export function createComputer(attn) {
  let layer = null; // multi-head: { E, h, layer }
  let inputs = null; // what the last compute() attended with, for variant()

  // The layer and the weight matrices it was last given. State is never changed in place (an
  // edit makes a new matrix), so the same objects mean the same numbers: an edit of X does not
  // copy the four d_model × d_model weights into the layer again.
  let sent = [];
  function sendWeights(mha, M, biases) {
    const now = [mha, M.WQ, M.WK, M.WV, M.WO, ...(biases ? [M.BQ, M.BK, M.BV, M.BO] : [])];
    if (now.length === sent.length && now.every((x, k) => x === sent[k])) return;
    const b = biases ? { bq: vector(M.BQ), bk: vector(M.BK), bv: vector(M.BV), bo: vector(M.BO) } : {};
    mha.setWeights({ wq: tensor(M.WQ), wk: tensor(M.WK), wv: tensor(M.WV), wo: tensor(M.WO), ...b });
    sent = now;
  }

  function layerFor(E, h, bias) {
    if (layer?.E !== E || layer?.h !== h || layer?.bias !== bias) {
      layer?.layer.dispose();
      layer = null;
      layer = { E, h, bias, layer: attn.multiHeadAttention({ embedDim: E, numHeads: h, bias }) };
    }
    return layer.layer;
  }

  // Q = X·W_Q (+ b_Q), K = X_kv·W_K (+ b_K), V = X_kv·W_V (+ b_V) for one head of free width d_k,
  // d_v; X_kv is the memory's vectors in cross-attention, X otherwise.
  function project(s, d) {
    const M = s.matrices;
    const x = tensor(M.X);
    const xkv = d.cross ? tensor(M.XM) : x;
    const p = (xs, name) => projectWithBias(attn, xs, tensor(M[`W${name}`]), d.biases ? M[`B${name}`] : null);
    return { Q: p(x, 'Q'), K: p(xkv, 'K'), V: p(xkv, 'V') };
  }

  function single(s, d) {
    const proj = d.sentence ? project(s, d) : null;
    const q = proj ? proj.Q : tensor(s.matrices.Q);
    const k = proj ? proj.K : tensor(s.matrices.K);
    const v = proj ? proj.V : tensor(s.matrices.V);
    const scale = scaleFactor(s);
    const bias = d.biasMatrix ? { bias: tensor(s.matrices.B) } : {};
    const r = attn.scaledDotProductAttention(q, k, v, { ...maskOptions(s), ...bias, scale, trace: true });
    const M = s.matrices;
    const w = proj
      ? { q: tensor(M.WQ), k: tensor(M.WK), v: tensor(M.WV), ...(d.biases ? { bq: M.BQ, bk: M.BK, bv: M.BV } : {}) }
      : null;
    inputs = { multi: false, q, k, v, scale, w, B: d.biasMatrix ? M.B : null, xkv: d.cross ? tensor(M.XM) : null };
    return {
      proj,
      head: {
        index: 0,
        q,
        k,
        v,
        scale,
        dk: d.dk,
        scores: r.trace.scores,
        scaled: r.trace.scaled,
        masked: r.trace.masked,
        weights: r.weights,
        output: r.output,
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
    const mha = layerFor(E, h, d.biases);
    sendWeights(mha, M, d.biases);
    const x = tensor(M.X);
    const xkv = d.cross ? tensor(M.XM) : x;
    const scale = scaleFactor(s);
    const B = d.biasMatrix ? M.B : null;
    const forwardOpts = {
      trace: true,
      needWeights: true,
      averageWeights: true,
      scale,
      ...layerMask(forwardMask(maskOptions(s)), B),
    };
    const r = mha.forward(x, xkv, xkv, forwardOpts);
    inputs = { multi: true, x, xkv, cross: d.cross, layer: mha, scale, B };
    const t = r.trace;
    const perHead = (all, i, rows, cols) => ({
      data: all.data.subarray(i * rows * cols, (i + 1) * rows * cols),
      shape: [rows, cols],
    });
    const sel = s.view.head;
    return {
      proj: { Q: t.q, K: t.k, V: t.v },
      head: {
        index: sel,
        dk: hd,
        scale,
        q: columns(t.q, sel * hd, hd),
        k: columns(t.k, sel * hd, hd),
        v: columns(t.v, sel * hd, hd),
        scores: perHead(t.scores, sel, d.n, d.m),
        scaled: perHead(t.scaled, sel, d.n, d.m),
        masked: perHead(t.masked, sel, d.n, d.m),
        weights: perHead(t.weights, sel, d.n, d.m),
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
        // The layer's own count (with its biases when it has them), and both counts for the sentence.
        parameterCount: mha.parameterCount(),
        biases: d.biases,
        parameterCountWeights: attn.lessons.attentionCost({ n: d.n, m: d.m, dModel: E, numHeads: h, bias: false })
          .parameters,
        parameterCountWithBiases: attn.lessons.attentionCost({ n: d.n, m: d.m, dModel: E, numHeads: h, bias: true })
          .parameters,
      },
    };
  }

  return {
    /** Everything the page shows for `state`, or { error } with the core's message. */
    compute(s) {
      const d = dims(s);
      const labels = tokenLabels(s);
      const base = { dims: d, labels, defaultScale: usesDefaultScale(s) };
      inputs = null;
      try {
        if (!d.divisible)
          throw new Error(
            `d_model (${d.dModel}) must be divisible by the number of heads (${d.heads}): each head gets d_model / heads features`,
          );
        for (const [name, rows, cols] of activeMatrices(s)) {
          const mat = s.matrices[name];
          if (!mat || mat.rows !== rows || mat.cols !== cols) throw new Error(`${name} is not ${rows} × ${cols} yet`);
        }
        const out = d.multi ? multi(s, d) : single(s, d);
        const { masked, weights } = out.head;
        const hidden = new Uint8Array(d.n * d.m);
        for (let i = 0; i < hidden.length; i++) hidden[i] = masked.data[i] === -Infinity ? 1 : 0;
        const fullyMasked = new Set(out.fullyMaskedRows);
        return { ...base, ...out, error: null, hidden, fullyMasked, stats: weightStats(attn, weights, fullyMasked) };
      } catch (err) {
        return { ...base, error: err instanceof Error ? err.message : String(err) };
      }
    },
    /**
     * The same attention as the last compute() (same inputs, layer and scale) on a choice of rows:
     * `queries` and `keys` are row indices (a prefix, a permutation, …) into the query side and the
     * key/value side (Q and K, V; or X for a multi-head layer). `options` are the core's mask
     * options ({ causal, keyPaddingMask, mask }) and `pitfall`. Returns the weights (the head
     * average for several heads), the output and the fully masked rows, or null after an error.
     */
    variant({ queries, keys, causal = false, keyPaddingMask, mask, pitfall, x: newX } = {}) {
      if (!inputs) return null;
      if (newX) return this.variantOfX(newX, { causal, keyPaddingMask, mask });
      const masks = { causal, keyPaddingMask, mask };
      for (const key of Object.keys(masks)) if (!masks[key]) delete masks[key];
      const extra = pitfall && pitfall !== 'none' ? { pitfall } : {};
      // A subset of rows (a prefix) keeps their entries of the bias matrix; a reordering of every
      // token keeps B on the positions, as the causal mask stays on them (B is positional: ALiBi).
      const reorders = inputs.B && queries?.length === inputs.B.rows && keys?.length === inputs.B.cols;
      const B = reorders ? inputs.B : subBias(inputs.B, queries, keys);
      if (!inputs.multi) {
        const { q, k, v, scale } = inputs;
        const Q = queries ? rowsOf(q, queries) : q;
        const K = keys ? rowsOf(k, keys) : k;
        const V = keys ? rowsOf(v, keys) : v;
        const r = attn.scaledDotProductAttention(Q, K, V, {
          ...masks,
          ...(B ? { bias: tensor(B) } : {}),
          scale,
          ...extra,
        });
        return { weights: r.weights, output: r.output, fullyMaskedRows: r.fullyMaskedRows };
      }
      const { x, layer: mha, scale } = inputs;
      const xq = queries ? rowsOf(x, queries) : x;
      const xkv = keys ? rowsOf(inputs.xkv, keys) : inputs.xkv;
      const r = mha.forward(xq, xkv, xkv, {
        ...layerMask(forwardMask(masks), B),
        scale,
        averageWeights: true,
        ...extra,
      });
      return { weights: r.weights, output: r.output, fullyMaskedRows: r.fullyMaskedRows };
    },
    /**
     * Sentence mode only: the same layer and scale on other token vectors `x` ([n, d_model]), e.g.
     * the words swapped while the positions stay. Returns what variant() returns.
     */
    variantOfX(x, { causal = false, keyPaddingMask, mask } = {}) {
      if (!inputs || (!inputs.multi && !inputs.w)) return null;
      const masks = { causal, keyPaddingMask, mask };
      for (const key of Object.keys(masks)) if (!masks[key]) delete masks[key];
      // In cross-attention the new vectors are the queries; the memory stays the keys and values.
      if (inputs.multi) {
        const xkv = inputs.cross ? inputs.xkv : x;
        const r = inputs.layer.forward(x, xkv, xkv, {
          ...layerMask(forwardMask(masks), inputs.B),
          scale: inputs.scale,
          averageWeights: true,
        });
        return { weights: r.weights, output: r.output, fullyMaskedRows: r.fullyMaskedRows };
      }
      const { w, scale } = inputs;
      const xkv = inputs.xkv ?? x;
      const p = (xs, W, b) => projectWithBias(attn, xs, W, b ?? null);
      const B = inputs.B ? { bias: tensor(inputs.B) } : {};
      const r = attn.scaledDotProductAttention(p(x, w.q, w.bq), p(xkv, w.k, w.bk), p(xkv, w.v, w.bv), {
        ...masks,
        ...B,
        scale,
      });
      return { weights: r.weights, output: r.output, fullyMaskedRows: r.fullyMaskedRows };
    },
    dispose() {
      inputs = null;
      layer?.layer.dispose();
      layer = null;
    },
  };
}
