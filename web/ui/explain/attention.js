// Explanations for the steps of one head: scores, scaled scores, masked scores, weights and
// output. Each takes the explanation context of explain.js (cell, labels, `line(text, kind)`)
// and returns the title.
import { factor, formatNumber, subscript } from '../model/model.js';
import { explainMasked } from './extras.js';
import { at, quote, sum, SUB_K } from './terms.js';

function explainScores({ head, i, j, q, k, line, hn }) {
  const terms = [];
  for (let c = 0; c < head.q.shape[1]; c++) terms.push(`${factor(at(head.q, i, c))}\u00d7${factor(at(head.k, j, c))}`);
  line(`S[${i + 1},${j + 1}] = q${subscript(i + 1)} \u00b7 k${subscript(j + 1)} = \u03a3 over d${SUB_K} = ${head.q.shape[1]} dimensions`, 'text');
  line(`= ${sum(terms)}`);
  line(`= ${formatNumber(at(head.scores, i, j))}`, 'result');
  line(`How much key ${quote(k)} matches what query ${quote(q)} looks for${hn}. Large and positive: a strong match.`, 'text');
  return `Score: ${quote(q)} \u2192 ${quote(k)}`;
}

function explainScaled({ state, head, i, j, q, k, line }) {
  const s = at(head.scores, i, j);
  const how = state.scaling.sqrtDk
    ? (state.scaling.temperature !== 1 ? `1 / (T\u00b7\u221ad${SUB_K}) = 1 / (${formatNumber(state.scaling.temperature)}\u00b7\u221a${head.dk})` : `1 / \u221ad${SUB_K} = 1 / \u221a${head.dk}`)
    : (state.scaling.temperature !== 1 ? `1 / T = 1 / ${formatNumber(state.scaling.temperature)}` : '1 (no scaling)');
  line(`scale = ${how} = ${formatNumber(head.scale)}`, 'text');
  line(`S\u2032[${i + 1},${j + 1}] = ${factor(s, 4)} \u00d7 ${formatNumber(head.scale)}`);
  line(`= ${formatNumber(at(head.scaled, i, j))}`, 'result');
  return `Scaled score: ${quote(q)} \u2192 ${quote(k)}`;
}

function explainMaskedScore({ state, result, d, i, j, q, k, line, reason }) {
  explainMasked({ state, result, i, j, line, reason, d });
  return `After the ${d.biasMatrix ? 'bias and the ' : ''}mask: ${quote(q)} \u2192 ${quote(k)}`;
}

// exp(M[i, j]) / Σ exp(M[i, k]) written out, or why a hidden key gets exactly 0.
function explainSoftmax({ head, i, j, line }) {
  const m = head.masked.shape[1];
  const denom = [];
  for (let c = 0; c < m; c++) {
    const mv = at(head.masked, i, c);
    if (mv !== -Infinity) denom.push(`e^${factor(mv, 3)}`);
  }
  const hiddenCount = m - denom.length;
  if (at(head.masked, i, j) === -Infinity) {
    line(`This key is hidden: A[${i + 1},${j + 1}] = exp(\u2212\u221e) / \u03a3 = 0 exactly.`, 'text');
    line(`= 0`, 'result');
    return;
  }
  line(`A[${i + 1},${j + 1}] = exp(M[${i + 1},${j + 1}]) / \u03a3${SUB_K} exp(M[${i + 1},k])`, 'text');
  line(`= e^${factor(at(head.masked, i, j), 3)} / (${sum(denom)})`);
  line(`= ${formatNumber(at(head.weights, i, j))}`, 'result');
  if (hiddenCount) line(`${hiddenCount} hidden key${hiddenCount > 1 ? 's' : ''} add e^\u2212\u221e = 0 to the sum.`, 'text');
  line('(The core subtracts the row maximum before exp; the ratio is the same and nothing overflows.)', 'note');
}

function explainWeights(c) {
  const { result, d, head, i, j, q, k, line, hn, reason } = c;
  const m = head.masked.shape[1];
  if (result.fullyMasked.has(i)) {
    if (d.biasMatrix) line(`Row ${i + 1} of M is \u2212\u221e everywhere (${reason()}, and so on for every key).`, 'text');
    line(`Every key is hidden from query ${quote(q)}. A softmax over nothing would be 0 / 0 = NaN; the core flags the row and gives it all-zero weights and a zero output instead.`, 'text');
    line(`A[${i + 1},${j + 1}] = 0`, 'result');
    return `Weight: ${quote(q)} \u2192 ${quote(k)} (row fully masked)`;
  }
  explainSoftmax(c);
  const st = result.stats;
  line(`Row ${quote(q)}: sum = ${formatNumber(st.rowSums[i], 6)}, max = ${formatNumber(st.maxWeight[i])}, entropy H = ${formatNumber(st.entropy[i], 3)} nats (uniform over ${m} would be ln ${m} = ${formatNumber(st.uniformEntropy, 3)}).`, 'text');
  return `Weight: how much ${quote(q)} attends to ${quote(k)}${hn}`;
}

function explainOutput({ result, head, i, j, q, line, hn }) {
  const m = head.weights.shape[1];
  const terms = [];
  for (let r = 0; r < m; r++) terms.push(`${formatNumber(at(head.weights, i, r), 3)}\u00d7${factor(at(head.v, r, j))}`);
  line(`O[${i + 1},${j + 1}] = \u03a3 over keys of A[${i + 1},key] \u00d7 V[key,${j + 1}]`, 'text');
  line(`= ${sum(terms)}`);
  line(`= ${formatNumber(at(head.output, i, j))}`, 'result');
  line(result.fullyMasked.has(i)
    ? 'This query sees no key, so its output row is all zeros.'
    : `A weighted average of column ${j + 1} of V: the output always lies between the smallest and largest value.`, 'text');
  return `Output of ${quote(q)}, dimension ${j + 1}${hn}`;
}

/** Explainer by map kind for the five steps of the shown head. */
export const ATTENTION_EXPLAINERS = {
  scores: explainScores,
  scaled: explainScaled,
  masked: explainMaskedScore,
  weights: explainWeights,
  output: explainOutput,
};
