// The explorer's state as a short, versioned text that fits in a link, and the strict check that
// every state arriving from outside (a link, a parent frame, an attribute) passes before the page
// uses it. Pure: no DOM, no attention core; runs unchanged in browsers and Node (node --test).
//
// Encoding, version 1:  "v1." + base64url( deflate-raw( UTF-8( JSON ) ) )
// The JSON is the state without what the page derives again (the version, the tokens the padding
// marks were computed for) and without the matrices of the other input mode. Numbers are written
// in JavaScript's shortest round-trip form, so values survive the trip exactly.
//
// Decoding never throws and never trusts its input: the text, the compressed bytes, the inflated
// JSON and every field are bounded before they are looked at, and a field of the wrong type or out
// of range rejects the whole link with a message naming it. Fields this module does not know (a
// lesson panel's settings) pass as small plain JSON; the page's reconcile() then repairs them.
//
// Later additions to version 1 are optional fields an older link simply lacks: the bias matrix
// (biasMatrix, matrices.B, whose −∞ cells JSON cannot hold and are written as the string "-inf"),
// the projection biases (biases, matrices.BQ … BO), cross-attention (cross, matrices.XM) and the
// token vectors' source (vectors: random, the trained text model, or a trained head opened from the
// training view, with what that head is; trained-vectors.js).
import { activeMatrices, LIMITS, MASK_KINDS, MAX_TOKENS } from './state.js';
import { MAX_TOKEN_LENGTH } from './tokenizer.js';
import { POSITIONAL } from './embeddings.js';
import { BIAS_PRESETS } from './extras-state.js';

export const LINK_VERSION = 1;
/** Longest encoded state accepted or produced (characters after "#s="). */
export const MAX_ENCODED_LENGTH = 100_000;
/** Largest inflated JSON accepted (bytes): a few hundred bytes of link cannot become gigabytes. */
const MAX_JSON_BYTES = 1 << 20;
/** Largest value a matrix cell may hold (the same bound the matrix editor accepts when typing). */
const MAX_ABS_VALUE = 1e6;

const MATRIX_NAMES = ['Q', 'K', 'V', 'X', 'WQ', 'WK', 'WV', 'WO', 'XM', 'B', 'BQ', 'BK', 'BV', 'BO'];
/** How a −∞ cell of the bias matrix B is written in a link (JSON has no infinities). */
const NEG_INF = '-inf';
const THEMES = ['auto', 'light', 'dark'];
const PALETTES = ['viridis', 'cividis', 'blues'];
const MAX_SIDE = Math.max(LIMITS.n[1], LIMITS.dk[1], LIMITS.dv[1], LIMITS.dModel[1]);
const MAX_SENTENCE = 2000;
const MAX_HEAD_NAME = 40;
// Fields of extensions (lesson panels): small plain JSON only.
const EXTRA = { depth: 5, nodes: 4000, string: 500, keys: 64 };
const KEY = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A state that cannot be used, with a reader-facing reason. */
export class StateError extends Error {
  constructor(message) {
    super(message);
    this.name = 'StateError';
  }
}

// A short, printable rendering of a rejected value for messages (never the whole value).
function show(v) {
  let text;
  try {
    text =
      typeof v === 'string'
        ? JSON.stringify(v)
        : typeof v === 'number'
          ? String(v)
          : Array.isArray(v)
            ? `an array of ${v.length}`
            : v === null
              ? 'null'
              : typeof v;
  } catch {
    text = typeof v;
  }
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

const isPlainObject = (v) =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

function int(v, [lo, hi], name) {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi)
    throw new StateError(`${name} must be a whole number from ${lo} to ${hi} (got ${show(v)})`);
  return v;
}

function oneOf(v, list, name) {
  if (!list.includes(v)) throw new StateError(`${name} must be one of ${list.join(', ')} (got ${show(v)})`);
  return v;
}

