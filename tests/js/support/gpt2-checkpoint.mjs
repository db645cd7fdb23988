// GPT-2-shaped checkpoints written at test time, the way Hugging Face writes model.safetensors (no
// prefix or the "transformer." prefix, Conv1D [in, out] weights, the h.N.attn.bias mask buffers of
// [1, 1, T, T]), in F32, F16, BF16 or F64, streamed to a file so the test never holds it twice.
// Every element is a hash of (tensor, index), so any slice of any tensor can be recomputed without
// the file: a test checks that each tensor landed exactly where it belongs. The stored bits are
// always finite; their values are recomputed here from the IEEE definitions, independently of the
// project's decoders.
import { closeSync, openSync, writeSync } from 'node:fs';

import { encodeSafetensorsHeader } from '../../../web/lib/safetensors.js';

export const GPT2_SMALL = { vocabSize: 50257, contextLength: 1024, dModel: 768, numLayers: 12, numHeads: 12 };

/** The parameters of a GPT-2 config in Hugging Face's names and shapes, with the mask buffers. */
export function gpt2Tensors({ vocabSize: V, contextLength: T, dModel: E, numLayers: L }, { masks = true } = {}) {
  const list = [
    ['wte.weight', [V, E]],
    ['wpe.weight', [T, E]],
  ];
  for (let l = 0; l < L; l++) {
    const h = `h.${l}.`;
    list.push([`${h}ln_1.weight`, [E]], [`${h}ln_1.bias`, [E]]);
    if (masks) list.push([`${h}attn.bias`, [1, 1, T, T]]);
    list.push(
      [`${h}attn.c_attn.weight`, [E, 3 * E]],
      [`${h}attn.c_attn.bias`, [3 * E]],
      [`${h}attn.c_proj.weight`, [E, E]],
      [`${h}attn.c_proj.bias`, [E]],
      [`${h}ln_2.weight`, [E]],
      [`${h}ln_2.bias`, [E]],
      [`${h}mlp.c_fc.weight`, [E, 4 * E]],
      [`${h}mlp.c_fc.bias`, [4 * E]],
      [`${h}mlp.c_proj.weight`, [4 * E, E]],
      [`${h}mlp.c_proj.bias`, [E]],
    );
  }
  list.push(['ln_f.weight', [E]], ['ln_f.bias', [E]]);
  return list.map(([name, shape]) => ({ name, shape, mask: name.endsWith('.attn.bias') }));
}

