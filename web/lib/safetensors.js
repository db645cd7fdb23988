// The safetensors file format (https://huggingface.co/docs/safetensors, format section of
// github.com/huggingface/safetensors): 8 bytes little-endian u64 N, N bytes of a UTF-8 JSON header
// { name: { dtype, shape, data_offsets: [begin, end] }, "__metadata__": { string: string } },
// then the byte buffer the offsets index (relative to its start).
//
// Decoding treats the bytes as untrusted (a file picked by a user, or fetched): every length and
// offset is checked against the file before anything is read, the tensors must tile the buffer
// exactly (no overlap, no gap, nothing after the last: the reference implementation's rules), and
// every failure is an Error naming the tensor. Encoding writes what the reference implementation
// writes for float32 tensors: names sorted, compact JSON, header padded with spaces to a multiple of 8
// bytes (so the data starts 8-byte aligned), __metadata__ first when given.

// The reference implementation refuses larger headers; nothing legitimate comes close.
const MAX_HEADER_BYTES = 100_000_000;
const SUPPORTED = { F32: 4, F16: 2, BF16: 2 };
const REFUSED = ['F64', 'F8_E4M3', 'F8_E5M2', 'I8', 'I16', 'I32', 'I64', 'U8', 'U16', 'U32', 'U64', 'BOOL'];
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function fail(message) {
  throw new Error(`safetensors: ${message}`);
}

// Names come from the file: quoted, escaped and shortened before they go into a message.
function quote(name) {
  const shown = name.length > 80 ? `${name.slice(0, 77)}...` : name;
  return JSON.stringify(shown);
}

const formatShape = (shape) => `[${shape.join(', ')}]`;

function asBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const what = bytes === null ? 'null' : Array.isArray(bytes) ? 'an array' : typeof bytes;
  return fail(`bytes must be a Uint8Array or an ArrayBuffer, got ${what}`);
}

function readHeader(bytes) {
  if (bytes.length < 8) fail(`the file is ${bytes.length} bytes, too short for the 8-byte header length`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const low = view.getUint32(0, true);
  const high = view.getUint32(4, true);
  const length = high * 2 ** 32 + low;  // exact below 2^53; larger values fail the checks below anyway
  if (length > bytes.length - 8)
    fail(`the header length ${length} runs past the end of the file (${bytes.length - 8} bytes follow it)`);
  if (length > MAX_HEADER_BYTES) fail(`the header length ${length} exceeds the ${MAX_HEADER_BYTES}-byte limit`);
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + length));
  } catch {
    fail('the header is not valid UTF-8');
  }
  if (!text.startsWith('{')) fail('the header must be a JSON object starting with "{"');
  let header;
  try {
    header = JSON.parse(text);
  } catch (err) {
    fail(`the header is not valid JSON (${err.message})`);
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) fail('the header must be a JSON object');
  return { header, dataStart: 8 + length };
}

function checkMetadata(metadata) {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))
    fail('__metadata__ must be an object of strings');
  for (const [key, value] of Object.entries(metadata))
    if (typeof value !== 'string') fail(`__metadata__ entry ${quote(key)} must be a string, got ${typeof value}`);
}

const isCount = (x) => Number.isSafeInteger(x) && x >= 0;

// One header entry → { name, dtype, shape, count, begin, end }, checked against the data length.
function tensorEntry(name, info, dataLength) {
  const where = `tensor ${quote(name)}`;
  if (info === null || typeof info !== 'object' || Array.isArray(info)) fail(`${where}: its header entry must be an object`);
  const { dtype, shape, data_offsets: offsets } = info;
  if (typeof dtype !== 'string') fail(`${where}: dtype must be a string`);
  if (!(dtype in SUPPORTED)) {
    if (REFUSED.includes(dtype)) fail(`${where}: dtype ${dtype} is not supported (only F32, F16 and BF16 convert to float32)`);
    fail(`${where}: unknown dtype ${quote(dtype)}`);
  }
  if (!Array.isArray(shape) || !shape.every(isCount)) fail(`${where}: shape must be an array of non-negative integers`);
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount))
    fail(`${where}: data_offsets must be two non-negative integers [begin, end]`);
  const [begin, end] = offsets;
  if (begin > end) fail(`${where}: data_offsets [${begin}, ${end}] end before they begin`);
  if (end > dataLength) fail(`${where}: data_offsets [${begin}, ${end}] lie outside the data (${dataLength} bytes)`);
  // The element count is bounded by the bytes present before it can overflow anything.
  let count = shape.includes(0) ? 0 : 1;
  for (const d of count ? shape : []) {
    count *= d;
    if (count > dataLength) fail(`${where}: shape ${formatShape(shape)} has more elements than the file has bytes`);
  }
  const bytes = count * SUPPORTED[dtype];
  if (bytes !== end - begin)
    fail(`${where}: shape ${formatShape(shape)} of ${dtype} needs ${bytes} bytes, but data_offsets [${begin}, ${end}] cover ${end - begin}`);
  return { name, dtype, shape: shape.slice(), count, begin, end };
}

// The tensors must tile [0, dataLength) exactly, as the reference implementation requires.
function checkTiling(entries, dataLength) {
  const sorted = entries.slice().sort((a, b) => a.begin - b.begin || a.end - b.end);
  let at = 0;
  let previous = null;
  for (const e of sorted) {
    if (e.begin < at) fail(`tensor ${quote(e.name)} overlaps tensor ${quote(previous.name)} (bytes ${e.begin} to ${at})`);
    if (e.begin > at)
      fail(`tensor ${quote(e.name)}: ${e.begin - at} bytes before it (from ${at}) belong to no tensor`);
    at = e.end;
    previous = e;
  }
  if (at !== dataLength)
    fail(`${dataLength - at} bytes after ${previous ? `tensor ${quote(previous.name)}` : 'the header'} belong to no tensor`);
}