function str(v, max, name) {
  if (typeof v !== 'string' || v.length > max)
    throw new StateError(`${name} must be text of at most ${max} characters (got ${show(v)})`);
  return v;
}

function bool(v, name) {
  if (typeof v !== 'boolean') throw new StateError(`${name} must be true or false (got ${show(v)})`);
  return v;
}

function list(v, max, name) {
  if (!Array.isArray(v) || v.length > max)
    throw new StateError(`${name} must be a list of at most ${max} entries (got ${show(v)})`);
  return v;
}

function object(v, name) {
  if (!isPlainObject(v)) throw new StateError(`${name} must be an object (got ${show(v)})`);
  return v;
}

function knownKeys(obj, keys, name) {
  for (const key of Object.keys(obj)) {
    if (!keys.includes(key) && (FORBIDDEN_KEYS.has(key) || !KEY.test(key)))
      throw new StateError(`${name} has a field with a name that is not allowed (${show(key)})`);
  }
}

// Small plain JSON for fields this module does not know; copied into fresh objects.
function extra(v, name, budget = { nodes: EXTRA.nodes }, depth = 0) {
  if (--budget.nodes < 0) throw new StateError(`${name}: too much data`);
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new StateError(`${name} must be a finite number (got ${show(v)})`);
    return v;
  }
  if (typeof v === 'string') return str(v, EXTRA.string, name);
  if (depth >= EXTRA.depth) throw new StateError(`${name} is nested too deeply`);
  if (Array.isArray(v)) return v.map((x, i) => extra(x, `${name}[${i}]`, budget, depth + 1));
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    if (keys.length > EXTRA.keys) throw new StateError(`${name} has too many fields`);
    const out = {};
    for (const key of keys) {
      if (FORBIDDEN_KEYS.has(key) || !KEY.test(key))
        throw new StateError(`${name} has a field with a name that is not allowed (${show(key)})`);
      out[key] = extra(v[key], `${name}.${key}`, budget, depth + 1);
    }
    return out;
  }
  throw new StateError(`${name} is not plain data (got ${show(v)})`);
}

function matrix(v, name) {
  object(v, `matrix ${name}`);
  const rows = int(v.rows, [1, MAX_SIDE], `${name}.rows`);
  const cols = int(v.cols, [1, MAX_SIDE], `${name}.cols`);
  const data = v.data;
  if (!Array.isArray(data) || data.length !== rows * cols)
    throw new StateError(`${name}.data must hold ${rows} × ${cols} = ${rows * cols} numbers (got ${show(data)})`);
  const out = data.slice();
  for (let k = 0; k < data.length; k++) {
    const x = data[k];
    if (name === 'B' && (x === NEG_INF || x === -Infinity)) {
      out[k] = -Infinity; // only the bias matrix may hide a pair with −∞ (a state object may hold it as is)
      continue;
    }
    if (typeof x !== 'number' || !Number.isFinite(x) || Math.abs(x) > MAX_ABS_VALUE)
      throw new StateError(
        `${name}[${Math.floor(k / cols) + 1},${(k % cols) + 1}] must be a number between ±${MAX_ABS_VALUE}${name === 'B' ? ` or "${NEG_INF}"` : ''} (got ${show(x)})`,
      );
  }
  return { rows, cols, data: out };
}

function biasMatrixField(v) {
  object(v, 'biasMatrix');
  knownKeys(v, ['on', 'preset'], 'biasMatrix');
  const out = {};
  if ('on' in v) out.on = bool(v.on, 'biasMatrix.on');
  if ('preset' in v)
    out.preset = oneOf(
      v.preset,
      BIAS_PRESETS.map(([id]) => id),
      'biasMatrix.preset',
    );
  return out;
}

