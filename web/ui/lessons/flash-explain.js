// "How was this number computed?" for the FlashAttention lesson: each score, running max m, running
// sum ℓ and unnormalised output written out with its operands (the core's numbers) and the value
// the core produced.
import { factor, formatNumber, subscript } from '../model/model.js';
import { explanation } from '../explain/explain.js';
import { rescale } from './flash-math.js';

const MAX_TERMS = 6;
const at = (t, i, j) => t.data[i * t.shape[1] + j];

function sum(terms) {
  if (!terms.length) return '0';
  if (terms.length <= MAX_TERMS) return terms.join(' + ');
  return `${terms.slice(0, MAX_TERMS - 1).join(' + ')} + \u2026 + ${terms[terms.length - 1]}  (${terms.length} terms)`;
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
export function explainScore(run, f, i, j) {
  const { line, done } = explanation();
  const terms = [];
  for (let x = 0; x < run.dk; x++) terms.push(`${factor(run.q(i, x))}\u00d7${factor(run.k(j, x))}`);
  line(`S\u2032[${i + 1},${j + 1}] = scale \u00d7 q${subscript(i + 1)}\u00b7k${subscript(j + 1)} = ${formatNumber(run.scale)} \u00d7 (${sum(terms)})`);
  const masked = at(run.naive.trace.masked, i, j);
  if (masked === -Infinity) {
    line('= \u2212\u221e (hidden)', 'result');
    line(`The causal mask hides key ${j + 1} from query ${i + 1}: it comes later. A tile whose every pair is hidden is skipped.`, 'text');
  } else {
    line(`= ${formatNumber(at(run.naive.trace.scaled, i, j))}`, 'result');
  }
  const r = Math.floor(i / f.blockRows);
  const c = Math.floor(j / f.blockCols);
  line(`This score belongs to tile (${r + 1}, ${c + 1}): row block ${r + 1}, column block ${c + 1}. FlashAttention computes it only while that tile is in fast memory, and never stores it.`, 'text');
  return done(`S\u2032: score of query ${i + 1} and key ${j + 1}`);
}

function skippedLines(line, now) {
  line(`Tile (${now.rowBlock + 1}, ${now.colBlock + 1}) was skipped: the causal mask hides every pair in it, so nothing is computed and the state stays as it was.`, 'text');
}

/** Row `row` (within the block) of the running max m (col 0) or the running sum ℓ (col 1) after step s. */
export function explainRowState(run, f, st, row, col) {
  const { line, done } = explanation();
  const { now, before } = st;
  const i = st.first + row;
  const mOld = before ? before.rowMax[row] : -Infinity;
  const mNew = now.rowMax[row];
  if (now.skipped) skippedLines(line, now);
  const scores = now.skipped ? [] : tileScores(run, f, i, now.colBlock);
  if (col === 0) {
    const tileMax = scores.length ? Math.max(...scores.map((x) => x.s)) : -Infinity;
    line(`m${subscript(i + 1)} = max(m_old, max of this tile\u2019s scores) = max(${formatNumber(mOld)}, ${formatNumber(tileMax)})`);
    line(`= ${formatNumber(mNew)}`, 'result');
    line('The largest score seen so far in this row. Subtracting it before exp keeps every exponential at most 1, so nothing overflows.', 'text');
    return done(`Running max m of query ${i + 1}`);
  }
  const lOld = before ? before.rowSum[row] : 0;
  const factorValue = rescale(mOld, mNew);
  const terms = scores.map((x) => `e^(${formatNumber(x.s, 3)} \u2212 ${formatNumber(mNew, 3)})`);
  line(`\u2113${subscript(i + 1)} = \u2113_old \u00d7 e^(m_old \u2212 m_new) + \u03a3 e^(S\u2032 \u2212 m_new) = ${factor(lOld)} \u00d7 ${formatNumber(factorValue)} + ${sum(terms)}`);
  line(`= ${formatNumber(now.rowSum[row])}`, 'result');
  line(mOld === -Infinity
    ? 'The first visible keys of this row: there is nothing to rescale yet.'
    : 'What was summed against the old max is rescaled to the new one, then this tile\u2019s terms are added.', 'text');
  return done(`Running sum \u2113 of query ${i + 1}`);
}

/** Column x of the unnormalised output of row `row` after step s. */
export function explainPartial(run, f, st, row, x) {
  const { line, done } = explanation();
  const { now, before } = st;
  const i = st.first + row;
  const mOld = before ? before.rowMax[row] : -Infinity;
  const mNew = now.rowMax[row];
  if (now.skipped) skippedLines(line, now);
  const oOld = before ? at(before.partialOutput, row, x) : 0;
  const scores = now.skipped ? [] : tileScores(run, f, i, now.colBlock);
  const terms = scores.map((t) => `e^(${formatNumber(t.s, 3)} \u2212 ${formatNumber(mNew, 3)})\u00d7${factor(run.v(t.j, x))}`);
  line(`\u00d5[${i + 1},${x + 1}] = \u00d5_old \u00d7 e^(m_old \u2212 m_new) + \u03a3 e^(S\u2032 \u2212 m_new)\u00b7v[j,${x + 1}] = ${factor(oOld)} \u00d7 ${formatNumber(rescale(mOld, mNew))} + ${sum(terms)}`);
  line(`= ${formatNumber(at(now.partialOutput, row, x))}`, 'result');
  line('Not yet divided by \u2113: the division happens once, after the row\u2019s last tile.', 'text');
  return done(`Unnormalised output \u00d5 of query ${i + 1}`);
}

/** A cell of the tiled output (Õ / ℓ after each row block's last tile) or of softmax(S′)·V. */
export function explainOutput(run, which, i, x) {
  const { line, done } = explanation();
  if (which === 'tiled') {
    const last = run.trace.steps.filter((s) => s.rowBlock === run.blockOf(i)).pop();
    const row = i - run.blockOf(i) * run.blockRows;
    line(`O[${i + 1},${x + 1}] = \u00d5 / \u2113 = ${factor(at(last.partialOutput, row, x))} / ${formatNumber(last.rowSum[row])}`);
    line(`= ${formatNumber(at(run.trace.output, i, x))}`, 'result');
    line('The tiled result: the unnormalised output after the row block\u2019s last tile, divided by the running sum.', 'text');
    return done(`Tiled output [${i + 1},${x + 1}]`);
  }
  const terms = [];
  for (let j = 0; j < run.m; j++) if (at(run.naive.weights, i, j) !== 0) terms.push(`${factor(at(run.naive.weights, i, j))}\u00d7${factor(run.v(j, x))}`);
  line(`O[${i + 1},${x + 1}] = \u03a3\u2c7c A[${i + 1},j]\u00b7v[j,${x + 1}] = ${sum(terms)}`);
  line(`= ${formatNumber(at(run.naive.output, i, x))}`, 'result');
  line('The ordinary computation: the whole row of scores, its softmax A, then A\u00b7V.', 'text');
  return done(`softmax(S\u2032)\u00b7V [${i + 1},${x + 1}]`);
}

/** The largest difference between the two outputs. */
export function explainDifference(run) {
  const { line, done } = explanation();
  line(`max |O_tiled \u2212 O_naive| over ${run.n} \u00d7 ${run.dv} cells = ${formatNumber(run.difference, 6)}`, 'result');
  line('The same numbers up to float32 rounding: the online softmax is exact algebra, only the order of the additions differs.', 'text');
  return done('Largest difference, tiled against ordinary');
}

/** The memory line: one tile step's working set against the n × m matrix. */
export function explainMemory(run, mem) {
  const { line, done } = explanation();
  line(`tile: B\u1d63\u00b7d\u2096 + B_c\u00b7(d\u2096 + d\u1d65) + B\u1d63\u00b7B_c + 2\u00b7B\u1d63 + B\u1d63\u00b7d\u1d65 = ${mem.rows}\u00b7${run.dk} + ${mem.cols}\u00b7(${run.dk} + ${run.dv}) + ${mem.rows}\u00b7${mem.cols} + 2\u00b7${mem.rows} + ${mem.rows}\u00b7${run.dv} = ${mem.tile} floats = ${mem.tileBytes} B`);
  line(`scores: n\u00b7m = ${run.n}\u00b7${run.m} = ${mem.full} floats = ${mem.fullBytes} B (and the weights A again)`);
  line('The tile\u2019s memory depends on the block sizes only; the score matrix grows with n \u00d7 m. That is why FlashAttention runs long sequences in a GPU\u2019s small on-chip memory.', 'text');
  return done('Memory: a tile against the whole matrix');
}
