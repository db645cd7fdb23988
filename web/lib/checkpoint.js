// Opening a safetensors checkpoint into a transformer: the header is read and checked first, the
// model is made without drawing random weights, and the tensors' bytes go straight into its
// parameter block (checkpoint-writer.js). openSafetensors does it at once from bytes in memory;
// loadCheckpoint does it from bytes, a Blob/File, a URL or a stream in slices, so a file's bytes
// are never all in JavaScript memory, reporting progress, yielding to the event loop between
// slices and stopping at an AbortSignal. A model that fails to fill is disposed before the Error
// is thrown.
import { decodeSafetensorsHeader, safetensorsHeaderSize } from './safetensors.js';
import { bytesView } from './safetensors-dtypes.js';
import { detachedKind, detachedMessage } from './typed-arrays.js';
import { fail, show } from './checks.js';
import { checkOptions } from './read-input.js';
import { ParameterWriter, neededRanges, planLoad } from './checkpoint-writer.js';

const LOAD_OPTIONS = ['signal', 'onProgress'];
const SLICE_BYTES = 16 << 20; // per read: a few milliseconds of copying or conversion
const BUSY_MS = 30; // work between two yields to the event loop, at most about this

// `target` is what the caller's create(config) returns: { model, block, instance }, block() giving
// the live { module, base, tensors } of the model's parameters.
function begin(header, target) {
  try {
    const plan = planLoad(header.tensors, target.block().tensors, target.model.config.tieEmbeddings);
    return { ...target, plan, writer: new ParameterWriter(target.block, plan) };
  } catch (err) {
    target.model.dispose();
    throw err;
  }
}

function end(load, error) {
  load.writer.free(load.instance.module);
  if (error === undefined) return load.model;
  load.model.dispose();
  throw error;
}

function asBytes(source, name, kinds) {
  const detached = detachedKind(source);
  if (detached) fail(detachedMessage(name, detached));
  return bytesView(source) ?? fail(`${name} must be ${kinds}; got ${show(source)}`);
}

/** A model from safetensors bytes in memory, at once (see transformerFromSafetensors). */
export function openSafetensors(bytes, create) {
  const view = asBytes(bytes, 'bytes', 'a Uint8Array or an ArrayBuffer');
  const header = decodeSafetensorsHeader(view);
  const load = begin(header, create());
  try {
    load.writer.write(view.subarray(header.dataStart), 0);
    load.writer.finish();
  } catch (err) {
    end(load, err);
  }
  return end(load);
}

// ---- the asynchronous form ----------------------------------------------------------------------

function abortError(signal) {
  return signal.reason ?? new DOMException('the operation was aborted', 'AbortError');
}

// Lets the page paint and handle input between slices (scheduler.yield where the engine has it:
// unlike setTimeout it is not slowed to once a second in a background tab).
function yieldToEventLoop() {
  if (typeof globalThis.scheduler?.yield === 'function') return globalThis.scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Cancellation, progress and yielding for one load: { check(), progress(loaded, total), pause() }. */
function context(options, what) {
  const o = checkOptions(options, LOAD_OPTIONS, `${what} options`);
  const { signal, onProgress } = o;
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || typeof signal.aborted !== 'boolean'))
    fail(`options.signal must be an AbortSignal, got ${show(signal)}`);
  if (onProgress !== undefined && typeof onProgress !== 'function')
    fail(`options.onProgress must be a function, got ${show(onProgress)}`);
  let since = performance.now();
  let last = -1;
  // Rejects at the abort, so a read that never settles (a stalled stream) cannot hold a load.
  let onAbort = null;
  const aborted = signal
    ? new Promise((resolve, reject) => {
        onAbort = () => reject(abortError(signal));
        signal.addEventListener?.('abort', onAbort, { once: true });
      })
    : null;
  aborted?.catch(() => {});
  const ctx = {
    signal,
    /** `promise`, or the abort's rejection if that comes first. */
    race(promise) {
      return aborted ? Promise.race([promise, aborted]) : promise;
    },
    done() {
      if (onAbort) signal.removeEventListener?.('abort', onAbort);
    },
    check() {
      if (signal?.aborted) throw abortError(signal);
    },
    progress(loaded, total) {
      if (loaded === last) return;
      last = loaded;
      onProgress?.({ loaded, total });
    },
    async pause() {
      if (performance.now() - since < BUSY_MS) return;
      await yieldToEventLoop();
      since = performance.now();
      ctx.check();
    },
  };
  return ctx;
}

