// web/lib/safetensors.js against files written independently by
// scripts/reference/generate_safetensors_fixture.py (tests/data/safetensors/), and against hostile
// input: every malformed file must give an Error from the decoder's own checks ("safetensors: …",
// naming the tensor), never a RangeError from reading out of bounds, never a silent wrong tensor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';

import {
  decodeSafetensors,
  decodeSafetensorsHeader,
  decodeSafetensorsMetadata,
  encodeSafetensors,
  encodeSafetensorsHeader,
  safetensorsHeaderSize,
} from '../../web/lib/safetensors.js';

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

const f32 = (shape, begin) => ({
  dtype: 'F32',
  shape,
  data_offsets: [begin, begin + 4 * shape.reduce((a, b) => a * b, 1)],
});

function assertDecoded(actual, want) {
  assert.deepEqual(Object.keys(actual).sort(), Object.keys(want).sort());
  for (const [name, t] of Object.entries(want)) {
    assert.ok(actual[name].data instanceof Float32Array, `${name} is a Float32Array`);
    assert.deepEqual(actual[name].shape, t.shape, `${name} shape`);
    const values = Array.from(actual[name].data);
    t.data
      .map(toNumber)
      .forEach((x, i) => assert.ok(Object.is(values[i], x), `${name}[${i}]: ${values[i]}, expected ${x}`));
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
  const data = new Uint8Array([0x00, 0x7e, 0x00, 0x3c]); // NaN, 1.0
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
  names.forEach((name, i) =>
    Object.defineProperty(tensors, name, {
      value: { data: new Float32Array([i, -i]), shape: [2] },
      enumerable: true,
    }),
  );
  const decoded = decodeSafetensors(encodeSafetensors(tensors));
  assert.deepEqual(Object.keys(decoded).sort(), names.slice().sort());
  assert.equal(Object.getPrototypeOf(decoded), Object.prototype, 'no prototype pollution');
  names.forEach((name, i) =>
    assert.deepEqual(Array.from(Object.getOwnPropertyDescriptor(decoded, name).value.data), [i, -i]),
  );
  // Data order follows the names in code point order ("10" < "9" < "__proto__"), as the reference sorts bytes.
  const text = new TextDecoder().decode(encodeSafetensors(tensors).subarray(8, 300));
  assert.ok(text.indexOf('"10"') < text.indexOf('"9"') && text.indexOf('"9"') < text.indexOf('"__proto__"'));
});

