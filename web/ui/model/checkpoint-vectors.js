// Sentence mode's fourth source of token vectors: one head of a checkpoint opened in the page (a
// GPT-2 model, web/ui/checkpoint/), reading the learner's sentence split by GPT-2's own tokenizer.
// The head reads 768 numbers per token (GPT-2 small's d_model), far more than the explorer shows,
// but only the span of the sentence's T token vectors matters: with an orthonormal basis B (r × E,
// r ≤ T) of the rows of X (the layer's input, LN₁ of the residual stream, from the core), X = L·B
// exactly, where L = X·Bᵀ holds each token's r coordinates, so X·W + b = [L, 1]·[B·W; b]. The
// explorer gets X = [L, 1] and W = [B·W; b] for q, k and v: the same dot products, so its weights
// are the model's own attention for that head. Lengths and angles between the tokens' vectors
// are kept; the coordinates themselves depend on the basis (Gram–Schmidt in token order).
// state.vectors = { source: 'checkpoint', layer, head, layers, heads, dModel (the model's E),
// rank (r), name, sentence (what X was computed for), stale? } — layers and heads from 0.

import { english } from './i18n.js';

let pieces = null;

/** Registers GPT-2's tokenizer (text → { ids, pieces }), loaded by the page once a checkpoint opens. */
export function setCheckpointTokenizer(tokenize) {
  pieces = tokenize;
}

/** The sentence as the checkpoint reads it, at most `max` tokens: { ids, pieces, truncated }, or null before a tokenizer is registered. */
export function checkpointTokens(text, max = 24) {
  if (!pieces) return null;
  const all = pieces(String(text ?? ''));
  return { ids: all.ids.slice(0, max), pieces: all.pieces.slice(0, max), truncated: all.ids.length > max };
}

export const usesCheckpoint = (state) => state?.vectors?.source === 'checkpoint';

/** state.vectors for the checkpoint source, checked. */
export function normalizeCheckpointVectors(v) {
  const count = (x, fallback) => (Number.isInteger(x) && x > 0 ? x : fallback);
  const out = {
    source: 'checkpoint',
    layers: count(v.layers, 1),
    heads: count(v.heads, 1),
    dModel: count(v.dModel, 1),
    rank: count(v.rank, 1),
  };
  out.layer = Math.min(out.layers - 1, Math.max(0, Number.isInteger(v.layer) ? v.layer : 0));
  out.head = Math.min(out.heads - 1, Math.max(0, Number.isInteger(v.head) ? v.head : 0));
  out.name = typeof v.name === 'string' ? v.name.slice(0, 80) : 'the checkpoint';
  out.sentence = typeof v.sentence === 'string' ? v.sentence.slice(0, 2000) : '';
  if (v.stale === true) out.stale = true;
  return out;
}

/**
 * An orthonormal basis of the rows of x ([T, E], float32 or float64), in row order: Gram–Schmidt,
 * done twice per row for float64 accuracy; rows that add less than `tol` of the largest row's
 * norm (a repeated token, say) add no direction. Returns { basis: Float64Array[], coords: [T, r] }.
 */
export function spanBasis(x, T, E, tol = 1e-7) {
  const rows = Array.from({ length: T }, (_, t) => Float64Array.from(x.subarray(t * E, (t + 1) * E)));
  const norm = (v) => Math.sqrt(v.reduce((s, a) => s + a * a, 0));
  const biggest = Math.max(...rows.map(norm), 0);
  const basis = [];
  const seen = []; // basis vectors known once each row was taken in: its coordinates beyond are exactly 0
  for (const row of rows) {
    const v = Float64Array.from(row);
    for (let pass = 0; pass < 2; pass++) {
      for (const b of basis) {
        let dot = 0;
        for (let e = 0; e < E; e++) dot += v[e] * b[e];
        for (let e = 0; e < E; e++) v[e] -= dot * b[e];
      }
    }
    const n = norm(v);
    if (n > tol * biggest) basis.push(v.map((a) => a / n));
    seen.push(basis.length);
  }
  const r = basis.length;
  const coords = new Float64Array(T * r);
  rows.forEach((row, t) =>
    basis.slice(0, seen[t]).forEach((b, k) => {
      let dot = 0;
      for (let e = 0; e < E; e++) dot += row[e] * b[e];
      coords[t * r + k] = dot;
    }),
  );
  return { basis, coords, r };
}

