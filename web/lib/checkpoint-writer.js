// Moves a checkpoint's tensor bytes into a transformer's parameter block in WebAssembly memory as
// they arrive, in file order and in pieces of any size: F32 bytes are copied straight to their
// place (one memcpy per piece, no JavaScript array per tensor), F16, BF16 and F64 go through a
// small staging block and the core's conversion. Every value is checked finite on the way in
// (a model never holds NaN or ±Infinity). Which tensor goes where is planned from the header
// alone, before any data is read (planLoad).
import { fail, formatShape, sameShape } from './checks.js';

// attn::StoredFloat (src/core/dtype_conversion.h): the floating dtypes a parameter may be stored in.
const FORMATS = new Map([
  ['F32', 0],
  ['F16', 1],
  ['BF16', 2],
  ['F64', 3],
]);
const WIDTH = new Map([
  ['F32', 4],
  ['F16', 2],
  ['BF16', 2],
  ['F64', 8],
]);
const INTEGERS = new Set(['BOOL', 'U8', 'I8', 'U16', 'I16', 'U32', 'I32', 'U64', 'I64']);
// GPT-2 checkpoints carry the causal mask as buffers; they are not parameters.
const MASK_BUFFER = /^h\.\d+\.attn\.(bias|masked_bias)$/;
const PREFIX = 'transformer.';
const STAGING_BYTES = 1 << 20;

const quote = (name) => JSON.stringify(name.length > 80 ? `${name.slice(0, 77)}...` : name);

/**
 * Which stored tensor fills which parameter: [{ entry, tensor, tied }] in data order, checked
 * against the model's tensors ({ name, shape, offset, size }). Skipped: the mask buffers and any
 * tensor of an integer or BOOL dtype that is not a parameter (position_ids and the like). A tied
 * model's lm_head.weight, when present, is read and must equal wte.weight.
 */
export function planLoad(entries, modelTensors, tieEmbeddings) {
  const byName = new Map(modelTensors.map((t) => [t.name, t]));
  const seen = new Map();
  const plan = [];
  for (const entry of entries) {
    const key = entry.name;
    const name = key.startsWith(PREFIX) ? key.slice(PREFIX.length) : key;
    if (MASK_BUFFER.test(name)) continue;
    const tied = name === 'lm_head.weight' && tieEmbeddings;
    const tensor = tied ? byName.get('wte.weight') : byName.get(name);
    if (!tensor) {
      if (INTEGERS.has(entry.dtype)) continue;
      fail(
        `checkpoint: unknown tensor ${quote(key)} for this config (expected names such as ${modelTensors
          .slice(0, 3)
          .map((x) => `"${x.name}"`)
          .join(', ')}, …)`,
      );
    }
    if (seen.has(name)) fail(`checkpoint: ${quote(name)} is given twice (${quote(seen.get(name))} and ${quote(key)})`);
    seen.set(name, key);
    if (!FORMATS.has(entry.dtype))
      fail(`checkpoint: ${quote(key)} is stored as ${entry.dtype}; a parameter must be F32, F16, BF16 or F64`);
    if (!sameShape(entry.shape, tensor.shape))
      fail(`checkpoint: ${quote(key)} must have shape ${formatShape(tensor.shape)}, got ${formatShape(entry.shape)}`);
    plan.push({ entry, tensor, tied });
  }
  for (const t of modelTensors) if (!seen.has(t.name)) fail(`checkpoint: missing ${quote(t.name)}`);
  return plan;
}

/** Ranges of the data section [begin, end) that the plan reads, adjacent tensors merged. */
export function neededRanges(plan) {
  const ranges = [];
  for (const { entry } of plan) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === entry.begin) last[1] = entry.end;
    else if (entry.end > entry.begin) ranges.push([entry.begin, entry.end]);
  }
  return ranges;
}

/**
 * Receives the data section in order (write(bytes, at): bytes of the data section from offset
 * `at`), fills the parameters, and checks at finish() that every planned tensor arrived whole.
 * `block()` gives { module, base } afresh at each call (memory growth moves nothing, but the
 * module is asked for so a disposed instance stops the load). free() releases the staging.
 */
export class ParameterWriter {
  #block;
  #targets;
  #next = 0;
  #staging = 0;
  #tiedCopy = 0;

  constructor(block, plan) {
    this.#block = block;
    this.#targets = plan.map((p) => ({ ...p, done: 0, pending: new Uint8Array(8), pendingLength: 0 }));
    const { module } = block();
    this.#staging = this.#malloc(module, STAGING_BYTES, 'the conversion buffer');
    const tied = this.#targets.find((t) => t.tied);
    // A tied lm_head usually comes before wte in the file: it is kept aside and compared at the end.
    if (tied) this.#tiedCopy = this.#malloc(module, tied.tensor.size * 4, 'the copy of lm_head.weight');
  }

