// A teacher's starting numbers written as plain text: the q, k, v, x, sentence and mask attributes
// of <attention-explorer> and the same fields of embed.html's address. Each field is read and
// checked on its own (sizes within the explorer's limits, every number finite and within ±10⁶,
// text bounded), then the fields are applied to an example. Whatever fails is named in a message
// and left out; the rest is used. Pure: no DOM, no attention core.
//
//   q, k, v   a matrix, one row per token: JSON ([[1, 0], [0, 1]]) or rows separated by ";" or
//             new lines with the numbers separated by spaces or commas ("1 0; 0 1")
//   x         the token vectors of a sentence, one row per token, in the same forms
//   sentence  words: the tokens that label the rows (and the words whose vectors X holds)
//   mask      none | causal | padding | custom, or JSON: a row of 0/1 per key (1 = a [PAD] key,
//             hidden from every query) or a matrix of 0/1 per query and key (1 = hidden)
// The fields' names are in starting-fields.js (the element and embed.html read them at once); this
// module loads when an example has starting numbers (initial-state.js).
import { LIMITS, MAX_TOKENS } from './state.js';
import { tokenize } from './tokenizer.js';

const MAX_FIELD_LENGTH = 20_000;
const MAX_ABS = 1e6;
const MASK_WORDS = ['none', 'causal', 'padding', 'custom'];
const EXAMPLE = '[[1, 0], [0, 1]] or 1 0; 0 1';

class FieldError extends Error {}

const shown = (text) => {
  const t = String(text);
  return JSON.stringify(t.length > 24 ? `${t.slice(0, 21)}…` : t);
};

// One number of a plain-text row ("1.5", "-2", "3e-2", "−0.5").
function plainNumber(text, where) {
  const t = text.replace(/\u2212/g, '-');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t))
    throw new FieldError(`${where} is ${shown(text)}, not a number`);
  return Number(t);
}

// Rows of numbers from JSON or plain text, before any size check.
function readRows(text) {
  const t = text.trim();
  if (t.startsWith('[')) {
    let value;
    try {
      value = JSON.parse(t);
    } catch {
      throw new FieldError(`is not valid JSON (write rows of numbers, e.g. ${EXAMPLE})`);
    }
    if (!Array.isArray(value) || !value.every(Array.isArray))
      throw new FieldError(`must be a list of rows, each a list of numbers (e.g. ${EXAMPLE})`);
    return value.map((row, i) =>
      row.map((v, j) => {
        if (typeof v !== 'number')
          throw new FieldError(`row ${i + 1}, number ${j + 1} is ${shown(JSON.stringify(v))}, not a number`);
        return v;
      }),
    );
  }
  return t
    .split(/\s*[;\n]\s*/)
    .filter((row) => row !== '')
    .map((row, i) =>
      row
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((cell, j) => plainNumber(cell, `row ${i + 1}, number ${j + 1}`)),
    );
}

/** A matrix { rows, cols, data } from a field's text; throws an Error naming the problem. */
export function parseMatrix(text, { maxRows = LIMITS.n[1], maxCols = LIMITS.dModel[1] } = {}) {
  if (typeof text !== 'string') throw new FieldError('must be text');
  if (text.length > MAX_FIELD_LENGTH) throw new FieldError(`is longer than ${MAX_FIELD_LENGTH} characters`);
  const rows = readRows(text);
  if (rows.length === 0) throw new FieldError(`is empty (write rows of numbers, e.g. ${EXAMPLE})`);
  if (rows.length > maxRows) throw new FieldError(`has ${rows.length} rows; at most ${maxRows}`);
  const cols = rows[0].length;
  if (cols === 0) throw new FieldError('row 1 is empty');
  if (cols > maxCols) throw new FieldError(`has ${cols} numbers per row; at most ${maxCols}`);
  rows.forEach((row, i) => {
    if (row.length !== cols) throw new FieldError(`row ${i + 1} has ${row.length} numbers, row 1 has ${cols}`);
    row.forEach((v, j) => {
      if (!Number.isFinite(v) || Math.abs(v) > MAX_ABS)
        throw new FieldError(`row ${i + 1}, number ${j + 1} (${v}) is not a finite number within ±10⁶`);
    });
  });
  return { rows: rows.length, cols, data: rows.flat() };
}

