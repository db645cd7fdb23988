// Explanations for the bias matrix, the projection biases and cross-attention's memory: the parts
// of "how was this number computed?" that only exist when those are switched on (explain.js asks).
import { english, factor, formatNumber } from '../model/model.js';

const at = (t, i, j) => t.data[i * t.shape[1] + j];
const quote = (s) => `“${s}”`;
const MINUS_INF = '−∞';

/**
 * Step 3 for cell (i, j): the scaled score plus the bias matrix's entry (score + bias = masked
 * score), or −∞ when a mask or the bias hides the pair. `line(text, kind)` appends a line.
 */
export function explainMasked({ state, result, i, j, line, reason, d, t = english.t }) {
  const head = result.head;
  const v = at(head.masked, i, j);
  const scaled = at(head.scaled, i, j);
  const b = d.biasMatrix ? state.matrices.B.data[i * d.m + j] : null;
  const sum =
    b === null
      ? ''
      : ` + B[${i + 1},${j + 1}] = ${factor(scaled, 4)} + ${b === -Infinity ? `(${MINUS_INF})` : factor(b, 4)}`;
  if (v === -Infinity) {
    line(t('explorer.explain.masked.hidden', { reason: reason() }), 'text');
    // With a finite bias the sum is finite and the boolean mask then hides the pair.
    const cellName = `M[${i + 1},${j + 1}]`;
    const how =
      b === null
        ? `${cellName} = ${MINUS_INF}`
        : b === -Infinity
          ? `${cellName} = S′[${i + 1},${j + 1}]${sum} = ${MINUS_INF}`
          : t('explorer.explain.masked.thenMask', {
              how: `${cellName} = S′[${i + 1},${j + 1}]${sum} = ${formatNumber(scaled + b)}`,
            });
    line(t('explorer.explain.masked.zero', { how }), 'text');
    if (b === -Infinity) line(t('explorer.explain.masked.infNote'), 'note');
    return;
  }
  if (b === null) {
    line(t(state.mask.kind === 'none' ? 'explorer.explain.masked.noMask' : 'explorer.explain.masked.visible'), 'text');
    line(`M[${i + 1},${j + 1}] = S′[${i + 1},${j + 1}] = ${formatNumber(v)}`, 'result');
    return;
  }
  line(t('explorer.explain.masked.bias'), 'text');
  line(`M[${i + 1},${j + 1}] = S′[${i + 1},${j + 1}]${sum}`);
  line(`= ${formatNumber(v)}`, 'result');
  if (b < 0)
    line(
      t('explorer.explain.masked.negative', { power: `e^${factor(b, 3)}`, factor: formatNumber(Math.exp(b), 3) }),
      'note',
    );
}

/**
 * The terms of Q, K or V [i, j] = Σ_r X[i, r]·W[r, j] (+ b[j]): the input is the memory X_mem for K
 * and V in cross-attention. Returns { xName, terms: [[x, w], …], bias (or null) }.
 */
export function projectionTerms(state, d, name, i, j) {
  const memory = name !== 'Q' && d.cross;
  const X = memory ? state.matrices.XM : state.matrices.X;
  const W = state.matrices[`W${name}`];
  const terms = [];
  for (let r = 0; r < X.cols; r++) terms.push([X.data[i * X.cols + r], W.data[r * W.cols + j]]);
  return { xName: memory ? 'X_mem' : 'X', terms, bias: d.biases ? state.matrices[`B${name}`].data[j] : null };
}

/** What an input cell of the new matrices feeds (undefined for the others). */
export function explainProjectionInput(name, i, j, labels, t = english.t, quoted = quote) {
  switch (name) {
    case 'B':
      return t('explorer.explain.input.B', { query: quoted(labels.queries[i]), key: quoted(labels.keys[j]) });
    case 'XM':
      return t('explorer.explain.input.XM', { j: j + 1, i: i + 1, key: quoted(labels.keys[i]) });
    case 'BQ':
    case 'BK':
    case 'BV':
      return t('explorer.explain.input.bias', { j: j + 1, of: name[1] });
    case 'BO':
      return t('explorer.explain.input.BO', { j: j + 1 });
    default:
      return undefined;
  }
}
