// attn.headScores: the core's previous-token, duplicate-token and induction scores against a
// float64 JavaScript transcription of their definitions (web/lib/attention.d.ts), on both builds.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/lib/attention.js';
import { SeededRandom } from '../../web/lib/training-data.js';

function reference(a, tok) {
  // a: rows of one [T, T] pattern
  const t = tok.length;
  const s = { previousToken: [0, 0], duplicateToken: [0, 0], induction: [0, 0] };
  for (let i = 1; i < t; i++) {
    ((s.previousToken[0] += a[i][i - 1]), s.previousToken[1]++);
    const copies = [...Array(i).keys()].filter((j) => tok[j] === tok[i]);
    if (copies.length) {
      ((s.duplicateToken[0] += copies.reduce((x, j) => x + a[i][j], 0)), s.duplicateToken[1]++);
      ((s.induction[0] += copies.reduce((x, j) => x + a[i][j + 1], 0)), s.induction[1]++);
    }
  }
  return s;
}

function randomPattern(t, rng) {
  return Array.from({ length: t }, (_, i) => {
    const row = Array.from({ length: t }, (_, j) => (j <= i ? 1 + rng.int(1000) : 0));
    const sum = row.reduce((x, y) => x + y, 0);
    return row.map((x) => Math.fround(x / sum));
  });
}

for (const simd of [true, false]) {
  describe(`headScores, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    test('one pattern [T, T]: numbers, and 1 for the ideal induction head', () => {
      const tok = [0, 5, 6, 7, 5, 6, 7];
      const ideal = tok.map((_, i) => tok.map((__, j) => (j === (i >= 4 ? i - 2 : i) ? 1 : 0)));
      const s = attn.headScores(tok, ideal);
      assert.equal(s.induction, 1);
      assert.equal(s.previousToken, 0);
      assert.equal(s.duplicateToken, 0);
      assert.deepEqual(s.queries, { previousToken: 6, duplicateToken: 3, induction: 3 });
    });

    test('batches of heads: pooled over the batch, equal to the float64 definitions', () => {
      const rng = new SeededRandom(9);
      const B = 3,
        H = 2,
        T = 9;
      const tokens = Array.from({ length: B }, () => Array.from({ length: T }, () => rng.int(3)));
      const patterns = Array.from({ length: B }, () => Array.from({ length: H }, () => randomPattern(T, rng)));
      const s = attn.headScores(tokens, patterns);
      for (let h = 0; h < H; h++) {
        for (const name of ['previousToken', 'duplicateToken', 'induction']) {
          let sum = 0,
            n = 0;
          for (let b = 0; b < B; b++) {
            const r = reference(patterns[b][h], tokens[b])[name];
            ((sum += r[0]), (n += r[1]));
          }
          assert.equal(s.queries[name][h], n, `${name} query count, head ${h}`);
          assert.ok(Math.abs(s[name][h] - (n ? sum / n : 0)) < 1e-12, `${name} head ${h}: ${s[name][h]} vs ${sum / n}`);
        }
      }
      // [H, T, T] with tokens [T] is the batch of one.
      const one = attn.headScores(tokens[0], patterns[0]);
      assert.equal(one.induction.length, H);
    });

    test('lossByPosition: float64 cross-entropy per position, ignored targets, bad targets', () => {
      const rng = new SeededRandom(4);
      const B = 3,
        T = 5,
        V = 7;
      const logits = Array.from({ length: B }, () =>
        Array.from({ length: T }, () => Array.from({ length: V }, () => Math.fround((rng.int(2000) - 1000) / 100))),
      );
      const targets = Array.from({ length: B }, (_, b) =>
        Array.from({ length: T }, (_, p) => ((b + p) % 3 === 0 ? -1 : rng.int(V))),
      );
      const r = attn.lossByPosition(logits, targets);
      for (let p = 0; p < T; p++) {
        let sum = 0,
          n = 0;
        for (let b = 0; b < B; b++) {
          if (targets[b][p] < 0) continue;
          const row = logits[b][p];
          const max = Math.max(...row);
          sum += Math.log(row.reduce((a, x) => a + Math.exp(x - max), 0)) + max - row[targets[b][p]];
          n++;
        }
        assert.equal(r.count[p], n);
        assert.ok(Math.abs(r.loss[p] - (n ? sum / n : 0)) < 1e-12, `position ${p}: ${r.loss[p]} vs ${sum / n}`);
      }
      assert.deepEqual(attn.lossByPosition([[0, 0]], [-1]), { loss: [0], count: [0] });
      assert.throws(
        () => attn.lossByPosition([[0, 0]], [2]),
        /lossByPosition: .*target 2 at 0 is neither −1 or −100 \(ignored\) nor in \[0, 2\)/,
      );
      assert.throws(
        () => attn.lossByPosition([[0, 0]], [0, 1]),
        /logits must have shape \[\.\.\.targets\.shape, V\] = \[2, V\]/,
      );
    });

    test('bad input: clear Errors, and the module keeps working', () => {
      const a = [
        [1, 0],
        [0.5, 0.5],
      ];
      assert.throws(
        () => attn.headScores([0, 1, 2], a),
        /attention must have shape \[T, T\] or \[H, T, T\] with T = 3 for tokens of shape \[3\], got \[2, 2\]/,
      );
      assert.throws(() => attn.headScores([[0, 1]], a), /attention must have shape \[B, H, T, T\] = \[1, H, 2, 2\]/);
      assert.throws(() => attn.headScores([0, 1.5], a), /tokens must hold integer token ids; item 1 is 1.5/);
      assert.throws(() => attn.headScores([[0, 1], [2]], a), /rows of equal length/);
      assert.throws(
        () =>
          attn.headScores(
            [0, 1],
            [
              [1, 0],
              [NaN, 1],
            ],
          ),
        /attention/,
      );
      assert.throws(() => attn.headScores('ab', a), /tokens must be an array/);
      assert.equal(attn.headScores(new Int32Array([4, 4]), a).induction, 0.5);
    });
  });
}
