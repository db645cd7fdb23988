// The safetensors file format (https://huggingface.co/docs/safetensors, format section of
// github.com/huggingface/safetensors): 8 bytes little-endian u64 N, N bytes of a UTF-8 JSON header
// { name: { dtype, shape, data_offsets: [begin, end] }, "__metadata__": { string: string } },
// then the byte buffer the offsets index (relative to its start).
//
// Decoding treats the bytes as untrusted (a file picked by a user, or fetched): every length and
// offset is checked against the file before anything is read, the tensors must tile the buffer
// exactly (no overlap, no gap, nothing after the last: the reference implementation's rules), a
// key may appear only once, and every failure is an Error naming the tensor. Encoding writes what
// the reference implementation writes: tensors sorted by dtype (its enum order, highest first)
// then by name, compact JSON, header padded with spaces to a multiple of 8 bytes (so the data
// starts 8-byte aligned), __metadata__ first when given. The dtypes themselves (how each is read
// and written) are in safetensors-dtypes.js.
import {
  CONVERSIONS,
  DTYPES,
  DTYPE_RANK,
  byteLength,
  bytesView,
  dataBytes,
  decodeData,
  inferDtype,
} from './safetensors-dtypes.js';
import { ownEntries, ownValue } from './read-input.js';
import { detachedKind, detachedMessage } from './typed-arrays.js';

// The reference implementation refuses larger headers; nothing legitimate comes close.
const MAX_HEADER_BYTES = 100_000_000;
// Plain arrays longer than this are not read element by element (a typed array has no limit).
const MAX_ARRAY = 2 ** 31;

function fail(message) {
  throw new Error(`safetensors: ${message}`);
}

// Names come from the file: quoted, escaped and shortened before they go into a message.
function quote(name) {
  const shown = name.length > 80 ? `${name.slice(0, 77)}...` : name;
  return JSON.stringify(shown);
}

const formatShape = (shape) => `[${shape.join(', ')}]`;
const isCount = (x) => Number.isSafeInteger(x) && x >= 0;

function asBytes(bytes) {
  const detached = detachedKind(bytes);
  if (detached) fail(detachedMessage('bytes', detached));
  const view = bytesView(bytes);
  if (view) return view;
  const what = bytes === null ? 'null' : Array.isArray(bytes) ? 'an array' : typeof bytes;
  return fail(`bytes must be a Uint8Array or an ArrayBuffer, got ${what}`);
}

/**
 * N, the byte length of the JSON header, from the first 8 bytes of a file (more may follow).
 * Lets a reader that streams a file know how much to read before decodeSafetensorsHeader.
 */
export function safetensorsHeaderSize(bytesIn) {
  const bytes = asBytes(bytesIn);
  if (bytes.length < 8) fail(`the file is ${bytes.length} bytes, too short for the 8-byte header length`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  const length = view.getUint32(4, true) * 2 ** 32 + view.getUint32(0, true); // exact below 2^53
  if (length > MAX_HEADER_BYTES) fail(`the header length ${length} exceeds the ${MAX_HEADER_BYTES}-byte limit`);
  return length;
}

// JSON whitespace may surround the object (writers pad the header to align the data), but a
// byte-order mark is not JSON whitespace: the reference implementation refuses it, and so does this.
function headerText(bytes, length) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(8, 8 + length));
  } catch {
    fail('the header is not valid UTF-8');
  }
  const start = text.search(/[^ \t\n\r]/);
  if (start >= 0 && text.charCodeAt(start) === 0xfeff)
    fail('the header starts with a byte-order mark; it must start with "{"');
  if (start < 0 || text[start] !== '{') fail('the header must be a JSON object starting with "{"');
  return text;
}

function parseHeader(text) {
  let header;
  try {
    header = JSON.parse(text);
  } catch (err) {
    fail(`the header is not valid JSON (${err.message})`);
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) fail('the header must be a JSON object');
  const duplicate = findDuplicateKey(text);
  if (duplicate !== null) fail(`the header has the key ${quote(duplicate)} twice; keys must be unique`);
  return header;
}

/**
 * The first key that an object of the JSON text (already known to be valid) repeats, or null.
 * JSON.parse keeps the last of two equal keys silently; the reference implementation's parser
 * would see two tensors (or two fields) where this one sees one.
 */
