// web/lib/safetensors.js against files written independently by
// scripts/reference/generate_safetensors_fixture.py (tests/data/safetensors/), and against hostile
// input: every malformed file must give an Error from the decoder's own checks ("safetensors: …",
// naming the tensor), never a RangeError from reading out of bounds, never a silent wrong tensor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';

import { decodeSafetensors, decodeSafetensorsMetadata, encodeSafetensors } from '../../web/lib/safetensors.js';

const dir = new URL('../data/safetensors/', import.meta.url);
const fixture = (name) => new Uint8Array(readFileSync(new URL(name, dir)));
const expected = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8'));
const toNumber = (x) => (x === 'inf' ? Infinity : x === '-inf' ? -Infinity : x);
const RUNS = Number(process.env.ATTN_PROPERTY_RUNS ?? 300);

/** A file from a header (object or raw string) and data bytes; `length` overrides the header size field. */
function file(header, data = new Uint8Array(0), length) {
  const text = new TextEncoder().encode(typeof header === 'string' ? header : JSON.stringify(header));
  const out = new Uint8Array(8 + text.length + data.length);
  const view = new DataView(out.buffer);
  const n = length ?? text.length;
  view.setUint32(0, n % 2 ** 32, true);
  view.setUint32(4, Math.floor(n / 2 ** 32), true);
  out.set(text, 8);
  out.set(data, 8 + text.length);
  return out;
}

const f32 = (shape, begin) => ({ dtype: 'F32', shape, data_offsets: [begin, begin + 4 * shape.reduce((a, b) => a * b, 1)] });

function assertDecoded(actual, want) {
  assert.deepEqual(Object.keys(actual).sort(), Object.keys(want).sort());
  for (const [name, t] of Object.entries(want)) {
    assert.ok(actual[name].data instanceof Float32Array, `${name} is a Float32Array`);
    assert.deepEqual(actual[name].shape, t.shape, `${name} shape`);
    const values = Array.from(actual[name].data);
    t.data.map(toNumber).forEach((x, i) => assert.ok(Object.is(values[i], x), `${name}[${i}]: ${values[i]}, expected ${x}`));
  }
}

test('reads the independently written float32 file exactly, with its metadata', () => {
  const want = expected['f32.safetensors'];
  assertDecoded(decodeSafetensors(fixture('f32.safetensors')), want.tensors);
  assert.deepEqual(decodeSafetensorsMetadata(fixture('f32.safetensors')), want.metadata);
});

test('converts F16 and BF16 exactly (zeros, subnormals, largest, infinities); scalars and empty tensors', () => {
  const bytes = fixture('mixed.safetensors');
  assertDecoded(decodeSafetensors(bytes), expected['mixed.safetensors'].tensors);
  assert.equal(decodeSafetensorsMetadata(bytes), null);
  // Also from an ArrayBuffer and from a view that does not start at offset 0.
  const shifted = new Uint8Array(bytes.length + 3);
  shifted.set(bytes, 3);
  assertDecoded(decodeSafetensors(shifted.subarray(3)), expected['mixed.safetensors'].tensors);
  assertDecoded(decodeSafetensors(bytes.slice().buffer), expected['mixed.safetensors'].tensors);
});

test('F16 NaN stays NaN', () => {
  const data = new Uint8Array([0x00, 0x7e, 0x00, 0x3c]);  // NaN, 1.0
  const t = decodeSafetensors(file({ x: { dtype: 'F16', shape: [2], data_offsets: [0, 4] } }, data)).x;
  assert.ok(Number.isNaN(t.data[0]));
  assert.equal(t.data[1], 1);
});

