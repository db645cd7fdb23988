// Reads what users pass exactly once, into arrays this module owns, before anything is checked or
// copied into WebAssembly memory. User objects can lie: a typed-array subclass can override
// `length`, a Proxy can grow between two reads, a getter can return 1 and then NaN, and
// Object.prototype can carry keys such as `causal`. So: typed arrays are measured and copied with
// the engine's own %TypedArray% getters (never the object's `length`), arrays and properties are
// read once each, and only own properties count.
//
// One module reads every kind of input (tensors, masks, token ids, options) and hands back arrays
// it owns; the checks of single values and the messages' wording come from checks.js, the engine's
// typed-array operations from typed-arrays.js, and the reusable float32 scratch from staging.js.
import { describe, fail, formatShape, product } from './checks.js';
import { stagedCopy } from './staging.js';
import {
  copyTypedArray,
  detachedMessage,
  isDetached,
  typedArrayLength,
  typedArrayName,
  withArticle,
} from './typed-arrays.js';

const { hasOwn } = Object;
const { isArray } = Array;
const FLOAT32_MAX = 3.4028234663852886e38;
// Beyond this a list is not a tensor dimension or an argument list (and would not fit in memory).
const MAX_LIST = 2 ** 31;
// Deeper nesting is refused: it is never a tensor here, and an array that contains itself would
// otherwise loop forever (or overflow the stack) while its shape is read.
const MAX_RANK = 32;

/** The value of an own property (read once, through its getter if it has one), else undefined. */
export function ownValue(object, key) {
  return hasOwn(object, key) ? object[key] : undefined;
}

/**
 * Own enumerable string-keyed properties as a null-prototype object, each value read once.
 * Inherited keys (Object.prototype.causal = true) are never seen.
 */
export function ownEntries(object) {
  const out = Object.create(null);
  for (const key of Object.keys(object)) out[key] = ownValue(object, key);
  return out;
}

/**
 * A plain-array copy of an array (or Proxy of one): `length` read once, then each element once.
 * `checkLength(length)` may throw to refuse a length before any element is read. With
 * `upToUndefined`, for values where undefined is never valid (the numbers of a tensor, token ids),
 * the copy ends at the first undefined, which the caller's check of each value then refuses by
 * name: `new Array(2 ** 29)` costs nothing to make, but reading all its holes took gigabytes and
 * Node aborted.
 */
export function readList(list, name, checkLength, { upToUndefined = false } = {}) {
  const length = list.length;
  if (!Number.isSafeInteger(length) || length < 0 || length > MAX_LIST)
    throw new Error(`${name} has an invalid length (${typeof length === 'number' ? length : typeof length})`);
  if (checkLength) checkLength(length);
  const out = new Array(length);
  for (let i = 0; i < length; i++) {
    out[i] = list[i];
    if (upToUndefined && out[i] === undefined) {
      out.length = i + 1;
      break;
    }
  }
  return out;
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

// ---- Tensors and masks ----------------------------------------------------------------------------

// Element types a { data } may have; BigInt arrays and DataView are refused.
const NUMERIC_ARRAYS = new Set([
  'Float32Array',
  'Float64Array',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
]);
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
      fail(
        `${name}.shape must hold positive integers, got [${dims.map((x) => (typeof x === 'number' ? x : describe(x))).join(', ')}]`,
      );
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
      else if (depth !== leafDepth)
        fail(`${name} is ragged: ${path} is ${describe(node)}, expected an array of ${shape[depth]}`);
      leaves.push(node);
      return;
    }
    if (depth === leafDepth) fail(`${name} is ragged: ${path} is an array, expected a number`);
    const items = readList(
      node,
      path,
      (length) => {
        if (depth === shape.length) {
          if (length === 0) fail(`${name} has an empty dimension at depth ${depth}`);
          if (depth === MAX_RANK) fail(`${name} is nested more than ${MAX_RANK} levels deep (or contains itself)`);
          if (product(shape) * length > MAX_ELEMENTS) fail(`${name} holds more than ${MAX_ELEMENTS} values`);
          shape.push(length);
        } else if (length !== shape[depth]) {
          fail(`${name} is ragged: ${path} has ${length} entries, expected ${shape[depth]}`);
        }
      },
      { upToUndefined: true },
    );
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
 * names element i in messages. With `deferFloat32`, a Float32Array is measured but not copied:
 * `values` is null and `source` the caller's array (see readFloatInput).
 */
