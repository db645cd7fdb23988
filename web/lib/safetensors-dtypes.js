// The element types of the safetensors format and how their bytes become JavaScript arrays and
// back (web/lib/safetensors.js is the public entry). Names, widths and the writers' order follow
// the reference implementation's `Dtype` enum (github.com/huggingface/safetensors,
// safetensors/src/tensor.rs).
//
// Each dtype is read as a typed array of its own kind: integers as Int8Array … BigUint64Array,
// BOOL as a Uint8Array of the stored bytes (0 = false, 1 = true), F32 and F64 as Float32Array
// and Float64Array. JavaScript has no array of 16- or 8-bit floats, so F16, BF16 and the F8
// formats come out as Float32Array (float32 holds each of their values exactly) or, on request,
// as their bit patterns (`as: 'raw'`). C64 is a Float32Array of 2 × elements (real, imaginary);
// the sub-byte MX formats (F4, F6_E2M3, F6_E3M2) are the packed bytes in a Uint8Array.

import { copyTypedArray, typedArrayLength, typedArrayName } from './typed-arrays.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
const bufferOf = getter('buffer');
const byteOffsetOf = getter('byteOffset');
const byteLengthOf = getter('byteLength');
const { apply } = Reflect;

// bits per element; `raw`: the array kind holding the stored elements; `float`: the conversion to
// float32 of a narrow float format (by its bit pattern).
const TABLE = {
  BOOL: { bits: 8, raw: Uint8Array, kind: 'bool' },
  F4: { bits: 4, raw: Uint8Array, kind: 'packed' },
  F6_E2M3: { bits: 6, raw: Uint8Array, kind: 'packed' },
  F6_E3M2: { bits: 6, raw: Uint8Array, kind: 'packed' },
  U8: { bits: 8, raw: Uint8Array, kind: 'int' },
  I8: { bits: 8, raw: Int8Array, kind: 'int' },
  F8_E5M2: { bits: 8, raw: Uint8Array, kind: 'narrow', float: { exponent: 5, mantissa: 2, bias: 15, special: 'ieee' } },
  F8_E4M3: { bits: 8, raw: Uint8Array, kind: 'narrow', float: { exponent: 4, mantissa: 3, bias: 7, special: 'fn' } },
  F8_E8M0: {
    bits: 8,
    raw: Uint8Array,
    kind: 'narrow',
    float: { exponent: 8, mantissa: 0, bias: 127, special: 'e8m0' },
  },
  F8_E4M3FNUZ: {
    bits: 8,
    raw: Uint8Array,
    kind: 'narrow',
    float: { exponent: 4, mantissa: 3, bias: 8, special: 'fnuz' },
  },
  F8_E5M2FNUZ: {
    bits: 8,
    raw: Uint8Array,
    kind: 'narrow',
    float: { exponent: 5, mantissa: 2, bias: 16, special: 'fnuz' },
  },
  I16: { bits: 16, raw: Int16Array, kind: 'int' },
  U16: { bits: 16, raw: Uint16Array, kind: 'int' },
  F16: { bits: 16, raw: Uint16Array, kind: 'half' },
  BF16: { bits: 16, raw: Uint16Array, kind: 'half' },
  I32: { bits: 32, raw: Int32Array, kind: 'int' },
  U32: { bits: 32, raw: Uint32Array, kind: 'int' },
  F32: { bits: 32, raw: Float32Array, kind: 'float' },
  C64: { bits: 64, raw: Float32Array, kind: 'complex' },
  F64: { bits: 64, raw: Float64Array, kind: 'float' },
  I64: { bits: 64, raw: BigInt64Array, kind: 'int' },
  U64: { bits: 64, raw: BigUint64Array, kind: 'int' },
};

/** dtype name → its description; a Map, so "toString" or "__proto__" is never a dtype. */
export const DTYPES = new Map(Object.entries(TABLE));

/** The reference writer sorts tensors by this rank, highest first, then by name. */
export const DTYPE_RANK = new Map(Object.keys(TABLE).map((name, i) => [name, i]));

/** Bytes of `count` elements of `dtype`, or -1 when they do not fill whole bytes. */
export function byteLength(dtype, count) {
  const bits = count * DTYPES.get(dtype).bits;
  return bits % 8 === 0 ? bits / 8 : -1;
}

// ---- reading ----------------------------------------------------------------------------------

// Narrow float formats → float32, by a table over every bit pattern, built on first use.
const HALF = { bits: 16, float: { exponent: 5, mantissa: 10, bias: 15, special: 'ieee' } };
const tables = new Map();