test('writes exactly the bytes of the reference layout (sorted names, compact header padded with spaces)', () => {
  const want = expected['f32.safetensors'];
  const tensors = {};
  // Insertion order differs from the sorted order on purpose.
  for (const name of Object.keys(want.tensors).reverse())
    tensors[name] = { data: Float32Array.from(want.tensors[name].data), shape: want.tensors[name].shape };
  const bytes = encodeSafetensors(tensors, want.metadata);
  assert.deepEqual(Array.from(bytes), Array.from(fixture('f32.safetensors')));
  const headerLength = new DataView(bytes.buffer).getUint32(0, true);
  assert.equal(headerLength % 8, 0, 'the data starts 8-byte aligned');
});

test('integer-like and hostile names round-trip as own properties', () => {
  const names = ['10', '9', '__proto__', 'constructor', 'h.0.attn.c_attn.weight', 'ä€😀'];
  const tensors = {};
  names.forEach((name, i) => Object.defineProperty(tensors, name, {
    value: { data: new Float32Array([i, -i]), shape: [2] }, enumerable: true,
  }));
  const decoded = decodeSafetensors(encodeSafetensors(tensors));
  assert.deepEqual(Object.keys(decoded).sort(), names.slice().sort());
  assert.equal(Object.getPrototypeOf(decoded), Object.prototype, 'no prototype pollution');
  names.forEach((name, i) => assert.deepEqual(Array.from(Object.getOwnPropertyDescriptor(decoded, name).value.data), [i, -i]));
  // Data order follows the names in code point order ("10" < "9" < "__proto__"), as the reference sorts bytes.
  const text = new TextDecoder().decode(encodeSafetensors(tensors).subarray(8, 300));
  assert.ok(text.indexOf('"10"') < text.indexOf('"9"') && text.indexOf('"9"') < text.indexOf('"__proto__"'));
});

const hostile = [
  ['an empty file', new Uint8Array(0), /too short for the 8-byte header length/],
  ['7 bytes', new Uint8Array(7), /too short/],
  ['a header length past the end', file({}, new Uint8Array(0), 100), /header length 100 runs past the end/],
  ['a header length above 2^32', file({}, new Uint8Array(0), 2 ** 40), /runs past the end/],
  ['a header that is not JSON', file('{"a": [1, 2'), /not valid JSON/],
  ['a header that is not UTF-8', (() => { const f = file('{"a":1}  '); f[10] = 0xff; return f; })(), /not valid UTF-8/],
  ['a header that is an array', file('[1, 2]'), /must be a JSON object/],
  ['a header that is null', file('null'), /must be a JSON object/],
  ['a tensor entry that is not an object', file({ w: 3 }), /tensor "w": its header entry must be an object/],
  ['offsets outside the data', file({ w: f32([2], 0) }, new Uint8Array(4)), /tensor "w": data_offsets \[0, 8\] lie outside the data \(4 bytes\)/],
  ['offsets ending before they begin', file({ w: { dtype: 'F32', shape: [1], data_offsets: [8, 4] } }, new Uint8Array(8)), /tensor "w": .*end before they begin/],
  ['negative offsets', file({ w: { dtype: 'F32', shape: [1], data_offsets: [-4, 0] } }, new Uint8Array(4)), /tensor "w": data_offsets must be two non-negative integers/],
  ['fractional offsets', file({ w: { dtype: 'F32', shape: [1], data_offsets: [0, 4.5] } }, new Uint8Array(8)), /tensor "w": data_offsets/],
  ['three offsets', file({ w: { dtype: 'F32', shape: [1], data_offsets: [0, 4, 8] } }, new Uint8Array(8)), /tensor "w": data_offsets/],
  ['overlapping tensors', file({ a: f32([2], 0), b: f32([2], 4) }, new Uint8Array(12)), /tensor "b" overlaps tensor "a"/],
  ['a gap between tensors', file({ a: f32([1], 0), b: f32([1], 8) }, new Uint8Array(12)), /tensor "b": 4 bytes before it \(from 4\) belong to no tensor/],
  ['a gap before the first tensor', file({ a: f32([1], 4) }, new Uint8Array(8)), /tensor "a": 4 bytes before it/],
  ['bytes after the last tensor', file({ a: f32([1], 0) }, new Uint8Array(12)), /8 bytes after tensor "a" belong to no tensor/],
  ['data but no tensors', file({}, new Uint8Array(4)), /4 bytes after the header belong to no tensor/],
  ['a shape disagreeing with its bytes', file({ w: { dtype: 'F32', shape: [3], data_offsets: [0, 8] } }, new Uint8Array(8)), /tensor "w": shape \[3\] of F32 needs 12 bytes, but data_offsets \[0, 8\] cover 8/],
  ['an absurd shape', file({ w: { dtype: 'F32', shape: [1e15, 1e15, 1e15], data_offsets: [0, 8] } }, new Uint8Array(8)), /tensor "w": shape .* has more elements than the file has bytes/],
  ['a shape beyond safe integers', file('{"w":{"dtype":"F32","shape":[1e300],"data_offsets":[0,4]}}', new Uint8Array(4)), /tensor "w": shape must be an array of non-negative integers/],
  ['a negative dimension', file({ w: { dtype: 'F32', shape: [-1], data_offsets: [0, 4] } }, new Uint8Array(4)), /tensor "w": shape must be/],
  ['a refused dtype', file({ w: { dtype: 'F64', shape: [1], data_offsets: [0, 8] } }, new Uint8Array(8)), /tensor "w": dtype F64 is not supported/],
  ['an integer dtype', file({ w: { dtype: 'I64', shape: [1], data_offsets: [0, 8] } }, new Uint8Array(8)), /tensor "w": dtype I64 is not supported/],
  ['an unknown dtype', file({ w: { dtype: 'Q4', shape: [1], data_offsets: [0, 1] } }, new Uint8Array(1)), /tensor "w": unknown dtype "Q4"/],
  ['a missing dtype', file({ w: { shape: [1], data_offsets: [0, 4] } }, new Uint8Array(4)), /tensor "w": dtype must be a string/],
  ['metadata that is not strings', file({ __metadata__: { a: 1 } }), /__metadata__ entry "a" must be a string/],
  ['metadata that is an array', file({ __metadata__: ['a'] }), /__metadata__ must be an object of strings/],
];

