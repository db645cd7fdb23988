// A teacher's starting numbers as text (web/ui/model/starting-numbers.js) and the lesson registry
// (web/ui/model/lesson-registry.js), in Node: what is read, what is refused and with which message,
// and that a state made from them passes the link codec's checks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { applyStartingNumbers, parseMatrix } from '../../web/ui/model/starting-numbers.js';
import { STARTING_FIELDS, startingFields } from '../../web/ui/model/starting-fields.js';
import {
  allLessonIds,
  controlGroups,
  controlLevel,
  lessonIds,
  lessonSpec,
  MINIMAL_EXPLORER_GROUPS,
  PIPELINE_STEPS,
} from '../../web/ui/model/lesson-registry.js';
import { createStore, LESSON_PANELS } from '../../web/ui/model/state.js';
import { validateState } from '../../web/ui/model/url-state.js';

// A sentence-mode example like the page's default (its numbers do not matter here).
const BASE = {
  mode: 'sentence',
  n: 4,
  m: 4,
  dk: 4,
  dv: 4,
  dModel: 8,
  heads: 1,
  seed: 42,
  sentence: 'the cat sat down',
  tokens: ['the', 'cat', 'sat', 'down'],
  scaling: { sqrtDk: true, temperature: 1 },
  mask: { kind: 'none' },
  view: { head: 0 },
  matrices: {
    X: { rows: 4, cols: 8, data: Array(32).fill(0.5) },
    WQ: { rows: 8, cols: 4, data: Array(32).fill(0.1) },
    WK: { rows: 8, cols: 4, data: Array(32).fill(0.2) },
    WV: { rows: 8, cols: 4, data: Array(32).fill(0.3) },
  },
};
const fill = (name, count) => Array.from({ length: count }, (_, i) => (i % 7) / 10);
const settle = (state) =>
  createStore(state, fill, (s) => ({
    rows: s.tokens.length,
    cols: s.dModel,
    data: Array(s.tokens.length * s.dModel).fill(1),
  })).get();

describe('matrices written as text', () => {
  test('JSON rows and plain rows ("1 0; 0 1", new lines, commas, a Unicode minus) give the same matrix', () => {
    const want = { rows: 2, cols: 3, data: [1, 0, -2.5, 0, 1, 30] };
    assert.deepEqual(parseMatrix('[[1, 0, -2.5], [0, 1, 3e1]]'), want);
    assert.deepEqual(parseMatrix('1 0 -2.5; 0 1 30'), want);
    assert.deepEqual(parseMatrix('1, 0, −2.5\n0, 1, 30\n'), want);
  });

  test('each kind of bad matrix is refused with a message that says where', () => {
    const cases = [
      ['[[1, 2], [3]]', /row 2 has 1 numbers, row 1 has 2/],
      ['1 2; 3 x', /row 2, number 2 is "x", not a number/],
      ['[[1, "2"]]', /row 1, number 2 is .*not a number/],
      ['[[1e400]]', /not a finite number/],
      ['[[2000000]]', /within ±10⁶/],
      ['[1, 2, 3]', /list of rows/],
      ['[[1, 2]', /not valid JSON/],
      ['', /is empty/],
      ['NaN', /"NaN", not a number/],
      [Array.from({ length: 25 }, () => '1').join(';'), /25 rows; at most 24/],
      [Array(65).fill(1).join(' '), /65 numbers per row; at most 64/],
      ['1 '.repeat(20_001), /longer than 20000 characters/],
    ];
    for (const [text, message] of cases) assert.throws(() => parseMatrix(text), message, text.slice(0, 30));
  });
});