function narrowValue(bits, { exponent, mantissa, bias, special }, width) {
  const signBit = 2 ** (width - 1);
  const sign = bits & signBit ? -1 : 1;
  const e = (bits >> mantissa) & (2 ** exponent - 1);
  const m = bits & (2 ** mantissa - 1);
  const allOnes = 2 ** exponent - 1;
  if (special === 'e8m0') return bits === 0xff ? NaN : 2 ** (bits - bias);
  if (special === 'fnuz' && bits === signBit) return NaN; // the only NaN; there is no −0
  if (special === 'ieee' && e === allOnes) return m ? NaN : sign * Infinity;
  if (special === 'fn' && e === allOnes && m === 2 ** mantissa - 1) return NaN; // no infinities
  if (e === 0) return sign * m * 2 ** (1 - bias - mantissa);
  return sign * (1 + m / 2 ** mantissa) * 2 ** (e - bias);
}

function floatTable(dtype) {
  let table = tables.get(dtype);
  if (!table) {
    const { bits, float } = dtype === 'F16' ? HALF : DTYPES.get(dtype);
    table = new Float32Array(2 ** bits);
    for (let b = 0; b < table.length; b++) table[b] = narrowValue(b, float, bits);
    tables.set(dtype, table);
  }
  return table;
}

/** The float32 value of each element (exact for every float format; integers rounded). */
function toFloat32(dtype, raw) {
  const { kind } = DTYPES.get(dtype);
  const out = new Float32Array(raw.length);
  if (dtype === 'BF16') {
    const bits = new Uint32Array(out.buffer); // bfloat16 is the upper half of a float32
    for (let i = 0; i < raw.length; i++) bits[i] = raw[i] << 16;
  } else if (kind === 'half' || kind === 'narrow') {
    const table = floatTable(dtype);
    for (let i = 0; i < raw.length; i++) out[i] = table[raw[i]];
  } else {
    fillNumbers(out, raw, kind);
  }
  return out;
}

function fillNumbers(out, raw, kind) {
  if (kind === 'bool') for (let i = 0; i < raw.length; i++) out[i] = raw[i] ? 1 : 0;
  else if (typeof raw[0] === 'bigint') for (let i = 0; i < raw.length; i++) out[i] = Number(raw[i]);
  else out.set(raw);
}

/** A copy of the stored elements in their raw array kind (bytes swapped on a big-endian engine). */
export function readRaw(dtype, bytes) {
  const Raw = DTYPES.get(dtype).raw;
  const out = new Raw(bytes.length / Raw.BYTES_PER_ELEMENT);
  const target = new Uint8Array(out.buffer);
  target.set(bytes);
  const size = Raw.BYTES_PER_ELEMENT;
  if (!LITTLE_ENDIAN && size > 1) for (let i = 0; i < target.length; i += size) target.subarray(i, i + size).reverse();
  return out;
}

export const CONVERSIONS = ['native', 'raw', 'float32', 'float64'];

/**
 * One tensor's bytes → its data array: `as` is 'native' (own kind, narrow floats as float32),
 * 'raw' (narrow floats as bit patterns), 'float32' or 'float64' (every real dtype converted;
 * complex and packed ones refused through `fail(message)`).
 */
export function decodeData(dtype, bytes, as, fail) {
  const raw = readRaw(dtype, bytes);
  const { kind } = DTYPES.get(dtype);
  const narrow = kind === 'half' || kind === 'narrow';
  if (as === 'raw') return raw;
  if (as === 'native') return narrow ? toFloat32(dtype, raw) : raw;
  if (kind === 'complex' || kind === 'packed')
    fail(`${dtype} has no conversion to ${as} (read it with as: 'native' or 'raw')`);
  if (as === 'float32') return raw instanceof Float32Array ? raw : toFloat32(dtype, raw);
  if (narrow) return Float64Array.from(toFloat32(dtype, raw));
  if (raw instanceof Float64Array) return raw;
  const out = new Float64Array(raw.length);
  fillNumbers(out, raw, kind);
  return out;
}

// ---- writing ----------------------------------------------------------------------------------

// Without a dtype, data is written as its own kind; float arrays and plain arrays as F32.
const INFERRED = {
  Float32Array: 'F32',
  Float64Array: 'F32',
  Int8Array: 'I8',
  Uint8Array: 'U8',
  Uint8ClampedArray: 'U8',
  Int16Array: 'I16',
  Uint16Array: 'U16',
  Int32Array: 'I32',
  Uint32Array: 'U32',
  BigInt64Array: 'I64',
  BigUint64Array: 'U64',
};

/** The dtype `data` is written as when the tensor names none (undefined: not tensor data). */
export function inferDtype(data) {
  const name = typedArrayName(data);
  if (name) return INFERRED[name];
  return Array.isArray(data) ? 'F32' : undefined;
}

const INTEGER_RANGE = {
  U8: [0, 255],
  I8: [-128, 127],
  U16: [0, 65535],
  I16: [-32768, 32767],
  U32: [0, 2 ** 32 - 1],
  I32: [-(2 ** 31), 2 ** 31 - 1],
  I64: [-(2n ** 63n), 2n ** 63n - 1n],
  U64: [0n, 2n ** 64n - 1n],
};

