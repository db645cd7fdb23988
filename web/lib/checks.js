// Checks of single values and the wording of error messages, shared by every entry point of the JS
// API. Reading what users pass (arrays, tensors, tokens, options) is read-input.js's job.
import { typedArrayName } from './typed-arrays.js';

const { isArray } = Array;
const FLOAT32_MAX = 3.4028234663852886e38;

export function fail(message) {
  throw new Error(message);
}

export const formatShape = (shape) => `[${shape.join(', ')}]`;
export const product = (shape) => shape.reduce((a, b) => a * b, 1);

/** What a value is, in words, for messages ("an array", "a Float32Array", "string abc"). */
export function describe(value) {
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
  for (let i = 0; i < data.length; i++) if (Number.isNaN(data[i])) fail(overflowMessage(inputs));
}

/** The message of a result that overflowed; `inputs` names what to scale down. */
export const overflowMessage = (inputs) =>
  `the attention scores overflow float32 (|q·k|·scale + bias above 3.4e38): scale ${inputs} down`;

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

export const sameShape = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);
