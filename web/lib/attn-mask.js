// Multi-head attnMask as PyTorch reads it: booleans hide keys, floating-point values are added to
// the scores. Shared by the forward and the backward of a layer.
import { fail } from './checks.js';
import { maskFrom, readTensorInput, tensorFrom } from './read-input.js';

const BOOLEAN_MASKS = new Set(['Uint8Array']);
const FLOAT_MASKS = new Set(['Float32Array', 'Float64Array']);

export function readAttnMask(value) {
  const name = 'options.attnMask';
  const input = readTensorInput(value, name);
  let kind = input.kind;
  if (kind === 'array') kind = typeof input.values[0] === 'boolean' ? 'Uint8Array' : 'Float64Array';
  if (BOOLEAN_MASKS.has(kind)) return { mask: maskFrom(input) };
  if (FLOAT_MASKS.has(kind)) return { bias: tensorFrom(input, true) };
  return fail(
    `${name} must be boolean (a Uint8Array or booleans; true hides the key) or floating point ` +
      `(a Float32Array, Float64Array or numbers; added to the scores), got a ${kind}`,
  );
}
