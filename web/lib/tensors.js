import {
  copyTypedArray, isArray, isDetached, ownEntries, ownValue, readList, typedArrayLength, typedArrayName,
} from './read-input.js';
import { stagedCopy } from './staging.js';

// Turns what users pass (nested arrays or { data, shape }) into flat data plus a shape, checking
// everything a WebAssembly kernel cannot: ragged nesting, wrong types, lengths that disagree with
// the shape, and values float32 cannot hold. Every message names the argument.

const FLOAT32_MAX = 3.4028234663852886e38;
// Deeper nesting is refused: it is never a tensor here, and an array that contains itself would
// otherwise loop forever (or overflow the stack) while its shape is read.
const MAX_RANK = 32;

export function fail(message) {
  throw new Error(message);
}

export const formatShape = (shape) => `[${shape.join(', ')}]`;
export const product = (shape) => shape.reduce((a, b) => a * b, 1);

function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${typedArrayName(value) ?? 'DataView'}`;
  if (typeof value === 'function') return 'a function';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** A value as an error message shows it; never throws (BigInt, Symbol, null-prototype objects). */
export function show(value) {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  return describe(value);
}

/** A multiplier of the scores: positive, finite and a normal float32. */
export function checkScale(value, name) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    fail(`${name} must be a positive finite number, got ${show(value)}`);
  if (value < 1.1754943508222875e-38 || value > FLOAT32_MAX)
    fail(`${name} must be a positive finite number within float32's range (1.2e-38 to 3.4e38), got ${value}`);
  return value;
}

/** A seed of NumPy's legacy generator. */
export function checkSeed(value, name = 'seed') {
  if (!Number.isSafeInteger(value) || value < 0 || value > 0xffffffff)
    fail(`${name} must be an integer from 0 to 2**32 - 1, got ${show(value)}`);
  return value;
}

/**
 * Finite inputs can still give scores beyond float32 (|q·k|·scale above 3.4e38); the softmax of an
 * infinite score is NaN. Results are checked so such a call fails with a message instead.
 */
export function checkNoOverflow(data, inputs) {
  for (let i = 0; i < data.length; i++)
    if (Number.isNaN(data[i]))
      fail(`the attention scores overflow float32 (|q·k|·scale + bias above 3.4e38): scale ${inputs} down`);
}

// Element types a { data } may have; BigInt arrays and DataView are refused.
const NUMERIC_ARRAYS = new Set(['Float32Array', 'Float64Array', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray',
  'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array']);
const isNumericArrayView = (x) => NUMERIC_ARRAYS.has(typedArrayName(x));
// A nested array holding more numbers than this cannot fit in WebAssembly memory as float32.
const MAX_ELEMENTS = 2 ** 29;

export function checkShape(shape, name) {
  if (!isArray(shape)) fail(`${name}.shape must be a non-empty array of positive integers, got ${describe(shape)}`);
  const dims = readList(shape, `${name}.shape`);
  if (dims.length === 0) fail(`${name}.shape must be a non-empty array of positive integers, got an empty array`);
  if (dims.length > MAX_RANK) fail(`${name}.shape has ${dims.length} dimensions; at most ${MAX_RANK} are supported`);
  for (const d of dims)
    if (!Number.isSafeInteger(d) || d <= 0)
      fail(`${name}.shape must hold positive integers, got [${dims.map((x) => (typeof x === 'number' ? x : describe(x))).join(', ')}]`);
  return dims;
}

/**
 * Nested arrays in one pass: each array's length and each element read once (the shape is taken
 * along the first elements as they are reached), leaves collected into a plain array.
 */
function readNested(value, name) {
  const shape = [];
  const leaves = [];
  let leafDepth = -1;
  const walk = (node, depth, path) => {
    if (!isArray(node)) {
      if (leafDepth < 0) leafDepth = depth;
      else if (depth !== leafDepth) fail(`${name} is ragged: ${path} is ${describe(node)}, expected an array of ${shape[depth]}`);
      leaves.push(node);
      return;
    }
    if (depth === leafDepth) fail(`${name} is ragged: ${path} is an array, expected a number`);
    const items = readList(node, path, (length) => {
      if (depth === shape.length) {
        if (length === 0) fail(`${name} has an empty dimension at depth ${depth}`);
        if (depth === MAX_RANK) fail(`${name} is nested more than ${MAX_RANK} levels deep (or contains itself)`);
        if (product(shape) * length > MAX_ELEMENTS) fail(`${name} holds more than ${MAX_ELEMENTS} values`);
        shape.push(length);
      } else if (length !== shape[depth]) {
        fail(`${name} is ragged: ${path} has ${length} entries, expected ${shape[depth]}`);
      }
    });
    for (let i = 0; i < items.length; i++) walk(items[i], depth + 1, `${path}[${i}]`);
  };
  walk(value, 0, name);
  return { shape, leaves };
}

// "[1][2]" for flat index i of shape, for error messages.
function indexPath(shape, i) {
  let text = '';
  for (let d = shape.length - 1; d >= 0; d--) {
    text = `[${i % shape[d]}]${text}`;
    i = Math.floor(i / shape[d]);
  }
  return text;
}

function checkFloat(x, where, allowNegativeInfinity) {
  if (typeof x !== 'number') fail(`${where} is ${describe(x)}, expected a number`);
  if (Number.isNaN(x)) fail(`${where} is NaN`);
  if (x === -Infinity && allowNegativeInfinity) return x;
  if (!Number.isFinite(x)) fail(`${where} is ${x}; values must be finite`);
  if (Math.abs(x) > FLOAT32_MAX) fail(`${where} is ${x}, too large for float32`);
  return x;
}