describe('starting numbers over an example', () => {
  test('q, k and v make a Q/K/V example of their sizes that passes the link checks', () => {
    const { state, errors, used } = applyStartingNumbers(BASE, {
      q: '1 0; 0 1; 1 1',
      k: '[[1, 0], [0, 1]]',
      v: '[[5, 6, 7], [8, 9, 10]]',
    });
    assert.deepEqual(errors, []);
    assert.equal(used, true);
    const s = settle(state);
    assert.equal(s.mode, 'qkv');
    assert.deepEqual([s.n, s.m, s.dk, s.dv], [3, 2, 2, 3]);
    assert.deepEqual(s.matrices.Q.data, [1, 0, 0, 1, 1, 1]);
    assert.deepEqual(s.matrices.V.data, [5, 6, 7, 8, 9, 10]);
    validateState(JSON.parse(JSON.stringify(s)));
  });

  test('q and k without v: V is drawn (one value per key), the rest as given', () => {
    const s = settle(applyStartingNumbers(BASE, { q: '1 2', k: '1 2; 3 4; 5 6' }).state);
    assert.deepEqual([s.n, s.m, s.dk], [1, 3, 2]);
    assert.equal(s.matrices.V.rows, 3);
  });

  test('q and k that do not fit together are refused, and the example stays as it was', () => {
    for (const [fields, message] of [
      [{ q: '1 2', k: '1 2 3' }, /q has 2 numbers per row and k has 3/],
      [{ q: '1 2', k: '1 2; 3 4', v: '1; 2; 3' }, /v has 3 rows and k has 2/],
      [{ q: '1 2' }, /k is missing: q and k go together/],
    ]) {
      const r = applyStartingNumbers(BASE, fields);
      assert.equal(r.used, false);
      assert.equal(r.state, BASE);
      assert.match(r.errors.join(' '), message);
    }
  });

  test('a sentence gives its tokens and new vectors; x gives the vectors (and d_model) of its rows', () => {
    const a = settle(applyStartingNumbers(BASE, { sentence: 'dogs chase cats' }).state);
    assert.deepEqual(a.tokens, ['dogs', 'chase', 'cats']);
    assert.deepEqual([a.matrices.X.rows, a.matrices.X.cols], [3, 8]);
    const b = settle(applyStartingNumbers(BASE, { sentence: 'a b', x: '1 0 0 1; 0 1 1 0' }).state);
    assert.deepEqual(b.tokens, ['a', 'b']);
    assert.equal(b.dModel, 4);
    assert.deepEqual(b.matrices.X.data, [1, 0, 0, 1, 0, 1, 1, 0], 'X as written, not made from the words');
    assert.deepEqual([b.matrices.WQ.rows, b.matrices.WQ.cols], [4, 4]);
    validateState(JSON.parse(JSON.stringify(b)));
    const c = settle(applyStartingNumbers(BASE, { x: '1 2; 3 4; 5 6' }).state);
    assert.deepEqual(c.tokens, ['t1', 't2', 't3'], 'x alone names its rows');
  });

  test('sentences and x that do not fit are refused with a message', () => {
    for (const [fields, message] of [
      [{ sentence: 'a b c', x: '1 2; 3 4' }, /x has 2 rows and the sentence has 3 tokens/],
      [{ sentence: Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ') }, /more than 24 tokens/],
      [{ sentence: '   ' }, /./],
      [{ q: '1', k: '1', sentence: 'a b' }, /give one or the other/],
    ]) {
      const r = applyStartingNumbers(BASE, fields);
      if (fields.sentence?.trim() === '') {
        assert.deepEqual(r, { state: BASE, errors: [], used: false }, 'an empty field is no field');
        continue;
      }
      assert.match(r.errors.join(' '), message, JSON.stringify(fields).slice(0, 60));
    }
  });

  test('masks: a word, a 0/1 row per key (padding) or a 0/1 matrix (custom), checked against the sizes', () => {
    const causal = settle(applyStartingNumbers(BASE, { mask: 'causal' }).state);
    assert.equal(causal.mask.kind, 'causal');
    const pad = settle(applyStartingNumbers(BASE, { sentence: 'a b c', mask: '[0, 0, 1]' }).state);
    assert.equal(pad.mask.kind, 'padding');
    assert.deepEqual(pad.mask.pad, [false, false, true], 'the row of 0/1 wins over the [PAD] tokens');
    const custom = settle(
      applyStartingNumbers(BASE, { q: '1; 2', k: '1; 2; 3', mask: '[[0, 1, 1], [0, 0, 1]]' }).state,
    );
    assert.equal(custom.mask.kind, 'custom');
    assert.deepEqual(custom.mask.custom, [0, 1, 1, 0, 0, 1]);
    for (const [fields, message] of [
      [{ mask: 'diagonal' }, /must be none, causal, padding, custom/],
      [{ mask: '[0, 1]' }, /has 2 entries, one per key: there are 4 keys/],
      [{ mask: '[[0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]' }, /row 1, entry 2 is "2", not 0 or 1/],
      [{ mask: '[[0, 0, 0, 0]]' }, /has 1 rows, one per query: there are 4 queries/],
    ])
      assert.match(applyStartingNumbers(BASE, fields).errors.join(' '), message, fields.mask);
  });

  test('q, k, v that fail leave the sentence given with them to be used', () => {
    const r = applyStartingNumbers(BASE, { q: '1 x', k: '1 2', sentence: 'red blue' });
    assert.deepEqual(r.state.tokens, ['red', 'blue']);
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0], /^q row 1, number 2 is "x"/);
  });

  test('a bad field is left out and named; the good ones are still used', () => {
    const r = applyStartingNumbers(BASE, { sentence: 'one two', mask: 'sideways' });
    assert.deepEqual(r.state.tokens, ['one', 'two']);
    assert.deepEqual(r.errors.length, 1);
    assert.match(r.errors[0], /^mask must be/);
  });

  test('startingFields reads only the six fields, as text', () => {
    const params = new URLSearchParams('q=1%202&k=3&lesson=weights&mask=causal&x=');
    assert.deepEqual(
      startingFields((n) => params.get(n)),
      { q: '1 2', k: '3', x: '', mask: 'causal' },
    );
  });
});

