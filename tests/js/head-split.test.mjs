// From one head to several and back in the explorer (web/ui/model/head-split.js through setHeads):
// the lesson's W_Q, W_K, W_V are shared out among the heads, not widened with random columns;
// the heads' raw scores, computed by the core, add up to the single head's (recomputed here in
// float64); W_O puts the value columns back, so single-head attention through the split gives
// the single head's output; merging restores the lesson exactly.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/lib/attention.js';
import { createComputer } from '../../web/ui/model/compute.js';
import { describeHeadSplit, keepsSplitOutput, splitOutputMatrix } from '../../web/ui/model/head-split.js';
import { createTranslator } from '../../web/ui/model/i18n.js';
import { makeEmbedder, makeFiller, presetById } from '../../web/ui/model/presets.js';
import { reconcile, setCell, setHeads } from '../../web/ui/model/state.js';
import { loadExplainers } from '../../web/ui/explain/explain.js';

// The page loads the explanations after its first drawing (with their English text); here, at once.
const { explain } = await loadExplainers();

let attn;
let fill;
let embed;
before(async () => {
  attn = await createAttention();
  fill = makeFiller(attn, () => 42);
  embed = makeEmbedder(attn);
});

const lesson = (patch = {}) => reconcile({ ...presetById('lesson').build(attn), ...patch }, fill, embed);
const to = (state, h) => reconcile(setHeads(state, h), fill, embed);
const column = (m, c) => Array.from({ length: m.rows }, (_, r) => m.data[r * m.cols + c]);

// a [n, k] · b [k, m], float64, row-major plain arrays.
function matmul(a, b, n, k, m) {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < m; j++) for (let t = 0; t < k; t++) out[i * m + j] += a[i * k + t] * b[t * m + j];
  return out;
}
const transpose = (a, r, c) => Float64Array.from({ length: r * c }, (_, k) => a[(k % r) * c + Math.floor(k / r)]);

test('1 → 2 heads: the lesson’s four columns of each W are shared out, two per head, and the rest are 0', () => {
  const one = lesson();
  const two = to(one, 2);
  assert.equal(two.heads, 2);
  for (const name of ['WQ', 'WK', 'WV']) {
    const before = one.matrices[name];
    const after = two.matrices[name];
    assert.deepEqual([after.rows, after.cols], [8, 8]);
    // Head 1: columns 1–4 hold lesson columns 1, 2 and two zeros; head 2: columns 5–8 hold 3, 4.
    const want = [0, 1, null, null, 2, 3, null, null];
    want.forEach((c, k) =>
      assert.deepEqual(
        column(after, k),
        c === null ? new Array(8).fill(0) : column(before, c),
        `${name} column ${k + 1}`,
      ),
    );
  }
  // W_O: concatenation columns 1, 2, 5, 6 → output columns 1–4; the zero columns 3, 4, 7, 8 → 5–8.
  const perm = [0, 1, 4, 5, 2, 3, 6, 7];
  const WO = two.matrices.WO;
  for (let r = 0; r < 8; r++)
    for (let c = 0; c < 8; c++) assert.equal(WO.data[r * 8 + c], perm[r] === c ? 1 : 0, `W_O[${r + 1},${c + 1}]`);
  assert.deepEqual(
    splitOutputMatrix(8, 2, 8).data,
    Array.from({ length: 64 }, (_, k) => (k % 9 === 0 ? 1 : 0)),
    'the identity when d_v = d_model',
  );
});

test('the core’s per-head raw scores add up to the single head’s QKᵀ, recomputed in float64', () => {
  const one = lesson();
  const { X, WQ, WK } = one.matrices;
  const Q = matmul(X.data, WQ.data, 4, 8, 4);
  const K = matmul(X.data, WK.data, 4, 8, 4);
  const S = matmul(Q, transpose(K, 4, 4), 4, 4, 4);
  for (const h of [2, 4]) {
    const split = to(one, h);
    const computer = createComputer(attn);
    try {
      const total = new Float64Array(16);
      for (let head = 0; head < h; head++) {
        const r = computer.compute({ ...split, view: { head } });
        assert.equal(r.error, null);
        r.head.scores.data.forEach((v, k) => {
          total[k] += v;
        });
      }
      total.forEach((v, k) =>
        assert.ok(Math.abs(v - S[k]) < 1e-5, `h = ${h}: score ${k} sums to ${v}, single head ${S[k]}`),
      );
    } finally {
      computer.dispose();
    }
  }
});

