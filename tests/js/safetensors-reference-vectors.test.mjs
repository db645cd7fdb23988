// The byte-exact test vectors of the reference implementation's own test suite, transcribed from
// github.com/huggingface/safetensors at commit 24b0b2857fef49be734b9ab72ce97c09bb25f5b9:
//   safetensors/src/tensor.rs (the Rust crate's `mod tests`) and
//   bindings/python/tests/test_simple.py (the Python binding's TestCase).
// Each test names the reference test it transcribes. Byte strings are written as in the source
// (b"..." with \x escapes, which JavaScript reads the same way for code points below 256); where
// the reference expects a file to be refused, web/lib/safetensors.js must refuse it with its own
// "safetensors: …" Error; where it writes a file, encodeSafetensors must write the same bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { decodeSafetensors, decodeSafetensorsMetadata, encodeSafetensors } from '../../web/lib/safetensors.js';

/** A Rust/Python byte-string literal's bytes (every character below 256). */
function b(text) {
  const out = Uint8Array.from(text, (c) => c.charCodeAt(0));
  assert.ok(
    Array.from(text).every((c) => c.charCodeAt(0) < 256),
    'a byte string',
  );
  return out;
}

const f32Bytes = (values) => new Uint8Array(Float32Array.from(values).buffer);
const refused = (bytes, what) =>
  assert.throws(
    () => decodeSafetensors(bytes),
    (err) => err instanceof Error && /^safetensors: /.test(err.message),
    what,
  );

// ---- safetensors/src/tensor.rs -------------------------------------------------------------------

const SERIALIZATION = [
  64, 0, 0, 0, 0, 0, 0, 0, 123, 34, 97, 116, 116, 110, 46, 48, 34, 58, 123, 34, 100, 116, 121, 112, 101, 34, 58, 34, 70,
  51, 50, 34, 44, 34, 115, 104, 97, 112, 101, 34, 58, 91, 49, 44, 50, 44, 51, 93, 44, 34, 100, 97, 116, 97, 95, 111,
  102, 102, 115, 101, 116, 115, 34, 58, 91, 48, 44, 50, 52, 93, 125, 125, 0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 64, 0, 0,
  64, 64, 0, 0, 128, 64, 0, 0, 160, 64,
];

test('tensor.rs test_serialization: F32 "attn.0" [1, 2, 3] is written byte for byte and read back', () => {
  const out = encodeSafetensors({ 'attn.0': { data: Float32Array.of(0, 1, 2, 3, 4, 5), shape: [1, 2, 3] } });
  assert.deepEqual(Array.from(out), SERIALIZATION);
  const t = decodeSafetensors(Uint8Array.from(SERIALIZATION))['attn.0'];
  assert.deepEqual(
    { dtype: t.dtype, shape: t.shape, data: Array.from(t.data) },
    { dtype: 'F32', shape: [1, 2, 3], data: [0, 1, 2, 3, 4, 5] },
  );
});

test('tensor.rs test_serialization_fp4: an F4 [1, 2] tensor in one byte', () => {
  const expected = [
    64, 0, 0, 0, 0, 0, 0, 0, 123, 34, 97, 116, 116, 110, 46, 48, 34, 58, 123, 34, 100, 116, 121, 112, 101, 34, 58, 34,
    70, 52, 34, 44, 34, 115, 104, 97, 112, 101, 34, 58, 91, 49, 44, 50, 93, 44, 34, 100, 97, 116, 97, 95, 111, 102, 102,
    115, 101, 116, 115, 34, 58, 91, 48, 44, 49, 93, 125, 125, 32, 32, 32, 32, 0,
  ];
  const out = encodeSafetensors({ 'attn.0': { dtype: 'F4', data: Uint8Array.of(0), shape: [1, 2] } });
  assert.deepEqual(Array.from(out), expected);
  const t = decodeSafetensors(Uint8Array.from(expected))['attn.0'];
  assert.deepEqual(
    { dtype: t.dtype, shape: t.shape, data: Array.from(t.data) },
    { dtype: 'F4', shape: [1, 2], data: [0] },
  );
});

