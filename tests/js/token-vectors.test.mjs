// Sentence mode's token vectors (web/ui/model/embeddings.js): each word has its own fixed random vector,
// positions add their own, and the documented rule redone in NumPy gives the same X. Different
// sentences give different attention; the same word gives the same row.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createComputer } from '../../web/ui/model/compute.js';
import { fnv1a32, tokenVectors, wordSeed } from '../../web/ui/model/embeddings.js';
import { presetById } from '../../web/ui/model/presets.js';
import { reconcile, setCell, setSentence } from '../../web/ui/model/state.js';
import { hasPythonModule, PYTHON, runPythonScripts } from './support/python.mjs';
import { pageState } from './support/page-state.mjs';

let attn;
let fill;
let embed;
before(async () => {
  ({ attn, fill, embed } = await pageState());
});

const rowOf = (X, i) => X.data.slice(i * X.cols, (i + 1) * X.cols);
const sentenceState = (text, extra = {}) => {
  const lesson = reconcile(presetById('lesson').build(attn), fill, embed);
  return reconcile({ ...setSentence(lesson, text), ...extra }, fill, embed);
};

describe('token vectors', () => {
  test('FNV-1a matches its published test vectors', () => {
    assert.equal(fnv1a32(''), 0x811c9dc5);
    assert.equal(fnv1a32('a'), 0xe40c292c);
    assert.equal(fnv1a32('foobar'), 0xbf9cf968);
    assert.equal(wordSeed('The', 42), wordSeed('the', 42));
    assert.notEqual(wordSeed('the', 42), wordSeed('the', 43));
  });

  test('the same word gets the same row, other words other rows; different sentences give different weights', () => {
    const computer = createComputer(attn);
    const weightsOf = (text) => Array.from(computer.compute(sentenceState(text)).head.weights.data);
    const a = sentenceState('the cat sat on the mat');
    assert.deepEqual(rowOf(a.matrices.X, 0), rowOf(a.matrices.X, 4), 'both "the" rows');
    assert.notDeepEqual(rowOf(a.matrices.X, 0), rowOf(a.matrices.X, 1));
    const w1 = weightsOf('the cat sat on the mat');
    const w2 = weightsOf('my dog ate in a box');
    const w3 = weightsOf('the the the the the the');
    assert.notDeepEqual(w1, w2);
    assert.notDeepEqual(w1, w3);
    // Six copies of one word and no positions: every query scores every key alike.
    for (const w of w3) assert.ok(Math.abs(w - 1 / 6) < 1e-6, `uniform weight, got ${w}`);
    // A word keeps its vector in another sentence, whatever its position.
    const b = sentenceState('my cat');
    assert.deepEqual(rowOf(b.matrices.X, 1), rowOf(a.matrices.X, 1));
    computer.dispose();
  });

  test('positions: sinusoidal and learned-style make the same word differ by position', () => {
    for (const positional of ['sinusoidal', 'learned']) {
      const s = sentenceState('the cat sat on the mat', { positional });
      assert.equal(s.positional, positional);
      assert.notDeepEqual(rowOf(s.matrices.X, 0), rowOf(s.matrices.X, 4), positional);
    }
    const sin = sentenceState('a a', { positional: 'sinusoidal' });
    const none = sentenceState('a a');
    // Position 0 of the sinusoidal table is (0, 1, 0, 1, ...).
    rowOf(none.matrices.X, 0).forEach((x, c) =>
      assert.ok(Math.abs(rowOf(sin.matrices.X, 0)[c] - (x + (c % 2))) < 0.0051),
    );
  });

  test('X is rebuilt when the sentence, seed, d_model or positions change, and an edit lasts until then', () => {
    const s = sentenceState('the cat sat on the mat');
    const edited = reconcile(setCell(s, 'X', 0, 0, 9.5), fill, embed);
    const retempered = reconcile({ ...edited, scaling: { sqrtDk: true, temperature: 2 } }, fill, embed);
    assert.equal(retempered.matrices.X.data[0], 9.5);
    for (const change of [{ seed: 7 }, { dModel: 16 }, { positional: 'sinusoidal' }]) {
      const next = reconcile({ ...edited, ...change }, fill, embed);
      assert.notEqual(next.matrices.X.data[0], 9.5, JSON.stringify(change));
      assert.deepEqual(next.matrices.X, tokenVectors(attn, next));
    }
    // The lesson example keeps the lesson's own X (NumPy's randn(4, 8) after seed 42).
    const lesson = reconcile(presetById('lesson').build(attn), fill, embed);
    assert.equal(lesson.matrices.X.data[0], attn.randomState(42).randn(1).data[0]);
  });

  test(
    'the documented rule, redone with NumPy, gives the same X',
    { skip: !hasPythonModule('numpy') && `${PYTHON} has no numpy` },
    () => {
      const tokens = ['The', 'cat', 'sat', 'on', 'the', 'mat', 'été', '[PAD]'];
      const code = `
import numpy as np
def fnv1a32(text):
    h = 0x811c9dc5
    for b in text.encode('utf-8'):
        h = ((h ^ b) * 0x01000193) & 0xffffffff
    return h
def word_vector(word, seed, d):
    return np.random.RandomState(fnv1a32(word.lower()) ^ seed).randn(d)
def position_vector(kind, p, d, seed):
    if kind == 'sinusoidal':
        i = np.arange(d) // 2 * 2
        angle = p / 10000 ** (i / d)
        return np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle))
    if kind == 'learned':
        return word_vector('<position %d>' % p, seed, d)
    return np.zeros(d)
tokens = ${JSON.stringify(tokens)}
out = {}
for kind in ['none', 'sinusoidal', 'learned']:
    out[kind] = np.array([word_vector(t, 1234, 12) + position_vector(kind, p, 12, 1234) for p, t in enumerate(tokens)]).tolist()
`;
      const [py] = runPythonScripts([{ name: 'rule', code, names: ['out'] }]);
      assert.equal(py.error, undefined, py.error);
      for (const positional of ['none', 'sinusoidal', 'learned']) {
        const X = tokenVectors(attn, { tokens, seed: 1234, dModel: 12, positional });
        const want = py.out[positional].flat();
        X.data.forEach((x, k) =>
          assert.ok(Math.abs(x - want[k]) <= 0.005 + 1e-12, `${positional} [${k}]: ${x} vs ${want[k]}`),
        );
      }
    },
  );
});