const hostile = [
  ['an empty file', new Uint8Array(0), /too short for the 8-byte header length/],
  ['7 bytes', new Uint8Array(7), /too short/],
  ['a header length past the end', file({}, new Uint8Array(0), 100), /header length 100 runs past the end/],
  [
    'a header length above 2^32',
    file({}, new Uint8Array(0), 2 ** 40),
    /header length 1099511627776 exceeds the 100000000-byte limit/,
  ],
  ['a header that is not JSON', file('{"a": [1, 2'), /not valid JSON/],
  [
    'a header that is not UTF-8',
    (() => {
      const f = file('{"a":1}  ');
      f[10] = 0xff;
      return f;
    })(),
    /not valid UTF-8/,
  ],
  ['a header that is an array', file('[1, 2]'), /must be a JSON object/],
  ['a header that is null', file('null'), /must be a JSON object/],
  ['a tensor entry that is not an object', file({ w: 3 }), /tensor "w": its header entry must be an object/],
  [
    'offsets outside the data',
    file({ w: f32([2], 0) }, new Uint8Array(4)),
    /tensor "w": data_offsets \[0, 8\] lie outside the data \(4 bytes\)/,
  ],
  [
    'offsets ending before they begin',
    file({ w: { dtype: 'F32', shape: [1], data_offsets: [8, 4] } }, new Uint8Array(8)),
    /tensor "w": .*end before they begin/,
  ],
  [
    'negative offsets',
    file({ w: { dtype: 'F32', shape: [1], data_offsets: [-4, 0] } }, new Uint8Array(4)),
    /tensor "w": data_offsets must be two non-negative integers/,
  ],
  [
    'fractional offsets',
    file({ w: { dtype: 'F32', shape: [1], data_offsets: [0, 4.5] } }, new Uint8Array(8)),
    /tensor "w": data_offsets/,
  ],
  [
    'three offsets',
    file({ w: { dtype: 'F32', shape: [1], data_offsets: [0, 4, 8] } }, new Uint8Array(8)),
    /tensor "w": data_offsets/,
  ],
  [
    'overlapping tensors',
    file({ a: f32([2], 0), b: f32([2], 4) }, new Uint8Array(12)),
    /tensor "b" overlaps tensor "a"/,
  ],
  [
    'a gap between tensors',
    file({ a: f32([1], 0), b: f32([1], 8) }, new Uint8Array(12)),
    /tensor "b": 4 bytes before it \(from 4\) belong to no tensor/,
  ],
  ['a gap before the first tensor', file({ a: f32([1], 4) }, new Uint8Array(8)), /tensor "a": 4 bytes before it/],
  [
    'bytes after the last tensor',
    file({ a: f32([1], 0) }, new Uint8Array(12)),
    /8 bytes after tensor "a" belong to no tensor/,
  ],
  ['data but no tensors', file({}, new Uint8Array(4)), /4 bytes after the header belong to no tensor/],
  [
    'a shape disagreeing with its bytes',
    file({ w: { dtype: 'F32', shape: [3], data_offsets: [0, 8] } }, new Uint8Array(8)),
    /tensor "w": shape \[3\] of F32 needs 12 bytes, but data_offsets \[0, 8\] cover 8/,
  ],
  [
    'an absurd shape',
    file({ w: { dtype: 'F32', shape: [1e15, 1e15, 1e15], data_offsets: [0, 8] } }, new Uint8Array(8)),
    /tensor "w": shape .* has more elements than the file has bytes/,
  ],
  [
    'a shape beyond safe integers',
    file('{"w":{"dtype":"F32","shape":[1e300],"data_offsets":[0,4]}}', new Uint8Array(4)),
    /tensor "w": shape must be an array of non-negative integers/,
  ],
  [
    'a negative dimension',
    file({ w: { dtype: 'F32', shape: [-1], data_offsets: [0, 4] } }, new Uint8Array(4)),
    /tensor "w": shape must be/,
  ],
  [
    'an I64 tensor whose bytes do not match its shape',
    file({ w: { dtype: 'I64', shape: [2], data_offsets: [0, 8] } }, new Uint8Array(8)),
    /tensor "w": shape \[2\] of I64 needs 16 bytes/,
  ],
  [
    'an F4 tensor of an odd element count (half a byte)',
    file({ w: { dtype: 'F4', shape: [3], data_offsets: [0, 2] } }, new Uint8Array(2)),
    /tensor "w": shape \[3\] of F4 does not fill whole bytes/,
  ],
  [
    'an unknown dtype',
    file({ w: { dtype: 'Q4', shape: [1], data_offsets: [0, 1] } }, new Uint8Array(1)),
    /tensor "w": unknown dtype "Q4"/,
  ],
  [
    'a missing dtype',
    file({ w: { shape: [1], data_offsets: [0, 4] } }, new Uint8Array(4)),
    /tensor "w": dtype must be a string/,
  ],
  ['metadata that is not strings', file({ __metadata__: { a: 1 } }), /__metadata__ entry "a" must be a string/],
  ['metadata that is an array', file({ __metadata__: ['a'] }), /__metadata__ must be an object of strings/],
];

for (const [what, bytes, message] of hostile) {
  test(`refuses ${what}`, () => {
    assert.throws(
      () => decodeSafetensors(bytes),
      (err) => err instanceof Error && /^safetensors: /.test(err.message) && message.test(err.message),
      `expected ${message}`,
    );
  });
}

test('refuses a truncated file, naming the tensor that no longer fits', () => {
  const bytes = fixture('f32.safetensors');
  for (const cut of [1, 4, 47]) {
    assert.throws(
      () => decodeSafetensors(bytes.subarray(0, bytes.length - cut)),
      /safetensors: tensor "wte.weight": data_offsets \[\d+, \d+\] lie outside the data/,
    );
  }
  assert.throws(() => decodeSafetensors(bytes.subarray(0, 20)), /header length \d+ runs past the end/);
});

