// Token ids [T] or [B, T] from what users pass: nested arrays, a bare typed array ([T]) or
// { data, shape }. One reader for every entry point, with the rules of read-input.js: each array and
// property read once, own properties only, typed arrays measured by their real length. Callers
// check the ids themselves (vocabulary ranges and messages differ between entry points).
import { fail, formatShape, readTensorInput } from './tensors.js';
import { copyTypedArray, isArray, isDetached, readList, typedArrayName } from './read-input.js';

const article = (word) => (/^[AEIOU]/.test(word) ? `an ${word}` : `a ${word}`);
const NOUN = 'an array of token ids [T] or [B, T], a typed array or { data, shape }';

// Rows of [B, T] as given: the outer list and each row read once; deeper nesting is refused.
function readRows(value, name) {
  const rows = readList(value, name);
  if (rows.length === 0) fail(`${name} must be [T] or [B, T] token ids, got an empty array`);
  if (!isArray(rows[0])) return { shape: [rows.length], values: rows };
  const values = [];
  let T = -1;
  for (let b = 0; b < rows.length; b++) {
    if (!isArray(rows[b])) fail(`${name} must be [T] or [B, T] with rows of equal length; ${name}[${b}] is not an array`);
    const row = readList(rows[b], `${name}[${b}]`, (length) => {
      if (T < 0) T = length;
      else if (length !== T) fail(`${name} must be [T] or [B, T] with rows of equal length; ${name}[${b}] has ${length}, expected ${T}`);
    });
    for (const x of row) {
      if (isArray(x)) fail(`${name} must be [T] or [B, T] token ids; ${name}[${b}] holds arrays`);
      values.push(x);
    }
  }
  if (T === 0) fail(`${name} must be [T] or [B, T] token ids, got an empty row`);
  return { shape: [rows.length, T], values };
}

function readShapeAndValues(value, name) {
  if (isArray(value)) return readRows(value, name);
  const kind = typedArrayName(value);
  if (kind === 'BigInt64Array' || kind === 'BigUint64Array')
    fail(`${name} is ${article(kind)}; token ids must be numbers: pass an Int32Array (e.g. Int32Array.from(ids, Number))`);
  if (kind !== undefined) {
    if (isDetached(value)) fail(`${name} is ${article(kind)} whose ArrayBuffer was detached (transferred); pass a copy`);
    const values = copyTypedArray(value, Float64Array);  // by the engine's length, never `length`
    if (values.length === 0) fail(`${name} must be [T] or [B, T] token ids, got an empty ${kind}`);
    return { shape: [values.length], values };
  }
  const input = readTensorInput(value, name, NOUN);
  if (input.shape.length !== 1 && input.shape.length !== 2)
    fail(`${name} must be [T] or [B, T] token ids, got shape ${formatShape(input.shape)}`);
  return { shape: input.shape, values: input.values };
}

// "tokens[1][2]" for flat index i, for messages.
function indexName(name, shape, flat) {
  let text = '';
  for (let d = shape.length - 1; d >= 0; d--) {
    text = `[${flat % shape[d]}]${text}`;
    flat = Math.floor(flat / shape[d]);
  }
  return `${name}${text}`;
}

/**
 * Token ids read once: `{ data: Int32Array, shape, batch, T, batched }`. `checkId(x, i, where)`
 * sees each value as read (any type) and throws the caller's message for a bad one; what it lets
 * through must be an int32 integer.
 */
export function readTokens(value, name, checkId) {
  const { shape, values } = readShapeAndValues(value, name);
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