export function readTensorInput(
  value,
  name,
  nounForm = 'a nested array or { data, shape }',
  { deferFloat32 = false } = {},
) {
  if (value === undefined || value === null) fail(`${name} is required`);
  if (isArray(value)) {
    const { shape, leaves } = readNested(value, name);
    return { shape, values: leaves, source: null, kind: 'array', name, nested: true };
  }
  if (typeof value !== 'object' || isNumericArrayView(value))
    fail(`${name} must be ${nounForm}, got ${describe(value)}` + (isNumericArrayView(value) ? ' without a shape' : ''));
  const shape = checkShape(ownValue(value, 'shape'), name);
  const data = ownValue(value, 'data');
  const count = product(shape);
  const kind = typedArrayName(data);
  if (NUMERIC_ARRAYS.has(kind)) {
    if (isDetached(data)) fail(detachedMessage(`${name}.data`, kind));
    // Measured and copied by the engine's own length: a subclass's `length` getter is never asked.
    const length = typedArrayLength(data);
    if (length !== count) fail(`${name}.data has ${length} values but shape ${formatShape(shape)} needs ${count}`);
    if (deferFloat32 && kind === 'Float32Array')
      return { shape, values: null, source: data, kind, name, nested: false };
    const copy =
      kind === 'Float32Array'
        ? stagedCopy(data, length)
        : copyTypedArray(data, kind === 'Uint8Array' ? Uint8Array : Float64Array);
    return { shape, values: copy, source: null, kind, name, nested: false };
  }
  if (!isArray(data)) fail(`${name}.data must be a typed array or an array of numbers, got ${describe(data)}`);
  const values = readList(
    data,
    `${name}.data`,
    (length) => {
      if (length !== count) fail(`${name}.data has ${length} values but shape ${formatShape(shape)} needs ${count}`);
    },
    { upToUndefined: true },
  );
  return { shape, values, source: null, kind: 'array', name, nested: false };
}

// Element i of a readTensorInput result, as messages name it: "q[1][2]" or "q.data[6]".
const where = (input, i) => (input.nested ? `${input.name}${indexPath(input.shape, i)}` : `${input.name}.data[${i}]`);

// Float32 data from readTensorInput's result, every value checked.
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
    out[i] =
      typeof x === 'number' && x >= -FLOAT32_MAX && x <= FLOAT32_MAX
        ? x
        : checkFloat(x, where(input, i), allowNegativeInfinity);
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

/**
 * A float tensor bound for WebAssembly memory: `{ shape, length, data, source, input,
 * allowNegativeInfinity }`, written by WasmHeap.writeFloatInput. A Float32Array (the large inputs)
 * is neither copied nor checked here: `source` is the caller's array, which writeFloatInput copies
 * once, straight into WebAssembly memory, and the core then checks that copy, the one the call
 * uses. Callers write their inputs only after every argument of the call has been read, so no user
 * code (a getter, a Proxy trap) runs between that copy and the computation, and a call made from
 * inside a getter cannot overwrite it: the scratch block is laid out after the reads too. Any
 * other input is converted and checked now, as toTensor does (`data`, `source` null).
 */
export function readFloatInput(value, name, { allowNegativeInfinity = false } = {}) {
  const input = readTensorInput(value, name, undefined, { deferFloat32: true });
  const { shape, source } = input;
  const data = source ? null : floatData(input, allowNegativeInfinity);
  return { shape, length: source ? product(shape) : data.length, data, source, input, allowNegativeInfinity };
}

/**
 * Throws the Error for value x, element i of a readFloatInput whose copy held it (found by the
 * core's check), worded as toTensor words it ("q.data[5] is NaN").
 */
export function failBadValue(floatInput, i, x) {
  checkFloat(x, where(floatInput.input, i), floatInput.allowNegativeInfinity);
  fail(`${where(floatInput.input, i)} is ${x}; values must be finite`); // not reached: the core found it bad
}

/**
 * The Error for a Float32Array that a getter detached or resized after the array was read and
 * before it was copied: `length` is what its engine-side length is now.
 */
