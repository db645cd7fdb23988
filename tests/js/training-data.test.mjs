// The lessons' training data: repeated random tokens and character-level text, deterministic from
// a seed, with targets exactly where the documentation says.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { BOS, FILLER, SeededRandom, charVocabulary, repeatedTokens, textBatch } from '../../web/lib/training-data.js';
import { TINY_CORPUS } from '../../web/lib/tiny-corpus.js';

test('SeededRandom: same seed, same numbers; int(n) stays in range and covers it evenly', () => {
  const a = new SeededRandom(5),
    b = new SeededRandom(5),
    c = new SeededRandom(6);
  const xs = Array.from({ length: 8 }, () => a.nextUint32());
  assert.deepEqual(
    xs,
    Array.from({ length: 8 }, () => b.nextUint32()),
  );
  assert.notDeepEqual(
    xs,
    Array.from({ length: 8 }, () => c.nextUint32()),
  );
  const counts = new Array(7).fill(0);
  const r = new SeededRandom(1);
  for (let i = 0; i < 70000; i++) counts[r.int(7)]++;
  for (const n of counts) assert.ok(Math.abs(n - 10000) < 400, `counts ${counts}`);
  assert.throws(() => new SeededRandom(-1), /seed must be an integer/);
});

test('repeatedTokens: BOS, r random tokens, the same r again, filler; targets only where predictable', () => {
  const { tokens, targets, repeatLengths } = repeatedTokens({ vocabSize: 20, seqLength: 16, batchSize: 64, seed: 3 });
  assert.equal(tokens.length, 64);
  for (let b = 0; b < 64; b++) {
    const seq = tokens[b],
      tgt = targets[b],
      r = repeatLengths[b];
    assert.equal(seq.length, 16);
    assert.ok(r >= 2 && r <= 7, `r = ${r}`);
    assert.equal(seq[0], BOS);
    for (let i = 1; i <= r; i++) {
      assert.ok(seq[i] >= 2 && seq[i] < 20);
      assert.equal(seq[r + i], seq[i], 'the second copy repeats the first');
    }
    for (let i = 2 * r + 1; i < 16; i++) assert.equal(seq[i], FILLER);
    for (let i = 0; i < 16; i++) {
      const predictable = i >= r + 1 && i <= 2 * r - 1;
      assert.equal(tgt[i], predictable ? seq[i + 1] : -1, `target ${i} of a sequence with r = ${r}`);
    }
  }
  assert.ok(new Set(repeatLengths).size >= 5, 'r varies per sequence');
  assert.deepEqual(
    repeatedTokens({ vocabSize: 20, seqLength: 16, batchSize: 4, seed: 3 }).tokens,
    tokens.slice(0, 4),
    'deterministic',
  );
  assert.notDeepEqual(
    repeatedTokens({ vocabSize: 20, seqLength: 16, batchSize: 4, seed: 4 }).tokens,
    tokens.slice(0, 4),
  );
});

test('repeatedTokens: chosen repeat lengths, all targets, bad options', () => {
  const { repeatLengths, tokens, targets } = repeatedTokens({
    vocabSize: 5,
    seqLength: 9,
    batchSize: 30,
    seed: 1,
    repeatLengths: [3, 4],
    allTargets: true,
  });
  assert.deepEqual([...new Set(repeatLengths)].sort(), [3, 4]);
  tokens.forEach((seq, b) => seq.forEach((_, i) => assert.equal(targets[b][i], i === 8 ? -1 : seq[i + 1])));
  assert.throws(
    () => repeatedTokens({ vocabSize: 5, seqLength: 9, repeatLengths: [5] }),
    /repeatLengths\[0\] must be an integer from 1 to 4/,
  );
  assert.throws(() => repeatedTokens({ vocabSize: 2, seqLength: 9 }), /vocabSize must be an integer from 3/);
  assert.throws(() => repeatedTokens({ vocabSize: 5, seqLength: 9, batchsize: 2 }), /no option "batchsize"/);
  assert.throws(
    () => repeatedTokens({ vocabSize: 5, seqLength: 9, minRepeat: 3, maxRepeat: 2 }),
    /maxRepeat must be an integer from 3 to 4/,
  );
});

test('charVocabulary and textBatch: windows of the text with next-character targets', () => {
  const vocab = charVocabulary(TINY_CORPUS);
  assert.ok(TINY_CORPUS.length > 4000 && vocab.size < 64, `${TINY_CORPUS.length} characters, ${vocab.size} distinct`);
  assert.equal(vocab.decode(vocab.encode('Mira went to the garden.')), 'Mira went to the garden.');
  assert.deepEqual(vocab.chars, [...vocab.chars].sort());
  assert.throws(() => vocab.encode('Zebra'), /character "Z" at 0 is not in the vocabulary/);
  assert.throws(() => vocab.decode([999]), /token id 999 is not in the vocabulary/);
  const { tokens, targets } = textBatch({ text: TINY_CORPUS, vocabulary: vocab, seqLength: 32, batchSize: 8, seed: 2 });
  for (let b = 0; b < 8; b++) {
    const window = vocab.decode(tokens[b]);
    assert.ok(TINY_CORPUS.includes(window + vocab.decode(targets[b]).slice(-1)), 'a real window of the text');
    assert.deepEqual(targets[b].slice(0, -1), tokens[b].slice(1), 'targets are the next characters');
  }
  assert.deepEqual(
    textBatch({ text: TINY_CORPUS, seqLength: 32, batchSize: 8, seed: 2, vocabulary: vocab }).tokens,
    tokens,
  );
  const pasted = 'ab😀ab😀'; // code points, not UTF-16 units
  assert.equal(charVocabulary(pasted).size, 3);
  assert.throws(() => textBatch({ text: 'abc', seqLength: 3 }), /needs at least 4/);
  assert.throws(() => charVocabulary(''), /non-empty string/);
});
