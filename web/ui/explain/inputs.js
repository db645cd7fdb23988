// Explanations for the inputs: a typed input cell (what it feeds) and a projection Q, K or V =
// X·W (+ b) written out term by term. Each takes the explanation context of explain.js and
// returns the title.
import { factor, keepsSplitOutput, formatNumber, usesTextModel, usesTrainedHead } from '../model/model.js';
import { explainProjectionInput, projectionTerms } from './extras.js';
import { at, sum } from './terms.js';

const MATRIX_TEXT = {
  Q: 'Q',
  K: 'K',
  V: 'V',
  X: 'X',
  WQ: 'W_Q',
  WK: 'W_K',
  WV: 'W_V',
  WO: 'W_O',
  XM: 'X_mem',
  B: 'B',
  BQ: 'b_Q',
  BK: 'b_K',
  BV: 'b_V',
  BO: 'b_O',
};

// Q, K or V = X·W (full projection in sentence mode).
function explainProjection({ target, state, result, d, labels, i, j, line, t, quote }) {
  const name = target.name;
  const { xName, terms, bias } = projectionTerms(state, d, name, i, j);
  const p = result.proj[name];
  const formula = `${name}[${i + 1},${j + 1}] = Σᵣ ${xName}[${i + 1},r] × W_${name}[r,${j + 1}]${bias === null ? '' : ` + b_${name}[${j + 1}]`}`;
  line(t('explorer.explain.proj.sum', { formula, dModel: terms.length }), 'text');
  line(
    `= ${sum(
      terms.map(([a, b]) => `${factor(a)}×${factor(b)}`),
      t,
    )}${bias === null ? '' : ` + ${factor(bias)}`}`,
  );
  line(`= ${formatNumber(at(p, i, j))}`, 'result');
  if (d.multi)
    line(t('explorer.explain.proj.head', { col: j + 1, k: Math.floor(j / (d.dModel / d.heads)) + 1 }), 'text');
  const token = name === 'Q' ? labels.queries[i] : labels.keys[i];
  line(t(`explorer.explain.proj.role.${name}`, { token: quote(token) }), 'text');
  const title = `${name} = ${xName}·W_${name}${bias === null ? '' : ` + b_${name}`}`;
  return t('explorer.explain.proj.title', { title, token: quote(token), col: j + 1 });
}

// What changing input cell (i, j) of matrix `name` changes downstream.
function inputUse(name, i, j, labels, q, { t, quote }) {
  const at1 = { i: i + 1, j: j + 1 };
  switch (name) {
    case 'Q':
      return t('explorer.explain.input.Q', { ...at1, query: quote(q) });
    case 'K':
    case 'V':
      return t(`explorer.explain.input.${name}`, { ...at1, key: quote(labels.keys[i]) });
    case 'X':
      return t('explorer.explain.input.X', { ...at1, token: quote(labels.queries[i]) });
    case 'WQ':
    case 'WK':
    case 'WV':
      return t('explorer.explain.input.W', { ...at1, of: name[1] });
    case 'WO':
      return t('explorer.explain.input.WO', at1);
    default:
      return explainProjectionInput(name, i, j, labels, t, quote);
  }
}

// What a cell of X or W is when a trained model's head is shown (trained-vectors.js): X is the
// model's input to the head's layer with a last column of ones, and each W the head's columns of
// the layer's c_attn.weight with their bias as a last row. null for other sources and matrices.
function trainedMeaning(state, name, i, j, labels, { t, quote }) {
  if (state.mode !== 'sentence' || !(usesTrainedHead(state) || usesTextModel(state))) return null;
  const E = state.dModel - 1;
  const { layer, head } = state.vectors;
  const which = { WQ: 0, WK: 1, WV: 2 }[name];
  if (name === 'X') {
    return j === E
      ? t('explorer.explain.trained.ones', { col: E + 1 })
      : t('explorer.explain.trained.input', { feature: j + 1, layer: layer + 1, token: quote(labels.queries[i]) });
  }
  if (which === undefined) return null;
  const col = which * E + head * state.dk + j;
  return i === E
    ? t('explorer.explain.trained.bias', { row: E + 1, head: head + 1, name: `h.${layer}.attn.c_attn.bias[${col}]` })
    : t('explorer.explain.trained.weight', {
        head: head + 1,
        layer: layer + 1,
        name: `h.${layer}.attn.c_attn.weight[${i}, ${col}]`,
      });
}

// A cell of the W_O made when one head was split into several (head-split.js): which column of
// the concatenation it moves where. null for any other W_O.
function splitMeaning(state, name, i, j, { t }) {
  if (name !== 'WO' || !keepsSplitOutput(state)) return null;
  const E = state.dModel;
  const hd = E / state.heads;
  const target = state.matrices.WO.data.slice(i * E, (i + 1) * E).indexOf(1);
  const from = { row: i + 1, head: Math.floor(i / hd) + 1, col: (i % hd) + 1 };
  return target === j
    ? t('explorer.explain.split.same', { ...from, to: j + 1 })
    : t('explorer.explain.split.other', { ...from, to: target + 1, cell: j + 1 });
}

function explainInput(c) {
  const { target, state, labels, i, j, q, line, t } = c;
  const name = target.name;
  const M = state.matrices[name];
  const v = M.data[i * M.cols + j];
  line(`${MATRIX_TEXT[name]}[${i + 1},${j + 1}] = ${formatNumber(v, 8)}`, 'result');
  line(inputUse(name, i, j, labels, q, c), 'text');
  const meaning = trainedMeaning(state, name, i, j, labels, c) ?? splitMeaning(state, name, i, j, c);
  if (meaning) line(meaning, 'text');
  line(t('explorer.explain.input.edit'), 'note');
  return t('explorer.explain.input.title', { name: MATRIX_TEXT[name], row: i + 1, col: j + 1 });
}

/** Explainer by map kind for the input matrices and the projections computed from them. */
export const INPUT_EXPLAINERS = {
  proj: explainProjection,
  input: explainInput,
};