test('refuses input that is not bytes, and bad tensors to encode', () => {
  for (const bad of [null, undefined, 'abc', [1, 2, 3], {}])
    assert.throws(() => decodeSafetensors(bad), /safetensors: bytes must be a Uint8Array or an ArrayBuffer/);
  assert.throws(
    () => encodeSafetensors({ w: { data: new Float32Array(3), shape: [2] } }),
    /tensor "w": shape \[2\] holds 2 values, data has 3/,
  );
  assert.throws(() => encodeSafetensors({ w: { data: 'abc', shape: [3] } }), /tensor "w": data must be a Float32Array/);
  assert.throws(
    () => encodeSafetensors({ w: { data: new Float32Array(1), shape: [1.5] } }),
    /tensor "w": shape must be/,
  );
  assert.throws(() => encodeSafetensors({ __metadata__: { data: new Float32Array(1), shape: [1] } }), /reserved/);
  assert.throws(() => encodeSafetensors({}, { a: 2 }), /__metadata__ entry "a" must be a string/);
  assert.throws(() => encodeSafetensors(null), /tensors must be an object/);
});

const tensorArb = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 0, maxLength: 3 }).chain((shape) =>
  fc.record({
    shape: fc.constant(shape),
    data: fc.float32Array({ minLength: shape.reduce((a, b) => a * b, 1), maxLength: shape.reduce((a, b) => a * b, 1) }),
  }),
);

test('property: decode(encode(x)) gives x back, bit for bit', () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tensorArb, { maxKeys: 5 }), (tensors) => {
      delete tensors.__metadata__;
      const decoded = decodeSafetensors(encodeSafetensors(tensors, { format: 'pt' }));
      assert.deepEqual(Object.keys(decoded).sort(), Object.keys(tensors).sort());
      for (const [name, t] of Object.entries(tensors)) {
        assert.deepEqual(decoded[name].shape, t.shape);
        assert.deepEqual(
          new Uint8Array(decoded[name].data.buffer),
          new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength),
        );
      }
    }),
    { numRuns: RUNS },
  );
});

// Hostile headers: entries with arbitrary dtypes, shapes and offsets (mostly near-valid, so the
// later checks are reached), over data of arbitrary length. The decoder either refuses with its own
// message or returns tensors that tile the data exactly and agree with their shapes.
const entryArb = fc.record(
  {
    dtype: fc.constantFrom('F32', 'F16', 'BF16', 'F64', 'I8', 'x', 7),
    shape: fc.oneof(
      fc.array(fc.integer({ min: -1, max: 6 }), { maxLength: 3 }),
      fc.constant('s'),
      fc.array(fc.double(), { maxLength: 2 }),
    ),
    data_offsets: fc.oneof(
      fc.tuple(fc.integer({ min: -2, max: 40 }), fc.integer({ min: -2, max: 40 })),
      fc.array(fc.integer({ min: 0, max: 2 ** 53 }), { maxLength: 3 }),
    ),
  },
  { requiredKeys: [] },
);

test('property: hostile headers never read out of bounds or return inconsistent tensors', () => {
  const headerArb = fc.dictionary(
    fc.constantFrom('a', 'b', 'c', '__metadata__', '__proto__'),
    fc.oneof(entryArb, fc.anything()),
    { maxKeys: 4 },
  );
  fc.assert(
    fc.property(
      headerArb,
      fc.integer({ min: 0, max: 48 }),
      fc.option(fc.integer({ min: 0, max: 2 ** 40 })),
      (header, dataLength, length) => {
        const text = JSON.stringify(header);
        const bytes = file(text, new Uint8Array(dataLength), length ?? undefined);
        let tensors;
        try {
          tensors = decodeSafetensors(bytes);
        } catch (err) {
          assert.ok(err instanceof Error && /^safetensors: /.test(err.message), `unexpected ${err}`);
          return;
        }
        const sizes = { F32: 4, F16: 2, BF16: 2, F64: 8, I8: 1 };
        let total = 0;
        for (const [name, t] of Object.entries(tensors)) {
          const info = JSON.parse(text)[name];
          assert.equal(t.dtype, info.dtype);
          assert.equal(
            t.data.length,
            t.shape.reduce((a, b) => a * b, 1),
          );
          total += t.data.length * sizes[info.dtype];
        }
        assert.equal(total, dataLength, 'the tensors cover the data exactly');
      },
    ),
    { numRuns: RUNS * 3 },
  );
});