test('tensor.rs test_serialization_fp4_misaligned and _invalid: F4 [1, 3] is half a byte short; 2 bytes for [1, 2] is one too many', () => {
  assert.throws(
    () => encodeSafetensors({ 'attn.0': { dtype: 'F4', data: Uint8Array.of(0, 1), shape: [1, 3] } }),
    /safetensors: tensor "attn.0": shape \[1, 3\] of F4 does not fill whole bytes/,
  );
  assert.throws(
    () => encodeSafetensors({ 'attn.0': { dtype: 'F4', data: Uint8Array.of(0, 1), shape: [1, 2] } }),
    /safetensors: tensor "attn.0": shape \[1, 2\] holds 1 values, data has 2/,
  );
});

test('tensor.rs test_empty: no tensors, without and with metadata', () => {
  assert.deepEqual(Array.from(encodeSafetensors({})), [8, 0, 0, 0, 0, 0, 0, 0, 123, 125, 32, 32, 32, 32, 32, 32]);
  const withMetadata = [
    40, 0, 0, 0, 0, 0, 0, 0, 123, 34, 95, 95, 109, 101, 116, 97, 100, 97, 116, 97, 95, 95, 34, 58, 123, 34, 102, 114,
    97, 109, 101, 119, 111, 114, 107, 34, 58, 34, 112, 116, 34, 125, 125, 32, 32, 32, 32, 32,
  ];
  assert.deepEqual(Array.from(encodeSafetensors({}, { framework: 'pt' })), withMetadata);
  assert.deepEqual(decodeSafetensors(Uint8Array.from(withMetadata)), {});
  assert.deepEqual(decodeSafetensorsMetadata(Uint8Array.from(withMetadata)), { framework: 'pt' });
});

test('tensor.rs test_serialization_forced_alignement: a shorter name is padded so the data starts 8-byte aligned', () => {
  const expected = [
    72, 0, 0, 0, 0, 0, 0, 0, 123, 34, 97, 116, 116, 110, 48, 34, 58, 123, 34, 100, 116, 121, 112, 101, 34, 58, 34, 70,
    51, 50, 34, 44, 34, 115, 104, 97, 112, 101, 34, 58, 91, 49, 44, 49, 44, 50, 44, 51, 93, 44, 34, 100, 97, 116, 97,
    95, 111, 102, 102, 115, 101, 116, 115, 34, 58, 91, 48, 44, 50, 52, 93, 125, 125, 32, 32, 32, 32, 32, 32, 32, 0, 0,
    0, 0, 0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64, 0, 0, 160, 64,
  ];
  assert.deepEqual(
    Array.from(encodeSafetensors({ attn0: { data: [0, 1, 2, 3, 4, 5], shape: [1, 1, 2, 3] } })),
    expected,
  );
  assert.deepEqual(Array.from(decodeSafetensors(Uint8Array.from(expected)).attn0.data), [0, 1, 2, 3, 4, 5]);
});

test('tensor.rs test_empty_shapes_allowed: an I32 scalar', () => {
  const t = decodeSafetensors(
    b('8\x00\x00\x00\x00\x00\x00\x00{"test":{"dtype":"I32","shape":[],"data_offsets":[0,4]}}\x00\x00\x00\x00'),
  ).test;
  assert.deepEqual({ dtype: t.dtype, shape: t.shape }, { dtype: 'I32', shape: [] });
  assert.ok(t.data instanceof Int32Array);
  assert.deepEqual(Array.from(t.data), [0]);
});

const I32_2X2 = '<\x00\x00\x00\x00\x00\x00\x00{"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}}';
const ZEROS_16 = '\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00';

