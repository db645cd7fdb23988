// A checkpoint head as the explorer's example (checkpoint-vectors.js says how the sentence's span
// keeps the head's dot products): its X = [L, 1] and W = [B·W; b]. Loaded with the trained
// sources' code (trained-sources.js), when a checkpoint's head is first read.

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