// A token list (tokens, cross.tokens): not empty, each token non-empty text.
function tokenList(v, name) {
  list(v, MAX_TOKENS, name);
  if (v.length === 0) throw new StateError(`${name} must not be empty`);
  return v.map((t, i) => {
    str(t, MAX_TOKEN_LENGTH, `${name}[${i}]`);
    if (!t) throw new StateError(`${name}[${i}] is empty`);
    return t;
  });
}

function crossField(v) {
  object(v, 'cross');
  knownKeys(v, ['on', 'sentence', 'tokens', 'xKey'], 'cross');
  const out = {};
  if ('on' in v) out.on = bool(v.on, 'cross.on');
  if ('sentence' in v) out.sentence = str(v.sentence, MAX_SENTENCE, 'cross.sentence');
  if ('xKey' in v) out.xKey = str(v.xKey, 16, 'cross.xKey');
  if ('tokens' in v) out.tokens = tokenList(v.tokens, 'cross.tokens');
  return out;
}

function scalingField(v) {
  object(v, 'scaling');
  knownKeys(v, ['sqrtDk', 'temperature'], 'scaling');
  const out = {};
  if ('sqrtDk' in v) out.sqrtDk = bool(v.sqrtDk, 'scaling.sqrtDk');
  if ('temperature' in v) {
    const t = v.temperature;
    const [lo, hi] = LIMITS.temperature;
    if (typeof t !== 'number' || !(t >= lo && t <= hi))
      throw new StateError(`scaling.temperature must be a number from ${lo} to ${hi} (got ${show(t)})`);
    out.temperature = t;
  }
  for (const k of Object.keys(v)) if (!(k in out)) out[k] = extra(v[k], `scaling.${k}`);
  return out;
}

function maskField(v) {
  object(v, 'mask');
  knownKeys(v, ['kind', 'pad', 'custom', 'customRows', 'padTokens'], 'mask');
  const out = {};
  if ('kind' in v) out.kind = oneOf(v.kind, MASK_KINDS, 'mask.kind');
  if ('pad' in v) out.pad = list(v.pad, LIMITS.m[1], 'mask.pad').map((x, j) => bool(x, `mask.pad[${j}]`));
  if ('custom' in v) {
    out.custom = list(v.custom, LIMITS.n[1] * LIMITS.m[1], 'mask.custom').map((x, k) => {
      if (x !== 0 && x !== 1) throw new StateError(`mask.custom[${k}] must be 0 or 1 (got ${show(x)})`);
      return x;
    });
  }
  if ('customRows' in v) out.customRows = int(v.customRows, LIMITS.n, 'mask.customRows');
  for (const k of Object.keys(v)) if (!(k in out) && k !== 'padTokens') out[k] = extra(v[k], `mask.${k}`);
  return out;
}

function matricesField(v) {
  object(v, 'matrices');
  const out = {};
  for (const name of Object.keys(v)) {
    if (!MATRIX_NAMES.includes(name))
      throw new StateError(`matrices may only be ${MATRIX_NAMES.join(', ')} (got ${show(name)})`);
    out[name] = matrix(v[name], name);
  }
  return out;
}

function viewField(v) {
  object(v, 'view');
  knownKeys(v, ['head'], 'view');
  const out = {};
  for (const k of Object.keys(v))
    out[k] = k === 'head' ? int(v.head, [0, LIMITS.heads[1] - 1], 'view.head') : extra(v[k], `view.${k}`);
  return out;
}

function displayField(v) {
  object(v, 'display');
  knownKeys(v, ['theme', 'palette'], 'display');
  const out = {};
  if ('theme' in v) out.theme = oneOf(v.theme, THEMES, 'display.theme');
  if ('palette' in v) out.palette = oneOf(v.palette, PALETTES, 'display.palette');
  return out;
}