function findDuplicateKey(text) {
  const objects = []; // per open container: a Set of its keys (null for an array)
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // '"': a string; find its end, stepping over escapes
      let j = i + 1;
      while (text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      const keys = objects[objects.length - 1];
      if (expectKey && keys) {
        const key = JSON.parse(text.slice(i, j + 1));
        if (keys.has(key)) return key;
        keys.add(key);
      }
      expectKey = false;
      i = j;
    } else if (c === 0x7b) {
      // '{'
      objects.push(new Set());
      expectKey = true;
    } else if (c === 0x5b) {
      // '['
      objects.push(null);
    } else if (c === 0x7d || c === 0x5d) {
      // '}' or ']'
      objects.pop();
    } else if (c === 0x2c) {
      // ','
      expectKey = objects[objects.length - 1] !== null;
    }
  }
  return null;
}

function checkMetadata(metadata) {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))
    fail('__metadata__ must be an object of strings');
  const entries = ownEntries(metadata);
  for (const [key, value] of Object.entries(entries))
    if (typeof value !== 'string') fail(`__metadata__ entry ${quote(key)} must be a string, got ${typeof value}`);
  return entries;
}

function checkDtype(dtype, where) {
  if (typeof dtype !== 'string') fail(`${where}: dtype must be a string`);
  if (!DTYPES.has(dtype)) fail(`${where}: unknown dtype ${quote(dtype)} (known: ${[...DTYPES.keys()].join(', ')})`);
}

// The element count of a checked shape, bounded by `limit` before it can lose precision.
function elementCount(shape, limit, where, what) {
  let count = shape.includes(0) ? 0 : 1;
  for (const d of count ? shape : []) {
    count *= d;
    if (count > limit) fail(`${where}: shape ${formatShape(shape)} has more elements than ${what}`);
  }
  return count;
}

// One header entry → { name, dtype, shape, count, begin, end }, checked against the data length
// (undefined while a streamed file's length is not known: the tiling check bounds it instead).
function tensorEntry(name, info, dataLength) {
  const where = `tensor ${quote(name)}`;
  if (info === null || typeof info !== 'object' || Array.isArray(info))
    fail(`${where}: its header entry must be an object`);
  const { dtype, shape, data_offsets: offsets } = info;
  checkDtype(dtype, where);
  if (!Array.isArray(shape) || !shape.every(isCount)) fail(`${where}: shape must be an array of non-negative integers`);
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount))
    fail(`${where}: data_offsets must be two non-negative integers [begin, end]`);
  const [begin, end] = offsets;
  if (begin > end) fail(`${where}: data_offsets [${begin}, ${end}] end before they begin`);
  if (dataLength !== undefined && end > dataLength)
    fail(`${where}: data_offsets [${begin}, ${end}] lie outside the data (${dataLength} bytes)`);
  // Two elements per byte at most (F4), so this bound is never hit by a consistent entry.
  const count =
    dataLength === undefined
      ? elementCount(shape, 2 * (end - begin), where, 'its data_offsets hold')
      : elementCount(shape, 2 * dataLength, where, 'the file has bytes');
  const bytes = byteLength(dtype, count);
  if (bytes < 0) fail(`${where}: shape ${formatShape(shape)} of ${dtype} does not fill whole bytes`);
  if (bytes !== end - begin)
    fail(
      `${where}: shape ${formatShape(shape)} of ${dtype} needs ${bytes} bytes, but data_offsets [${begin}, ${end}] cover ${end - begin}`,
    );
  return { name, dtype, shape: shape.slice(), count, begin, end };
}

// The tensors must tile [0, dataLength) exactly, as the reference implementation requires.
function checkTiling(sorted, dataLength) {
  let at = 0;
  let previous = null;
  for (const e of sorted) {
    if (e.begin < at)
      fail(`tensor ${quote(e.name)} overlaps tensor ${quote(previous.name)} (bytes ${e.begin} to ${at})`);
    if (e.begin > at) fail(`tensor ${quote(e.name)}: ${e.begin - at} bytes before it (from ${at}) belong to no tensor`);
    at = e.end;
    previous = e;
  }
  if (at !== dataLength)
    fail(
      `${dataLength - at} bytes after ${previous ? `tensor ${quote(previous.name)}` : 'the header'} belong to no tensor`,
    );
}

/**
 * The header of a safetensors file, checked: `bytes` start at the file's start and hold at least
 * the 8 + N header bytes. `fileSize` is the whole file's size (default: bytes.length); pass null
 * when it is not known yet (a stream), and the tensors' offsets define it.
 * → { dataStart, dataLength, tensors: [{ name, dtype, shape, count, begin, end }] in data order
 *   (offsets relative to dataStart), metadata (string → string, or null) }.
 */