test('tensor.rs test_deserialization and test_lifetimes: an I32 [2, 2] of zeros', () => {
  const loaded = decodeSafetensors(b(I32_2X2 + ZEROS_16));
  assert.deepEqual(Object.keys(loaded), ['test']);
  assert.deepEqual({ dtype: loaded.test.dtype, shape: loaded.test.shape }, { dtype: 'I32', shape: [2, 2] });
  assert.ok(loaded.test.data instanceof Int32Array);
  assert.deepEqual(Array.from(loaded.test.data), [0, 0, 0, 0]);
});

test('tensor.rs test_zero_sized_tensor: shape [2, 0] with data_offsets [0, 0] and no data', () => {
  const t = decodeSafetensors(
    b('<\x00\x00\x00\x00\x00\x00\x00{"test":{"dtype":"I32","shape":[2,0],"data_offsets":[0, 0]}}'),
  ).test;
  assert.deepEqual(
    { dtype: t.dtype, shape: t.shape, length: t.data.length },
    { dtype: 'I32', shape: [2, 0], length: 0 },
  );
});

test('tensor.rs test_invalid_info: data_offsets [0, 4] for an I32 [2, 2] is refused', () => {
  refused(b('<\x00\x00\x00\x00\x00\x00\x00{"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0, 4]}}'));
});

test('tensor.rs test_validation_overflow: shapes whose element count overflows u64 are refused', () => {
  refused(
    b(
      `O\x00\x00\x00\x00\x00\x00\x00{"test":{"dtype":"I32","shape":[2,18446744073709551614],"data_offsets":[0,16]}}${ZEROS_16}`,
    ),
  );
  refused(
    b(
      `N\x00\x00\x00\x00\x00\x00\x00{"test":{"dtype":"I32","shape":[2,9223372036854775807],"data_offsets":[0,16]}}${ZEROS_16}`,
    ),
  );
});

test('tensor.rs test_json_attack: ten tensors sharing data_offsets (0, 16) are refused', () => {
  const entries = Array.from(
    { length: 10 },
    (_, i) => `"weight_${i}":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}`,
  );
  const json = `{${entries.join(',')}}`;
  const bytes = new Uint8Array(8 + json.length + 16);
  new DataView(bytes.buffer).setUint32(0, json.length, true);
  bytes.set(b(json), 8);
  assert.throws(() => decodeSafetensors(bytes), /safetensors: tensor "weight_\d" overlaps tensor "weight_\d"/);
});

test('tensor.rs test_metadata_incomplete_buffer: trailing bytes, or two bytes missing, are refused', () => {
  refused(b(`${I32_2X2}${ZEROS_16}extra_bogus_data_for_polyglot_file`), 'a polyglot file');
  refused(b(`${I32_2X2}${ZEROS_16.slice(2)}`), 'missing 2 bytes');
});

test('tensor.rs test_header_too_large, _too_small and test_invalid_header_length', () => {
  assert.throws(
    () =>
      decodeSafetensors(
        b(`<\x00\x00\x00\x00\xff\xff\xff{"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}}${ZEROS_16}`),
      ),
    /safetensors: the header length \d+ exceeds the 100000000-byte limit/,
  );
  refused(b(''), 'an empty file');
  refused(b('<\x00\x00\x00\x00\x00\x00\x00'), 'a header length with no header');
});

test('tensor.rs test_invalid_header_non_utf8 and test_invalid_header_not_json', () => {
  assert.throws(
    () => decodeSafetensors(b('\x01\x00\x00\x00\x00\x00\x00\x00\xff')),
    /safetensors: the header is not valid UTF-8/,
  );
  refused(b('\x01\x00\x00\x00\x00\x00\x00\x00{'));
});

test('tensor.rs test_whitespace_padded_header and test_whitespace_leading_padded_header: JSON whitespace around the header', () => {
  assert.deepEqual(decodeSafetensors(b('\x06\x00\x00\x00\x00\x00\x00\x00{}\x0D\x20\x09\x0A')), {});
  assert.deepEqual(decodeSafetensors(b('\x06\x00\x00\x00\x00\x00\x00\x00\x09\x0A{}\x0D\x20')), {});
});