describe('the lesson registry', () => {
  test('every lesson tab is a lesson, and every id names exactly one lesson of one kind', () => {
    const { tabs, steps, training } = lessonIds();
    assert.deepEqual(tabs, LESSON_PANELS);
    const all = allLessonIds();
    assert.equal(new Set(all).size, all.length, 'no id twice');
    for (const id of tabs) assert.equal(lessonSpec(id).kind, 'tab', id);
    for (const id of training) assert.equal(lessonSpec(id).kind, 'train', id);
    for (const id of ['scores', 'scaled', 'mask', 'softmax-row', 'weights', 'output', 'heads'])
      assert.ok(steps.includes(id), id);
    for (const id of steps) {
      const spec = lessonSpec(id);
      if (spec.kind === 'heads') continue;
      assert.equal(spec.kind, 'step');
      assert.ok(spec.steps.length && spec.steps.every((s) => PIPELINE_STEPS.includes(s)), id);
    }
    assert.equal(lessonSpec('no-such-lesson'), null);
    assert.equal(lessonSpec('__proto__'), null);
    assert.equal(lessonSpec('constructor'), null);
  });

  test('a spec is a fresh copy: changing one does not change the next', () => {
    lessonSpec('weights').steps.push('output');
    assert.deepEqual(lessonSpec('weights').steps, ['weights']);
  });

  test('controls: none shows no group, full every group, minimal the lesson’s own', () => {
    assert.equal(controlLevel('bogus', 'minimal'), 'minimal');
    assert.deepEqual(controlGroups('none', lessonSpec('pitfalls')), []);
    assert.deepEqual(controlGroups('minimal', lessonSpec('pitfalls')), ['mask']);
    assert.deepEqual(controlGroups('minimal', null), MINIMAL_EXPLORER_GROUPS);
    assert.ok(controlGroups('full', lessonSpec('scores')).length > 5);
  });
});

test('every lesson example in docs/embedding.md names a lesson, and its starting numbers are used without a notice', () => {
  const doc = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## One lesson at a time'), doc.indexOf('## Starting numbers as text'));
  const examples = [...section.matchAll(/<attention-explorer([^>]*)>/g)].map(([, attrs]) =>
    Object.fromEntries([...attrs.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)].map(([, k, v]) => [k, v ?? ''])),
  );
  assert.deepEqual(examples.map((e) => e.lesson).sort(), allLessonIds().sort(), 'one example per lesson');
  for (const attrs of examples) {
    assert.ok(lessonSpec(attrs.lesson), attrs.lesson);
    const fields = Object.fromEntries(Object.entries(attrs).filter(([k]) => STARTING_FIELDS.includes(k)));
    const r = applyStartingNumbers(BASE, fields);
    assert.deepEqual(r.errors, [], attrs.lesson);
    assert.equal(r.used, Object.keys(fields).length > 0, attrs.lesson);
  }
});
