// Explanations for the steps of one head: scores, scaled scores, masked scores, weights and
// output. Each takes the explanation context of explain.js (cell, labels, `line(text, kind)`)
// and returns the title.
import { factor, formatNumber, subscript } from '../model/model.js';
import { explainMasked } from './extras.js';
import { at, sum, SUB_K } from './terms.js';

function explainScores({ head, i, j, q, k, line, hn, t, quote }) {
  const terms = [];
  for (let c = 0; c < head.q.shape[1]; c++) terms.push(`${factor(at(head.q, i, c))}×${factor(at(head.k, j, c))}`);
  line(
    t('explorer.explain.scores.sum', {
      cell: `S[${i + 1},${j + 1}] = q${subscript(i + 1)} · k${subscript(j + 1)}`,
      dk: head.q.shape[1],
    }),
    'text',
  );
  line(`= ${sum(terms, t)}`);
  line(`= ${formatNumber(at(head.scores, i, j))}`, 'result');
  line(t('explorer.explain.scores.meaning', { key: quote(k), query: quote(q), head: hn }), 'text');
  return t('explorer.explain.scores.title', { query: quote(q), key: quote(k) });
}

function explainScaled({ state, head, i, j, q, k, line, t, quote }) {
  const s = at(head.scores, i, j);
  const how = state.scaling.sqrtDk
    ? state.scaling.temperature !== 1
      ? `1 / (T·√d${SUB_K}) = 1 / (${formatNumber(state.scaling.temperature)}·√${head.dk})`
      : `1 / √d${SUB_K} = 1 / √${head.dk}`
    : state.scaling.temperature !== 1
      ? `1 / T = 1 / ${formatNumber(state.scaling.temperature)}`
      : t('explorer.explain.scaled.none');
  line(t('explorer.explain.scaled.scale', { how, scale: formatNumber(head.scale) }), 'text');
  line(`S′[${i + 1},${j + 1}] = ${factor(s, 4)} × ${formatNumber(head.scale)}`);
  line(`= ${formatNumber(at(head.scaled, i, j))}`, 'result');
  return t('explorer.explain.scaled.title', { query: quote(q), key: quote(k) });
}

function explainMaskedScore({ state, result, d, i, j, q, k, line, reason, t, quote }) {
  explainMasked({ state, result, i, j, line, reason, d, t });
  return t(d.biasMatrix ? 'explorer.explain.masked.titleBias' : 'explorer.explain.masked.title', {
    query: quote(q),
    key: quote(k),
  });
}

// exp(M[i, j]) / Σ exp(M[i, k]) written out, or why a hidden key gets exactly 0.
function explainSoftmax({ head, i, j, line, t }) {
  const m = head.masked.shape[1];
  const denom = [];
  for (let c = 0; c < m; c++) {
    const mv = at(head.masked, i, c);
    if (mv !== -Infinity) denom.push(`e^${factor(mv, 3)}`);
  }
  const hiddenCount = m - denom.length;
  if (at(head.masked, i, j) === -Infinity) {
    line(t('explorer.explain.softmax.hidden', { cell: `A[${i + 1},${j + 1}] = exp(−∞) / Σ = 0` }), 'text');
    line(`= 0`, 'result');
    return;
  }
  line(`A[${i + 1},${j + 1}] = exp(M[${i + 1},${j + 1}]) / Σ${SUB_K} exp(M[${i + 1},k])`, 'text', true);
  line(`= e^${factor(at(head.masked, i, j), 3)} / (${sum(denom, t)})`);
  line(`= ${formatNumber(at(head.weights, i, j))}`, 'result');
  if (hiddenCount) line(t('explorer.explain.softmax.hiddenKeys', { count: hiddenCount }), 'text');
  line(t('explorer.explain.softmax.stable'), 'note');
}

function explainWeights(c) {
  const { result, d, head, i, j, q, k, line, hn, reason, t, quote } = c;
  const m = head.masked.shape[1];
  if (result.fullyMasked.has(i)) {
    if (d.biasMatrix) line(t('explorer.explain.weights.rowInf', { row: i + 1, reason: reason() }), 'text');
    line(t('explorer.explain.weights.allHidden', { query: quote(q) }), 'text');
    line(`A[${i + 1},${j + 1}] = 0`, 'result');
    return t('explorer.explain.weights.titleMasked', { query: quote(q), key: quote(k) });
  }
  explainSoftmax(c);
  const st = result.stats;
  line(
    t('explorer.explain.weights.row', {
      query: quote(q),
      sum: formatNumber(st.rowSums[i], 6),
      max: formatNumber(st.maxWeight[i]),
      entropy: formatNumber(st.entropy[i], 3),
      m,
      uniform: formatNumber(st.uniformEntropy, 3),
    }),
    'text',
  );
  return t('explorer.explain.weights.title', { query: quote(q), key: quote(k), head: hn });
}

function explainOutput({ result, head, i, j, q, line, hn, t, quote }) {
  const m = head.weights.shape[1];
  const terms = [];
  for (let r = 0; r < m; r++) terms.push(`${formatNumber(at(head.weights, i, r), 3)}×${factor(at(head.v, r, j))}`);
  line(t('explorer.explain.output.sum', { i: i + 1, j: j + 1 }), 'text');
  line(`= ${sum(terms, t)}`);
  line(`= ${formatNumber(at(head.output, i, j))}`, 'result');
  line(
    result.fullyMasked.has(i)
      ? t('explorer.explain.output.none')
      : t('explorer.explain.output.average', { col: j + 1 }),
    'text',
  );
  return t('explorer.explain.output.title', { query: quote(q), col: j + 1, head: hn });
}

/** Explainer by map kind for the five steps of the shown head. */
export const ATTENTION_EXPLAINERS = {
  scores: explainScores,
  scaled: explainScaled,
  masked: explainMaskedScore,
  weights: explainWeights,
  output: explainOutput,
};