/**
 * What a user passed as a tensor, read once into arrays this module owns: `{ shape, values, kind,
 * name, nested }`, where `values` is a typed-array copy (`kind` = its element type, e.g.
 * "Float32Array") or a plain array of the leaves as read (`kind` = "array"); `where(input, i)`
 * names element i in messages.
 */
export function readTensorInput(value, name, nounForm = 'a nested array or { data, shape }') {
  if (value === undefined || value === null) fail(`${name} is required`);
  if (isArray(value)) {
    const { shape, leaves } = readNested(value, name);
    return { shape, values: leaves, kind: 'array', name, nested: true };
  }
  if (typeof value !== 'object' || isNumericArrayView(value))
    fail(`${name} must be ${nounForm}, got ${describe(value)}` + (isNumericArrayView(value) ? ' without a shape' : ''));
  const shape = checkShape(ownValue(value, 'shape'), name);
  const data = ownValue(value, 'data');
  const count = product(shape);
  const kind = typedArrayName(data);
  if (NUMERIC_ARRAYS.has(kind)) {
    if (isDetached(data)) fail(`${name}.data is ${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind} whose ArrayBuffer was detached (transferred); pass a copy`);
    // Measured and copied by the engine's own length: a subclass's `length` getter is never asked.
    const length = typedArrayLength(data);
    if (length !== count) fail(`${name}.data has ${length} values but shape ${formatShape(shape)} needs ${count}`);
    const copy = kind === 'Float32Array' ? stagedCopy(data, length)
      : copyTypedArray(data, kind === 'Uint8Array' ? Uint8Array : Float64Array);
    return { shape, values: copy, kind, name, nested: false };
  }
  if (!isArray(data)) fail(`${name}.data must be a typed array or an array of numbers, got ${describe(data)}`);
  const values = readList(data, `${name}.data`, (length) => {
    if (length !== count) fail(`${name}.data has ${length} values but shape ${formatShape(shape)} needs ${count}`);
  });
  return { shape, values, kind: 'array', name, nested: false };
}

/** Float32 data from readTensorInput's result, every value checked. */
// Element i of a readTensorInput result, as messages name it: "q[1][2]" or "q.data[6]".
const where = (input, i) => (input.nested ? `${input.name}${indexPath(input.shape, i)}` : `${input.name}.data[${i}]`);

function floatData(input, allowNegativeInfinity) {
  const { values } = input;
  if (values instanceof Float32Array) {
    for (let i = 0; i < values.length; i++) {
      const x = values[i];
      // Fast path for the common case; the full check only runs to explain a bad value.
      if (!(x >= -FLOAT32_MAX && x <= FLOAT32_MAX)) checkFloat(x, where(input, i), allowNegativeInfinity);
    }
    return values;
  }
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    out[i] = typeof x === 'number' && x >= -FLOAT32_MAX && x <= FLOAT32_MAX ? x : checkFloat(x, where(input, i), allowNegativeInfinity);
  }
  return out;
}

/**
 * A float tensor: `{ data: Float32Array, shape }` owned by the caller of this function. Accepts
 * `{ data, shape }` (any numeric typed array or array of numbers) or nested arrays.
 * `allowNegativeInfinity` is for additive masks.
 */
export function toTensor(value, name, { allowNegativeInfinity = false } = {}) {
  return tensorFrom(readTensorInput(value, name), allowNegativeInfinity);
}

export function tensorFrom(input, allowNegativeInfinity = false) {
  return { data: floatData(input, allowNegativeInfinity), shape: input.shape };
}

function readBoolean(x, where) {
  if (x === true || x === 1) return 1;
  if (x === false || x === 0) return 0;
  return fail(`${where} is ${describe(x)}, expected a boolean (true = hidden) or 0/1`);
}

/** A boolean mask: `{ data: Uint8Array of 0/1, shape }` from `{ data, shape }` or nested booleans. */
export function toMask(value, name) {
  return maskFrom(readTensorInput(value, name, 'nested arrays of booleans or { data, shape }'));
}

export function maskFrom(input) {
  const { shape, values } = input;
  const out = values instanceof Uint8Array ? values : new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = readBoolean(values[i], where(input, i));
  return { data: out, shape };
}

export function checkBoolean(value, name, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(`${name} must be true or false, got ${describe(value)}`);
  return value;
}

export function checkPositiveInteger(value, name, fallback) {
  if (value === undefined && fallback !== undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) fail(`${name} must be a positive integer, got ${describe(value)}`);
  return value;
}

const NO_OPTIONS = Object.freeze(Object.create(null));

/**
 * The options as a null-prototype object of own properties, each read once; rejects options this
 * function does not know, so a typo ("casual") is not silently ignored. Keys inherited from a
 * prototype (Object.prototype.causal = true) are never read.
 */
export function checkOptions(options, known, name) {
  if (options === undefined) return NO_OPTIONS;
  if (options === null || typeof options !== 'object' || isArray(options))
    fail(`${name} must be an object, got ${describe(options)}`);
  const own = ownEntries(options);
  for (const key of Object.keys(own))
    if (!known.includes(key)) fail(`${name} has an unknown option "${key}"; known options: ${known.join(', ')}`);
  return own;
}

export const sameShape = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);