/** Random access to bytes in memory or to a Blob: { size, read(start, end) → Promise<Uint8Array> }. */
function rangeReader(source) {
  if (typeof Blob !== 'undefined' && source instanceof Blob)
    return {
      size: source.size,
      read: async (start, end) => new Uint8Array(await source.slice(start, end).arrayBuffer()),
    };
  const bytes = asBytes(
    source,
    'source',
    'a Uint8Array, an ArrayBuffer, a Blob or File, a URL, a Response or a ReadableStream',
  );
  // The caller's buffer is read slice by slice: a callback (onProgress) may transfer it meanwhile.
  const read = async (start, end) => {
    if (detachedKind(bytes)) fail("source's ArrayBuffer was detached (transferred) during the load; pass a copy");
    return bytes.subarray(start, end);
  };
  return { size: bytes.length, read };
}

async function loadFromRanges(reader, create, ctx) {
  const first = await ctx.race(reader.read(0, Math.min(8, reader.size)));
  const length = safetensorsHeaderSize(first);
  if (length > reader.size - 8)
    fail(`safetensors: the header length ${length} runs past the end of the file (${reader.size - 8} bytes follow it)`);
  const header = decodeSafetensorsHeader(await ctx.race(reader.read(0, 8 + length)), { fileSize: reader.size });
  ctx.check();
  ctx.progress(header.dataStart, reader.size);
  const load = begin(header, create());
  try {
    for (const [from, to] of neededRanges(load.plan)) {
      for (let at = from; at < to; at += SLICE_BYTES) {
        const stop = Math.min(to, at + SLICE_BYTES);
        const piece = await ctx.race(reader.read(header.dataStart + at, header.dataStart + stop));
        ctx.check();
        load.writer.write(piece, at);
        ctx.progress(header.dataStart + stop, reader.size);
        await ctx.pause();
      }
    }
    load.writer.finish();
    ctx.progress(reader.size, reader.size);
    ctx.check(); // onProgress may have aborted: the promise has not settled yet
  } catch (err) {
    end(load, ctx.signal?.aborted ? abortError(ctx.signal) : err);
  }
  return end(load);
}

function resolveUrl(source) {
  const base = globalThis.document?.baseURI ?? globalThis.location?.href;
  try {
    return new URL(source, base);
  } catch {
    return fail(
      `source ${show(String(source))} is not a URL that can be fetched${base ? '' : ' (a relative URL needs a page to resolve against)'}`,
    );
  }
}

async function fetchOk(url, ctx, what) {
  const response = await ctx.race(fetch(url, { signal: ctx.signal }));
  if (!response.ok)
    fail(`${what} ${url.href} could not be fetched: HTTP ${response.status} ${response.statusText}`.trim());
  return response;
}

// The next chunk of a stream as bytes, or null at its end.
async function nextChunk(stream, ctx) {
  const { done, value } = await ctx.race(stream.read());
  ctx.check();
  if (done) return null;
  return asBytes(value, 'each chunk of the stream', 'bytes (a Uint8Array)');
}

// Reads from a stream until at least `count` bytes are buffered (after `have`); → all of them.
async function readAtLeast(stream, ctx, have, count, what) {
  let all = have;
  while (all.length < count) {
    const value = await nextChunk(stream, ctx);
    if (value === null) fail(`safetensors: the file ends after ${all.length} bytes, inside ${what}`);
    const joined = new Uint8Array(all.length + value.length);
    joined.set(all);
    joined.set(value, all.length);
    all = joined;
  }
  return all;
}