test('property: flipping bytes of a valid file gives a valid result or a safetensors Error', () => {
  const base = fixture('mixed.safetensors');
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
      fc.nat(base.length),
      (flips, cut) => {
        const bytes = base.slice(0, Math.max(cut, base.length - 8 * flips.length));
        for (const [at, value] of flips) if (at < bytes.length) bytes[at] = value;
        try {
          decodeSafetensors(bytes);
        } catch (err) {
          assert.ok(err instanceof Error && /^safetensors: /.test(err.message), `unexpected ${err}`);
        }
      },
    ),
    { numRuns: RUNS * 3 },
  );
});

// ---- every dtype ---------------------------------------------------------------------------------

const KINDS = {
  BOOL: Uint8Array,
  U8: Uint8Array,
  I8: Int8Array,
  U16: Uint16Array,
  I16: Int16Array,
  U32: Uint32Array,
  I32: Int32Array,
  U64: BigUint64Array,
  I64: BigInt64Array,
  F16: Float32Array,
  BF16: Float32Array,
  F32: Float32Array,
  F64: Float64Array,
};
const expectedValue = (dtype, x) => (dtype === 'U64' || dtype === 'I64' ? BigInt(x) : toNumber(x));

test('reads every dtype of a NumPy-written file as a typed array of its own kind, exactly', () => {
  const want = expected['dtypes.safetensors'].tensors;
  const decoded = decodeSafetensors(fixture('dtypes.safetensors'));
  assert.deepEqual(Object.keys(decoded).sort(), Object.keys(want).sort());
  assert.deepEqual(
    new Set(Object.values(want).map((t) => t.dtype)),
    new Set(Object.keys(KINDS)),
    'the fixture holds every dtype',
  );
  for (const [name, t] of Object.entries(want)) {
    const got = decoded[name];
    assert.equal(got.dtype, t.dtype, name);
    assert.equal(got.data.constructor, KINDS[t.dtype], `${name}: ${t.dtype} comes out as ${KINDS[t.dtype].name}`);
    assert.deepEqual(got.shape, t.shape, `${name} shape`);
    assert.deepEqual(
      Array.from(got.data),
      t.data.map((x) => expectedValue(t.dtype, x)),
      name,
    );
  }
  assert.equal(decoded.i64.data[1], 2n ** 63n - 1n, 'the largest I64 survives exactly');
  assert.equal(decoded.u64.data[1], 2n ** 53n + 1n, 'a U64 past 2^53 survives exactly');
});

test('converts every real dtype to float32 or float64 on request, and gives narrow floats as bits with as: raw', () => {
  const want = expected['dtypes.safetensors'].tensors;
  const bytes = fixture('dtypes.safetensors');
  const f32 = decodeSafetensors(bytes, { as: 'float32' });
  const f64 = decodeSafetensors(bytes, { as: 'float64' });
  for (const [name, t] of Object.entries(want)) {
    const exact = t.data.map((x) => Number(expectedValue(t.dtype, x)));
    assert.ok(f32[name].data instanceof Float32Array && f64[name].data instanceof Float64Array, name);
    assert.deepEqual(Array.from(f32[name].data), exact.map(Math.fround), `${name} as float32`);
    assert.deepEqual(Array.from(f64[name].data), exact, `${name} as float64`);
  }
  const raw = decodeSafetensors(bytes, { as: 'raw' });
  assert.deepEqual(Array.from(raw.f16.data), [0x7bff, 0x8001], 'F16 bit patterns');
  assert.deepEqual(Array.from(raw.bf16.data), [0xbfc0, 0x7f00], 'BF16 bit patterns');
  assert.ok(raw.f32.data instanceof Float32Array && raw.i64.data instanceof BigInt64Array);
  assert.throws(
    () => decodeSafetensors(bytes, { as: 'float16' }),
    /safetensors: options.as must be one of 'native', 'raw', 'float32', 'float64'/,
  );
  assert.throws(() => decodeSafetensors(bytes, { sa: 'raw' }), /safetensors: unknown option "sa"/);
});