  #malloc(module, bytes, what) {
    const at = module._malloc(bytes + 64) >>> 0; // addresses past 2 GiB come back as negative int32
    if (!at) fail(`checkpoint: out of WebAssembly memory for ${what} (${bytes} bytes)`);
    return at;
  }

  write(bytes, at) {
    const end = at + bytes.length;
    while (this.#next < this.#targets.length && this.#targets[this.#next].entry.end <= at) this.#next++;
    for (let i = this.#next; i < this.#targets.length; i++) {
      const t = this.#targets[i];
      if (t.entry.begin >= end) break;
      const from = Math.max(t.entry.begin, at);
      const to = Math.min(t.entry.end, end);
      if (from - t.entry.begin !== t.done) fail(`checkpoint: the bytes of ${quote(t.entry.name)} arrived out of order`);
      this.#deliver(t, bytes.subarray(from - at, to - at));
    }
  }

  // One tensor's next bytes: first completes an element split across two pieces, then converts the
  // whole elements, then keeps the few bytes of a split element for the next piece.
  #deliver(t, piece) {
    const width = WIDTH.get(t.entry.dtype);
    let rest = piece;
    if (t.pendingLength) {
      const k = Math.min(width - t.pendingLength, rest.length);
      t.pending.set(rest.subarray(0, k), t.pendingLength);
      t.pendingLength += k;
      t.done += k;
      rest = rest.subarray(k);
      if (t.pendingLength < width) return;
      this.#convert(t, t.pending.subarray(0, width), t.done / width - 1);
      t.pendingLength = 0;
    }
    const whole = rest.length - (rest.length % width);
    if (whole) this.#convert(t, rest.subarray(0, whole), t.done / width);
    t.pending.set(rest.subarray(whole), 0);
    t.pendingLength = rest.length - whole;
    t.done += rest.length;
  }

  // Elements [first, first + n) of tensor t from their stored bytes.
  #convert(t, bytes, first) {
    const { module, base } = this.#block();
    const n = bytes.length / WIDTH.get(t.entry.dtype);
    const dst = (t.tied ? alignUp(this.#tiedCopy) : base + t.tensor.offset * 4) + first * 4;
    let bad;
    if (t.entry.dtype === 'F32') {
      module.HEAPU8.set(bytes, dst);
      bad = module._findNonFinite(dst, n);
    } else {
      const width = WIDTH.get(t.entry.dtype);
      const step = STAGING_BYTES / width; // elements per staged piece
      const staging = alignUp(this.#staging);
      bad = n;
      for (let i = 0; i < n && bad === n; i += step) {
        const m = Math.min(step, n - i);
        module.HEAPU8.set(bytes.subarray(i * width, (i + m) * width), staging);
        const found = module._convertToFloat32(FORMATS.get(t.entry.dtype), staging, m, dst + i * 4);
        if (found < m) bad = i + found;
      }
    }
    if (bad < n) this.#nonFinite(t, first + bad, dst + bad * 4);
  }

  #nonFinite(t, index, address) {
    const value = new Float32Array(this.#block().module.HEAPU8.buffer, address, 1)[0];
    const stored =
      t.entry.dtype === 'F64' && !Number.isNaN(value) ? ` (beyond float32's range in ${t.entry.dtype})` : '';
    fail(
      `checkpoint: ${quote(t.entry.name)} holds ${value}${stored} at element ${index}; a model's parameters must be finite`,
    );
  }

  /** Checks that every planned tensor arrived whole, and that a tied lm_head equals wte. */
  finish() {
    for (const t of this.#targets)
      if (t.done !== t.entry.end - t.entry.begin)
        fail(`checkpoint: ${quote(t.entry.name)} is incomplete (${t.done} of ${t.entry.end - t.entry.begin} bytes)`);
    const tied = this.#targets.find((t) => t.tied);
    if (tied) {
      const { module, base } = this.#block();
      const head = new Float32Array(module.HEAPU8.buffer, alignUp(this.#tiedCopy), tied.tensor.size);
      const wte = new Float32Array(module.HEAPU8.buffer, base + tied.tensor.offset * 4, tied.tensor.size);
      for (let i = 0; i < head.length; i++)
        if (head[i] !== wte[i])
          fail(
            `checkpoint: ${quote(tied.entry.name)} differs from wte.weight at element ${i}, but this model ties its embeddings (tieEmbeddings: true)`,
          );
    }
  }

  /** Releases the staging blocks (after finish or a failure); safe to call twice. */
  free(module) {
    if (module && this.#staging) module._free(this.#staging);
    if (module && this.#tiedCopy) module._free(this.#tiedCopy);
    this.#staging = 0;
    this.#tiedCopy = 0;
  }
}

const alignUp = (address) => Math.ceil(address / 64) * 64;
