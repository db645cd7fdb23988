// Bookkeeping for the bias matrix and the projection biases, so compute.js hands the core what it
// takes: nothing here computes a number the page shows (the core does every product and sum).

/**
 * x·W + b computed by the core as one product, [x | 1]·[W; b]: the column of ones picks up the
 * bias row. `b` is a 1-row matrix { rows: 1, cols, data } or null (then plain x·W).
 */
export function projectWithBias(attn, x, W, b) {
  if (!b) return attn.matmul(x, W);
  const [rows, k] = x.shape;
  const cols = W.shape[1];
  const xa = new Float64Array(rows * (k + 1));
  for (let i = 0; i < rows; i++) {
    for (let c = 0; c < k; c++) xa[i * (k + 1) + c] = x.data[i * k + c];
    xa[i * (k + 1) + k] = 1;
  }
  const wa = new Float64Array((k + 1) * cols);
  for (let t = 0; t < k * cols; t++) wa[t] = W.data[t];
  for (let c = 0; c < cols; c++) wa[k * cols + c] = b.data[c];
  return attn.matmul({ data: xa, shape: [rows, k + 1] }, { data: wa, shape: [k + 1, cols] });
}

/**
 * Multi-head forward options with the bias matrix B ({ rows, cols, data } or null). The layer
 * takes one attnMask, boolean or float (as torch.nn.MultiheadAttention): with B on, a boolean
 * custom mask becomes −∞ in the float mask, which hides exactly the same pairs. Causal and
 * key-padding masks stay as they are; the core combines them with the float mask.
 */
export function layerMask(opts, B) {
  if (!B) return opts;
  const data = Float32Array.from(B.data);
  const hidden = opts.attnMask?.data;
  if (hidden) for (let k = 0; k < data.length; k++) if (hidden[k]) data[k] = -Infinity;
  return { ...opts, attnMask: { data, shape: [B.rows, B.cols] } };
}

/** B's rows `queries` and columns `keys` (all when not given), as a matrix; null without B. */
export function subBias(B, queries, keys) {
  if (!B) return null;
  const rows = queries ?? Array.from({ length: B.rows }, (_, i) => i);
  const cols = keys ?? Array.from({ length: B.cols }, (_, j) => j);
  const data = new Float32Array(rows.length * cols.length);
  rows.forEach((r, i) =>
    cols.forEach((c, j) => {
      data[i * cols.length + j] = B.data[r * B.cols + c];
    }),
  );
  return { rows: rows.length, cols: cols.length, data };
}
