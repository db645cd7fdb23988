// The strict check that every state arriving from outside (a link, a parent frame, an attribute,
// a host's setState) passes before the page uses it: a field of the wrong type or out of range
// rejects the whole state with a message naming it. Fields this module does not know (a lesson
// panel's settings) pass as small plain JSON; the page's reconcile() then repairs them. Pure: no
// DOM, no attention core. It is apart from the link codec (url-state.js), which loads only when a
// link is read or written, because a host's setState checks at once.
import { LIMITS, MASK_KINDS, MAX_TOKENS } from './state.js';
import { MAX_TOKEN_LENGTH } from './tokenizer.js';
import { POSITIONAL } from './embeddings.js';
import { BIAS_PRESETS } from './extras-state.js';

/** Largest value a matrix cell may hold (the same bound the matrix editor accepts when typing). */
const MAX_ABS_VALUE = 1e6;

const MATRIX_NAMES = ['Q', 'K', 'V', 'X', 'WQ', 'WK', 'WV', 'WO', 'XM', 'B', 'BQ', 'BK', 'BV', 'BO'];
/** How a −∞ cell of the bias matrix B is written in a link (JSON has no infinities). */
export const NEG_INF = '-inf';
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
