// The link codec (web/ui/model/url-state.js): every preset and every kind of state field round-trips
// exactly; malformed, hostile and oversized links are refused with a message, never a throw, and
// never reach the page as anything but checked plain data.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { createAttention } from '../../web/lib/attention.js';
import { PRESETS } from '../../web/ui/model/presets.js';
import { activeMatrices, reconcile } from '../../web/ui/model/state.js';
import {
  decodeState,
  encodeState,
  linkFor,
  MAX_ENCODED_LENGTH,
  presetFromHash,
  stateFromHash,
  toBase64Url,
  validateState,
} from '../../web/ui/model/url-state.js';

let attn;
before(async () => {
  attn = await createAttention();
});

const zeros = (count) => Array.from({ length: count }, () => 0);
const fill = (name, count) => zeros(count);
// What a link should bring back: the (reconciled) state itself, without the other mode's
// matrices, and with −0 read back as 0 (JSON has no −0).
const expected = (state) => {
  const out = structuredClone(state);
  const active = activeMatrices(state).map(([name]) => name);
  for (const name of Object.keys(out.matrices)) {
    if (!active.includes(name)) delete out.matrices[name];
    else out.matrices[name].data = out.matrices[name].data.map((x) => x + 0);
  }
  return out;
};
const roundTrip = async (state) => {
  const text = await encodeState(state);
  const r = await decodeState(text);
  assert.equal(r.ok, true, r.error);
  return { text, state: reconcile(r.state, fill) };
};
// Encodes arbitrary JSON the way encodeState does, for hand-made hostile links.
const pack = (value) =>
  `v1.${toBase64Url(deflateRawSync(Buffer.from(typeof value === 'string' ? value : JSON.stringify(value))))}`;
const refused = async (text, pattern) => {
  const r = await decodeState(text);
  assert.equal(r.ok, false, `accepted ${String(text).slice(0, 60)}`);
  assert.equal(typeof r.error, 'string');
  if (pattern) assert.match(r.error, pattern);
  return r.error;
};

describe('round trip', () => {
  test('every preset comes back exactly (values, sizes, masks, names)', async () => {
    for (const preset of PRESETS) {
      const state = reconcile(preset.build(attn), fill);
      const { text, state: back } = await roundTrip(state);
      assert.deepEqual(back, expected(state), preset.id);
      assert.match(text, /^v1\.[A-Za-z0-9_-]+$/);
      assert.ok(text.length < 12_000, `${preset.id}: ${text.length} characters`);
    }
  });

  test('the lesson example keeps its full-precision NumPy values', async () => {
    const state = reconcile(PRESETS.find((p) => p.id === 'lesson').build(attn), fill);
    const { state: back } = await roundTrip(state);
    for (const name of ['X', 'WQ', 'WK', 'WV'])
      assert.deepEqual(back.matrices[name].data, state.matrices[name].data, name);
  });

  test('every field the page keeps survives: toggles, masks, head, display, lesson fields', async () => {
    const base = reconcile(PRESETS.find((p) => p.id === 'padding').build(attn), fill);
    const state = reconcile(
      {
        ...base,
        scaling: { sqrtDk: false, temperature: 0.35 },
        mask: { ...base.mask, kind: 'padding', pad: [false, true, false, false, true, false] },
        display: { theme: 'dark', palette: 'cividis' },
        matrices: {
          ...base.matrices,
          X: {
            ...base.matrices.X,
            data: base.matrices.X.data.map((x, k) =>
              k === 0 ? 0.1 + 0.2 : k === 1 ? -1e-7 : k === 2 ? 123456.789 : x,
            ),
          },
        },
        lesson: { panel: 'sqrt-dk', sqrtDk: { dk: 512, samples: 10000 }, pitfall: 'mask-after-softmax' },
      },
      fill,
    );
    const { state: back } = await roundTrip(state);
    assert.deepEqual(back, expected(state));
    assert.deepEqual(back.mask.pad, [false, true, false, false, true, false]);
    assert.equal(back.matrices.X.data[0], 0.1 + 0.2);
    assert.equal(back.lesson.sqrtDk.dk, 512);

    const qkv = reconcile({ ...PRESETS.find((p) => p.id === 'fully-masked').build(attn), view: { head: 0 } }, fill);
    const r = await roundTrip(qkv);
    assert.deepEqual(r.state.mask.custom, qkv.mask.custom);
    const heads = reconcile({ ...PRESETS.find((p) => p.id === 'heads').build(attn), view: { head: 2 } }, fill);
    const h = await roundTrip(heads);
    assert.equal(h.state.view.head, 2);
    assert.deepEqual(h.state.headNames, heads.headNames);
  });

  test('hostile text in tokens and the sentence is carried as plain text (the page renders text)', async () => {
    const tokens = ['<img src=x onerror=alert(1)>'.slice(0, 24), 'javascript:alert(1)', '"><script>', '\u202eevil'];
    const state = reconcile(
      { ...PRESETS.find((p) => p.id === 'lesson').build(attn), sentence: tokens.join(' '), tokens },
      fill,
    );
    const { state: back } = await roundTrip(state);
    assert.deepEqual(back.tokens, tokens);
  });

  test('links: the hash carries the state, other hash content is ignored', () => {
    assert.equal(stateFromHash('#s=v1.abc'), 'v1.abc');
    assert.equal(stateFromHash('#pipeline'), null);
    assert.equal(stateFromHash(''), null);
    assert.equal(presetFromHash('#preset=heads'), 'heads');
    assert.equal(
      linkFor('https://x.example/explorer/index.html?a=1#old', 'v1.abc'),
      'https://x.example/explorer/index.html?a=1#s=v1.abc',
    );
  });
});