test('decoding as raw and encoding again gives the NumPy-written files back byte for byte', () => {
  for (const name of ['dtypes.safetensors', 'mixed.safetensors', 'f32.safetensors']) {
    const bytes = fixture(name);
    const again = encodeSafetensors(
      decodeSafetensors(bytes, { as: 'raw' }),
      decodeSafetensorsMetadata(bytes) ?? undefined,
    );
    assert.deepEqual(Array.from(again), Array.from(bytes), name);
  }
});

test('the 8-bit float formats convert by their definitions; C64 is real and imaginary pairs; F4 stays packed bytes', () => {
  const tensors = {
    e4m3: ['F8_E4M3', [0x38, 0x7e, 0x01, 0xfe, 0x7f, 0x80]],
    e5m2: ['F8_E5M2', [0x3c, 0x7b, 0x7c, 0xfc, 0x7d, 0x01]],
    fnuz: ['F8_E4M3FNUZ', [0x40, 0x80, 0x00]],
    e5fnuz: ['F8_E5M2FNUZ', [0x40, 0x80]],
    e8m0: ['F8_E8M0', [0x7f, 0x80, 0x00, 0xff]],
  };
  const input = {};
  for (const [name, [dtype, bits]] of Object.entries(tensors))
    input[name] = { dtype, data: Uint8Array.from(bits), shape: [bits.length] };
  input.c = { dtype: 'C64', data: Float32Array.of(1.5, -2, 0, 3), shape: [2] };
  input.f4 = { dtype: 'F4', data: Uint8Array.of(0x21, 0x7f), shape: [2, 2] };
  const out = decodeSafetensors(encodeSafetensors(input));
  // OCP 8-bit floating point specification: E4M3 has no infinities (max 448, NaN 0x7f/0xff);
  // E5M2 is IEEE-like (max 57344); the FNUZ variants have one NaN (0x80) and biases 8 and 16.
  assert.deepEqual(Array.from(out.e4m3.data), [1, 448, 2 ** -9, -448, NaN, -0]);
  assert.deepEqual(Array.from(out.e5m2.data), [1, 57344, Infinity, -Infinity, NaN, 2 ** -16]);
  assert.deepEqual(Array.from(out.fnuz.data), [1, NaN, 0]);
  assert.deepEqual(Array.from(out.e5fnuz.data), [1, NaN]);
  assert.deepEqual(Array.from(out.e8m0.data), [1, 2, 2 ** -127, NaN]);
  assert.deepEqual({ ...out.c, data: Array.from(out.c.data) }, { dtype: 'C64', data: [1.5, -2, 0, 3], shape: [2] });
  assert.deepEqual(Array.from(out.f4.data), [0x21, 0x7f]);
  assert.ok(out.f4.data instanceof Uint8Array);
  assert.throws(
    () => decodeSafetensors(encodeSafetensors({ f4: input.f4 }), { as: 'float32' }),
    /tensor "f4": F4 has no conversion to float32/,
  );
});

