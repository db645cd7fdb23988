// Reads what users pass exactly once, into arrays this module owns, before anything is checked or
// copied into WebAssembly memory. User objects can lie: a typed-array subclass can override
// `length`, a Proxy can grow between two reads, a getter can return 1 and then NaN, and
// Object.prototype can carry keys such as `causal`. So: typed arrays are measured and copied with
// the engine's own %TypedArray% getters (never the object's `length`), arrays and properties are
// read once each, and only own properties count.

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsicLength = Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'length').get;
const intrinsicName = Object.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
const intrinsicSet = TypedArrayPrototype.set;
const intrinsicBuffer = Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'buffer').get;
const { apply } = Reflect;
const { hasOwn } = Object;
const { isArray } = Array;

// Beyond this a list is not a tensor dimension or an argument list (and would not fit in memory).
const MAX_LIST = 2 ** 31;

/**
 * The element type of a real typed array ("Float32Array", …), from the engine's internal slot
 * (a subclass or a fake Symbol.toStringTag cannot change it); undefined for anything else,
 * including DataView and Proxies.
 */
export function typedArrayName(value) {
  return ArrayBuffer.isView(value) ? apply(intrinsicName, value, []) : undefined;
}

/** The length the engine knows a real typed array has (its `length` getter is never asked). */
export function typedArrayLength(source) {
  return apply(intrinsicLength, source, []);
}

/**
 * True when a real typed array's ArrayBuffer was detached (transferred to a Worker, or by
 * structuredClone with transfer): it then reads as empty and copying it throws a TypeError that
 * names no argument. Constructing a view on a detached buffer throws; on any other it does not.
 */
export function isDetached(view) {
  try {
    new Uint8Array(apply(intrinsicBuffer, view, []), 0, 0);
    return false;
  } catch {
    return true;
  }
}

/** target.set(source) by the engine's own method, reading source by its real length. */
export function typedArraySet(target, source) {
  apply(intrinsicSet, target, [source]);
}

/** A copy of a typed array into a new `Type` array, of the length the engine knows it has. */
export function copyTypedArray(source, Type) {
  const out = new Type(apply(intrinsicLength, source, []));
  apply(intrinsicSet, out, [source]);
  return out;
}

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
 * `checkLength(length)` may throw to refuse a length before any element is read.
 */
export function readList(list, name, checkLength) {
  const length = list.length;
  if (!Number.isSafeInteger(length) || length < 0 || length > MAX_LIST)
    throw new Error(`${name} has an invalid length (${typeof length === 'number' ? length : typeof length})`);
  if (checkLength) checkLength(length);
  const out = new Array(length);
  for (let i = 0; i < length; i++) out[i] = list[i];
  return out;
}

export { isArray };
