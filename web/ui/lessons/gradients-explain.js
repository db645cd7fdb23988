// "How was this number computed?" for the cells of the Gradients lesson: each gradient written
// out with its actual operands (products left unevaluated) and the value the core produced.
// Formula lines are mathematics (kind 'mono', 'result'); lines with words come from the catalogues
// (words: true), numbers in the locale's decimal separator.
import { english, factor, formatNumber, subscript } from '../model/model.js';

const MAX_TERMS = 8;
const at = (t, i, j) => t.data[i * t.shape[1] + j];

function sum(terms, { t }) {
  if (terms.length <= MAX_TERMS) return terms.join(' + ');
  return `${terms.slice(0, MAX_TERMS - 2).join(' + ')} + … + ${terms[terms.length - 1]}  (${t('lessons.gradients.explain.terms', { count: terms.length })})`;
}

function dO(c, i, j, { line, say }) {
  const { t, num, fac } = c.words;
  if (c.goal === 'cell') {
    const on = i === c.cell.i && j === c.cell.j;
    line(`dO[${i + 1},${j + 1}] = ∂O[${c.cell.i + 1},${c.cell.j + 1}] / ∂O[${i + 1},${j + 1}] = ${on ? 1 : 0}`);
    say('lessons.gradients.explain.dOCell');
  } else {
    const o = at(c.grads.output, i, j),
      tv = c.target[i * c.grads.output.shape[1] + j];
    line(`dO[${i + 1},${j + 1}] = O − T = ${fac(o)} − ${fac(tv)}`);
    line(`= ${num(at(c.grads.dO, i, j))}`, 'result');
    say('lessons.gradients.explain.dOTarget');
  }
  return t('lessons.gradients.explain.dOTitle', { i: i + 1, j: j + 1 });
}

function dA(c, i, j, { line, say }) {
  const { t, num, fac } = c.words;
  const terms = [];
  for (let x = 0; x < c.head.v.shape[1]; x++) terms.push(`${fac(at(c.grads.dO, i, x))}×${fac(at(c.head.v, j, x))}`);
  line(`dA[${i + 1},${j + 1}] = dO${subscript(i + 1)} · v${subscript(j + 1)} = ${sum(terms, c.words)}`);
  line(`= ${num(at(c.grads.dA, i, j))}`, 'result');
  say('lessons.gradients.explain.dA', { i: i + 1, j: j + 1 });
  return t('lessons.gradients.explain.dATitle', { i: i + 1, j: j + 1 });
}

function dS(c, i, j, { line, say }) {
  const { t, num, fac } = c.words;
  const w = at(c.grads.weights, i, j);
  if (c.hidden?.[i * c.grads.weights.shape[1] + j]) {
    line(`dS[${i + 1},${j + 1}] = A × (…) = 0 × (…) = 0`);
    say('lessons.gradients.explain.dSHidden');
    return t('lessons.gradients.explain.dSHiddenTitle', { i: i + 1, j: j + 1 });
  }
  const m = c.grads.weights.shape[1];
  let delta = 0;
  for (let x = 0; x < m; x++) delta += at(c.grads.weights, i, x) * at(c.grads.dA, i, x);
  line(`dS[${i + 1},${j + 1}] = A[${i + 1},${j + 1}] × (dA[${i + 1},${j + 1}] − Σₗ A[${i + 1},l]·dA[${i + 1},l])`);
  line(`= ${fac(w)} × (${fac(at(c.grads.dA, i, j))} − ${fac(delta)})`);
  line(`= ${num(at(c.grads.gradScores, i, j))}`, 'result');
  say('lessons.gradients.explain.dS');
  return t('lessons.gradients.explain.dSTitle', { i: i + 1, j: j + 1 });
}

// dQ[i, x] = scale · Σ_j dS[i, j]·K[j, x];  dK[j, x] = scale · Σ_i dS[i, j]·Q[i, x]
function dQK(c, i, j, { line, say }, which) {
  const { t, num, fac } = c.words;
  const terms = [];
  const [rows, other] =
    which === 'q' ? [c.grads.gradScores.shape[1], c.head.k] : [c.grads.gradScores.shape[0], c.head.q];
  for (let r = 0; r < rows; r++) {
    const s = which === 'q' ? at(c.grads.gradScores, i, r) : at(c.grads.gradScores, r, i);
    terms.push(`${fac(s)}×${fac(at(other, r, j))}`);
  }
  say(which === 'q' ? 'lessons.gradients.explain.dQ' : 'lessons.gradients.explain.dK', { i: i + 1, j: j + 1 }, 'mono');
  line(`= ${num(c.head.scale)} × (${sum(terms, c.words)})`);
  line(`= ${num(at(which === 'q' ? c.grads.gradQ : c.grads.gradK, i, j))}`, 'result');
  return t(which === 'q' ? 'lessons.gradients.explain.dQTitle' : 'lessons.gradients.explain.dKTitle', {
    i: i + 1,
    j: j + 1,
  });
}

function dV(c, i, j, { say, line }) {
  const { t, num, fac } = c.words;
  const terms = [];
  for (let r = 0; r < c.grads.weights.shape[0]; r++)
    terms.push(`${fac(at(c.grads.weights, r, i))}×${fac(at(c.grads.dO, r, j))}`);
  say('lessons.gradients.explain.dVSum', { i: i + 1, j: j + 1, sum: sum(terms, c.words) }, 'mono');
  line(`= ${num(at(c.grads.gradV, i, j))}`, 'result');
  say('lessons.gradients.explain.dV');
  return t('lessons.gradients.explain.dVTitle', { i: i + 1, j: j + 1 });
}

const EXPLAIN = { dO, dA, dS, dQ: (c, i, j, l) => dQK(c, i, j, l, 'q'), dK: (c, i, j, l) => dQK(c, i, j, l, 'k'), dV };

/**
 * { title, lines } for the cell (i, j) of map 'dO' | 'dA' | 'dS' | 'dQ' | 'dK' | 'dV'; each line is
 * { text, kind, words } (words: a sentence from the catalogue, else mathematics).
 */
export function explainGradient(map, i, j, context, i18n = english) {
  const lines = [];
  const words = {
    t: i18n.t,
    num: (v) => i18n.decimal(formatNumber(v)),
    fac: (v) => i18n.decimal(factor(v)),
  };
  const line = (text, kind = 'mono') => lines.push({ text, kind, words: false });
  const say = (key, params = {}, kind = 'text') => lines.push({ text: i18n.t(key, params), kind, words: true });
  const title = EXPLAIN[map]({ ...context, words }, i, j, { line, say });
  return { title, lines };
}