function halfToFloat(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;  // zero and subnormals
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

function convert(bytes, start, e) {
  const out = new Float32Array(e.count);
  const view = new DataView(bytes.buffer, bytes.byteOffset + start + e.begin, e.end - e.begin);
  if (e.dtype === 'F32') {
    if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(bytes.subarray(start + e.begin, start + e.end));
    else for (let i = 0; i < e.count; i++) out[i] = view.getFloat32(4 * i, true);
  } else if (e.dtype === 'F16') {
    for (let i = 0; i < e.count; i++) out[i] = halfToFloat(view.getUint16(2 * i, true));
  } else {  // BF16: the upper half of a float32
    const bits = new Uint32Array(out.buffer);
    for (let i = 0; i < e.count; i++) bits[i] = view.getUint16(2 * i, true) << 16;
  }
  return out;
}

function parse(bytesIn) {
  const bytes = asBytes(bytesIn);
  const { header, dataStart } = readHeader(bytes);
  const dataLength = bytes.length - dataStart;
  const entries = [];
  let metadata = null;
  for (const [name, info] of Object.entries(header)) {
    if (name === '__metadata__') {
      checkMetadata(info);
      metadata = { ...info };
    } else {
      entries.push(tensorEntry(name, info, dataLength));
    }
  }
  checkTiling(entries, dataLength);
  return { bytes, dataStart, entries, metadata };
}

// Own enumerable properties even for names such as "__proto__", which plain assignment would not create.
function define(object, name, value) {
  Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Reads a safetensors file: name → { data: Float32Array, shape }. F32 is copied as is, F16 and BF16
 * are converted exactly to float32; any other dtype, and any malformed or inconsistent file, throws
 * an Error naming the tensor. `__metadata__` is accepted (see decodeSafetensorsMetadata).
 */
export function decodeSafetensors(bytes) {
  const { bytes: b, dataStart, entries } = parse(bytes);
  const tensors = {};
  for (const e of entries) define(tensors, e.name, { data: convert(b, dataStart, e), shape: e.shape });
  return tensors;
}

/** The `__metadata__` object of a safetensors file (string → string), or null; validates the whole file. */
export function decodeSafetensorsMetadata(bytes) {
  return parse(bytes).metadata;
}

// The reference implementation sorts names as UTF-8 bytes, which is code point order (JavaScript's
// default sort compares UTF-16 units, which differs above U+E000).
function byCodePoint(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

function checkTensorForEncoding(name, t) {
  if (t === null || typeof t !== 'object') fail(`tensor ${quote(name)} must be { data, shape }`);
  const { data, shape } = t;
  if (!Array.isArray(shape) || !shape.every(isCount)) fail(`tensor ${quote(name)}: shape must be an array of non-negative integers`);
  const isNumbers = data instanceof Float32Array || data instanceof Float64Array || Array.isArray(data);
  if (!isNumbers) fail(`tensor ${quote(name)}: data must be a Float32Array (or an array of numbers)`);
  const count = shape.reduce((a, b) => a * b, 1);
  if (data.length !== count)
    fail(`tensor ${quote(name)}: shape ${formatShape(shape)} holds ${count} values, data has ${data.length}`);
  return { name, data, shape: shape.slice(), count };
}

/**
 * Writes name → { data: Float32Array, shape } as a safetensors file of F32 tensors (Uint8Array),
 * laid out as the reference implementation lays it out. `metadata` (optional) is a string → string
 * object stored as `__metadata__`.
 */
export function encodeSafetensors(tensors, metadata) {
  if (tensors === null || typeof tensors !== 'object' || Array.isArray(tensors)) fail('tensors must be an object name → { data, shape }');
  const names = Object.keys(tensors).sort(byCodePoint);
  if (names.includes('__metadata__')) fail('"__metadata__" is reserved and cannot name a tensor');
  const list = names.map((name) => checkTensorForEncoding(name, tensors[name]));
  // The header is written by hand, not by JSON.stringify of one object: JavaScript objects put
  // integer-like keys first, and the reference implementation writes __metadata__ first, then the
  // tensors in data order.
  const parts = [];
  if (metadata !== undefined && metadata !== null) {
    checkMetadata(metadata);
    parts.push(`"__metadata__":${JSON.stringify({ ...metadata })}`);
  }
  let offset = 0;
  for (const t of list) {
    const info = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + 4 * t.count] };
    parts.push(`${JSON.stringify(t.name)}:${JSON.stringify(info)}`);
    offset += 4 * t.count;
  }
  const json = new TextEncoder().encode(`{${parts.join(',')}}`);
  const padded = Math.ceil(json.length / 8) * 8;
  const out = new Uint8Array(8 + padded + offset);
  const view = new DataView(out.buffer);
  view.setUint32(0, padded % 2 ** 32, true);
  view.setUint32(4, Math.floor(padded / 2 ** 32), true);
  out.set(json, 8);
  out.fill(0x20, 8 + json.length, 8 + padded);
  let at = 8 + padded;
  for (const t of list) {
    for (let i = 0; i < t.count; i++) view.setFloat32(at + 4 * i, t.data[i], true);
    at += 4 * t.count;
  }
  return out;
}