test('W_O puts the value columns back: the single head’s weights on every head give its output in the first d_v columns', () => {
  const one = lesson();
  const two = to(one, 2);
  const computer = createComputer(attn);
  try {
    const single = computer.compute(one).head;
    const A = Float64Array.from(single.weights.data);
    const V2 = matmul(two.matrices.X.data, two.matrices.WV.data, 4, 8, 8);
    // Each head's output with the single head's weights: A · V_head, side by side = A · V2.
    const Y = matmul(matmul(A, V2, 4, 4, 8), two.matrices.WO.data, 4, 8, 8);
    for (let i = 0; i < 4; i++) {
      for (let c = 0; c < 4; c++)
        assert.ok(Math.abs(Y[i * 8 + c] - single.output.data[i * 4 + c]) < 1e-5, `output[${i + 1},${c + 1}]`);
      for (let c = 4; c < 8; c++) assert.ok(Math.abs(Y[i * 8 + c]) < 1e-12, 'the unused columns are 0');
    }
  } finally {
    computer.dispose();
  }
});

test('back to one head restores the lesson exactly; a d_model-wide head splits with W unchanged and W_O = I', () => {
  const one = lesson();
  for (const h of [2, 4, 8]) {
    const back = to(to(one, h), 1);
    for (const name of ['WQ', 'WK', 'WV', 'X'])
      assert.deepEqual(back.matrices[name], one.matrices[name], `1 → ${h} → 1: ${name}`);
  }
  // A head count that never fitted d_model (3 of 8) still counts as one head's weights.
  const via3 = to(to(one, 3), 2);
  assert.deepEqual(via3.matrices.WQ, to(one, 2).matrices.WQ);
  const wide = lesson({ dk: 8, dv: 8, matrices: undefined });
  const split = to(wide, 2);
  assert.deepEqual(split.matrices.WQ, wide.matrices.WQ, 'd_k = d_model: the columns are the heads’ blocks as they are');
  assert.deepEqual(split.matrices.WO.data, splitOutputMatrix(8, 2, 8).data);
  // Biases: b_Q, b_K, b_V shared out like their W; b_O = 0.
  const withBias = to(lesson({ biases: true }), 2);
  assert.deepEqual(withBias.matrices.BO.data, new Array(8).fill(0));
  assert.deepEqual(column(withBias.matrices.BQ, 4), column(lesson({ biases: true }).matrices.BQ, 2));
  // Several heads that are not a split (the hand-built heads) keep head 1's columns, as before.
  const hand = reconcile(presetById('heads').build(attn), fill, embed);
  const single = to(hand, 1);
  assert.deepEqual(column(single.matrices.WQ, 0), column(hand.matrices.WQ, 0));
});

test('the page says how the heads were split, while they still are, and W_O’s cells say what they do', () => {
  const two = to(lesson(), 2);
  assert.equal(
    describeHeadSplit(two),
    'The single head’s 4 columns of W_Q and W_K and 4 of W_V were split among the 2 heads (2 each, at the start of its 4 columns; the others are 0): the heads’ raw scores QKᵀ add up to the single head’s. W_O is a permutation: it puts the heads’ value columns back in the single head’s order, so had each head attended as the single head did, the output’s first 4 columns would be its output.',
  );
  const computer = createComputer(attn);
  try {
    const text = explain({ kind: 'input', name: 'WO', i: 4, j: 2 }, two, computer.compute(two))
      .lines.map((l) => l.text)
      .join('\n');
    assert.match(text, /W_O\[5,3\] = 1/);
    assert.match(text, /Column 5 of the concatenation \(head 2\u2019s column 1\) goes to output column 3/);
  } finally {
    computer.dispose();
  }
  const editedWO = reconcile(setCell(two, 'WO', 0, 0, 0.5), fill, embed);
  assert.match(describeHeadSplit(editedWO), /add up to the single head\u2019s\.$/);
  const editedPad = reconcile(setCell(two, 'WQ', 0, 2, 0.5), fill, embed);
  assert.equal(describeHeadSplit(editedPad), '', 'no longer a split: nothing claimed');
  assert.deepEqual(
    [keepsSplitOutput(two), keepsSplitOutput(editedWO), keepsSplitOutput(editedPad)],
    [true, false, false],
  );
});

test('the split is described in the reader\u2019s language', async () => {
  const two = to(lesson(), 2);
  assert.equal(
    describeHeadSplit(two, await createTranslator('de')),
    'Die 4 Spalten von W_Q und W_K und die 4 von W_V des einzelnen Kopfes wurden auf die 2 Köpfe aufgeteilt (je 2, am Anfang seiner 4 Spalten; die übrigen sind 0): Die rohen Scores QKᵀ der Köpfe ergeben zusammen die des einzelnen Kopfes. W_O ist eine Permutation: Sie bringt die Value-Spalten der Köpfe in die Reihenfolge des einzelnen Kopfes zurück; hätte jeder Kopf wie der einzelne Kopf gewichtet, wären die ersten 4 Spalten der Ausgabe dessen Ausgabe.',
  );
  assert.match(
    describeHeadSplit(two, await createTranslator('es')),
    /^Las 4 columnas de W_Q y W_K .* \(2 cada una, al principio de sus 4 columnas/,
  );
});