// The sentence's tokens; throws when there are none or too many.
function parseSentence(text) {
  if (typeof text !== 'string') throw new FieldError('must be text');
  if (text.length > 2000) throw new FieldError('is longer than 2000 characters');
  const { tokens, truncated } = tokenize(text, MAX_TOKENS);
  if (tokens.length === 0) throw new FieldError('has no words');
  if (truncated) throw new FieldError(`has more than ${MAX_TOKENS} tokens`);
  return { sentence: text, tokens };
}

// A mask word, or a 0/1 row (padding) or matrix (custom) checked against n queries and m keys.
function parseMask(text, n, m) {
  const t = String(text).trim();
  if (MASK_WORDS.includes(t.toLowerCase())) return { kind: t.toLowerCase() };
  if (!t.startsWith('['))
    throw new FieldError(`must be ${MASK_WORDS.join(', ')} or a JSON list of 0 and 1 (got ${shown(t)})`);
  let value;
  try {
    value = JSON.parse(t);
  } catch {
    throw new FieldError('is not valid JSON');
  }
  const bit = (v, where) => {
    if (v !== 0 && v !== 1 && v !== true && v !== false)
      throw new FieldError(`${where} is ${shown(JSON.stringify(v))}, not 0 or 1`);
    return v === 1 || v === true ? 1 : 0;
  };
  if (Array.isArray(value) && value.every((v) => !Array.isArray(v))) {
    if (value.length !== m) throw new FieldError(`has ${value.length} entries, one per key: there are ${m} keys`);
    return { kind: 'padding', pad: value.map((v, j) => Boolean(bit(v, `entry ${j + 1}`))) };
  }
  if (!Array.isArray(value) || !value.every(Array.isArray))
    throw new FieldError('must be a list of 0/1 per key, or rows of them per query');
  if (value.length !== n) throw new FieldError(`has ${value.length} rows, one per query: there are ${n} queries`);
  const custom = value.flatMap((row, i) => {
    if (row.length !== m)
      throw new FieldError(`row ${i + 1} has ${row.length} entries, one per key: there are ${m} keys`);
    return row.map((v, j) => bit(v, `row ${i + 1}, entry ${j + 1}`));
  });
  return { kind: 'custom', custom, customRows: n };
}

// Runs `read`, turning a FieldError into a message for `name`; other errors are bugs and rethrow.
function attempt(name, errors, read) {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof FieldError)) throw err;
    errors.push(`${name} ${err.message}`);
    return null;
  }
}

const given = (fields, name) =>
  fields[name] !== undefined && fields[name] !== null && String(fields[name]).trim() !== '';

// q, k and v: Q/K/V mode with their sizes. Returns the patched state, or `state` unchanged.
function applyQkv(state, fields, errors) {
  const want = ['q', 'k', 'v'].filter((name) => given(fields, name));
  if (!want.length) return state;
  const m = {};
  for (const name of want)
    m[name] = attempt(name, errors, () =>
      parseMatrix(String(fields[name]), { maxRows: LIMITS.n[1], maxCols: LIMITS.dk[1] }),
    );
  if (want.some((name) => !m[name])) return state;
  const base = state.mode === 'qkv' ? state.matrices : {};
  const Q = m.q ?? base.Q;
  const K = m.k ?? base.K;
  if (!Q || !K) {
    errors.push(
      `${m.q ? 'k' : 'q'} is missing: q and k go together (one row per query, one per key, the same number of columns)`,
    );
    return state;
  }
  if (Q.cols !== K.cols) {
    errors.push(`q has ${Q.cols} numbers per row and k has ${K.cols}: queries and keys need the same length dₖ`);
    return state;
  }
  let V = m.v ?? (base.V?.rows === K.rows ? base.V : null);
  if (V && V.rows !== K.rows) {
    errors.push(`v has ${V.rows} rows and k has ${K.rows}: one value per key`);
    return state;
  }
  V ??= undefined; // drawn from the seed when the example has none that fits
  const matrices = { Q, K, ...(V ? { V } : {}) };
  return {
    ...state,
    mode: 'qkv',
    n: Q.rows,
    m: K.rows,
    dk: Q.cols,
    dv: V ? V.cols : Math.min(Q.cols, LIMITS.dv[1]),
    heads: 1,
    matrices,
    mask: { ...state.mask, custom: undefined, customRows: undefined, pad: undefined },
  };
}