test("integer data is written as its own kind and checked against the dtype's range", () => {
  const bytes = encodeSafetensors({
    ids: { data: Int32Array.of(-1, 7), shape: [2] },
    big: { data: [1n, -(2n ** 63n)], shape: [2], dtype: 'I64' },
    flags: { data: [true, false, 1], shape: [3], dtype: 'BOOL' },
  });
  const out = decodeSafetensors(bytes);
  assert.equal(out.ids.dtype, 'I32');
  assert.deepEqual(Array.from(out.ids.data), [-1, 7]);
  assert.deepEqual(Array.from(out.big.data), [1n, -(2n ** 63n)]);
  assert.deepEqual(Array.from(out.flags.data), [1, 0, 1]);
  assert.throws(
    () => encodeSafetensors({ w: { data: [300], shape: [1], dtype: 'U8' } }),
    /tensor "w": data\[0\] is 300, outside U8's range \[0, 255\]/,
  );
  assert.throws(
    () => encodeSafetensors({ w: { data: [1.5], shape: [1], dtype: 'I32' } }),
    /tensor "w": data\[0\] is 1.5; I32 needs integers/,
  );
  assert.throws(
    () => encodeSafetensors({ w: { data: [2 ** 64], shape: [1], dtype: 'U64' } }),
    /tensor "w": data\[0\] is 18446744073709552000; U64 needs BigInts or safe integers/,
  );
  assert.throws(
    () => encodeSafetensors({ w: { data: Uint8Array.of(2), shape: [1], dtype: 'BOOL' } }),
    /tensor "w": data\[0\] is 2; BOOL bytes must be 0 or 1/,
  );
  assert.throws(
    () => encodeSafetensors({ w: { data: new Float32Array(2), shape: [2], dtype: 'F16' } }),
    /tensor "w": F16 data must be a Uint16Array of bit patterns/,
  );
  assert.throws(
    () => encodeSafetensors({ w: { data: [1], shape: [1], dtype: 'toString' } }),
    /tensor "w": unknown dtype "toString"/,
  );
});

// ---- the smaller defects, each refused now ---------------------------------------------------------