async function streamHeader(stream, ctx) {
  const start = await readAtLeast(stream, ctx, new Uint8Array(0), 8, 'the 8-byte header length');
  const count = 8 + safetensorsHeaderSize(start);
  const all = await readAtLeast(stream, ctx, start, count, 'the header');
  return { header: decodeSafetensorsHeader(all.subarray(0, count), { fileSize: null }), rest: all.subarray(count) };
}

async function loadFromStream(stream, create, ctx) {
  const { header, rest } = await streamHeader(stream, ctx);
  ctx.check();
  const total = header.dataStart + header.dataLength;
  ctx.progress(header.dataStart, total);
  const load = begin(header, create());
  try {
    let at = 0;
    for (let piece = rest; ;) {
      if (at + piece.length > header.dataLength)
        fail(`safetensors: ${at + piece.length - header.dataLength}+ bytes after the last tensor belong to no tensor`);
      load.writer.write(piece, at);
      at += piece.length;
      ctx.progress(header.dataStart + at, total);
      await ctx.pause();
      const next = await nextChunk(stream, ctx);
      if (next === null) break;
      piece = next;
    }
    if (at < header.dataLength)
      fail(`safetensors: the file ends after ${header.dataStart + at} bytes; its header describes ${total}`);
    load.writer.finish();
  } catch (err) {
    stream.cancel().catch(() => {});
    end(load, ctx.signal?.aborted ? abortError(ctx.signal) : err);
  }
  return end(load);
}

async function loadFromUrl(url, config, prepare, create, ctx) {
  let checked = config;
  if (config === undefined || config === null) {
    const where = new URL('config.json', url);
    const response = await fetchOk(where, ctx, 'the config.json beside the checkpoint,');
    let json;
    try {
      json = await ctx.race(response.json());
    } catch (err) {
      ctx.check();
      fail(`the config.json beside the checkpoint (${where.href}) is not valid JSON (${err.message})`);
    }
    checked = prepare(json);
  }
  const response = await fetchOk(url, ctx, 'the checkpoint');
  if (!response.body) fail(`the checkpoint ${url.href} came without a body`);
  return loadFromStream(response.body.getReader(), () => create(checked), ctx);
}

const isUrl = (x) => typeof x === 'string' || (typeof URL !== 'undefined' && x instanceof URL);
const isStream = (x) => typeof ReadableStream !== 'undefined' && x instanceof ReadableStream;
const isResponse = (x) => typeof Response !== 'undefined' && x instanceof Response;

// A Response the caller fetched (with its own headers or credentials) or a ReadableStream of bytes.
function streamReader(source) {
  if (isStream(source)) return source.getReader();
  if (!source.ok)
    fail(`the response for ${source.url || 'the checkpoint'} is HTTP ${source.status} ${source.statusText}`.trim());
  if (!source.body) fail('the response has no body');
  return source.body.getReader();
}

/**
 * The asynchronous open: `source` is bytes, a Blob/File, a URL (string or URL object; its
 * config.json is fetched when `config` is omitted), a Response or a ReadableStream of bytes.
 * `prepare(config)` checks a config and returns what `create(checked)` takes; create returns
 * { model, block, instance } (see begin).
 */
export async function loadCheckpoint(source, config, options, { prepare, create }) {
  const ctx = context(options, 'loadTransformer');
  const checked = config === undefined || config === null ? null : prepare(config);
  if (!isUrl(source) && checked === null)
    fail(
      'loadTransformer needs a config (ours or a Hugging Face config.json object) unless source is a URL with a config.json beside it',
    );
  const streamed = isStream(source) || isResponse(source);
  const reader = isUrl(source) || streamed ? null : rangeReader(source);
  ctx.check();
  try {
    if (isUrl(source)) return await loadFromUrl(resolveUrl(source), checked, prepare, create, ctx);
    if (streamed) return await loadFromStream(streamReader(source), () => create(checked), ctx);
    return await loadFromRanges(reader, () => create(checked), ctx);
  } catch (err) {
    if (ctx.signal?.aborted) throw abortError(ctx.signal);
    throw err;
  } finally {
    ctx.done();
  }
}

export { context as progressContext };