const show = (x) =>
  typeof x === 'string'
    ? JSON.stringify(x.length > 20 ? `${x.slice(0, 17)}...` : x)
    : typeof x === 'bigint'
      ? `${x}n`
      : typeof x === 'number'
        ? String(x)
        : x === null
          ? 'null'
          : typeof x;

// One element as `dtype` stores it, or a message saying why it cannot be.
function element(dtype, x) {
  const { kind } = DTYPES.get(dtype);
  if (kind === 'float') {
    if (typeof x !== 'number') return `${show(x)}; ${dtype} needs numbers`;
    if (dtype === 'F32' && Number.isFinite(x) && !Number.isFinite(Math.fround(x)))
      return `${x}, outside float32's range (±3.4e38)`;
    return x;
  }
  if (kind === 'bool') {
    if (x === true || x === 1 || x === 1n) return 1;
    if (x === false || x === 0 || x === 0n) return 0;
    return `${show(x)}; BOOL needs true/false or 1/0`;
  }
  const [lo, hi] = INTEGER_RANGE[dtype];
  if (typeof lo === 'bigint') {
    const big = typeof x === 'bigint' ? x : Number.isSafeInteger(x) ? BigInt(x) : null;
    if (big === null) return `${show(x)}; ${dtype} needs BigInts or safe integers`;
    return big >= lo && big <= hi ? big : `${show(x)}, outside ${dtype}'s range [${lo}, ${hi}]`;
  }
  if (!Number.isInteger(x)) return `${show(x)}; ${dtype} needs integers`;
  return x >= lo && x <= hi ? x : `${x}, outside ${dtype}'s range [${lo}, ${hi}]`;
}

/**
 * The bytes of a tensor to write: `data` (checked against `length` raw elements of `dtype`) as a
 * Uint8Array, a view of the caller's typed array when it already is the raw kind (no copy), else
 * a converted copy. `fail(message)` throws, naming the tensor.
 */
export function dataBytes(dtype, data, length, fail, shapeText) {
  const { raw: Raw, kind } = DTYPES.get(dtype);
  const name = typedArrayName(data);
  if (name === Raw.name) {
    if (typedArrayLength(data) !== length)
      fail(`shape ${shapeText} holds ${length} values, data has ${typedArrayLength(data)}`);
    if (kind === 'bool') checkBooleans(data, length, fail);
    return ownBytes(data, Raw.BYTES_PER_ELEMENT);
  }
  if (kind !== 'float' && kind !== 'int' && kind !== 'bool')
    fail(
      `${dtype} data must be a ${Raw.name}${kind === 'half' || kind === 'narrow' ? " of bit patterns (what decodeSafetensors gives with as: 'raw')" : ''}`,
    );
  if (!name && !Array.isArray(data)) fail(`data must be a typed array or an array of numbers for ${dtype}`);
  const values = name ? copyTypedArray(data, globalThis[name]) : readElements(data, length, fail, shapeText);
  if (values.length !== length) fail(`shape ${shapeText} holds ${length} values, data has ${values.length}`);
  const out = new Raw(length);
  for (let i = 0; i < length; i++) {
    const x = element(dtype, values[i]);
    if (typeof x === 'string') fail(`data[${i}] is ${x}`);
    out[i] = x;
  }
  return ownBytes(out, Raw.BYTES_PER_ELEMENT);
}

function checkBooleans(data, length, fail) {
  for (let i = 0; i < length; i++) if (data[i] > 1) fail(`data[${i}] is ${data[i]}; BOOL bytes must be 0 or 1`);
}

// An array (or a Proxy of one) read once: its length first, refused before anything is allocated
// when it disagrees with the shape.
function readElements(data, length, fail, shapeText) {
  const claimed = data.length;
  if (claimed !== length) fail(`shape ${shapeText} holds ${length} values, data has ${show(claimed)}`);
  const out = new Array(length);
  for (let i = 0; i < length; i++) out[i] = data[i];
  return out;
}

/**
 * A Uint8Array over the bytes of an ArrayBuffer or of any typed array or DataView, made with the
 * engine's own getters (a subclass overriding length or byteOffset cannot lie); null otherwise.
 */
export function bytesView(value) {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (typedArrayName(value))
    return new Uint8Array(apply(bufferOf, value, []), apply(byteOffsetOf, value, []), apply(byteLengthOf, value, []));
  if (value instanceof DataView) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return null;
}

// The bytes of a typed array, by the engine's own getters (a subclass cannot lie about them),
// little-endian whatever the engine.
function ownBytes(array, size) {
  const bytes = new Uint8Array(
    apply(bufferOf, array, []),
    apply(byteOffsetOf, array, []),
    apply(byteLengthOf, array, []),
  );
  if (LITTLE_ENDIAN || size === 1) return bytes;
  const swapped = bytes.slice();
  for (let i = 0; i < swapped.length; i += size) swapped.subarray(i, i + size).reverse();
  return swapped;
}