// ---- bindings/python/tests/test_simple.py ----------------------------------------------------------

const I32_PY = '@\x00\x00\x00\x00\x00\x00\x00{"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}}    ';

test('test_simple.py test_serialization: an I32 [2, 2], then with one element set to 1', () => {
  const zeros = new Int32Array(4);
  assert.deepEqual(
    Array.from(encodeSafetensors({ test: { data: zeros, shape: [2, 2] } })),
    Array.from(b(I32_PY + ZEROS_16)),
  );
  const one = Int32Array.of(0, 0, 0, 1);
  const expected = b(`${I32_PY}\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00`);
  assert.deepEqual(Array.from(encodeSafetensors({ test: { data: one, shape: [2, 2] } })), Array.from(expected));
  assert.deepEqual(Array.from(decodeSafetensors(expected).test.data), [0, 0, 0, 1]);
});

test('test_simple.py test_deserialization and test_deserialization_metadata', () => {
  const loaded = decodeSafetensors(
    b(`<\x00\x00\x00\x00\x00\x00\x00{"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}}${ZEROS_16}`),
  );
  assert.deepEqual(Object.keys(loaded), ['test']);
  assert.deepEqual(Array.from(loaded.test.data), [0, 0, 0, 0]);
  const withMetadata = b(
    `f\x00\x00\x00\x00\x00\x00\x00{"__metadata__":{"framework":"pt"},"test1":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}}       ${ZEROS_16}`,
  );
  assert.deepEqual(decodeSafetensorsMetadata(withMetadata), { framework: 'pt' });
  assert.deepEqual(Object.keys(decodeSafetensors(withMetadata)), ['test1']);
});

test('test_simple.py test_serialization_order_invariant and test_serialization_forces_alignment: I32 before F16, whatever the order given', () => {
  const test1 = { data: new Int32Array(4), shape: [2, 2] };
  const test2 = { dtype: 'F16', data: new Uint16Array(4), shape: [2, 2] };
  const expected = b(
    '\x80\x00\x00\x00\x00\x00\x00\x00{"test1":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]},"test2":{"dtype":"F16","shape":[2,2],"data_offsets":[16,24]}}' +
      `      ${ZEROS_16}\x00\x00\x00\x00\x00\x00\x00\x00`,
  );
  const out1 = encodeSafetensors({ test1, test2 });
  const out2 = encodeSafetensors({ test2, test1 });
  assert.deepEqual(Array.from(out1), Array.from(out2));
  assert.deepEqual(Array.from(out1), Array.from(expected));
  assert.equal(out1.indexOf(0, 8), 136, 'the data starts at byte 136, a multiple of 8');
});

test('test_simple.py test_serialization_metadata (and _no_big_endian): metadata first, data 8-byte aligned', () => {
  const expected = b(
    `\`\x00\x00\x00\x00\x00\x00\x00{"__metadata__":{"framework":"pt"},"test1":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}} ${ZEROS_16}`,
  );
  const out = encodeSafetensors({ test1: { data: new Int32Array(4), shape: [2, 2] } }, { framework: 'pt' });
  assert.deepEqual(Array.from(out), Array.from(expected));
  assert.equal(out.indexOf(0, 8), 104);
});

test('the F32 vector of test_serialization decodes as float32 values in any conversion', () => {
  const bytes = Uint8Array.from(SERIALIZATION);
  assert.deepEqual(Array.from(bytes.subarray(72)), Array.from(f32Bytes([0, 1, 2, 3, 4, 5])));
  assert.deepEqual(Array.from(decodeSafetensors(bytes, { as: 'float64' })['attn.0'].data), [0, 1, 2, 3, 4, 5]);
});
