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
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
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

function isNumericArrayView(x) {
  return ArrayBuffer.isView(x) && !(x instanceof DataView) &&
    !(typeof BigInt64Array !== 'undefined' && (x instanceof BigInt64Array || x instanceof BigUint64Array));
}

export function checkShape(shape, name) {
  if (!Array.isArray(shape) || shape.length === 0)
    fail(`${name}.shape must be a non-empty array of positive integers, got ${describe(shape)}`);
  if (shape.length > MAX_RANK) fail(`${name}.shape has ${shape.length} dimensions; at most ${MAX_RANK} are supported`);
  for (const d of shape)
    if (!Number.isSafeInteger(d) || d <= 0)
      fail(`${name}.shape must hold positive integers, got [${shape.map((x) => (typeof x === 'number' ? x : describe(x))).join(', ')}]`);
  return shape.slice();
}

// Shape of a nested array, read along the first elements; flatten() then checks every branch.
function nestedShape(value, name) {
  const shape = [];
  let level = value;
  while (Array.isArray(level)) {
    if (level.length === 0) fail(`${name} has an empty dimension at depth ${shape.length}`);
    if (shape.length === MAX_RANK) fail(`${name} is nested more than ${MAX_RANK} levels deep (or contains itself)`);
    shape.push(level.length);
    level = level[0];
  }
  return shape;
}

function flatten(value, shape, name, readLeaf, out) {
  let index = 0;
  const walk = (node, depth, path) => {
    if (depth === shape.length) {
      out[index++] = readLeaf(node, path);
      return;
    }
    if (!Array.isArray(node)) fail(`${name} is ragged: ${path} is ${describe(node)}, expected an array of ${shape[depth]}`);
    if (node.length !== shape[depth])
      fail(`${name} is ragged: ${path} has ${node.length} entries, expected ${shape[depth]}`);
    for (let i = 0; i < node.length; i++) walk(node[i], depth + 1, `${path}[${i}]`);
  };
  walk(value, 0, name);
  return out;
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
 * A float tensor: `{ data: Float32Array, shape }`. Accepts `{ data, shape }` (any numeric typed
 * array or array of numbers) or nested arrays. `allowNegativeInfinity` is for additive masks.
 */
export function toTensor(value, name, { allowNegativeInfinity = false } = {}) {
  if (value === undefined || value === null) fail(`${name} is required`);
  if (Array.isArray(value)) {
    const shape = nestedShape(value, name);
    const data = flatten(value, shape, name,
      (x, where) => checkFloat(x, where, allowNegativeInfinity), new Float32Array(product(shape)));
    return { data, shape };
  }
  if (typeof value !== 'object' || isNumericArrayView(value))
    fail(`${name} must be a nested array or { data, shape }, got ${describe(value)}` +
      (isNumericArrayView(value) ? ' without a shape' : ''));
  const shape = checkShape(value.shape, name);
  const { data } = value;
  if (!isNumericArrayView(data) && !Array.isArray(data))
    fail(`${name}.data must be a typed array or an array of numbers, got ${describe(data)}`);
  if (data.length !== product(shape))
    fail(`${name}.data has ${data.length} values but shape ${formatShape(shape)} needs ${product(shape)}`);
  for (let i = 0; i < data.length; i++) {
    const x = data[i];
    // Fast path for the common case; the full check only runs to explain a bad value.
    if (!(x >= -FLOAT32_MAX && x <= FLOAT32_MAX)) checkFloat(x, `${name}.data[${i}]`, allowNegativeInfinity);
  }
  return { data: data instanceof Float32Array ? data : Float32Array.from(data), shape };
}

function readBoolean(x, where) {
  if (x === true || x === 1) return 1;
  if (x === false || x === 0) return 0;
  return fail(`${where} is ${describe(x)}, expected a boolean (true = hidden) or 0/1`);
}

/** A boolean mask: `{ data: Uint8Array of 0/1, shape }` from `{ data, shape }` or nested booleans. */
export function toMask(value, name) {
  if (value === undefined || value === null) fail(`${name} is required`);
  if (Array.isArray(value)) {
    const shape = nestedShape(value, name);
    return { data: flatten(value, shape, name, readBoolean, new Uint8Array(product(shape))), shape };
  }
  if (typeof value !== 'object' || isNumericArrayView(value))
    fail(`${name} must be nested arrays of booleans or { data, shape }, got ${describe(value)}`);
  const shape = checkShape(value.shape, name);
  const { data } = value;
  if (!isNumericArrayView(data) && !Array.isArray(data))
    fail(`${name}.data must be a Uint8Array or an array of booleans, got ${describe(data)}`);
  if (data.length !== product(shape))
    fail(`${name}.data has ${data.length} values but shape ${formatShape(shape)} needs ${product(shape)}`);
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = readBoolean(data[i], `${name}.data[${i}]`);
  return { data: out, shape };
}

/** True for masks given as booleans or a Uint8Array; numbers mean an additive float mask. */
export function looksBoolean(value) {
  if (value && !Array.isArray(value) && typeof value === 'object')
    return value.data instanceof Uint8Array || (Array.isArray(value.data) && typeof value.data[0] === 'boolean');
  let leaf = value;
  while (Array.isArray(leaf)) leaf = leaf[0];
  return typeof leaf === 'boolean';
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

/** Rejects options this function does not know, so a typo ("casual") is not silently ignored. */
export function checkOptions(options, known, name) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    fail(`${name} must be an object, got ${describe(options)}`);
  for (const key of Object.keys(options))
    if (!known.includes(key)) fail(`${name} has an unknown option "${key}"; known options: ${known.join(', ')}`);
  return options;
}

export const sameShape = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);