// [B·W; b]: W [E, d] written in the basis (r rows), then the bias as one more row.
function inBasis(basis, { weight, bias }, E, d) {
  const r = basis.length;
  const data = new Array((r + 1) * d);
  for (let k = 0; k < r; k++) {
    for (let c = 0; c < d; c++) {
      let s = 0;
      for (let e = 0; e < E; e++) s += basis[k][e] * weight.data[e * d + c];
      data[k * d + c] = s;
    }
  }
  for (let c = 0; c < d; c++) data[r * d + c] = bias.data[c];
  return { rows: r + 1, cols: d, data };
}

/**
 * The explorer state for a checkpoint head (the host's head(): x [T, E] and the head's q, k, v
 * weights and biases) reading `sentence` as `labels` (GPT-2's pieces): sentence mode, one head,
 * causal mask, d_model = r + 1, d_k = d_v = the head's width. `keep` holds what stays of the
 * explorer's state (display, lessons, seed). Returns the state.
 */
export function checkpointHeadState({ x, q, k, v, layer, head, config, name, sentence, labels, keep = {} }) {
  const [T, E] = x.shape;
  const d = q.weight.shape[1];
  const { coords, basis, r } = spanBasis(x.data, T, E);
  const X = new Array(T * (r + 1));
  for (let t = 0; t < T; t++) {
    for (let c = 0; c < r; c++) X[t * (r + 1) + c] = coords[t * r + c];
    X[t * (r + 1) + r] = 1;
  }
  const vectors = {
    source: 'checkpoint',
    layer,
    head,
    layers: config.numLayers,
    heads: config.numHeads,
    dModel: E,
    rank: r,
    name: String(name ?? 'the checkpoint').slice(0, 80),
    sentence,
  };
  return {
    ...keep,
    mode: 'sentence',
    sentence,
    tokens: labels.slice(0, T).map((p) => p.slice(0, 24)),
    headNames: [],
    dModel: r + 1,
    dk: d,
    dv: d,
    heads: 1,
    positional: 'none',
    scaling: { sqrtDk: true, temperature: 1 },
    mask: { kind: 'causal' },
    view: { head: 0 },
    matrices: {
      X: { rows: T, cols: r + 1, data: X },
      WQ: inBasis(basis, q, E, d),
      WK: inBasis(basis, k, E, d),
      WV: inBasis(basis, v, E, d),
    },
    vectors,
  };
}

/** Whether the sizes are still the checkpoint head's (the caller also checks X's key). */
export function checkpointFits(state) {
  const v = state.vectors;
  return state.heads === 1 && state.dModel === v.rank + 1 && state.tokens.length <= 24;
}

/**
 * The vector-source note, the sentence help and the note on X for the checkpoint source, in the
 * language of `i18n` (English by default; catalogue part `checkpoint`).
 */
export function describeCheckpoint(state, { t } = english) {
  const v = normalizeCheckpointVectors(state.vectors);
  const where = {
    layer: v.layer + 1,
    head: v.head + 1,
    name: v.name,
    layers: v.layers,
    heads: v.heads,
    dModel: v.dModel,
  };
  return {
    source: t('checkpoint.vectors.source', where),
    help: t(v.stale ? 'checkpoint.vectors.reading' : 'checkpoint.vectors.help'),
    note: t('checkpoint.vectors.note', { ...where, rank: v.rank }),
  };
}