test('"toString", "__proto__" and other Object.prototype names are not dtypes', () => {
  for (const dtype of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf'])
    assert.throws(
      () => decodeSafetensors(file({ w: { dtype, shape: [1], data_offsets: [0, 4] } }, new Uint8Array(4))),
      new RegExp(`^Error: safetensors: tensor "w": unknown dtype "${dtype}"`),
      dtype,
    );
});

test('a key given twice is refused, even when both entries are equal', () => {
  const entry = '{"dtype":"F32","shape":[1],"data_offsets":[0,4]}';
  const cases = [
    [`{"w":${entry},"w":${entry}}`, /the header has the key "w" twice/],
    [`{"w":{"dtype":"F32","dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, /the header has the key "dtype" twice/],
    [`{"__metadata__":{"a":"1","a":"1"},"w":${entry}}`, /the header has the key "a" twice/],
    [`{"w\\u0041":${entry},"wA":${entry}}`, /the header has the key "wA" twice/], // equal after unescaping
  ];
  for (const [header, message] of cases)
    assert.throws(() => decodeSafetensors(file(header, new Uint8Array(4))), message, header);
  // Equal names in different objects, and strings that only look like keys, are fine.
  const fine = `{"__metadata__":{"dtype":"x","w":"{\\"w\\":1}"},"w":${entry}}`;
  assert.deepEqual(decodeSafetensorsMetadata(file(fine, new Uint8Array(4))), { dtype: 'x', w: '{"w":1}' });
});

test('a byte-order mark before the header is refused; JSON whitespace around it is not', () => {
  const entry = '{"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}';
  assert.throws(
    () => decodeSafetensors(file(`\uFEFF${entry}`, new Uint8Array(4))),
    /safetensors: the header starts with a byte-order mark/,
  );
  assert.throws(() => decodeSafetensors(file(` \uFEFF${entry}`, new Uint8Array(4))), /byte-order mark/);
  assert.deepEqual(Object.keys(decodeSafetensors(file(`\t\n ${entry}\r `, new Uint8Array(4)))), ['w']);
});

test("encoding refuses numbers beyond float32's range and values that are not numbers, naming the element", () => {
  for (const [data, message] of [
    [[1, 1e39], /tensor "w": data\[1\] is 1e\+39, outside float32's range/],
    [Float64Array.of(-3.5e38, 0), /tensor "w": data\[0\] is -3.5e\+38, outside float32's range/],
    [['1', 2], /tensor "w": data\[0\] is "1"; F32 needs numbers/],
    [[1, null], /tensor "w": data\[1\] is null; F32 needs numbers/],
    [[undefined, 1], /tensor "w": data\[0\] is undefined; F32 needs numbers/],
    [[{}, 1], /tensor "w": data\[0\] is object; F32 needs numbers/],
  ])
    assert.throws(() => encodeSafetensors({ w: { data, shape: [2] } }), message, String(data));
  // NaN and the infinities are float32 values, and are written as such.
  const out = decodeSafetensors(encodeSafetensors({ w: { data: [NaN, -Infinity, 3.4e38], shape: [3] } })).w.data;
  assert.ok(Number.isNaN(out[0]) && out[1] === -Infinity && out[2] === Math.fround(3.4e38));
});

test('a Proxy claiming 2^40 elements gets a safetensors Error before anything is allocated', () => {
  const huge = new Proxy([], {
    get: (target, key) => (key === 'length' ? 2 ** 40 : key === 'constructor' ? Array : 0),
  });
  assert.throws(
    () => encodeSafetensors({ w: { data: huge, shape: [2 ** 40] } }),
    (err) =>
      !(err instanceof RangeError) &&
      /^safetensors: tensor "w": 1099511627776 elements are too many to read from an array; pass a typed array/.test(
        err.message,
      ),
  );
  assert.throws(
    () => encodeSafetensors({ w: { data: huge, shape: [4] } }),
    /^Error: safetensors: tensor "w": shape \[4\] holds 4 values, data has 1099511627776/,
  );
  const hugeShape = new Proxy([], { get: (target, key) => (key === 'length' ? 2 ** 40 : 1) });
  assert.throws(
    () => encodeSafetensors({ w: { data: [1], shape: hugeShape } }),
    (err) => !(err instanceof RangeError) && /^safetensors: /.test(err.message),
  );
  assert.throws(
    () => encodeSafetensors({ w: { data: new Float32Array(4), shape: [2 ** 30, 2 ** 30] } }),
    /^Error: safetensors: tensor "w": shape \[1073741824, 1073741824\] has more elements than a file can hold/,
  );
});

// ---- the header alone, for readers that stream ----------------------------------------------------

test("the header can be read from the file's first bytes alone, before the data arrives", () => {
  const bytes = fixture('dtypes.safetensors');
  const length = safetensorsHeaderSize(bytes.subarray(0, 8));
  const head = decodeSafetensorsHeader(bytes.subarray(0, 8 + length), { fileSize: null });
  assert.equal(head.dataStart, 8 + length);
  assert.equal(head.dataStart + head.dataLength, bytes.length);
  assert.deepEqual(
    head.tensors.map((t) => t.begin),
    head.tensors.map((t) => t.begin).sort((a, b) => a - b),
    'in data order',
  );
  assert.deepEqual(
    head.tensors.find((t) => t.name === 'i32'),
    {
      name: 'i32',
      dtype: 'I32',
      shape: [2, 2],
      count: 4,
      begin: head.tensors.find((t) => t.name === 'i32').begin,
      end: head.tensors.find((t) => t.name === 'i32').begin + 16,
    },
  );
  assert.throws(
    () => decodeSafetensorsHeader(bytes.subarray(0, 8 + length - 1), { fileSize: null }),
    /safetensors: the header needs \d+ bytes, only \d+ were given/,
  );
  assert.throws(
    () => decodeSafetensorsHeader(bytes.subarray(0, 8 + length), { fileSize: bytes.length + 4 }),
    /4 bytes after tensor .* belong to no tensor/,
  );
  // encodeSafetensorsHeader lays a file out as encodeSafetensors does, without the data.
  const decoded = decodeSafetensors(bytes, { as: 'raw' });
  const {
    bytes: header,
    tensors,
    dataLength,
  } = encodeSafetensorsHeader(Object.entries(decoded).map(([name, t]) => ({ name, dtype: t.dtype, shape: t.shape })));
  assert.deepEqual(Array.from(header), Array.from(bytes.subarray(0, 8 + length)));
  assert.equal(dataLength, head.dataLength);
  assert.deepEqual(
    tensors.map((t) => t.name),
    head.tensors.map((t) => t.name),
  );
});
