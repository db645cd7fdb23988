// Moves tensors in and out of WebAssembly memory through one reusable scratch block, so a call
// costs no allocation once the block is big enough. Views of WASM memory are made fresh for each
// copy and never kept: memory growth detaches the old ArrayBuffer.

import { overflowMessage } from './checks.js';
import { failBadValue, failChangedSource } from './read-input.js';
import { typedArrayLength, typedArraySet } from './typed-arrays.js';

// Buffers start on 64-byte boundaries (malloc promises only 8): a tensor at 8 mod 16 makes every
// fourth 16-byte SIMD access straddle a cache line.
const ALIGN = 64;
// The most one call's buffers may take. The module itself grows to 4 GiB (-s MAXIMUM_MEMORY=4GB; a
// pointer past 2 GiB is read as unsigned, >>> 0), where models live (GPT-2 medium's 1.4 GB of
// parameters); a single call's scratch stays within 2 GiB, refused up front with its size, and
// leaves room for the core's own workspace and the stack.
export const MEMORY_LIMIT_BYTES = 2 ** 31;
const RESERVED_BYTES = 64 * 2 ** 20; // code, stack, weights of live layers
const SCRATCH_KEEP_BYTES = 64 * 2 ** 20; // larger one-off blocks are returned after the call

export function formatBytes(bytes) {
  if (bytes < 2 ** 20) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 2 ** 30) return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return `${(bytes / 2 ** 30).toFixed(2)} GiB`;
}

export class WasmHeap {
  constructor(module) {
    this.module = module;
    this.block = 0; // what malloc returned
    this.base = 0; // block rounded up to ALIGN
    this.capacity = 0;
  }

  /**
   * Places buffers of the given byte sizes (0 = absent) in the scratch block and returns their
   * addresses (0 for absent ones). `extraBytes` is what the core will allocate itself; `what`
   * names the call in error messages; `suggestOutputOnly` when needWeights: false (or no trace)
   * would make the call fit, so the message suggests it only to calls it can help.
   */
  layout(sizes, what, extraBytes = 0, { suggestOutputOnly = false } = {}) {
    if (!this.module)
      throw new Error(
        `${what}: this attention instance was disposed (attn.dispose()); call createAttention() again for a new one`,
      );
    let total = 0;
    const offsets = sizes.map((size) => {
      if (!size) return -1;
      const at = total;
      total += Math.ceil(size / ALIGN) * ALIGN;
      return at;
    });
    if (total + extraBytes > MEMORY_LIMIT_BYTES - RESERVED_BYTES)
      throw new Error(
        `${what} needs about ${formatBytes(total + extraBytes)} of WebAssembly memory, ` +
          `more than its ${formatBytes(MEMORY_LIMIT_BYTES)} limit allows; use smaller sizes` +
          (suggestOutputOnly ? ' (or needWeights: false without trace, which never builds the n × m matrix)' : ''),
      );
    this.reserve(total, what);
    return offsets.map((at) => (at < 0 ? 0 : this.base + at));
  }

  reserve(bytes, what) {
    if (bytes <= this.capacity) return;
    this.releaseAll();
    const block = this.module._malloc(bytes + ALIGN) >>> 0; // addresses past 2 GiB come back as negative int32
    if (!block)
      throw new Error(`out of memory: ${what} could not allocate ${formatBytes(bytes)} of WebAssembly memory`);
    this.block = block;
    this.base = Math.ceil(block / ALIGN) * ALIGN;
    this.capacity = bytes;
  }

  /** After a call: keep a modest block for the next one, give a huge one back. */
  settle() {
    if (this.capacity > SCRATCH_KEEP_BYTES) this.releaseAll();
  }

  releaseAll() {
    if (this.block) this.module._free(this.block);
    this.block = 0;
    this.base = 0;
    this.capacity = 0;
  }

  f32(address, length) {
    return new Float32Array(this.module.HEAPU8.buffer, address, length);
  }