export function decodeSafetensorsHeader(bytesIn, { fileSize } = {}) {
  const bytes = asBytes(bytesIn);
  const length = safetensorsHeaderSize(bytes);
  const size = fileSize === undefined ? bytes.length : fileSize;
  if (size !== null && length > size - 8)
    fail(`the header length ${length} runs past the end of the file (${size - 8} bytes follow it)`);
  if (bytes.length < 8 + length) fail(`the header needs ${8 + length} bytes, only ${bytes.length} were given`);
  const header = parseHeader(headerText(bytes, length));
  const dataLength = size === null ? undefined : size - 8 - length;
  const entries = [];
  let metadata = null;
  for (const [name, info] of Object.entries(header)) {
    if (name === '__metadata__') metadata = { ...checkMetadata(info) };
    else entries.push(tensorEntry(name, info, dataLength));
  }
  const sorted = entries.slice().sort((a, b) => a.begin - b.begin || a.end - b.end);
  const end = dataLength ?? (sorted.length ? sorted[sorted.length - 1].end : 0);
  checkTiling(sorted, end);
  return { dataStart: 8 + length, dataLength: end, tensors: sorted, entries, metadata };
}

function decodeOptions(options) {
  if (options === undefined) return 'native';
  if (options === null || typeof options !== 'object') fail("options must be an object such as { as: 'float32' }");
  const o = ownEntries(options);
  for (const key of Object.keys(o)) if (key !== 'as') fail(`unknown option ${quote(key)} (the only option is as)`);
  if (o.as === undefined) return 'native';
  if (!CONVERSIONS.includes(o.as))
    fail(
      `options.as must be one of ${CONVERSIONS.map((c) => `'${c}'`).join(', ')}, got ${typeof o.as === 'string' ? quote(o.as) : typeof o.as}`,
    );
  return o.as;
}

// Own enumerable properties even for names such as "__proto__", which plain assignment would not create.
function define(object, name, value) {
  Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Reads a safetensors file: name → { dtype, data, shape }, each data a copy in a typed array of
 * its dtype's own kind (see safetensors.d.ts), or converted with `{ as: 'float32' | 'float64' }`.
 * Any malformed or inconsistent file throws an Error naming the tensor. `__metadata__` is
 * accepted (see decodeSafetensorsMetadata).
 */
export function decodeSafetensors(bytesIn, options) {
  const as = decodeOptions(options);
  const bytes = asBytes(bytesIn);
  const { dataStart, entries } = decodeSafetensorsHeader(bytes);
  const tensors = {};
  for (const e of entries) {
    const stored = bytes.subarray(dataStart + e.begin, dataStart + e.end);
    const data = decodeData(e.dtype, stored, as, (message) => fail(`tensor ${quote(e.name)}: ${message}`));
    define(tensors, e.name, { dtype: e.dtype, data, shape: e.shape });
  }
  return tensors;
}

/** The `__metadata__` object of a safetensors file (string → string), or null; validates the whole file. */
export function decodeSafetensorsMetadata(bytes) {
  return decodeSafetensorsHeader(bytes).metadata;
}

// The reference implementation sorts names as UTF-8 bytes, which is code point order (JavaScript's
// default sort compares UTF-16 units, which differs above U+E000).
function byCodePoint(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

// An array (or a Proxy of one) read once: its length, checked, then each element.
function readArray(list, where, what) {
  const length = list.length;
  if (!Number.isSafeInteger(length) || length < 0 || length > MAX_ARRAY)
    fail(`${where}: ${what} has an invalid length (${typeof length === 'number' ? length : typeof length})`);
  const out = new Array(length);
  for (let i = 0; i < length; i++) out[i] = list[i];
  return out;
}

function checkShape(shapeIn, where) {
  const shape = Array.isArray(shapeIn) ? readArray(shapeIn, where, 'shape') : null;
  if (!shape || !shape.every(isCount)) fail(`${where}: shape must be an array of non-negative integers`);
  const count = elementCount(shape, Number.MAX_SAFE_INTEGER, where, 'a file can hold');
  return { shape, count };
}

/**
 * The header of a file holding `tensors` ([{ name, dtype, shape }], any order), laid out as the
 * reference implementation lays it out. → { bytes: the 8-byte length and the padded JSON,
 * tensors: [{ name, dtype, shape, begin, end }] in data order, dataLength }. A writer that streams
 * writes `bytes`, then each tensor's bytes in that order.
 */
export function encodeSafetensorsHeader(tensors, metadata) {
  if (!Array.isArray(tensors)) fail('tensors must be an array of { name, dtype, shape }');
  const list = readArray(tensors, 'encodeSafetensorsHeader', 'tensors').map((t) => {
    const name = t?.name;
    if (typeof name !== 'string') fail('each tensor needs a string name');
    const where = `tensor ${quote(name)}`;
    checkDtype(t.dtype, where);
    const { shape, count } = checkShape(t.shape, where);
    const bytes = byteLength(t.dtype, count);
    if (bytes < 0) fail(`${where}: shape ${formatShape(shape)} of ${t.dtype} does not fill whole bytes`);
    return { name, dtype: t.dtype, shape, bytes };
  });
  return layout(list, metadata);
}

function layout(list, metadata) {
  const names = new Set();
  for (const t of list) {
    if (t.name === '__metadata__') fail('"__metadata__" is reserved and cannot name a tensor');
    if (names.has(t.name)) fail(`tensor ${quote(t.name)} is given twice`);
    names.add(t.name);
  }
  const sorted = list
    .slice()
    .sort((a, b) => DTYPE_RANK.get(b.dtype) - DTYPE_RANK.get(a.dtype) || byCodePoint(a.name, b.name));
  // Written by hand, not by JSON.stringify of one object: JavaScript objects put integer-like keys
  // first, and the reference implementation writes __metadata__ first, then the tensors in data order.
  const parts = [];
  if (metadata !== undefined && metadata !== null)
    parts.push(`"__metadata__":${JSON.stringify({ ...checkMetadata(metadata) })}`);
  let offset = 0;
  const placed = sorted.map((t) => {
    const info = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.bytes] };
    parts.push(`${JSON.stringify(t.name)}:${JSON.stringify(info)}`);
    offset += t.bytes;
    return { name: t.name, dtype: t.dtype, shape: t.shape, begin: offset - t.bytes, end: offset };
  });
  const json = new TextEncoder().encode(`{${parts.join(',')}}`);
  const padded = Math.ceil(json.length / 8) * 8;
  if (padded > MAX_HEADER_BYTES)
    fail(`the header would be ${padded} bytes, more than the ${MAX_HEADER_BYTES}-byte limit`);
  const bytes = new Uint8Array(8 + padded).fill(0x20, 8);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, padded % 2 ** 32, true);
  view.setUint32(4, Math.floor(padded / 2 ** 32), true);
  bytes.set(json, 8);
  return { bytes, tensors: placed, dataLength: offset };
}