describe('malformed links are refused with a message', () => {
  test('not text, empty, wrong prefix, unknown version, damaged base64 or deflate, not JSON', async () => {
    for (const text of [
      undefined,
      null,
      42,
      {},
      '',
      'v1',
      'v1.',
      'hello',
      '1.abc',
      'v1.abc=',
      'v1.a',
      'v1.!!!!',
      'v1.%3Cimg%3E',
      'v1.' + 'A'.repeat(40),
    ])
      await refused(text);
    await refused('v2.AAAA', /newer version/);
    await refused(pack('{"n": 4,'), /not JSON/);
    await refused(`v1.${toBase64Url(deflateRawSync(Buffer.from([0xff, 0xfe, 0x00, 0xc3])))}`, /not JSON/);
    await refused(pack([1, 2, 3]), /state must be an object/);
    await refused(pack('null'), /state must be an object/);
    await refused(pack('"a string"'), /state must be an object/);
  });

  test('wrong types and out-of-range values name the field', async () => {
    const cases = [
      [{ n: '4' }, /^n must be a whole number/],
      [{ n: 1e9 }, /^n must be/],
      [{ dModel: 2.5 }, /^dModel must be/],
      [{ heads: -1 }, /^heads must be/],
      [{ seed: 2 ** 40 }, /^seed must be/],
      [{ mode: 'eval' }, /^mode must be one of/],
      [{ tokens: 'abc' }, /^tokens must be a list/],
      [{ tokens: [] }, /tokens must not be empty/],
      [{ tokens: Array(25).fill('a') }, /^tokens must be a list of at most 24/],
      [{ tokens: ['a'.repeat(25)] }, /^tokens\[0\]/],
      [{ tokens: [{ toString: 1 }] }, /^tokens\[0\]/],
      [{ scaling: { temperature: 1e9 } }, /^scaling\.temperature/],
      [{ scaling: { sqrtDk: 'yes' } }, /^scaling\.sqrtDk/],
      [{ mask: { kind: '<img>' } }, /^mask\.kind/],
      [{ mask: { custom: [0, 2] } }, /^mask\.custom\[1\]/],
      [{ mask: { pad: [1] } }, /^mask\.pad\[0\]/],
      [{ matrices: { Z: { rows: 1, cols: 1, data: [0] } } }, /^matrices may only be/],
      [{ matrices: { Q: { rows: 2, cols: 2, data: [1, 2, 3] } } }, /^Q\.data must hold 2 × 2 = 4 numbers/],
      [{ matrices: { Q: { rows: 1, cols: 2, data: [1, '2'] } } }, /^Q\[1,2\] must be a number/],
      [{ matrices: { Q: { rows: 1, cols: 1, data: [1e300] } } }, /^Q\[1,1\]/],
      [{ matrices: { Q: { rows: 1e6, cols: 1e6, data: [] } } }, /^Q\.rows/],
      [{ matrices: { Q: [[1, 2]] } }, /^matrix Q must be an object/],
      [{ headNames: ['x'.repeat(41)] }, /^headNames\[0\]/],
      [{ view: { head: 99 } }, /^view\.head/],
      [{ display: { theme: 'javascript:alert(1)' } }, /^display\.theme/],
      [{ display: { palette: 'red; background:url(x)' } }, /^display\.palette/],
    ];
    for (const [state, pattern] of cases) {
      const error = await refused(pack(state), pattern);
      assert.ok(error.length < 200, `a short message: ${error}`);
    }
  });

  test('hostile keys never reach an object prototype', async () => {
    await refused(pack('{"__proto__": {"polluted": 1}}'), /not allowed/);
    await refused(pack('{"lesson": {"__proto__": {"polluted": 1}}}'), /not allowed/);
    await refused(pack('{"view": {"constructor": {"prototype": {"polluted": 1}}}}'), /not allowed/);
    await refused(pack('{"bad key!": 1}'), /not allowed/);
    assert.equal({}.polluted, undefined);
    assert.equal(Object.prototype.polluted, undefined);
    // Checked states are fresh plain objects, never the input.
    const input = { tokens: ['a'], matrices: { Q: { rows: 1, cols: 1, data: [1] } }, lesson: { a: [1, { b: 2 }] } };
    const out = validateState(input);
    assert.notEqual(out.matrices.Q.data, input.matrices.Q.data);
    assert.notEqual(out.lesson.a[1], input.lesson.a[1]);
    assert.equal(Object.getPrototypeOf(out.lesson), Object.prototype);
  });

  test('values JSON cannot carry are refused when a state arrives as an object (postMessage)', () => {
    for (const [bad, pattern] of [
      [{ matrices: { Q: { rows: 1, cols: 1, data: [NaN] } } }, /Q\[1,1\]/],
      [{ matrices: { Q: { rows: 1, cols: 1, data: [Infinity] } } }, /Q\[1,1\]/],
      [{ lesson: { f: () => 1 } }, /not plain data/],
      [{ lesson: new Map() }, /not plain data/],
      [{ lesson: 10n }, /not plain data/],
      [{ lesson: NaN }, /finite/],
      [new Date(), /state must be an object/],
      [[], /state must be an object/],
    ])
      assert.throws(() => validateState(bad), pattern);
  });
});