// Where X comes from (trained-vectors.js). Links made before the trained head knew only random
// and the text model, and decode as they did.
function vectorsField(v) {
  object(v, 'vectors');
  const out = {};
  if ('source' in v)
    out.source = oneOf(v.source, ['random', 'text-model', 'trained-head', 'checkpoint'], 'vectors.source');
  for (const key of ['layer', 'head']) if (key in v) out[key] = int(v[key], [0, 63], `vectors.${key}`);
  for (const key of ['layers', 'heads']) if (key in v) out[key] = int(v[key], [1, 64], `vectors.${key}`);
  if ('dModel' in v) out.dModel = int(v.dModel, [1, 4096], 'vectors.dModel');
  if ('step' in v) out.step = int(v.step, [0, 1e9], 'vectors.step');
  if ('task' in v) out.task = oneOf(v.task, ['repeated', 'text'], 'vectors.task');
  if ('example' in v) out.example = oneOf(v.example, ['induction', 'text'], 'vectors.example');
  if ('left' in v) out.left = oneOf(v.left, ['trained-head'], 'vectors.left');
  knownKeys(v, Object.keys(out), 'vectors');
  for (const k of Object.keys(v)) if (!(k in out)) out[k] = extra(v[k], `vectors.${k}`);
  return out;
}

const sizeField = (v, key) => int(v, LIMITS[key], key);

// The check of each known field of a state (besides version); each returns the checked copy.
const FIELDS = {
  __proto__: null,
  mode: (v) => oneOf(v, ['sentence', 'qkv'], 'mode'),
  n: sizeField,
  m: sizeField,
  dk: sizeField,
  dv: sizeField,
  dModel: sizeField,
  heads: sizeField,
  seed: sizeField,
  sentence: (v) => str(v, MAX_SENTENCE, 'sentence'),
  tokens: (v) => tokenList(v, 'tokens'),
  scaling: scalingField,
  mask: maskField,
  matrices: matricesField,
  headNames: (v) => list(v, LIMITS.heads[1], 'headNames').map((t, i) => str(t, MAX_HEAD_NAME, `headNames[${i}]`)),
  view: viewField,
  display: displayField,
  positional: (v) => oneOf(v, POSITIONAL, 'positional'),
  xKey: (v) => str(v, 16, 'xKey'),
  biasMatrix: biasMatrixField,
  biases: (v) => bool(v, 'biases'),
  cross: crossField,
  vectors: vectorsField,
};
const KNOWN_FIELDS = ['version', ...Object.keys(FIELDS)];

/**
 * Checks a state from outside the page and returns a fresh copy holding only checked data, or
 * throws a StateError naming the first bad field. Missing fields are fine (reconcile fills them).
 */
export function validateState(input) {
  object(input, 'the state');
  const keys = Object.keys(input);
  if (keys.length > EXTRA.keys) throw new StateError('the state has too many fields');
  knownKeys(input, KNOWN_FIELDS, 'the state');
  const s = {};
  for (const key of keys) {
    const v = input[key];
    if (key === 'version')
      int(v, [1, 1000], 'version'); // checked, not kept: the page sets its own
    else s[key] = key in FIELDS ? FIELDS[key](v, key) : extra(v, key);
  }
  // The padding marks belong to the link's tokens (otherwise reconcile re-derives them).
  // (In cross-attention the keys are the memory's tokens.)
  const keyTokens = s.cross?.on && s.cross.tokens ? s.cross.tokens : s.tokens;
  if (keyTokens && s.mask?.pad) s.mask.padTokens = keyTokens.slice();
  return s;
}

/** The part of a (reconciled) state that a link carries: plain JSON data. */
export function toLinkState(state) {
  const active = new Set(activeMatrices(state).map(([name]) => name));
  const matrices = {};
  for (const [name, m] of Object.entries(state.matrices ?? {})) {
    // JSON has no −0 and no −∞ (only B may hold −∞; it travels as "-inf").
    if (active.has(name) && m)
      matrices[name] = {
        rows: m.rows,
        cols: m.cols,
        data: Array.from(m.data, (x) => (x === -Infinity ? NEG_INF : x + 0)),
      };
  }
  const { version, ...rest } = state;
  const out = { ...rest, matrices };
  if (state.mask) {
    const { padTokens, ...mask } = state.mask;
    out.mask = mask;
  }
  return out;
}

