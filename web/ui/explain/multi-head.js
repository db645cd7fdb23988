// Explanations for the multi-head maps: one head's weights, their average over heads, the
// concatenated head outputs and the output projection W_O. Each takes the explanation context of
// explain.js and returns the title.
import { factor, formatNumber, subscript } from '../model/model.js';
import { at, sum } from './terms.js';

function explainHead({ target, result, i, j, q, k, line, t, quote }) {
  const m = result.multi;
  const w = at(m.heads[target.head], i, j);
  line(`A${subscript(target.head + 1)}[${i + 1},${j + 1}] = ${formatNumber(w)}`, 'result');
  line(t('explorer.explain.head.text', { k: target.head + 1, width: m.headDim }), 'text');
  return t('explorer.explain.head.title', { k: target.head + 1, query: quote(q), key: quote(k) });
}

function explainAverage({ result, i, j, q, k, line, t, quote }) {
  const m = result.multi;
  const terms = m.heads.map((h) => formatNumber(at(h, i, j), 3));
  line(`(${terms.join(' + ')}) / ${m.heads.length}`);
  line(`= ${formatNumber(at(m.average, i, j))}`, 'result');
  line(t('explorer.explain.average.text'), 'text');
  return t('explorer.explain.average.title', { query: quote(q), key: quote(k) });
}

function explainConcat({ result, i, j, q, line, t, quote }) {
  const m = result.multi;
  const h = Math.floor(j / m.headDim);
  const c = j - h * m.headDim;
  line(
    `concat[${i + 1},${j + 1}] = head${subscript(h + 1)}[${i + 1},${c + 1}] = ${formatNumber(at(m.concat, i, j))}`,
    'result',
  );
  line(t('explorer.explain.concat.text', { from: h * m.headDim + 1, to: (h + 1) * m.headDim, k: h + 1 }), 'text');
  return t('explorer.explain.concat.title', { query: quote(q), col: j + 1 });
}

function explainLayerOutput({ state, result, d, i, j, q, line, t, quote }) {
  const m = result.multi;
  const W = state.matrices.WO;
  const terms = [];
  for (let r = 0; r < W.rows; r++) terms.push(`${factor(at(m.concat, i, r))}×${factor(W.data[r * W.cols + j])}`);
  const bo = d.biases ? state.matrices.BO.data[j] : null;
  const formula = `out[${i + 1},${j + 1}] = Σᵣ concat[${i + 1},r] × W_O[r,${j + 1}]${bo === null ? '' : ` + b_O[${j + 1}]`}`;
  line(t('explorer.explain.mha.sum', { formula, columns: W.rows }), 'text');
  line(`= ${sum(terms, t)}${bo === null ? '' : ` + ${factor(bo)}`}`);
  line(`= ${formatNumber(at(m.output, i, j))}`, 'result');
  line(t('explorer.explain.mha.text'), 'text');
  return t('explorer.explain.mha.title', { query: quote(q), col: j + 1 });
}

/** Explainer by map kind for the maps that exist with several heads. */
export const MULTI_HEAD_EXPLAINERS = {
  head: explainHead,
  average: explainAverage,
  concat: explainConcat,
  'mha-output': explainLayerOutput,
};
