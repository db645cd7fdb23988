// The engine's own typed-array operations, for reading what users pass: a typed-array subclass can
// override `length`, `set` or Symbol.toStringTag, a Proxy can pose as an array. These functions use
// the %TypedArray% intrinsics, so only the engine's internal slots are read.

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsicLength = Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'length').get;
const intrinsicName = Object.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
const intrinsicSet = TypedArrayPrototype.set;
const intrinsicBuffer = Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'buffer').get;
const intrinsicDataViewBuffer = Object.getOwnPropertyDescriptor(DataView.prototype, 'buffer').get;
const { apply } = Reflect;

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

// Constructing a view on a detached buffer throws; on any other it does not.
function bufferDetached(buffer) {
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * True when a real typed array's ArrayBuffer was detached (transferred to a Worker, or by
 * structuredClone with transfer): it then reads as empty and copying it throws a TypeError that
 * names no argument.
 */
export function isDetached(view) {
  return bufferDetached(apply(intrinsicBuffer, view, []));
}

/**
 * The kind of an ArrayBuffer, typed array or DataView ("Uint8Array", "ArrayBuffer", …) whose buffer
 * was detached, else null (isDetached for the three kinds of bytes a reader takes).
 */
export function detachedKind(value) {
  if (value instanceof ArrayBuffer) return bufferDetached(value) ? 'ArrayBuffer' : null;
  const kind = typedArrayName(value);
  if (kind) return isDetached(value) ? kind : null;
  if (value instanceof DataView) return bufferDetached(apply(intrinsicDataViewBuffer, value, [])) ? 'DataView' : null;
  return null;
}

/** A kind with its article, for messages: "a Float32Array", "a Uint8Array", "an Int32Array", "an ArrayBuffer". */
export const withArticle = (kind) => (/^[AEIO]/.test(kind) ? `an ${kind}` : `a ${kind}`);

/** The message for argument `name`, of kind `kind`, whose buffer was detached. */
export const detachedMessage = (name, kind) =>
  `${name} is ${withArticle(kind)} whose ArrayBuffer was detached (transferred); pass a copy`;

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