// A 32-bit hash of (tensor, index): random access to "random" weights.
function hash(seed, i) {
  let h = Math.imul(i ^ seed, 0x9e3779b1) ^ Math.imul(seed, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  h = Math.imul(h, 0x297a2d39);
  return (h ^ (h >>> 15)) >>> 0;
}

const seedOf = (name) => Array.from(name).reduce((s, c) => Math.imul(s ^ c.charCodeAt(0), 16777619), 2166136261) >>> 0;

/** The stored bits of element i of a tensor (F32: float32 bits; F16/BF16: 16 bits), always finite. */
function elementBits(dtype, seed, i) {
  const h = hash(seed, i);
  if (dtype === 'F16') return ((h >>> 16) & 0x7c00) === 0x7c00 ? (h >>> 16) ^ 0x4000 : h >>> 16;
  if (dtype === 'BF16') return ((h >>> 23) & 0xff) === 0xff ? (h >>> 16) ^ 0x4000 : h >>> 16;
  return h;
}

const word = new Uint32Array(1);
const asFloat = new Float32Array(word.buffer);

/** Element i's value (a number): F32/F64 weights in ±0.1; F16/BF16 from their bits, by definition. */
export function expectedValue(dtype, name, i) {
  return valueAt(dtype, seedOf(name), i);
}

function valueAt(dtype, seed, i) {
  if (dtype === 'F32' || dtype === 'F64') return Math.fround((hash(seed, i) / 2 ** 32 - 0.5) * 0.2);
  const bits = elementBits(dtype, seed, i);
  if (dtype === 'BF16') {
    word[0] = bits << 16;
    return asFloat[0];
  }
  const sign = bits & 0x8000 ? -1 : 1;
  const e = (bits >> 10) & 0x1f;
  const m = bits & 0x3ff;
  return e === 0 ? sign * m * 2 ** -24 : sign * (1 + m / 1024) * 2 ** (e - 15);
}

// Element values of a mask buffer: the lower triangle of ones of a T × T matrix.
const maskValue = (T, i) => (i % T <= Math.floor(i / T) % T ? 1 : 0);

function fillChunk(dtype, t, T, start, out) {
  const seed = seedOf(t.name);
  for (let k = 0; k < out.length; k++) {
    const i = start + k;
    if (t.mask) out[k] = maskValue(T, i);
    else if (dtype === 'F16' || dtype === 'BF16') out[k] = elementBits(dtype, seed, i);
    else out[k] = (hash(seed, i) / 2 ** 32 - 0.5) * 0.2;
  }
}

const ARRAY = { F32: Float32Array, F64: Float64Array, F16: Uint16Array, BF16: Uint16Array };
const ONE = { F16: 0x3c00, BF16: 0x3f80 };

/**
 * Writes a checkpoint of `config` to `path`; → { size, header: the tensors as laid out }.
 * Options: dtype ('F32' | 'F16' | 'BF16' | 'F64'), prefix (e.g. 'transformer.'), masks (the
 * h.N.attn.bias buffers), extra: more tensors [{ name, dtype, shape, bytes: Uint8Array }].
 */
export function writeGpt2Checkpoint(path, config, { dtype = 'F32', prefix = '', masks = true, extra = [] } = {}) {
  const tensors = gpt2Tensors(config, { masks });
  const byName = new Map(tensors.map((t) => [prefix + t.name, t]));
  for (const e of extra) byName.set(e.name, e);
  const listed = [...byName].map(([name, t]) => ({ name, dtype: t.dtype ?? dtype, shape: t.shape }));
  const layout = encodeSafetensorsHeader(listed, { format: 'pt' });
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, layout.bytes);
    for (const placed of layout.tensors) writeTensor(fd, dtype, byName.get(placed.name), config.contextLength);
  } finally {
    closeSync(fd);
  }
  return { size: layout.bytes.length + layout.dataLength, header: layout.tensors };
}

function writeTensor(fd, dtype, t, T) {
  if (t.bytes) {
    writeSync(fd, t.bytes);
    return;
  }
  const count = t.shape.reduce((a, b) => a * b, 1);
  const Kind = ARRAY[dtype];
  const chunk = new Kind(Math.min(count, 1 << 20));
  for (let start = 0; start < count; start += chunk.length) {
    const part = chunk.subarray(0, Math.min(chunk.length, count - start));
    fillChunk(dtype, t, T, start, part);
    if (t.mask && ONE[dtype]) for (let k = 0; k < part.length; k++) part[k] = part[k] ? ONE[dtype] : 0;
    writeSync(fd, new Uint8Array(part.buffer, 0, part.byteLength));
  }
}

/** Indices to check in a tensor of `count` elements: both ends and a spread between them. */
export function sampleIndices(count, spread = 256) {
  const out = new Set();
  for (let i = 0; i < Math.min(count, 64); i++) out.add(i).add(count - 1 - i);
  for (let k = 0; k < spread && count; k++) out.add(hash(count, k) % count);
  return [...out].sort((a, b) => a - b);
}

/**
 * Checks a model's state against the written file: every element, or `sample` indices per tensor.
 * → the first mismatch as a string, or null.
 */
export function firstMismatch(state, config, dtype, { sample = false } = {}) {
  for (const t of gpt2Tensors(config, { masks: false })) {
    const got = state[t.name];
    if (!got) return `${t.name} is missing`;
    if (got.shape.join() !== t.shape.join()) return `${t.name}: shape ${got.shape} instead of ${t.shape}`;
    const indices = sample ? sampleIndices(got.data.length) : null;
    const n = indices ? indices.length : got.data.length;
    const seed = seedOf(t.name);
    for (let k = 0; k < n; k++) {
      const i = indices ? indices[k] : k;
      const want = valueAt(dtype, seed, i);
      if (!Object.is(got.data[i], want)) return `${t.name}[${i}] is ${got.data[i]}, the file holds ${want}`;
    }
  }
  return null;
}
