// attn.rope: rotary position embeddings of any [..., T, d] tensor, computed by the core
// (src/core/attention_positions.cpp, the rotation the transformer applies to q and k).
import { fail, formatShape, show } from './checks.js';
import { checkOptions, isArray, readList, toTensor } from './read-input.js';
import { copyTypedArray, detachedMessage, isDetached, typedArrayName } from './typed-arrays.js';
import { check } from './wasm-heap.js';

const ROPE_OPTIONS = ['base', 'positions'];

// positions: an array or a numeric typed array of T finite numbers, read once.
function readPositions(value, T) {
  if (value === undefined || value === null) return null;
  const checkCount = (length) => {
    if (length !== T) fail(`options.positions must hold one position per row of x (T = ${T}), got ${length}`);
  };
  let list;
  if (isArray(value)) list = readList(value, 'options.positions', checkCount);
  else if (
    typedArrayName(value) &&
    typedArrayName(value) !== 'BigInt64Array' &&
    typedArrayName(value) !== 'BigUint64Array'
  ) {
    // A detached buffer reads as empty and copying it throws a TypeError that names nothing.
    if (isDetached(value)) fail(detachedMessage('options.positions', typedArrayName(value)));
    list = copyTypedArray(value, Float64Array);
  } else fail(`options.positions must be an array of ${T} numbers, got ${show(value)}`);
  checkCount(list.length);
  const out = new Float64Array(T);
  for (let t = 0; t < T; t++) {
    if (typeof list[t] !== 'number' || !Number.isFinite(list[t]))
      fail(`options.positions[${t}] is ${show(list[t])}; positions must be finite numbers`);
    out[t] = list[t];
  }
  return out;
}

/** attn.rope(x, { base = 10000, positions }): see attention.d.ts. */
export function rope(live, heap, x, options) {
  const opts = checkOptions(options, ROPE_OPTIONS, 'rope options');
  const X = toTensor(x, 'x');
  if (X.shape.length < 2) fail(`x must have at least 2 dimensions [..., T, d], got shape ${formatShape(X.shape)}`);
  const [T, d] = X.shape.slice(-2);
  if (d % 2 !== 0)
    fail(
      `x's last dimension d must be even (RoPE turns the two halves of each row as pairs), got shape ${formatShape(X.shape)}`,
    );
  const base = opts.base ?? 10000;
  if (typeof base !== 'number' || !Number.isFinite(base) || base <= 0)
    fail(`options.base must be a positive finite number, got ${show(base)}`);
  const positions = readPositions(opts.positions, T);
  const module = live(); // after the inputs are read: a getter among them may have disposed it
  const [ax, ap, as] = heap.layout([X.data.length * 4, positions ? T * 8 : 0, d * 4], 'rope');
  heap.writeF32(ax, X.data);
  if (positions) module.HEAPF64.set(positions, ap >>> 3);
  try {
    check(module._ropeRotate(ax, X.data.length / (T * d), T, d, ap, base, as), 'rope');
    // A turn keeps each pair's length, which can exceed float32's largest value when both are near it.
    if (module._attn_first_non_finite(ax, X.data.length, false) >>> 0 !== X.data.length)
      fail("rope: x's rotated values overflow float32 (a pair of values longer than 3.4e38); scale x down");
    return { data: heap.readF32(ax, X.data.length), shape: X.shape.slice() };
  } finally {
    heap.settle();
  }
}
