// Explanations for the multi-head maps: one head's weights, their average over heads, the
// concatenated head outputs and the output projection W_O. Each takes the explanation context of
// explain.js and returns the title.
import { factor, formatNumber, subscript } from '../model/model.js';
import { at, quote, sum } from './terms.js';

function explainHead({ target, result, i, j, q, k, line }) {
  const m = result.multi;
  const w = at(m.heads[target.head], i, j);
  line(`A${subscript(target.head + 1)}[${i + 1},${j + 1}] = ${formatNumber(w)}`, 'result');
  line(`Head ${target.head + 1} runs the same softmax(Q\u2095K\u2095\u1d40/\u221ad\u2095)V\u2095 on its own ${m.headDim}-column slice of Q, K and V. Click (or Enter) to show this head's steps.`, 'text');
  return `Head ${target.head + 1}: ${quote(q)} \u2192 ${quote(k)}`;
}

function explainAverage({ result, i, j, q, k, line }) {
  const m = result.multi;
  const terms = m.heads.map((h) => formatNumber(at(h, i, j), 3));
  line(`(${terms.join(' + ')}) / ${m.heads.length}`);
  line(`= ${formatNumber(at(m.average, i, j))}`, 'result');
  line('The mean over heads, which torch.nn.MultiheadAttention returns by default (average_attn_weights=True).', 'text');
  return `Head average: ${quote(q)} \u2192 ${quote(k)}`;
}

function explainConcat({ result, i, j, q, line }) {
  const m = result.multi;
  const h = Math.floor(j / m.headDim);
  const c = j - h * m.headDim;
  line(`concat[${i + 1},${j + 1}] = head ${h + 1} output [${i + 1},${c + 1}] = ${formatNumber(at(m.concat, i, j))}`, 'result');
  line(`Columns ${h * m.headDim + 1}\u2013${(h + 1) * m.headDim} hold head ${h + 1}. Concatenation only places heads side by side; they have not interacted yet.`, 'text');
  return `Concatenated heads: ${quote(q)}, column ${j + 1}`;
}

function explainLayerOutput({ state, result, d, i, j, q, line }) {
  const m = result.multi;
  const W = state.matrices.WO;
  const terms = [];
  for (let r = 0; r < W.rows; r++) terms.push(`${factor(at(m.concat, i, r))}\u00d7${factor(W.data[r * W.cols + j])}`);
  const bo = d.biases ? state.matrices.BO.data[j] : null;
  line(`out[${i + 1},${j + 1}] = \u03a3 over ${W.rows} columns of concat[${i + 1},r] \u00d7 W_O[r,${j + 1}]${bo === null ? '' : ` + b_O[${j + 1}]`}`, 'text');
  line(`= ${sum(terms)}${bo === null ? '' : ` + ${factor(bo)}`}`);
  line(`= ${formatNumber(at(m.output, i, j))}`, 'result');
  line('W_O is where the heads mix: every output feature reads every head.', 'text');
  return `Multi-head output: ${quote(q)}, feature ${j + 1}`;
}

/** Explainer by map kind for the maps that exist with several heads. */
export const MULTI_HEAD_EXPLAINERS = {
  head: explainHead,
  average: explainAverage,
  concat: explainConcat,
  'mha-output': explainLayerOutput,
};