export function failChangedSource(floatInput, length) {
  const { name, shape } = floatInput.input;
  if (isDetached(floatInput.source))
    fail(
      `${name}.data is a Float32Array whose ArrayBuffer was detached (transferred) while the call read its other arguments; pass a copy`,
    );
  fail(
    `${name}.data has ${length} values but shape ${formatShape(shape)} needs ${product(shape)} (its buffer was resized while the call read its other arguments)`,
  );
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

// ---- Token ids ------------------------------------------------------------------------------------
// Token ids [T] or [B, T] from nested arrays, a bare typed array ([T]) or { data, shape }. Callers
// check the ids themselves (vocabulary ranges and messages differ between entry points).

const TOKENS_NOUN = 'an array of token ids [T] or [B, T], a typed array or { data, shape }';

// Rows of [B, T] as given: the outer list and each row read once; deeper nesting is refused.
// checkLength(length) may refuse the outer list's length before any of it is read.
function readRows(value, name, checkLength) {
  const rows = readList(value, name, checkLength, { upToUndefined: true });
  if (rows.length === 0) fail(`${name} must be [T] or [B, T] token ids, got an empty array`);
  if (!isArray(rows[0])) return { shape: [rows.length], values: rows };
  const values = [];
  let T = -1;
  for (let b = 0; b < rows.length; b++) {
    if (!isArray(rows[b]))
      fail(`${name} must be [T] or [B, T] with rows of equal length; ${name}[${b}] is not an array`);
    const row = readList(
      rows[b],
      `${name}[${b}]`,
      (length) => {
        if (T < 0) T = length;
        else if (length !== T)
          fail(`${name} must be [T] or [B, T] with rows of equal length; ${name}[${b}] has ${length}, expected ${T}`);
      },
      { upToUndefined: true },
    );
    for (const x of row) {
      if (isArray(x)) fail(`${name} must be [T] or [B, T] token ids; ${name}[${b}] holds arrays`);
      values.push(x);
    }
  }
  if (T === 0) fail(`${name} must be [T] or [B, T] token ids, got an empty row`);
  return { shape: [rows.length, T], values };
}

function readShapeAndValues(value, name, checkLength) {
  if (isArray(value)) return readRows(value, name, checkLength);
  const kind = typedArrayName(value);
  if (kind === 'BigInt64Array' || kind === 'BigUint64Array')
    fail(
      `${name} is ${withArticle(kind)}; token ids must be numbers: pass an Int32Array (e.g. Int32Array.from(ids, Number))`,
    );
  if (kind !== undefined) {
    if (isDetached(value)) fail(detachedMessage(name, kind));
    const values = copyTypedArray(value, Float64Array); // by the engine's length, never `length`
    if (values.length === 0) fail(`${name} must be [T] or [B, T] token ids, got an empty ${kind}`);
    return { shape: [values.length], values };
  }
  const input = readTensorInput(value, name, TOKENS_NOUN);
  if (input.shape.length !== 1 && input.shape.length !== 2)
    fail(`${name} must be [T] or [B, T] token ids, got shape ${formatShape(input.shape)}`);
  return { shape: input.shape, values: input.values };
}

// "tokens[1][2]" for flat index i, for messages.
const indexName = (name, shape, flat) => `${name}${indexPath(shape, flat)}`;

/**
 * Token ids read once: `{ data: Int32Array, shape, batch, T, batched }`. `checkId(x, i, where)`
 * sees each value as read (any type) and throws the caller's message for a bad one; what it lets
 * through must be an int32 integer. `checkLength(length)` (optional) may refuse the length of an
 * array before any id is read: a sparse array of 2**31 − 1 holes costs nothing to make, but
 * reading them all takes gigabytes (Node aborts when out of memory).
 */
export function readTokens(value, name, checkId, checkLength) {
  const { shape, values } = readShapeAndValues(value, name, checkLength);
  const data = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    checkId(x, i, () => indexName(name, shape, i));
    if (!Number.isInteger(x) || x !== (x | 0)) fail(`${indexName(name, shape, i)} is not an int32 token id`);
    data[i] = x;
  }
  const batched = shape.length === 2;
  return { data, shape, batch: batched ? shape[0] : 1, T: shape[shape.length - 1], batched };
}

export { isArray };