// ---- bytes <-> base64url ----------------------------------------------------------------------

const B64URL = /^[A-Za-z0-9_-]*$/;

export function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  if (!B64URL.test(text) || text.length % 4 === 1)
    throw new StateError('the link is damaged (it is not base64url text)');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function pump(bytes, transform, maxBytes, tooLarge) {
  const reader = new Blob([bytes]).stream().pipeThrough(transform).getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new StateError(tooLarge);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

// ---- state <-> text ---------------------------------------------------------------------------

/** Encodes a state as "v1.<base64url>"; throws a StateError when the result would be too long. */
export async function encodeState(state) {
  const json = JSON.stringify(toLinkState(state));
  const bytes = new TextEncoder().encode(json);
  if (bytes.length > MAX_JSON_BYTES)
    throw new StateError('this example is too large for a link: export it as JSON instead');
  const packed = await pump(bytes, new CompressionStream('deflate-raw'), MAX_JSON_BYTES, 'too large');
  const text = `v${LINK_VERSION}.${toBase64Url(packed)}`;
  if (text.length > MAX_ENCODED_LENGTH)
    throw new StateError(
      `this example is too large for a link (${text.length} characters, at most ${MAX_ENCODED_LENGTH}): export it as JSON instead`,
    );
  return text;
}

/**
 * Decodes text made by encodeState. Never throws: resolves to { ok: true, state } with a checked
 * state, or { ok: false, error } with a message for the reader.
 */
export async function decodeState(text) {
  try {
    if (typeof text !== 'string') throw new StateError('the link holds no state');
    if (text.length > MAX_ENCODED_LENGTH)
      throw new StateError(`the link is too long (${text.length} characters, at most ${MAX_ENCODED_LENGTH})`);
    const match = /^v(\d{1,4})\.(.*)$/s.exec(text);
    if (!match) throw new StateError('the link is not an explorer link (it should start with v1.)');
    if (Number(match[1]) !== LINK_VERSION)
      throw new StateError(
        `the link was made by a newer version of the explorer (format v${match[1]}; this page reads v${LINK_VERSION})`,
      );
    const packed = fromBase64Url(match[2]);
    let bytes;
    try {
      bytes = await pump(
        packed,
        new DecompressionStream('deflate-raw'),
        MAX_JSON_BYTES,
        `the link unpacks to more than ${MAX_JSON_BYTES} bytes`,
      );
    } catch (err) {
      if (err instanceof StateError) throw err;
      throw new StateError('the link is damaged (it does not unpack)');
    }
    let json;
    try {
      json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      throw new StateError('the link is damaged (its content is not JSON)');
    }
    return { ok: true, state: validateState(json) };
  } catch (err) {
    return { ok: false, error: err instanceof StateError ? err.message : 'the link could not be read' };
  }
}

// ---- links ------------------------------------------------------------------------------------

/** The encoded state in a URL hash ("#s=v1.…"), or null when the hash carries none. */
export function stateFromHash(hash) {
  const text = String(hash ?? '').replace(/^#/, '');
  if (!text.startsWith('s=') && !text.includes('&s=')) return null;
  return new URLSearchParams(text).get('s');
}

/** A preset id named in the hash ("#preset=heads"), or null. */
export function presetFromHash(hash) {
  const text = String(hash ?? '').replace(/^#/, '');
  if (!/(^|&)preset=/.test(text)) return null;
  return new URLSearchParams(text).get('preset');
}

/** `base` (any URL) with its hash replaced by the encoded state. */
export function linkFor(base, encoded) {
  const url = new URL(base);
  url.hash = `s=${encoded}`;
  return url.href;
}