// sentence and x: sentence mode with those tokens (and that X). Returns the patched state.
// qkvUsed: q, k and v were applied (they win over a sentence given as well).
function applySentence(state, fields, errors, qkvUsed) {
  const hasSentence = given(fields, 'sentence');
  const hasX = given(fields, 'x');
  if (!hasSentence && !hasX) return state;
  if (qkvUsed) {
    errors.push('sentence and x describe a sentence, q, k and v typed numbers: give one or the other (q, k, v used)');
    return state;
  }
  const words = hasSentence ? attempt('sentence', errors, () => parseSentence(String(fields.sentence))) : null;
  const X = hasX
    ? attempt('x', errors, () => parseMatrix(String(fields.x), { maxRows: MAX_TOKENS, maxCols: LIMITS.dModel[1] }))
    : null;
  if ((hasSentence && !words) || (hasX && !X)) return state;
  let { sentence, tokens } = words ?? { sentence: state.sentence, tokens: state.tokens };
  if (X && !words && (state.mode !== 'sentence' || state.tokens?.length !== X.rows)) {
    tokens = Array.from({ length: X.rows }, (_, i) => `t${i + 1}`);
    sentence = tokens.join(' ');
  }
  if (X && X.rows !== tokens.length) {
    errors.push(`x has ${X.rows} rows and the sentence has ${tokens.length} tokens: one row per token`);
    return state;
  }
  const next = { ...state, mode: 'sentence', sentence, tokens, matrices: { ...state.matrices } };
  delete next.xKey; // X as given (or, for a new sentence, made from its words)
  if (X) {
    next.matrices.X = X;
    next.dModel = X.cols;
    if (X.cols % (state.heads ?? 1) !== 0) next.heads = 1;
  } else if (words) {
    delete next.matrices.X;
  }
  next.mask = { ...state.mask, padTokens: undefined, custom: undefined, customRows: undefined };
  return next;
}

// The mask, checked against the sizes the other fields left.
function applyMask(state, fields, errors) {
  if (!given(fields, 'mask')) return state;
  const sentence = state.mode === 'sentence';
  const n = sentence ? state.tokens.length : state.n;
  const m = sentence ? state.tokens.length : state.m;
  const mask = attempt('mask', errors, () => parseMask(String(fields.mask), n, m));
  if (!mask) return state;
  const next = { ...state.mask, ...mask };
  // A sentence's padding follows its [PAD] tokens unless the row of 0/1 says otherwise.
  if (sentence && mask.pad) next.padTokens = state.tokens.slice();
  return { ...state, mask: next };
}

/**
 * Applies the starting-number fields of `fields` (any of STARTING_FIELDS, as text) to `state`.
 * Returns { state, errors, used }: the fields that failed are left out, each with a message
 * naming it (errors), and `used` says whether anything was applied.
 */
export function applyStartingNumbers(state, fields = {}) {
  const errors = [];
  let next = applyQkv(state, fields, errors);
  next = applySentence(next, fields, errors, next !== state);
  next = applyMask(next, fields, errors);
  return { state: next, errors, used: next !== state };
}