for (const [what, bytes, message] of hostile) {
  test(`refuses ${what}`, () => {
    assert.throws(() => decodeSafetensors(bytes), (err) => err instanceof Error && /^safetensors: /.test(err.message) && message.test(err.message),
      `expected ${message}`);
  });
}

test('refuses a truncated file, naming the tensor that no longer fits', () => {
  const bytes = fixture('f32.safetensors');
  for (const cut of [1, 4, 47]) {
    assert.throws(() => decodeSafetensors(bytes.subarray(0, bytes.length - cut)),
      /safetensors: tensor "wte.weight": data_offsets \[\d+, \d+\] lie outside the data/);
  }
  assert.throws(() => decodeSafetensors(bytes.subarray(0, 20)), /header length \d+ runs past the end/);
});

test('refuses input that is not bytes, and bad tensors to encode', () => {
  for (const bad of [null, undefined, 'abc', [1, 2, 3], {}])
    assert.throws(() => decodeSafetensors(bad), /safetensors: bytes must be a Uint8Array or an ArrayBuffer/);
  assert.throws(() => encodeSafetensors({ w: { data: new Float32Array(3), shape: [2] } }), /tensor "w": shape \[2\] holds 2 values, data has 3/);
  assert.throws(() => encodeSafetensors({ w: { data: 'abc', shape: [3] } }), /tensor "w": data must be a Float32Array/);
  assert.throws(() => encodeSafetensors({ w: { data: new Float32Array(1), shape: [1.5] } }), /tensor "w": shape must be/);
  assert.throws(() => encodeSafetensors({ __metadata__: { data: new Float32Array(1), shape: [1] } }), /reserved/);
  assert.throws(() => encodeSafetensors({}, { a: 2 }), /__metadata__ entry "a" must be a string/);
  assert.throws(() => encodeSafetensors(null), /tensors must be an object/);
});

