// Scratch space for the copies of small float32 inputs within one API call. Every input is copied
// once before it is checked (read-input.js); a new Float32Array per tensor cost ~1 µs of
// allocation and garbage collection, more than a whole lesson-size call, so small copies go into
// one reusable buffer instead. It is a stack: each call marks where it starts and releases back
// to that mark when it ends, so a call made from inside another (a getter of an input calling the
// API) stacks above the outer call's copies and never overwrites them.
import { copyTypedArray, typedArraySet } from './typed-arrays.js';

const MAX_STAGED = 1 << 16; // floats; a larger input gets its own array (its call dwarfs that cost)
let buffer = new Float32Array(1 << 12);
let top = 0;
let depth = 0;
let generation = 0; // bumped when the buffer is replaced by a larger one
const marks = []; // [top, generation] per open call

/**
 * Runs call() as one API call: copies staged while it runs stay valid until it returns or throws.
 */
export function staged(call) {
  mark();
  try {
    return call();
  } finally {
    release();
  }
}

/** Opens a call: staged copies made until the matching release() stay valid. */
function mark() {
  marks.push(top, generation);
  depth++;
}

/** Closes the innermost call; its staged copies may be overwritten afterwards. */
function release() {
  const markGeneration = marks.pop();
  const markTop = marks.pop();
  depth--;
  // A replaced buffer is only reused from its start once no call holds copies in the old one.
  if (depth === 0) top = 0;
  else if (markGeneration === generation) top = markTop;
}

/** A copy of `source`, a real Float32Array of `length` elements (its intrinsic length). */
export function stagedCopy(source, length) {
  if (depth === 0 || length > MAX_STAGED) return copyTypedArray(source, Float32Array);
  const start = Math.ceil(top / 16) * 16; // 64-byte aligned, as the heap copies expect
  if (start + length > buffer.length) {
    buffer = new Float32Array(Math.max(buffer.length * 2, 4 * length));
    generation++;
    top = 0;
    return stagedCopy(source, length);
  }
  const view = new Float32Array(buffer.buffer, start * 4, length);
  typedArraySet(view, source);
  top = start + length;
  return view;
}
