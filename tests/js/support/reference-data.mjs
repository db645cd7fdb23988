// Reading the reference data that scripts/reference/*.py write (tests/data/*.json): every tensor
// is { shape, data } row-major, "-Infinity" strings stand for -inf (JSON has no infinities), and
// bool masks are 0/1 with 1 = hidden, marked "dtype": "bool".
import { readFileSync } from 'node:fs';

export function readReference(file) {
  return JSON.parse(readFileSync(new URL(`../../data/${file}`, import.meta.url), 'utf8'));
}

export const toNumber = (x) => (x === '-Infinity' ? -Infinity : x === 'Infinity' ? Infinity : x);
export const floatTensor = (t) => ({ data: Float32Array.from(t.data, toNumber), shape: t.shape.slice() });
export const boolMask = (t) => ({ data: Uint8Array.from(t.data), shape: t.shape.slice() });

/** A case's recorded options as scaledDotProductAttention options, plus `extra`. */
export function sdpaOptions(options, extra = {}) {
  const out = { ...extra };
  if (options.causal) out.causal = true;
  if (options.mask) out.mask = boolMask(options.mask);
  if (options.bias) out.bias = floatTensor(options.bias);
  if (options.keyPaddingMask) out.keyPaddingMask = boolMask(options.keyPaddingMask);
  if (options.scale !== undefined) out.scale = options.scale;
  return out;
}

/** A case's recorded options as MultiHeadAttention forward/backward options, plus `extra`. */
export function mhaOptions(options, extra = {}) {
  const out = { ...extra };
  if (options.causal) out.causal = true;
  // A bool attn_mask travels as a Uint8Array, a float (additive) one as a Float32Array.
  if (options.attnMask)
    out.attnMask = options.attnMask.dtype === 'bool' ? boolMask(options.attnMask) : floatTensor(options.attnMask);
  if (options.keyPaddingMask) out.keyPaddingMask = boolMask(options.keyPaddingMask);
  return out;
}

/** [query, key, value] of a multi-head case; one tensor in all three roles for self-attention. */
export function mhaInputs(c) {
  const query = floatTensor(c.query);
  if (c.selfAttention) return [query, query, query];
  return [query, floatTensor(c.key), floatTensor(c.value)];
}

/** A case's torch state dict as float32 tensors, for loadTorchState. */
export const torchState = (state) => Object.fromEntries(Object.entries(state).map(([k, t]) => [k, floatTensor(t)]));