const tensorArb = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 0, maxLength: 3 }).chain((shape) => fc.record({
  shape: fc.constant(shape),
  data: fc.float32Array({ minLength: shape.reduce((a, b) => a * b, 1), maxLength: shape.reduce((a, b) => a * b, 1) }),
}));

test('property: decode(encode(x)) gives x back, bit for bit', () => {
  fc.assert(fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tensorArb, { maxKeys: 5 }), (tensors) => {
    delete tensors.__metadata__;
    const decoded = decodeSafetensors(encodeSafetensors(tensors, { format: 'pt' }));
    assert.deepEqual(Object.keys(decoded).sort(), Object.keys(tensors).sort());
    for (const [name, t] of Object.entries(tensors)) {
      assert.deepEqual(decoded[name].shape, t.shape);
      assert.deepEqual(new Uint8Array(decoded[name].data.buffer), new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    }
  }), { numRuns: RUNS });
});

// Hostile headers: entries with arbitrary dtypes, shapes and offsets (mostly near-valid, so the
// later checks are reached), over data of arbitrary length. The decoder either refuses with its own
// message or returns tensors that tile the data exactly and agree with their shapes.
const entryArb = fc.record({
  dtype: fc.constantFrom('F32', 'F16', 'BF16', 'F64', 'I8', 'x', 7),
  shape: fc.oneof(fc.array(fc.integer({ min: -1, max: 6 }), { maxLength: 3 }), fc.constant('s'), fc.array(fc.double(), { maxLength: 2 })),
  data_offsets: fc.oneof(fc.tuple(fc.integer({ min: -2, max: 40 }), fc.integer({ min: -2, max: 40 })),
    fc.array(fc.integer({ min: 0, max: 2 ** 53 }), { maxLength: 3 })),
}, { requiredKeys: [] });

test('property: hostile headers never read out of bounds or return inconsistent tensors', () => {
  const headerArb = fc.dictionary(fc.constantFrom('a', 'b', 'c', '__metadata__', '__proto__'),
    fc.oneof(entryArb, fc.anything()), { maxKeys: 4 });
  fc.assert(fc.property(headerArb, fc.integer({ min: 0, max: 48 }), fc.option(fc.integer({ min: 0, max: 2 ** 40 })), (header, dataLength, length) => {
    const text = JSON.stringify(header);
    const bytes = file(text, new Uint8Array(dataLength), length ?? undefined);
    let tensors;
    try {
      tensors = decodeSafetensors(bytes);
    } catch (err) {
      assert.ok(err instanceof Error && /^safetensors: /.test(err.message), `unexpected ${err}`);
      return;
    }
    const sizes = { F32: 4, F16: 2, BF16: 2 };
    let total = 0;
    for (const [name, t] of Object.entries(tensors)) {
      const info = JSON.parse(text)[name];
      assert.equal(t.data.length, t.shape.reduce((a, b) => a * b, 1));
      total += t.data.length * sizes[info.dtype];
    }
    assert.equal(total, dataLength, 'the tensors cover the data exactly');
  }), { numRuns: RUNS * 3 });
});

test('property: flipping bytes of a valid file gives a valid result or a safetensors Error', () => {
  const base = fixture('mixed.safetensors');
  fc.assert(fc.property(fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.nat(base.length), (flips, cut) => {
    const bytes = base.slice(0, Math.max(cut, base.length - 8 * flips.length));
    for (const [at, value] of flips) if (at < bytes.length) bytes[at] = value;
    try {
      decodeSafetensors(bytes);
    } catch (err) {
      assert.ok(err instanceof Error && /^safetensors: /.test(err.message), `unexpected ${err}`);
    }
  }), { numRuns: RUNS * 3 });
});
