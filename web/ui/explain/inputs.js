// Explanations for the inputs: a typed input cell (what it feeds) and a projection Q, K or V =
// X·W (+ b) written out term by term. Each takes the explanation context of explain.js and
// returns the title.
import { describeHeadSplit, factor, formatNumber, usesTextModel, usesTrainedHead } from '../model/model.js';
import { explainProjectionInput, projectionTerms } from './extras.js';
import { at, quote, sum } from './terms.js';

const MATRIX_TEXT = {
  Q: 'Q', K: 'K', V: 'V', X: 'X', WQ: 'W_Q', WK: 'W_K', WV: 'W_V', WO: 'W_O',
  XM: 'X_mem', B: 'B', BQ: 'b_Q', BK: 'b_K', BV: 'b_V', BO: 'b_O',
};

const ROLES = { Q: 'what this token is looking for', K: 'what this token offers to be found by', V: 'what this token passes on when attended to' };

// Q, K or V = X·W (full projection in sentence mode).
function explainProjection({ target, state, result, d, labels, i, j, line }) {
  const name = target.name;
  const { xName, terms, bias } = projectionTerms(state, d, name, i, j);
  const t = result.proj[name];
  line(`${name}[${i + 1},${j + 1}] = \u03a3 over d_model = ${terms.length} of ${xName}[${i + 1},r] \u00d7 W_${name}[r,${j + 1}]${bias === null ? '' : ` + b_${name}[${j + 1}]`}`, 'text');
  line(`= ${sum(terms.map(([a, b]) => `${factor(a)}\u00d7${factor(b)}`))}${bias === null ? '' : ` + ${factor(bias)}`}`);
  line(`= ${formatNumber(at(t, i, j))}`, 'result');
  if (d.multi) line(`Column ${j + 1} belongs to head ${Math.floor(j / (d.dModel / d.heads)) + 1}.`, 'text');
  const token = name === 'Q' ? labels.queries[i] : labels.keys[i];
  line(`Row ${quote(token)} of ${name}: ${ROLES[name]}.`, 'text');
  return `${name} = ${xName}\u00b7W_${name}${bias === null ? '' : ` + b_${name}`}: token ${quote(token)}, column ${j + 1}`;
}

// What changing input cell (i, j) of matrix `name` changes downstream.
function inputUse(name, i, j, labels, q) {
  return {
    Q: `Query ${quote(q)}: changes row ${i + 1} of the scores.`,
    K: `Key ${quote(labels.keys[i])}: changes column ${i + 1} of the scores.`,
    V: `Value of ${quote(labels.keys[i])}: changes column ${j + 1} of every output row, in proportion to how much each query attends to ${quote(labels.keys[i])}.`,
    X: `Feature ${j + 1} of the vector of ${quote(labels.queries[i])}: changes row ${i + 1} of Q, K and V.`,
    WQ: `Weight from input feature ${i + 1} to column ${j + 1} of Q (for every token).`,
    WK: `Weight from input feature ${i + 1} to column ${j + 1} of K (for every token).`,
    WV: `Weight from input feature ${i + 1} to column ${j + 1} of V (for every token).`,
    WO: `Weight from column ${i + 1} of the concatenated heads to output feature ${j + 1}.`,
  }[name] ?? explainProjectionInput(name, i, j, labels);
}

// What a cell of X or W is when a trained model's head is shown (trained-vectors.js): X is the
// model's input to the head's layer with a last column of ones, and each W the head's columns of
// the layer's c_attn.weight with their bias as a last row. null for other sources and matrices.
function trainedMeaning(state, name, i, j, labels) {
  if (state.mode !== 'sentence' || !(usesTrainedHead(state) || usesTextModel(state))) return null;
  const E = state.dModel - 1;
  const { layer, head } = state.vectors;
  const which = { WQ: 0, WK: 1, WV: 2 }[name];
  if (name === 'X') {
    return j === E
      ? `Column ${E + 1} of X is 1 for every token: it meets the last row of W_Q, W_K and W_V, which is the head’s bias, so X·W adds the bias as the model does.`
      : `Trained input: feature ${j + 1} of what layer ${layer + 1}’s attention sees for ${quote(labels.queries[i])} (the residual stream after the layer’s LayerNorm), recomputed from the model.`;
  }
  if (which === undefined) return null;
  const col = which * E + head * state.dk + j;
  return i === E
    ? `Row ${E + 1} is head ${head + 1}’s bias: h.${layer}.attn.c_attn.bias[${col}] in the model’s file; it meets X’s column of ones.`
    : `Trained weight of head ${head + 1} (layer ${layer + 1}): h.${layer}.attn.c_attn.weight[${i}, ${col}] in the model’s file.`;
}

// A cell of the W_O made when one head was split into several (head-split.js): which column of
// the concatenation it moves where. null for any other W_O.
function splitMeaning(state, name, i, j) {
  if (name !== 'WO' || !/W_O is/.test(describeHeadSplit(state))) return null;
  const E = state.dModel;
  const hd = E / state.heads;
  const target = state.matrices.WO.data.slice(i * E, (i + 1) * E).indexOf(1);
  const from = `Column ${i + 1} of the concatenation (head ${Math.floor(i / hd) + 1}\u2019s column ${(i % hd) + 1})`;
  return target === j
    ? `${from} goes to output column ${j + 1}: this W_O only moves columns, back to where the single head had them (see Sizes).`
    : `${from} goes to output column ${target + 1}, not to ${j + 1}: this W_O only moves columns (see Sizes).`;
}

function explainInput({ target, state, labels, i, j, q, line }) {
  const name = target.name;
  const M = state.matrices[name];
  const v = M.data[i * M.cols + j];
  line(`${MATRIX_TEXT[name]}[${i + 1},${j + 1}] = ${formatNumber(v, 8)}`, 'result');
  line(inputUse(name, i, j, labels, q), 'text');
  const meaning = trainedMeaning(state, name, i, j, labels) ?? splitMeaning(state, name, i, j);
  if (meaning) line(meaning, 'text');
  line('Type a new number: every step below updates at once. Arrows move, Enter commits and moves down, Esc restores.', 'note');
  return `Input ${MATRIX_TEXT[name]}, row ${i + 1}, column ${j + 1}`;
}

/** Explainer by map kind for the input matrices and the projections computed from them. */
export const INPUT_EXPLAINERS = {
  proj: explainProjection,
  input: explainInput,
};
