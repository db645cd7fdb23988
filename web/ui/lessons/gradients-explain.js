// "How was this number computed?" for the cells of the Gradients lesson: each gradient written
// out with its actual operands (products left unevaluated) and the value the core produced.
import { factor, formatNumber, subscript } from '../model/model.js';

const MAX_TERMS = 8;
const at = (t, i, j) => t.data[i * t.shape[1] + j];

function sum(terms) {
  if (terms.length <= MAX_TERMS) return terms.join(' + ');
  return `${terms.slice(0, MAX_TERMS - 2).join(' + ')} + \u2026 + ${terms[terms.length - 1]}  (${terms.length} terms)`;
}

function dO(c, i, j, line) {
  if (c.goal === 'cell') {
    const on = i === c.cell.i && j === c.cell.j;
    line(`dO[${i + 1},${j + 1}] = \u2202O[${c.cell.i + 1},${c.cell.j + 1}] / \u2202O[${i + 1},${j + 1}] = ${on ? 1 : 0}`);
    line('The loss is one output cell, so only that cell passes gradient back.', 'text');
  } else {
    const o = at(c.grads.output, i, j), t = c.target[i * c.grads.output.shape[1] + j];
    line(`dO[${i + 1},${j + 1}] = O \u2212 T = ${factor(o)} \u2212 ${factor(t)}`);
    line(`= ${formatNumber(at(c.grads.dO, i, j))}`, 'result');
    line('For the loss \u00bd\u2016O \u2212 T\u2016\u00b2 each output cell is pushed by how far it is from its target.', 'text');
  }
  return { title: `dO: gradient of the loss at output [${i + 1},${j + 1}]`, lines: null };
}

function dA(c, i, j, line) {
  const terms = [];
  for (let x = 0; x < c.head.v.shape[1]; x++) terms.push(`${factor(at(c.grads.dO, i, x))}\u00d7${factor(at(c.head.v, j, x))}`);
  line(`dA[${i + 1},${j + 1}] = dO${subscript(i + 1)} \u00b7 v${subscript(j + 1)} = ${sum(terms)}`);
  line(`= ${formatNumber(at(c.grads.dA, i, j))}`, 'result');
  line(`How much the loss would change per unit of weight on key ${j + 1}: its value row against the push on output ${i + 1}.`, 'text');
  return { title: `dA: gradient at weight [${i + 1},${j + 1}]`, lines: null };
}

function dS(c, i, j, line) {
  const w = at(c.grads.weights, i, j);
  if (c.hidden?.[i * c.grads.weights.shape[1] + j]) {
    line(`dS[${i + 1},${j + 1}] = A \u00d7 (\u2026) = 0 \u00d7 (\u2026) = 0`);
    line('This key is hidden: its weight is exactly 0, so its score gets no gradient and cannot learn.', 'text');
    return { title: `dS: hidden cell [${i + 1},${j + 1}]`, lines: null };
  }
  const m = c.grads.weights.shape[1];
  let delta = 0;
  for (let x = 0; x < m; x++) delta += at(c.grads.weights, i, x) * at(c.grads.dA, i, x);
  line(`dS[${i + 1},${j + 1}] = A[${i + 1},${j + 1}] \u00d7 (dA[${i + 1},${j + 1}] \u2212 \u03a3\u2097 A[${i + 1},l]\u00b7dA[${i + 1},l])`);
  line(`= ${factor(w)} \u00d7 (${factor(at(c.grads.dA, i, j))} \u2212 ${factor(delta)})`);
  line(`= ${formatNumber(at(c.grads.gradScores, i, j))}`, 'result');
  line('The softmax passes back the weight times how much better than average this key would do; a key with weight near 0 gets almost nothing.', 'text');
  return { title: `dS: gradient at score [${i + 1},${j + 1}]`, lines: null };
}

// dQ[i, x] = scale · Σ_j dS[i, j]·K[j, x];  dK[j, x] = scale · Σ_i dS[i, j]·Q[i, x]
function dQK(c, i, j, line, which) {
  const terms = [];
  const [rows, other] = which === 'q' ? [c.grads.gradScores.shape[1], c.head.k] : [c.grads.gradScores.shape[0], c.head.q];
  for (let r = 0; r < rows; r++) {
    const s = which === 'q' ? at(c.grads.gradScores, i, r) : at(c.grads.gradScores, r, i);
    terms.push(`${factor(s)}\u00d7${factor(at(other, r, j))}`);
  }
  const name = which === 'q' ? 'dQ' : 'dK';
  const over = which === 'q' ? `keys l: dS[${i + 1},l]\u00b7K[l,${j + 1}]` : `queries l: dS[l,${i + 1}]\u00b7Q[l,${j + 1}]`;
  line(`${name}[${i + 1},${j + 1}] = scale \u00d7 \u03a3 over ${over}`);
  line(`= ${formatNumber(c.head.scale)} \u00d7 (${sum(terms)})`);
  line(`= ${formatNumber(at(which === 'q' ? c.grads.gradQ : c.grads.gradK, i, j))}`, 'result');
  return { title: `${name}: gradient at ${which === 'q' ? 'query' : 'key'} [${i + 1},${j + 1}]`, lines: null };
}

function dV(c, i, j, line) {
  const terms = [];
  for (let r = 0; r < c.grads.weights.shape[0]; r++) terms.push(`${factor(at(c.grads.weights, r, i))}\u00d7${factor(at(c.grads.dO, r, j))}`);
  line(`dV[${i + 1},${j + 1}] = \u03a3 over queries l: A[l,${i + 1}]\u00b7dO[l,${j + 1}] = ${sum(terms)}`);
  line(`= ${formatNumber(at(c.grads.gradV, i, j))}`, 'result');
  line('A value row learns from every query that reads it, in proportion to its weight.', 'text');
  return { title: `dV: gradient at value [${i + 1},${j + 1}]`, lines: null };
}

const EXPLAIN = { dO, dA, dS, dQ: (c, i, j, l) => dQK(c, i, j, l, 'q'), dK: (c, i, j, l) => dQK(c, i, j, l, 'k'), dV };

/** { title, lines } for the cell (i, j) of map 'dO' | 'dA' | 'dS' | 'dQ' | 'dK' | 'dV'. */
export function explainGradient(map, i, j, context) {
  const lines = [];
  const line = (text, kind = 'mono') => lines.push({ text, kind });
  const out = EXPLAIN[map](context, i, j, line);
  return { title: out.title, lines };
}
