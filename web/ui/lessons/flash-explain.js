// "How was this number computed?" for the FlashAttention lesson: each score, running max m, running
// sum ℓ and unnormalised output written out with its operands (the core's numbers) and the value
// the core produced. Every line is a catalogue message (inference.flash.explain.*), formulas too,
// with the numbers in the reader's decimal separator.
import { factor, formatNumber, subscript } from '../model/model.js';
import { explanation } from '../explain/explain.js';
import { rescale } from './flash-math.js';

const MAX_TERMS = 6;
const at = (t, i, j) => t.data[i * t.shape[1] + j];

// Numbers as the page writes them, in the translator's decimal separator.
const numbers = ({ decimal }) => ({
  num: (x, digits) => decimal(formatNumber(x, digits)),
  fac: (x) => decimal(factor(x)),
});

function sum(terms, { t }) {
  if (!terms.length) return '0';
  if (terms.length <= MAX_TERMS) return terms.join(' + ');
  return t('inference.explain.longSum', {
    first: terms.slice(0, MAX_TERMS - 1).join(' + '),
    last: terms[terms.length - 1],
    count: terms.length,
  });
}

// The visible keys of row i inside column block c: [{ j, s }] with s the scaled score.
function tileScores(run, f, i, c) {
  const out = [];
  for (let j = c * f.blockCols; j < Math.min(run.m, (c + 1) * f.blockCols); j++) {
    const s = at(run.naive.trace.masked, i, j);
    if (s !== -Infinity) out.push({ j, s });
  }
  return out;
}

/** A cell of the scaled score matrix S′ = scale·QKᵀ, with its tile. */
export function explainScore(run, f, i, j, i18n) {
  const { t } = i18n;
  const { num, fac } = numbers(i18n);
  const { line, done } = explanation();
  const terms = [];
  for (let x = 0; x < run.dk; x++) terms.push(`${fac(run.q(i, x))}×${fac(run.k(j, x))}`);
  line(
    t('inference.flash.explain.score', {
      i: i + 1,
      j: j + 1,
      qi: subscript(i + 1),
      kj: subscript(j + 1),
      scale: num(run.scale),
      sum: sum(terms, i18n),
    }),
  );
  const masked = at(run.naive.trace.masked, i, j);
  if (masked === -Infinity) {
    line(t('inference.flash.explain.hidden'), 'result');
    line(t('inference.flash.explain.hiddenWhy', { key: j + 1, query: i + 1 }), 'text');
  } else {
    line(`= ${num(at(run.naive.trace.scaled, i, j))}`, 'result');
  }
  const r = Math.floor(i / f.blockRows) + 1;
  const c = Math.floor(j / f.blockCols) + 1;
  line(t('inference.flash.explain.scoreTile', { row: r, col: c }), 'text');
  return done(t('inference.flash.explain.scoreTitle', { query: i + 1, key: j + 1 }));
}

function skippedLines(line, now, { t }) {
  line(t('inference.flash.explain.skipped', { row: now.rowBlock + 1, col: now.colBlock + 1 }), 'text');
}

/** Row `row` (within the block) of the running max m (col 0) or the running sum ℓ (col 1) after step s. */
export function explainRowState(run, f, st, row, col, i18n) {
  const { t } = i18n;
  const { num, fac } = numbers(i18n);
  const { line, done } = explanation();
  const { now, before } = st;
  const i = st.first + row;
  const mOld = before ? before.rowMax[row] : -Infinity;
  const mNew = now.rowMax[row];
  if (now.skipped) skippedLines(line, now, i18n);
  const scores = now.skipped ? [] : tileScores(run, f, i, now.colBlock);
  if (col === 0) {
    const tileMax = scores.length ? Math.max(...scores.map((x) => x.s)) : -Infinity;
    line(t('inference.flash.explain.max', { sub: subscript(i + 1), old: num(mOld), tile: num(tileMax) }));
    line(`= ${num(mNew)}`, 'result');
    line(t('inference.flash.explain.maxWhy'), 'text');
    return done(t('inference.flash.explain.maxTitle', { query: i + 1 }));
  }
  const lOld = before ? before.rowSum[row] : 0;
  const terms = scores.map((x) => `e^(${num(x.s, 3)} − ${num(mNew, 3)})`);
  line(
    t('inference.flash.explain.sum', {
      sub: subscript(i + 1),
      old: fac(lOld),
      factor: num(rescale(mOld, mNew)),
      sum: sum(terms, i18n),
    }),
  );
  line(`= ${num(now.rowSum[row])}`, 'result');
  line(t(mOld === -Infinity ? 'inference.flash.explain.sumFirst' : 'inference.flash.explain.sumRescaled'), 'text');
  return done(t('inference.flash.explain.sumTitle', { query: i + 1 }));
}