  // The copies below go through the module's own HEAPF32/HEAPU8, which Emscripten replaces when
  // memory grows (read afresh on every call, never kept): no view object per copy, which mattered
  // at lesson sizes where a call moves a few hundred bytes.
  writeF32(address, data) {
    if (!address) return;
    if (address & 3) this.f32(address, data.length).set(data);
    else this.module.HEAPF32.set(data, address >>> 2);
  }

  /**
   * Copies a readFloatInput into WebAssembly memory at address (4-byte aligned) and checks the copy
   * there: the core finds the first NaN or ±Infinity at memory speed (a JavaScript loop took ~1 ns
   * a value, a sixth of an n = 512 attention call), and the message names that element. The
   * caller's Float32Array is re-measured first: a getter of a later argument may have detached or
   * resized its buffer since it was read.
   */
  writeFloatInput(address, input) {
    const { module } = this;
    if (!input.source) {
      this.writeF32(address, input.data);
      return;
    }
    const length = typedArrayLength(input.source);
    if (length !== input.length) failChangedSource(input, length);
    // Into a view of exactly `length` floats: a Float32Array over a growable SharedArrayBuffer
    // could grow (in another thread) after it was measured, and must not write past its buffer.
    typedArraySet(this.f32(address, length), input.source);
    const bad = module._attn_first_non_finite(address, length, input.allowNegativeInfinity) >>> 0;
    if (bad !== length) failBadValue(input, bad, module.HEAPF32[(address >>> 2) + bad]);
  }

  /**
   * Throws when the result at address (count floats) holds a NaN: finite inputs can still give
   * scores beyond float32 (see checks.js), and the softmax of an infinite score is NaN. Scanned by
   * the core in place, before anything is copied out.
   */
  checkNoOverflow(address, count, inputs) {
    if (this.module._attn_first_nan(address, count) >>> 0 !== count) throw new Error(overflowMessage(inputs));
  }

  fillU8(address, length, value) {
    this.module.HEAPU8.fill(value, address, address + length);
  }

  writeU8(address, data) {
    if (address) this.module.HEAPU8.set(data, address);
  }

  readF32(address, length) {
    // Node 20, best of runs: 131072 floats (an MHA output at n = 256, E = 512) took 14–23 µs
    // through the copy constructor and 26–59 µs through slice(); below 65536 they are even.
    if (length >= 65536 || address & 3) return new Float32Array(this.f32(address, length));
    const start = address >>> 2;
    return this.module.HEAPF32.slice(start, start + length);
  }

  readF64(address, length) {
    return new Float64Array(this.module.HEAPU8.buffer, address, length).slice();
  }

  readU8(address, length) {
    return this.module.HEAPU8.slice(address, address + length);
  }

  /** Indices i < length where the byte at address + i is nonzero, read without a copy. */
  nonzeroIndices(address, length) {
    const bytes = this.module.HEAPU8;
    const found = [];
    for (let i = 0; i < length; i++) if (bytes[address + i]) found.push(i);
    return found;
  }
}

/** Runs a bound core function and turns its status text into an Error. */
export function check(status, what) {
  if (status) throw new Error(`${what}: ${status}`);
}

/** Throws the message of a failed raw export (Module._attn_…), which returns 0 on success. */
export function checkCode(module, code, what) {
  if (code !== 0) throw new Error(`${what}: ${module._takeLastError()}`);
}

/**
 * Bytes of core workspace an attention head needs (attention_head.cpp: Kᵀ and V packed in
 * 16-column panels, plus the n × m matrix or one 64 × 256 streaming tile), for the memory check
 * before a call.
 */
export function headWorkspaceBytes(n, m, dk, dv, materialize) {
  const panels = (rows, cols) => rows * Math.ceil(cols / 16) * 16;
  const tile = materialize ? n * m : 64 * 256 + 64 * dv + 3 * 64;
  return (panels(dk, m) + panels(m, dv) + tile) * 4;
}
