// The attention JSON import's reader (web/ui/training/attention-json.js): a push parser fed the
// file in pieces. Checked against JSON.parse itself: the same weights (as float32) whatever the
// pieces are cut, the same acceptance of JSON's grammar, every limit refused with a message, and
// readAttentionFile's slices: bounded parsing per slice, yielding between them, cancellable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  IMPORT_LIMITS,
  checkFileSize,
  createAttentionJsonReader,
  parseAttentionJson,
  readAttentionFile,
} from '../../web/ui/training/attention-json.js';
import { loadEnglishParts } from '../../web/ui/model/i18n.js';

// The training view's English text loads with the view (web/ui/i18n/index.js); its modules are used alone here.
await loadEnglishParts('training');

// A small deterministic generator (the numbers only need to vary).
function lcg(seed) {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

// Rows that are softmaxes written in the ways files write numbers: Python's repr, exponents,
// zeros, integers, many digits.
function attentionFile({ T = 5, layers = 2, heads = 3, seed = 1, style = 'mixed' } = {}) {
  const rand = lcg(seed);
  const tokens = Array.from({ length: T }, (_, i) => (i % 3 === 0 ? `té${i % 2}` : `"q\\${i}\n`));
  const attentions = Array.from({ length: layers }, () =>
    Array.from({ length: heads }, () =>
      Array.from({ length: T }, (_, i) => {
        const raw = Array.from({ length: T }, (_, j) => (j <= i ? rand() ** 3 : 0));
        const z = raw.reduce((a, b) => a + b, 0);
        return raw.map((v) => v / z);
      }),
    ),
  );
  let k = 0;
  const forms = [(v) => v.toExponential(), (v) => String(v), (v) => v.toFixed(6), (v) => `${Math.round(v * 1e9)}E-9`];
  const replacer =
    style === 'mixed' ? (key, v) => (typeof v === 'number' && v !== 0 ? `@${forms[k++ % 4](v)}@` : v) : undefined;
  let text = JSON.stringify(
    { model: { name: 'x', sizes: [1, 2, { deep: [true, false, null] }] }, tokens, attentions, note: 'end' },
    replacer,
    style === 'pretty' ? 1 : 0,
  );
  if (style === 'mixed') text = text.replace(/"@([^@]+)@"/g, '$1');
  return { text, tokens, attentions: JSON.parse(text).attentions };
}

function expectedLayers(attentions) {
  return attentions.map((layer) => Float32Array.from(layer.flat(2)));
}

function readInPieces(text, cut) {
  const reader = createAttentionJsonReader();
  for (let k = 0; k < text.length; k += cut) reader.push(text.slice(k, k + cut));
  return reader.end();
}

test('weights, tokens and shapes equal JSON.parse’s (as float32), however the text is cut into pieces', () => {
  for (const style of ['compact', 'pretty', 'mixed']) {
    const { text, tokens, attentions } = attentionFile({ style, seed: style.length });
    const want = expectedLayers(attentions);
    for (const cut of [1, 2, 3, 7, 64, 1000, text.length]) {
      const got = readInPieces(text, cut);
      assert.deepEqual(got.tokens, tokens, `${style}, pieces of ${cut}`);
      assert.equal(got.layers.length, attentions.length);
      got.layers.forEach((layer, l) => {
        assert.deepEqual(layer.shape, [3, 5, 5]);
        const k = layer.data.findIndex((v, i) => !Object.is(v, want[l][i]));
        assert.equal(
          k,
          -1,
          `${style}, pieces of ${cut}: layer ${l} value ${k} is ${layer.data[k]}, JSON.parse gives ${want[l][k]}`,
        );
      });
    }
  }
});

test('numbers in every JSON form are read as Number() reads them', () => {
  const forms = [
    '0',
    '-0',
    '1',
    '0.5',
    '0.25e0',
    '2.5E-1',
    '25e-2',
    '0.1000000000000000055511151231257827',
    '1E0',
    '0.333333333333333314829616256247390992939472198486328125',
    '1e-320',
  ];
  for (const form of forms) {
    const v = Number(form);
    const rest = 1 - Math.fround(v);
    const text = `{"tokens":["a","b"],"attentions":[[[[1,0],[${form},${rest > 0 ? rest : 0}]]]]}`;
    if (Math.abs(v + Math.max(rest, 0) - 1) > 1e-2) continue;
    for (const cut of [1, 5, text.length]) {
      const got = readInPieces(text, cut);
      assert.ok(
        Object.is(got.layers[0].data[2], Math.fround(v)),
        `${form} (pieces of ${cut}): ${got.layers[0].data[2]}`,
      );
    }
  }
});

test('what JSON.parse refuses, the reader refuses as "not JSON"; other fields are skipped but checked', () => {
  const good = '{"tokens":["a"],"attentions":[[[[1]]]]';
  const bad = [
    `${good}`,
    `${good}}}`,
    `${good}},`,
    '{"tokens":["a"],"attentions":[[[[01]]]]}',
    '{"tokens":["a"],"attentions":[[[[1.]]]]}',
    '{"tokens":["a"],"attentions":[[[[.5, 0.5]]]]}',
    '{"tokens":["a"],"attentions":[[[[1,]]]]}',
    '{"tokens":["a",],"attentions":[[[[1]]]]}',
    '{"tokens":["a"] "attentions":[[[[1]]]]}',
    '{"tokens":["a"],"attentions":[[[[1]]]],}',
    '{"x": tru, "tokens":["a"],"attentions":[[[[1]]]]}',
    '{"x": "\\q", "tokens":["a"],"attentions":[[[[1]]]]}',
    '{"x": [1 2], "tokens":["a"],"attentions":[[[[1]]]]}',
    '{"tokens":["a"],"attentions":[[[[1e]]]]}',
    '{"tokens":["a"],"attentions":[[[[+1]]]]}',
    '{tokens:["a"],"attentions":[[[[1]]]]}',
    '',
    '   ',
  ];
  for (const text of bad) {
    assert.throws(() => JSON.parse(text), `JSON.parse refuses ${text}`);
    assert.throws(() => parseAttentionJson(text), /not JSON/, text);
    assert.throws(() => readInPieces(text, 1), /not JSON/, `${text} in pieces of 1`);
  }
  const ok =
    '{"x": {"y": [1, 2.5e3, "s\\u00e9\\"", true, false, null, {}], "z": []}, "tokens":["a", 7],"attentions":[[[[1, 0], [0, 1]]]], "w": -1}';
  assert.deepEqual(parseAttentionJson(ok).tokens, ['a', '7']);
});

// Files the format refuses, given as a value to stringify or as text: [file, message].
const BAD_FILES = [
  [[1], /must hold an object/],
  [{ tokens: [], attentions: [] }, /"tokens" must be a non-empty array/],
  [{ attentions: [[[[1]]]] }, /"tokens" must be a non-empty array/],
  [{ tokens: ['a'] }, /"attentions" must be a non-empty array/],
  [{ tokens: ['a'], attentions: 3 }, /"attentions" must be a non-empty array/],
  [{ tokens: ['a', ['b']], attentions: [] }, /tokens\[1\] must be a string/],
  [{ tokens: ['a'], attentions: [[]] }, /attentions\[0\] must be a non-empty array of heads/],
  [{ tokens: ['a', 'b'], attentions: [[[[1, 0]]]] }, /attentions\[0\]\[0\] must have 2 rows/],
  [{ tokens: ['a', 'b'], attentions: [[[[1, 0], [0.5]]]] }, /attentions\[0\]\[0\]\[1\] must have 2 numbers, got 1/],
  [
    {
      tokens: ['a', 'b'],
      attentions: [
        [
          [
            [1, 0],
            [0.5, 'x'],
          ],
        ],
      ],
    },
    /attentions\[0\]\[0\]\[1\]\[1\] must be a number ≥ 0, got a string/,
  ],
  [
    {
      tokens: ['a', 'b'],
      attentions: [
        [
          [
            [1, 0],
            [1.5, -0.5],
          ],
        ],
      ],
    },
    /attentions\[0\]\[0\]\[1\]\[1\] must be a number ≥ 0, got -0\.5/,
  ],
  [
    {
      tokens: ['a', 'b'],
      attentions: [
        [
          [
            [1, 0],
            [0.5, 0.2],
          ],
        ],
      ],
    },
    /attentions\[0\]\[0\]\[1\] sums to 0\.7/,
  ],
  [
    {
      tokens: ['a', 'b'],
      attentions: [
        [
          [
            [1, 0],
            [0.5, 0.5],
          ],
        ],
        [[[1, 0], 3]],
      ],
    },
    /attentions\[1\]\[0\]\[1\] must have 2 numbers, got a number/,
  ],
  // A key given twice.
  ['{"tokens": ["a"], "tokens": ["b"], "attentions": [[[[1]]]]}', /"tokens" twice/],
];

// A file given as its text, or as a value that JSON.stringify writes.
const parseFile = (value) => parseAttentionJson(typeof value === 'string' ? value : JSON.stringify(value));

test('the format’s messages name the first problem and where it is', () => {
  for (const [file, message] of BAD_FILES) assert.throws(() => parseFile(file), message);
});

test('with "attentions" before "tokens", the shapes are checked once the tokens are known', () => {
  assert.throws(
    () => parseFile('{"attentions": [[[[1, 0], [0.5, 0.5], [1, 0]]]], "tokens": ["a", "b"]}'),
    /attentions\[0\]\[0\] must have 2 rows \(one per token\), got 3/,
  );
  assert.throws(
    () => parseFile('{"attentions": [[[[1, 0], [1]]]], "tokens": ["a", "b"]}'),
    /attentions\[0\]\[0\]\[1\] must have 2 numbers, got 1/,
  );
  assert.deepEqual(
    parseAttentionJson('{"attentions": [[[[1, 0], [0.5, 0.5]]]], "tokens": ["a", "b"]}').layers[0].shape,
    [1, 2, 2],
  );
});

test('limits: tokens, weights, heads, string and number lengths, nesting and file size are refused with the limit in the message', () => {
  const L = IMPORT_LIMITS;
  const many = Array.from({ length: L.tokens + 1 }, (_, i) => `t${i}`);
  assert.throws(
    () => parseAttentionJson(JSON.stringify({ tokens: many, attentions: [] })),
    new RegExp(`more than ${L.tokens} tokens`),
  );
  // 2 048 heads of one token are allowed; one more is not.
  const heads = (h) => `{"tokens":["a"],"attentions":[[${Array(h).fill('[[1]]').join(',')}]]}`;
  assert.equal(parseAttentionJson(heads(L.heads)).layers[0].shape[0], L.heads);
  assert.throws(() => parseAttentionJson(heads(L.heads + 1)), /more than 2,048 heads/);
  // More than 8 000 000 weights: 31 heads of 512 × 512 (checked as they arrive, before any more is read).
  const reader = createAttentionJsonReader();
  const T = 512;
  const row = (i) => `[${Array.from({ length: T }, (_, j) => (j === i ? 1 : 0)).join(',')}]`;
  const head = `[${Array.from({ length: T }, (_, i) => row(i)).join(',')}]`;
  reader.push(`{"tokens":${JSON.stringify(Array.from({ length: T }, (_, i) => String(i)))},"attentions":[[`);
  assert.throws(() => {
    for (let h = 0; h < 31; h++) reader.push(`${h ? ',' : ''}${head}`);
  }, /more than 8,000,000 attention weights/);
  assert.throws(
    () => parseAttentionJson(`{"tokens":["${'x'.repeat(L.tokenLength + 1)}"],"attentions":[[[[1]]]]}`),
    /longer than 1000 characters/,
  );
  assert.throws(
    () => parseAttentionJson(`{"tokens":["a"],"attentions":[[[[1${'0'.repeat(200)}]]]]}`),
    /more than 100 characters/,
  );
  assert.throws(
    () => parseAttentionJson(`{"x":${'['.repeat(300)}${']'.repeat(300)},"tokens":["a"],"attentions":[[[[1]]]]}`),
    /nested more than 256 levels/,
  );
  assert.throws(() => readInPieces(`{"x":"${'y'.repeat((1 << 20) + 10)}"}`, 65536), /string longer than/);
  assert.throws(() => checkFileSize(L.fileBytes + 1), /64\.0 MB; the import reads files of at most 64 MB/);
  checkFileSize(L.fileBytes);
});

test('readAttentionFile: a Blob is refused by its size before it is read; slices stay within the budget and yield; a signal cancels', async () => {
  const huge = {
    size: IMPORT_LIMITS.fileBytes + 1,
    stream() {
      throw new Error('read a file that is too large');
    },
  };
  await assert.rejects(readAttentionFile(huge), /the import reads files of at most 64 MB/);

  const { text, attentions } = attentionFile({ T: 100, layers: 2, heads: 3, seed: 9 });
  let clock = 0;
  const progress = [];
  // A clock that advances 1 ms per look: a budget of 3 ms means a yield every few pieces.
  const parsed = await readAttentionFile(new Blob([text]), {
    budgetMs: 3,
    now: () => clock++,
    onProgress: (f) => progress.push(f),
  });
  assert.deepEqual(Array.from(parsed.layers[1].data), Array.from(expectedLayers(attentions)[1]));
  assert.ok(progress.length >= 2 && progress.at(-1) === 1, `progress ${progress}`);
  assert.ok(
    progress.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= progress[i - 1])),
    'progress only grows, within 0..1',
  );

  const controller = new AbortController();
  const reading = readAttentionFile(text, { budgetMs: 0, signal: controller.signal });
  controller.abort(new Error('cancelled by a new file'));
  await assert.rejects(reading, /cancelled by a new file/);
  await assert.rejects(readAttentionFile(new Blob([new Uint8Array([0x7b, 0xff, 0xfe])])), /not UTF-8 text/);
});
