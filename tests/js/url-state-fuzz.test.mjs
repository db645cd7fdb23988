// Fuzzing the page's one text parser, the link codec (web/ui/model/url-state.js), with fast-check:
// random text, damaged real links and random JSON packed as links are refused with a message or
// give a checked state, never a throw; validateState only ever throws its StateError; and every
// state that passes, once reconciled, survives encode → decode unchanged. (The example-based
// cases are in url-state.test.mjs.) ATTN_GARBAGE_RUNS=N changes the number of runs.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';

import { createAttention } from '../../web/lib/attention.js';
import { PRESETS } from '../../web/ui/model/presets.js';
import { reconcile } from '../../web/ui/model/state.js';
import {
  decodeState,
  encodeState,
  StateError,
  toBase64Url,
  toLinkState,
  validateState,
} from '../../web/ui/model/url-state.js';

const RUNS = Number(process.env.ATTN_GARBAGE_RUNS) || 300;
const SEED =
  process.env.ATTN_PROPERTY_SEED !== undefined
    ? Number(process.env.ATTN_PROPERTY_SEED)
    : process.env.ATTN_GARBAGE_RUNS
      ? undefined
      : 20261129;
const fill = (name, count) => new Array(count).fill(0);
const pack = (text) => `v1.${toBase64Url(deflateRawSync(Buffer.from(text)))}`;

let links = [];
before(async () => {
  const attn = await createAttention();
  links = await Promise.all(PRESETS.map((p) => encodeState(reconcile(p.build(attn), fill))));
});

// decodeState's whole contract, for any text.
async function expectDecoded(text) {
  const r = await decodeState(text);
  if (r.ok) {
    assert.deepEqual(Object.keys(r).sort(), ['ok', 'state']);
    validateState(r.state); // what it returns passes the checks again
    reconcile(r.state, fill);
  } else {
    assert.equal(r.ok, false);
    assert.equal(typeof r.error, 'string');
    assert.ok(r.error.length > 0 && r.error.length < 2000, `error message of ${r.error.length} characters`);
  }
}

const property = (arbitrary, check) => fc.assert(fc.asyncProperty(arbitrary, check), { numRuns: RUNS, seed: SEED });

test('random text is refused with a message or decodes to a checked state', () =>
  property(
    fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 100 }),
      fc.string({ maxLength: 200 }).map((s) => `v1.${s}`),
    ),
    expectDecoded,
  ));

test('damaged real links (characters flipped, cut, inserted) never throw', () =>
  property(
    fc.tuple(
      fc.nat(),
      fc.array(
        fc.tuple(fc.constantFrom('flip', 'cut', 'insert'), fc.nat(), fc.string({ minLength: 1, maxLength: 1 })),
        { minLength: 1, maxLength: 4 },
      ),
    ),
    async ([which, edits]) => {
      let text = links[which % links.length];
      for (const [kind, at, ch] of edits) {
        const i = 3 + (at % Math.max(1, text.length - 3));
        if (kind === 'flip') text = text.slice(0, i) + ch + text.slice(i + 1);
        else if (kind === 'cut') text = text.slice(0, i);
        else text = text.slice(0, i) + ch + text.slice(i);
      }
      await expectDecoded(text);
    },
  ));

test('random JSON packed as a link never throws', () =>
  property(
    fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record(
        {
          mode: fc.constantFrom('sentence', 'qkv', 'x'),
          n: fc.jsonValue(),
          tokens: fc.jsonValue(),
          sentence: fc.jsonValue(),
          matrices: fc.dictionary(
            fc.constantFrom('Q', 'K', 'V', 'X', 'WQ', '__proto__', 'constructor'),
            fc.jsonValue(),
          ),
          mask: fc.jsonValue(),
          scaling: fc.jsonValue(),
          display: fc.jsonValue(),
          view: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
    ),
    (value) => expectDecoded(pack(JSON.stringify(value))),
  ));

test('validateState throws nothing but its StateError, whatever it is given', () =>
  property(
    fc.anything({
      withBigInt: true,
      withNullPrototype: true,
      withTypedArray: true,
      withSparseArray: true,
      maxDepth: 4,
    }),
    async (value) => {
      try {
        reconcile(validateState(value), fill);
      } catch (err) {
        assert.ok(err instanceof StateError, `threw ${err?.name}: ${err?.message}`);
      }
    },
  ));

test('a state that passes, once reconciled, survives encode → decode unchanged', () =>
  property(
    fc.record({
      mode: fc.constantFrom('sentence', 'qkv'),
      n: fc.integer({ min: 1, max: 24 }),
      m: fc.integer({ min: 1, max: 24 }),
      dk: fc.integer({ min: 1, max: 16 }),
      dv: fc.integer({ min: 1, max: 16 }),
      heads: fc.constantFrom(1, 2, 4),
      dModel: fc.constantFrom(4, 8, 16),
      sentence: fc.string({ maxLength: 120 }),
      scaling: fc.record({ sqrtDk: fc.boolean(), temperature: fc.double({ min: 0.05, max: 20, noNaN: true }) }),
    }),
    async (input) => {
      const state = reconcile(validateState(input), (name, count) =>
        Array.from({ length: count }, (_, k) => Math.sin(k + count)),
      );
      const r = await decodeState(await encodeState(state));
      assert.equal(r.ok, true, r.error);
      assert.deepEqual(toLinkState(reconcile(r.state, fill)), toLinkState(state));
    },
  ));
