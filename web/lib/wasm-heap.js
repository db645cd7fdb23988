// Moves tensors in and out of WebAssembly memory through one reusable scratch block, so a call
// costs no allocation once the block is big enough. Views of WASM memory are made fresh for each
// copy and never kept: memory growth detaches the old ArrayBuffer.

const ALIGN = 16;
// wasm32 with -s MAXIMUM_MEMORY=2GB; leave room for the core's own workspace and the stack.
export const MEMORY_LIMIT_BYTES = 2 ** 31;
const RESERVED_BYTES = 64 * 2 ** 20;  // code, stack, weights of live layers
const SCRATCH_KEEP_BYTES = 64 * 2 ** 20;  // larger one-off blocks are returned after the call

export function formatBytes(bytes) {
  if (bytes < 2 ** 20) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 2 ** 30) return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return `${(bytes / 2 ** 30).toFixed(2)} GiB`;
}

export class WasmHeap {
  constructor(module) {
    this.module = module;
    this.base = 0;
    this.capacity = 0;
  }

  /**
   * Places buffers of the given byte sizes (0 = absent) in the scratch block and returns their
   * addresses (0 for absent ones). `extraBytes` is what the core will allocate itself; `what`
   * names the call in error messages.
   */
  layout(sizes, what, extraBytes = 0) {
    let total = 0;
    const offsets = sizes.map((size) => {
      if (!size) return -1;
      const at = total;
      total += Math.ceil(size / ALIGN) * ALIGN;
      return at;
    });
    if (total + extraBytes > MEMORY_LIMIT_BYTES - RESERVED_BYTES)
      throw new Error(`${what} needs about ${formatBytes(total + extraBytes)} of WebAssembly memory, ` +
        `more than its ${formatBytes(MEMORY_LIMIT_BYTES)} limit allows; use smaller sizes` +
        ' (or needWeights: false, which never builds the n × m matrix)');
    this.reserve(total, what);
    return offsets.map((at) => (at < 0 ? 0 : this.base + at));
  }

  reserve(bytes, what) {
    if (bytes <= this.capacity) return;
    this.releaseAll();
    const base = this.module._malloc(bytes);
    if (!base) throw new Error(`out of memory: ${what} could not allocate ${formatBytes(bytes)} of WebAssembly memory`);
    this.base = base;
    this.capacity = bytes;
  }

  /** After a call: keep a modest block for the next one, give a huge one back. */
  settle() {
    if (this.capacity > SCRATCH_KEEP_BYTES) this.releaseAll();
  }

  releaseAll() {
    if (this.base) this.module._free(this.base);
    this.base = 0;
    this.capacity = 0;
  }

  f32(address, length) {
    return new Float32Array(this.module.HEAPU8.buffer, address, length);
  }

  writeF32(address, data) {
    if (address) this.f32(address, data.length).set(data);
  }

  writeU8(address, data) {
    if (address) new Uint8Array(this.module.HEAPU8.buffer, address, data.length).set(data);
  }

  readF32(address, length) {
    return this.f32(address, length).slice();
  }

  readF64(address, length) {
    return new Float64Array(this.module.HEAPU8.buffer, address, length).slice();
  }

  readU8(address, length) {
    return new Uint8Array(this.module.HEAPU8.buffer, address, length).slice();
  }
}

/** Runs a bound core function and turns its status text into an Error. */
export function check(status, what) {
  if (status) throw new Error(`${what}: ${status}`);
}