describe('oversized links', () => {
  test('a link longer than the bound is refused before it is looked at', async () => {
    await refused(`v1.${'A'.repeat(MAX_ENCODED_LENGTH)}`, /too long/);
  });

  test('a small link that inflates to megabytes (a zip bomb) is refused while inflating', async () => {
    const bomb = `v1.${toBase64Url(deflateRawSync(Buffer.alloc(50 << 20, 0x20)))}`;
    assert.ok(bomb.length < MAX_ENCODED_LENGTH, `bomb is ${bomb.length} characters`);
    await refused(bomb, /unpacks to more than/);
  });

  test('extension fields are bounded in depth, size and text length', async () => {
    let deep = 1;
    for (let i = 0; i < 50; i++) deep = [deep];
    await refused(pack({ lesson: deep }), /nested too deeply/);
    await refused(pack({ lesson: Array(10000).fill(1) }), /too much data/);
    await refused(pack({ lesson: 'x'.repeat(501) }), /at most 500/);
    await refused(pack(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 1]))), /too many fields/);
  });

  test('a state too large for a link is refused when encoding, with a hint to export JSON', async () => {
    const big = reconcile(
      { mode: 'sentence', sentence: 'a', tokens: Array(24).fill('tok'), dModel: 64, heads: 4 },
      (name, count) => Array.from({ length: count }, (_, k) => Math.sin(k + name.length) * 1000.123456789),
    );
    await assert.rejects(encodeState(big), /too large for a link.*export it as JSON/);
    // A large but typical state (two-decimal values) still fits.
    const typical = reconcile(
      { mode: 'sentence', sentence: 'a', tokens: Array(16).fill('tok'), dModel: 64, heads: 4 },
      (name, count) => Array.from({ length: count }, (_, k) => Math.round(Math.sin(k * 7.1 + name.length) * 100) / 100),
    );
    const { state: back } = await roundTrip(typical);
    assert.deepEqual(back, expected(typical));
  });
});
