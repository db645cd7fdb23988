// The FlashAttention lesson's numbers, all from the core: the tile-by-tile trace
// (attn.lessons.flashAttention) and, beside it, the ordinary softmax(S)·V with its scaled and
// masked scores (attn.scaledDotProductAttention). Nothing here touches the DOM.

/** Everything the panel draws for the explorer's head and the lesson's settings `f`. */
export function flashRun(attn, head, f) {
  const { q, k, v, scale } = head;
  const options = { blockRows: f.blockRows, blockCols: f.blockCols, causal: f.causal, scale };
  const trace = attn.lessons.flashAttention(q, k, v, options);
  const naive = attn.scaledDotProductAttention(q, k, v, { causal: f.causal, scale, trace: true });
  let difference = 0;
  for (let i = 0; i < trace.output.data.length; i++)
    difference = Math.max(difference, Math.abs(trace.output.data[i] - naive.output.data[i]));
  const [n, dk] = q.shape;
  const [m, dv] = v.shape;
  return {
    trace,
    naive,
    difference,
    n,
    m,
    dk,
    dv,
    scale,
    blockRows: f.blockRows,
    q: (i, x) => q.data[i * dk + x],
    k: (j, x) => k.data[j * dk + x],
    v: (j, x) => v.data[j * dv + x],
    blockOf: (i) => Math.floor(i / f.blockRows),
  };
}

/**
 * The state after step `s` (counted from 1; 0 = before the first tile) and the state of the same
 * row block before it (null at the block's first tile): { now, before, rows, first } with `first`
 * the block's first query row (blocks of `br` rows).
 */
export function stepState(run, s, br) {
  if (s === 0) return null;
  const steps = run.trace.steps;
  const now = steps[s - 1];
  const before = s >= 2 && steps[s - 2].rowBlock === now.rowBlock ? steps[s - 2] : null;
  return { now, before, rows: now.rowMax.length, first: now.rowBlock * br };
}

/** The score cells (flat indices into n × m) of tile (r, c). */
export function tileCells(run, br, bc, r, c) {
  const cells = new Set();
  for (let i = r * br; i < Math.min(run.n, (r + 1) * br); i++)
    for (let j = c * bc; j < Math.min(run.m, (c + 1) * bc); j++) cells.add(i * run.m + j);
  return cells;
}

/**
 * Floats a tile step holds besides Q, K, V and O themselves: one query block, one key and one
 * value block, the tile of scores, and per row m and ℓ and the unnormalised output row. Against it,
 * the n × m score matrix the ordinary computation materialises (and the weights of the same size).
 */
export function tileMemory({ n, m, dk, dv }, br, bc) {
  const rows = Math.min(br, n);
  const cols = Math.min(bc, m);
  const tile = rows * dk + cols * (dk + dv) + rows * cols + 2 * rows + rows * dv;
  return { tile, tileBytes: tile * 4, full: n * m, fullBytes: n * m * 4, rows, cols };
}

/** e^(m_old − m_new) for one row: 0 before any visible key, 1 when the max did not change. */
export function rescale(mOld, mNew) {
  if (mOld === -Infinity) return 0;
  return Math.exp(mOld - mNew);
}
