// From one head to several and back, keeping the numbers. The explorer's single head has W_Q, W_K
// (d_model × d_k) and W_V (d_model × d_v) of its own width; h heads share W_Q, W_K, W_V of
// d_model columns, head i owning columns i·d_model/h … (i + 1)·d_model/h − 1 (as PyTorch's
// in_proj_weight), and a W_O mixes their outputs.
//
// Splitting (1 → h): the single head's c columns are shared out in order, head i taking columns
// a_i … b_i − 1 (a_i = ⌊i·c/h⌋) at the start of its block, the rest of its block 0. So nothing
// is invented: each head computes part of the single head's dot products, and the heads' raw
// scores Q_iK_iᵀ add up to the single head's QKᵀ. (Columns past d_model, when d_k > d_model,
// cannot be kept.) W_O is the permutation that puts the heads' value columns back where the single
// head had them, the unused ones after them: had every head attended as the single head did, the
// output's first d_v columns would be its output. When c = d_model it is the identity.
// Merging (h → 1) undoes a split: it applies when every block holds its share and zeros after
// it; other weights keep their first d_k (d_v) columns, which are head 1's.

import { english } from './i18n.js';

// The columns of the single head (of c) that head i of h takes: [a, b).
function share(i, c, h) {
  return [Math.floor((i * c) / h), Math.floor(((i + 1) * c) / h)];
}

// The first c columns of W (rows × at least c) → rows × E, shared out among h heads.
function splitColumns(m, c, E, h) {
  const hd = E / h;
  const data = new Array(m.rows * E).fill(0);
  for (let i = 0; i < h; i++) {
    const [a, b] = share(i, c, h);
    for (let r = 0; r < m.rows; r++)
      for (let k = 0; k < b - a; k++) data[r * E + i * hd + k] = m.data[r * m.cols + a + k];
  }
  return { rows: m.rows, cols: E, data };
}

// rows × E (h blocks) → rows × c, when each block is its share then zeros; else null.
function mergeColumns(m, c, h) {
  const E = m.cols;
  const hd = E / h;
  if (c > E) return null;
  const data = new Array(m.rows * c);
  for (let i = 0; i < h; i++) {
    const [a, b] = share(i, c, h);
    for (let r = 0; r < m.rows; r++) {
      for (let k = 0; k < hd; k++) {
        const v = m.data[r * E + i * hd + k];
        if (k < b - a) data[r * c + a + k] = v;
        else if (v !== 0) return null;
      }
    }
  }
  return { rows: m.rows, cols: c, data };
}

/** The split's W_O (E × E): concatenation column i·E/h + k → output column a_i + k, the rest after. */
export function splitOutputMatrix(E, h, c) {
  const hd = E / h;
  const data = new Array(E * E).fill(0);
  let spare = Math.min(c, E);
  for (let i = 0; i < h; i++) {
    const [a, b] = share(i, Math.min(c, E), h);
    for (let k = 0; k < hd; k++) data[(i * hd + k) * E + (k < b - a ? a + k : spare++)] = 1;
  }
  return { rows: E, cols: E, data };
}

const W_NAMES = [
  ['WQ', 'dk'],
  ['WK', 'dk'],
  ['WV', 'dv'],
  ['BQ', 'dk'],
  ['BK', 'dk'],
  ['BV', 'dv'],
];

/**
 * The matrices of a one-head state shared out among h heads (see above), with W_O and, with
 * biases, b_O = 0; and the note of how (`headSplit`). `state` has d_model E divisible by h.
 */
export function splitHeads(state, h) {
  const E = state.dModel;
  const matrices = { ...state.matrices };
  // (A head count that did not fit d_model may have widened W already: its first d_k columns are the head's.)
  for (const [name, size] of W_NAMES)
    if (matrices[name])
      matrices[name] = splitColumns(matrices[name], Math.min(state[size], matrices[name].cols, E), E, h);
  matrices.WO = splitOutputMatrix(E, h, state.dv);
  if (state.biases) matrices.BO = { rows: 1, cols: E, data: new Array(E).fill(0) };
  return {
    ...state,
    heads: h,
    matrices,
    headSplit: { heads: h, dModel: E, dk: Math.min(state.dk, E), dv: Math.min(state.dv, E) },
  };
}

/** The matrices of an h-head state that is a split, merged back into one head (null if it is not a split). */
export function mergeHeads(state) {
  const h = state.heads;
  const matrices = { ...state.matrices };
  for (const [name, size] of W_NAMES) {
    if (!matrices[name]) continue;
    const merged = mergeColumns(matrices[name], state[size], h);
    if (!merged) return null;
    matrices[name] = merged;
  }
  return { ...state, heads: 1, matrices };
}

/** In words, while the state still is the split it was made as (else ''): for the sizes and W_O. */
/** Whether `state` holds a split of one head (1 → h) that merging would undo. */
function splitShown(state) {
  const s = state.headSplit;
  return Boolean(s && s.heads === state.heads && s.dModel === state.dModel && state.heads >= 2 && mergeHeads(state));
}

// Whether W_O is the split's own permutation (for a state splitShown accepts).
function outputKept(state) {
  const s = state.headSplit;
  const WO = state.matrices.WO;
  return Boolean(WO) && splitOutputMatrix(s.dModel, s.heads, s.dv).data.every((v, k) => v === WO.data[k]);
}

/** Whether the W_O of a split shown in `state` is still the split's own (a permutation). */
export function keepsSplitOutput(state) {
  return splitShown(state) && outputKept(state);
}

/** The sentence that says how the single head was shared out among the heads, or ''. */
export function describeHeadSplit(state, { t } = english) {
  if (!splitShown(state)) return '';
  const s = state.headSplit;
  const each = (c) =>
    c % s.heads === 0
      ? t('explorer.headSplit.each', { count: c / s.heads })
      : t('explorer.headSplit.eachRange', { low: Math.floor(c / s.heads), high: Math.ceil(c / s.heads) });
  const padded =
    s.dk < s.dModel || s.dv < s.dModel ? t('explorer.headSplit.padded', { columns: s.dModel / s.heads }) : '';
  const split = t('explorer.headSplit.split', { dk: s.dk, dv: s.dv, heads: s.heads, each: each(s.dk), padded });
  if (!outputKept(state)) return split;
  const output = t(s.dv >= s.dModel ? 'explorer.headSplit.identity' : 'explorer.headSplit.permutation', { dv: s.dv });
  return `${split} ${output}`;
}