// One tensor to encode, read once and checked: { name, dtype, shape, bytes (its data, little-endian) }.
function tensorToEncode(name, value) {
  const where = `tensor ${quote(name)}`;
  if (value === null || typeof value !== 'object') fail(`${where} must be { data, shape } (and optionally dtype)`);
  const data = ownValue(value, 'data');
  const dtype = ownValue(value, 'dtype') ?? inferDtype(data);
  if (dtype === undefined) fail(`${where}: data must be a Float32Array, another typed array or an array of numbers`);
  checkDtype(dtype, where);
  const { shape, count } = checkShape(ownValue(value, 'shape'), where);
  const size = byteLength(dtype, count);
  if (size < 0) fail(`${where}: shape ${formatShape(shape)} of ${dtype} does not fill whole bytes`);
  const length = size / DTYPES.get(dtype).raw.BYTES_PER_ELEMENT;
  if (Array.isArray(data) && length > MAX_ARRAY)
    fail(`${where}: ${length} elements are too many to read from an array; pass a typed array`);
  const bytes = dataBytes(dtype, data, length, (message) => fail(`${where}: ${message}`), formatShape(shape));
  return { name, dtype, shape, bytes: size, data: bytes };
}

/**
 * Writes name → { data, shape, dtype? } as a safetensors file (Uint8Array), laid out as the
 * reference implementation lays it out. Without a dtype, float arrays and plain arrays are written
 * as F32 and integer typed arrays as their own kind. `metadata` (optional) is a string → string
 * object stored as `__metadata__`.
 */
export function encodeSafetensors(tensors, metadata) {
  if (tensors === null || typeof tensors !== 'object' || Array.isArray(tensors))
    fail('tensors must be an object name → { data, shape }');
  const entries = ownEntries(tensors);
  if (Object.hasOwn(entries, '__metadata__')) fail('"__metadata__" is reserved and cannot name a tensor');
  const list = Object.keys(entries).map((name) => tensorToEncode(name, entries[name]));
  const { bytes: header, tensors: placed, dataLength } = layout(list, metadata);
  const data = new Map(list.map((t) => [t.name, t.data]));
  const out = allocate(header.length + dataLength);
  out.set(header);
  for (const t of placed) out.set(data.get(t.name), header.length + t.begin);
  return out;
}

function allocate(bytes) {
  try {
    return new Uint8Array(bytes);
  } catch {
    return fail(`the file would be ${bytes} bytes, more than this engine can allocate at once`);
  }
}