/** Column x of the unnormalised output of row `row` after step s. */
export function explainPartial(run, f, st, row, x, i18n) {
  const { t } = i18n;
  const { num, fac } = numbers(i18n);
  const { line, done } = explanation();
  const { now, before } = st;
  const i = st.first + row;
  const mOld = before ? before.rowMax[row] : -Infinity;
  const mNew = now.rowMax[row];
  if (now.skipped) skippedLines(line, now, i18n);
  const oOld = before ? at(before.partialOutput, row, x) : 0;
  const scores = now.skipped ? [] : tileScores(run, f, i, now.colBlock);
  const terms = scores.map((s) => `e^(${num(s.s, 3)} − ${num(mNew, 3)})×${fac(run.v(s.j, x))}`);
  line(
    t('inference.flash.explain.partial', {
      i: i + 1,
      x: x + 1,
      old: fac(oOld),
      factor: num(rescale(mOld, mNew)),
      sum: sum(terms, i18n),
    }),
  );
  line(`= ${num(at(now.partialOutput, row, x))}`, 'result');
  line(t('inference.flash.explain.partialWhy'), 'text');
  return done(t('inference.flash.explain.partialTitle', { query: i + 1 }));
}

/** A cell of the tiled output (Õ / ℓ after each row block's last tile) or of softmax(S′)·V. */
export function explainOutput(run, which, i, x, i18n) {
  const { t } = i18n;
  const { num, fac } = numbers(i18n);
  const { line, done } = explanation();
  if (which === 'tiled') {
    const last = run.trace.steps.filter((s) => s.rowBlock === run.blockOf(i)).pop();
    const row = i - run.blockOf(i) * run.blockRows;
    line(`O[${i + 1},${x + 1}] = Õ / ℓ = ${fac(at(last.partialOutput, row, x))} / ${num(last.rowSum[row])}`);
    line(`= ${num(at(run.trace.output, i, x))}`, 'result');
    line(t('inference.flash.explain.tiledWhy'), 'text');
    return done(t('inference.flash.explain.tiledTitle', { i: i + 1, x: x + 1 }));
  }
  const terms = [];
  for (let j = 0; j < run.m; j++)
    if (at(run.naive.weights, i, j) !== 0) terms.push(`${fac(at(run.naive.weights, i, j))}×${fac(run.v(j, x))}`);
  line(t('inference.flash.explain.naive', { i: i + 1, x: x + 1, sum: sum(terms, i18n) }));
  line(`= ${num(at(run.naive.output, i, x))}`, 'result');
  line(t('inference.flash.explain.naiveWhy'), 'text');
  return done(t('inference.flash.explain.naiveTitle', { i: i + 1, x: x + 1 }));
}

/** The largest difference between the two outputs. */
export function explainDifference(run, i18n) {
  const { t } = i18n;
  const { line, done } = explanation();
  line(
    t('inference.flash.explain.difference', { n: run.n, dv: run.dv, value: numbers(i18n).num(run.difference, 6) }),
    'result',
  );
  line(t('inference.flash.explain.differenceWhy'), 'text');
  return done(t('inference.flash.explain.differenceTitle'));
}

/** The memory line: one tile step's working set against the n × m matrix. */
export function explainMemory(run, mem, i18n) {
  const { t } = i18n;
  const { line, done } = explanation();
  line(
    t('inference.flash.explain.memoryTile', {
      rows: mem.rows,
      cols: mem.cols,
      dk: run.dk,
      dv: run.dv,
      count: mem.tile,
      bytes: mem.tileBytes,
    }),
  );
  line(t('inference.flash.explain.memoryFull', { n: run.n, m: run.m, count: mem.full, bytes: mem.fullBytes }));
  line(t('inference.flash.explain.memoryWhy'), 'text');
  return done(t('inference.flash.explain.memoryTitle'));
}
