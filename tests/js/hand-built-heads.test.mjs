// The "heads" example's four hand-built heads do what their names tell a learner, recomputed here
// in float64 from the example's X, W_Q and W_K with plain loops (no code shared with the page or
// the core): "previous token" puts most of each row after the first on the token before; "same
// word" puts most of each row on the query's own word (every occurrence of it) without being
// one-hot; "first token" puts most of each row on token 1; "broad" gives no key much more or much
// less than its even share.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/lib/attention.js';
import { presetById } from '../../web/ui/model/presets.js';
import { reconcile, setSentence } from '../../web/ui/model/state.js';

let state;
before(async () => {
  const attn = await createAttention();
  state = presetById('heads').build(attn);
});

// Each head's weights [n][n]: softmax(q_h k_hᵀ · scale) with q = X·W_Q, k = X·W_K, head h reading
// columns h·d_h … (h + 1)·d_h − 1, scale = 1 / (T·√d_h); no mask, no biases (checked).
function headWeights(s) {
  assert.equal(s.mask.kind, 'none');
  assert.ok(!s.biases);
  const { X, WQ, WK } = s.matrices;
  const n = X.rows;
  const E = X.cols;
  const dh = E / s.heads;
  const project = (W) =>
    Array.from({ length: n }, (_, i) =>
      Array.from({ length: E }, (_, c) => {
        let sum = 0;
        for (let r = 0; r < E; r++) sum += X.data[i * E + r] * W.data[r * E + c];
        return sum;
      }),
    );
  const q = project(WQ);
  const k = project(WK);
  const scale = 1 / ((s.scaling.sqrtDk ? Math.sqrt(dh) : 1) * s.scaling.temperature);
  return Array.from({ length: s.heads }, (_, h) =>
    q.map((qi) => {
      const scores = k.map((kj) => {
        let dot = 0;
        for (let c = h * dh; c < (h + 1) * dh; c++) dot += qi[c] * kj[c];
        return dot * scale;
      });
      const top = Math.max(...scores);
      const e = scores.map((x) => Math.exp(x - top));
      const sum = e.reduce((a, b) => a + b, 0);
      return e.map((x) => x / sum);
    }),
  );
}

const argmax = (row) => row.indexOf(Math.max(...row));
const fixed = (x) => x.toFixed(3);

test('the example names its heads previous token, same word, first token, broad, over ten words', () => {
  assert.deepEqual(state.headNames, ['previous token', 'same word', 'first token', 'broad']);
  assert.equal(state.tokens.join(' '), 'the cat sat on the mat because it was tired');
});

test('head 1, previous token: every query after the first puts over half its weight on the token before', () => {
  const W = headWeights(state)[0];
  for (let i = 1; i < W.length; i++) {
    assert.equal(argmax(W[i]), i - 1, `query ${i} (${state.tokens[i]}): ${W[i].map(fixed)}`);
    assert.ok(W[i][i - 1] > 0.5, `query ${i}: ${fixed(W[i][i - 1])} on the token before`);
  }
});

// At least 2/3 of the row on the query's own word: its occurrences get twice the weight of all the
// other words together (an even spread would give them 1/10, or 2/10 for "the"). No weight above
// 0.9: the head's pattern stays a softmax's, not a lookup's.
test('head 2, same word: every query’s largest weight is on its own word, which holds ≥ 2/3 of the row, none above 0.9', () => {
  const W = headWeights(state)[1];
  const { tokens } = state;
  W.forEach((row, i) => {
    const what = `query ${i} (${tokens[i]}): ${row.map(fixed)}`;
    assert.equal(tokens[argmax(row)], tokens[i], `${what}: the largest weight is on another word`);
    const same = row.reduce((sum, w, j) => sum + (tokens[j] === tokens[i] ? w : 0), 0);
    assert.ok(same >= 2 / 3, `${what}: ${fixed(same)} on its own word`);
    assert.ok(Math.max(...row) <= 0.9, `${what}: one-hot`);
  });
});

test('head 3, first token: every query puts over half its weight on token 1', () => {
  const W = headWeights(state)[2];
  W.forEach((row, i) => {
    assert.equal(argmax(row), 0, `query ${i}: ${row.map(fixed)}`);
    assert.ok(row[0] > 0.5, `query ${i}: ${fixed(row[0])} on token 1`);
  });
});

test('head 4, broad: every weight lies between half and twice the even share 1/n', () => {
  const W = headWeights(state)[3];
  const n = W.length;
  W.forEach((row, i) =>
    row.forEach((w, j) => assert.ok(w > 1 / (2 * n) && w < 2 / n, `query ${i}, key ${j}: ${fixed(w)}`)),
  );
});

test('the names go when the sentence changes, since X is then made again from the words', () => {
  const embed = (s) => ({
    rows: s.tokens.length,
    cols: s.dModel,
    data: new Array(s.tokens.length * s.dModel).fill(0.5),
  });
  const shown = reconcile(state, undefined, embed);
  assert.deepEqual(shown.headNames, state.headNames, 'the example keeps its own X and names');
  assert.deepEqual(shown.matrices.X, state.matrices.X);
  const typed = reconcile(setSentence(shown, 'a dog ran to the park'), undefined, embed);
  assert.equal(typed.matrices.X.data[0], 0.5, 'X made again from the words');
  assert.deepEqual(typed.headNames, []);
});
