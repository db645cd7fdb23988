// The attention JSON format a model computed elsewhere can be imported in:
//   { "tokens": ["The", " cat", …], "attentions": [[[[…]]]] }
// attentions[layer][head][query][key], every row a causal or full softmax (numbers ≥ 0 summing to
// about 1). Parsing is strict and every problem is named with where it is, since the file comes
// from anywhere.
//
// The file can be large (GPT-2 small at 64 tokens is ~13 MB of text), so it is read as a stream
// and parsed by a push parser (createAttentionJsonReader) a slice of text at a time: the page's
// thread is never held for long (readAttentionFile yields between slices), the text is never held
// whole, and the weights go straight into one Float32Array instead of millions of JS arrays.
// Other fields of the object are checked as JSON and skipped.
// Each problem is a message of the catalogues (training.json.*): the Error's message is its English
// text, and err.i18n = { key, params } lets the page say it in the reader's language (readingError).
import { english } from '../model/model.js';

/** What the import accepts; the panel and docs/attention-json.md state the same numbers. */
export const IMPORT_LIMITS = Object.freeze({
  fileBytes: 64 * 1024 * 1024,
  tokens: 512,
  values: 8_000_000,
  heads: 2048,
  tokenLength: 1000,
});

const MAX_DEPTH = 256; // nesting of fields the import skips
const MAX_STRING = 1 << 20; // characters of any one string, as written in the file
const MAX_NUMBER = 100; // characters of any one number
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k); // exact doubles up to 1e22

// What a container on the parser's stack holds.
const TOP = 1; // the file's object
const TOKENS = 2; // "tokens": [...]
const LAYERS = 3; // "attentions": [layer, …]
const HEADS = 4; // attentions[l]: [head, …]
const ROWS = 5; // attentions[l][h]: [row, …]
const VALUES = 6; // attentions[l][h][i]: [number, …]
const SKIP = 7; // anything inside a field the import does not use

// Container states. Arrays: OPENED (a value or ']'), AFTER_VALUE (',' or ']'), AFTER_COMMA (a
// value). Objects: OPENED ('"' or '}'), AFTER_KEY (':'), AFTER_COLON (a value), AFTER_VALUE
// (',' or '}'), AFTER_COMMA ('"').
const OPENED = 0;
const AFTER_VALUE = 1;
const AFTER_COMMA = 2;
const AFTER_KEY = 3;
const AFTER_COLON = 4;

// A param of a problem: text or a number as it is, { kind } (a JSON value's kind, named in the
// reader's language), { grouped } (a count written with thousands separators) or { decimal } (a
// number already written with a point).
function paramText(value, i18n) {
  const locale = i18n.lang === 'qps' ? 'en' : i18n.lang;
  if (value?.kind) return i18n.t(`training.json.kind.${value.kind}`);
  if (value?.grouped !== undefined) return value.grouped.toLocaleString(locale);
  if (value?.decimal !== undefined) return i18n.decimal(value.decimal);
  return value;
}

function say({ key, params }, i18n) {
  return i18n.t(
    `training.json.${key}`,
    Object.fromEntries(Object.entries(params).map(([k, v]) => [k, paramText(v, i18n)])),
  );
}

function fail(key, params = {}) {
  const err = new Error(say({ key, params }, english));
  err.i18n = { key, params };
  throw err;
}

/** An error of readAttentionFile (or the parser) as `i18n`'s language says it; others as they are. */
export function readingError(err, i18n = english) {
  return err?.i18n ? say(err.i18n, i18n) : String(err?.message ?? err);
}

const notJson = (key, params) => fail(`notJson.${key}`, params);

function describe(c) {
  if (c === '"') return { kind: 'string' };
  if (c === '[') return { kind: 'array' };
  if (c === '{') return { kind: 'object' };
  if (c === 't' || c === 'f') return { kind: 'boolean' };
  if (c === 'n') return { kind: 'null' };
  return { kind: 'number' };
}

// A growable Float32Array (doubling, never past `max` elements).
function growable(initial, max, Kind = Float32Array) {
  return {
    data: new Kind(initial),
    length: 0,
    max,
    push(v) {
      if (this.length === this.data.length) {
        const next = new Kind(Math.min(this.max, this.data.length * 2));
        next.set(this.data);
        this.data = next;
      }
      this.data[this.length++] = v;
    },
  };
}

/**
 * A push parser of the attention JSON format: push(text) any number of times (pieces of the file
 * in order), then end() → { tokens: string[], layers: [{ data: Float32Array, shape: [H, T, T] }] }.
 * Throws an Error naming the first problem. `length`: the file's length if known (in characters
 * or bytes), so the weights' array is allocated once.
 */
export function createAttentionJsonReader(limits = IMPORT_LIMITS, { length = 0 } = {}) {
  return new AttentionJsonReader(limits, length);
}

class AttentionJsonReader {
  constructor(limits, length) {
    this.limits = limits;
    this.kinds = []; // container kinds, innermost last
    this.states = []; // their states
    this.keys = []; // objects: the key whose value comes next
    this.carry = ''; // an unfinished string, number or literal from the last piece
    this.done = false; // the top object has closed
    this.tokens = null;
    this.sawAttentions = false;
    // Each weight takes at least two characters ("0,"): a file's length bounds its weights, so a
    // large file gets its array at once instead of copying it as it doubles.
    this.values = growable(Math.max(1 << 16, Math.min(limits.values, Math.ceil(length / 2))), limits.values);
    this.rowLengths = growable(1 << 10, limits.heads * limits.tokens, Int32Array);
    this.headRows = []; // rows of each head, heads in file order
    this.layerHeads = []; // heads of each layer
    this.rowValues = 0; // numbers in the row being read
    this.rowSum = 0;
    this.unfinished = false; // numbers() stopped inside a number at the end of the piece
  }

  get T() {
    return this.tokens?.length ?? 0;
  }

  /** Parses the next piece of the file. */
  push(text) {
    const s = this.carry ? this.carry + text : text;
    this.carry = '';
    const stop = this.run(s, 0);
    if (stop < s.length) {
      this.carry = s.slice(stop);
      if (this.carry.length > MAX_STRING + 2) fail('longString', { max: { grouped: MAX_STRING } });
    }
  }

  /** After the last piece: the parsed file. */
  end() {
    if (this.carry) {
      const rest = this.carry;
      this.carry = '';
      // A number or literal ends with the file: a space closes it (and is JSON's whitespace).
      if (this.run(`${rest} `, 0) < rest.length + 1) notJson('endsInString');
    }
    if (!this.done) notJson(this.kinds.length ? 'unclosed' : 'empty');
    return this.result();
  }

  // Parses s from i; returns where an unfinished token starts (s.length when none is).
  run(s, i) {
    const n = s.length;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      if (this.done) notJson('trailing', { at: s.slice(i, i + 10) });
      const depth = this.kinds.length;
      const state = depth ? this.states[depth - 1] : OPENED;
      const kind = depth ? this.kinds[depth - 1] : 0;
      if (kind === VALUES && state !== AFTER_VALUE && (c === 0x2d || (c >= 0x30 && c <= 0x39))) {
        i = this.numbers(s, i); // the hot path: a run of numbers in a row
        if (this.unfinished) {
          this.unfinished = false;
          return i;
        }
        continue;
      }
      const objectKind = kind === TOP || (kind === SKIP && this.keys[depth - 1] !== undefined);
      if (objectKind && (state === OPENED || state === AFTER_COMMA)) {
        if (c === 0x7d && state === OPENED) {
          this.close(depth);
          i++;
          continue;
        }
        if (c !== 0x22) notJson('fieldName', { found: s[i] });
        const end = this.stringEnd(s, i);
        if (end < 0) return i;
        this.keys[depth - 1] = this.decode(s, i, end);
        this.states[depth - 1] = AFTER_KEY;
        i = end;
        continue;
      }
      if (objectKind && state === AFTER_KEY) {
        if (c !== 0x3a) notJson('colon', { found: s[i] });
        this.states[depth - 1] = AFTER_COLON;
        i++;
        continue;
      }
      if (depth && state === AFTER_VALUE) {
        const closer = objectKind ? 0x7d : 0x5d;
        if (c === closer) this.close(depth);
        else if (c === 0x2c) this.states[depth - 1] = AFTER_COMMA;
        else notJson('comma', { closer: String.fromCharCode(closer), found: s[i] });
        i++;
        continue;
      }
      if (!objectKind && depth && state === OPENED && c === 0x5d) {
        this.close(depth);
        i++;
        continue;
      }
      const end = this.value(s, i, c);
      if (end < 0) return i;
      i = end;
    }
    return n;
  }

  // A value starting at s[i] (c its code) inside the innermost container; returns where it ends,
  // or -1 when the piece ends inside it.
  value(s, i, c) {
    const depth = this.kinds.length;
    const parent = depth ? this.kinds[depth - 1] : 0;
    const ch = s[i];
    const container = c === 0x5b || c === 0x7b;
    if (!container && c !== 0x22 && c !== 0x2d && !(c >= 0x30 && c <= 0x39) && c !== 0x74 && c !== 0x66 && c !== 0x6e) {
      notJson('unexpected', { at: s.slice(i, i + 10) });
    }
    const child = this.childKind(parent, ch, depth);
    if (container) {
      if (child === SKIP && this.kinds.length >= MAX_DEPTH) fail('nested', { max: MAX_DEPTH });
      this.open(child, c === 0x7b);
      return i + 1;
    }
    const end = c === 0x22 ? this.stringEnd(s, i) : this.scalarEnd(s, i, c);
    if (end < 0) return -1;
    if (parent === TOKENS) this.token(this.decode(s, i, end));
    else if (c === 0x22)
      this.decode(s, i, end); // checked, then dropped
    else if (c !== 0x74 && c !== 0x66 && c !== 0x6e) this.number(s, i, end);
    this.valueDone(depth);
    return end;
  }

  // The kind of container (or SKIP) a value starting with `ch` makes inside `parent`; refuses
  // values of the wrong type where the format wants a particular one.
  childKind(parent, ch, depth) {
    const where = this.where();
    switch (parent) {
      case 0:
        if (ch !== '{') fail('notObject');
        return TOP;
      case TOP: {
        const key = this.keys[depth - 1];
        if (key === 'tokens') {
          if (this.tokens) fail('tokensTwice');
          if (ch !== '[') fail('tokensArray');
          return TOKENS;
        }
        if (key === 'attentions') {
          if (this.sawAttentions) fail('attentionsTwice');
          if (ch !== '[') fail('attentionsArray');
          return LAYERS;
        }
        return SKIP;
      }
      case TOKENS:
        if (ch !== '"' && ch !== '-' && !(ch >= '0' && ch <= '9')) fail('tokenString', { where });
        return 0;
      case LAYERS:
        if (ch !== '[') fail('headsArray', { where });
        return HEADS;
      case HEADS:
        if (ch !== '[') fail(this.T ? 'rows' : 'rowPerToken', { where, rows: this.T, got: describe(ch) });
        return ROWS;
      case ROWS:
        if (ch !== '[') fail(this.T ? 'numbers' : 'numberPerToken', { where, numbers: this.T, got: describe(ch) });
        return VALUES;
      case VALUES:
        if (ch === '"' || ch === '[' || ch === '{' || ch === 't' || ch === 'f' || ch === 'n')
          fail('weight', { where, got: describe(ch) });
        return 0;
      default:
        return SKIP;
    }
  }

  // Where the next value goes, as the format's path: tokens[3], attentions[0][2][5][7].
  where() {
    const kind = this.kinds.at(-1);
    if (kind === TOKENS) return `tokens[${this.tokens.length}]`;
    const l = this.layerHeads.length - (kind === LAYERS ? 0 : 1);
    if (kind === LAYERS) return `attentions[${l}]`;
    const h = this.layerHeads[l];
    if (kind === HEADS) return `attentions[${l}][${h}]`;
    const i = this.headRows.at(-1);
    if (kind === ROWS) return `attentions[${l}][${h - 1}][${i}]`;
    return `attentions[${l}][${h - 1}][${i - 1}][${this.rowValues}]`;
  }

  open(kind, isObject) {
    this.kinds.push(kind);
    this.states.push(OPENED);
    this.keys.push(isObject ? null : undefined);
    if (kind === TOKENS) this.tokens = [];
    else if (kind === LAYERS) this.sawAttentions = true;
    else if (kind === HEADS) {
      if (this.layerHeads.length >= this.limits.heads) fail('tooManyLayers', { max: this.limits.heads });
      this.layerHeads.push(0);
    } else if (kind === ROWS) {
      if (this.headRows.length >= this.limits.heads) fail('tooManyHeads', { max: { grouped: this.limits.heads } });
      this.layerHeads[this.layerHeads.length - 1]++;
      this.headRows.push(0);
    } else if (kind === VALUES) {
      const rows = ++this.headRows[this.headRows.length - 1];
      if (rows > this.limits.tokens) fail('tooManyRows', { where: this.headPath(), max: this.limits.tokens });
      this.rowValues = 0;
      this.rowSum = 0;
    }
  }

  headPath() {
    const l = this.layerHeads.length - 1;
    return `attentions[${l}][${this.layerHeads[l] - 1}]`;
  }

  // The container at `depth` closes: its own checks, then it counts as a value of its parent.
  close(depth) {
    const kind = this.kinds.pop();
    this.states.pop();
    this.keys.pop();
    if (kind === TOP) {
      this.done = true;
      return;
    }
    if (kind === VALUES) this.rowClosed();
    else if (kind === ROWS && this.T && this.headRows.at(-1) !== this.T) {
      fail('rows', { where: this.headPath(), rows: this.T, got: this.headRows.at(-1) });
    } else if (kind === HEADS && this.layerHeads.at(-1) === 0) {
      fail('headsArray', { where: `attentions[${this.layerHeads.length - 1}]` });
    }
    this.valueDone(depth - 1);
  }

  rowClosed() {
    const row = `${this.headPath()}[${this.headRows.at(-1) - 1}]`;
    if (this.T && this.rowValues !== this.T) fail('numbers', { where: row, numbers: this.T, got: this.rowValues });
    if (Math.abs(this.rowSum - 1) > 1e-2) fail('rowSum', { where: row, sum: { decimal: this.rowSum.toPrecision(4) } });
    this.rowLengths.push(this.rowValues);
  }

  valueDone(depth) {
    if (depth) this.states[depth - 1] = AFTER_VALUE;
  }

  token(value) {
    if (this.tokens.length >= this.limits.tokens) fail('tooManyTokens', { max: this.limits.tokens });
    const text = String(value);
    if (text.length > this.limits.tokenLength)
      fail('longToken', { where: `tokens[${this.tokens.length}]`, max: this.limits.tokenLength });
    this.tokens.push(text);
  }

  // Where the string starting at s[i] (a quote) ends, past its closing quote; -1 if the piece ends first.
  stringEnd(s, i) {
    const n = s.length;
    let j = i + 1;
    while (j < n) {
      const c = s.charCodeAt(j);
      if (c === 0x22) return j + 1;
      j += c === 0x5c ? 2 : 1;
      if (j - i > MAX_STRING) fail('longString', { max: { grouped: MAX_STRING } });
    }
    return -1;
  }

  // The string s[i, end) (quotes included) decoded by JSON's own rules.
  decode(s, i, end) {
    try {
      return JSON.parse(s.slice(i, end));
    } catch {
      return notJson('badString', { at: s.slice(i, Math.min(end, i + 30)) });
    }
  }

  // Where a number or literal starting at s[i] ends; -1 if the piece ends first.
  scalarEnd(s, i, c) {
    if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
      if (s.length - i < word.length)
        return word.startsWith(s.slice(i)) ? -1 : notJson('unexpected', { at: s.slice(i, i + 8) });
      if (s.slice(i, i + word.length) !== word) notJson('unexpected', { at: s.slice(i, i + 8) });
      return i + word.length;
    }
    const end = numberEnd(s, i);
    return end;
  }

  number(s, i, end) {
    if (this.kinds.at(-1) === VALUES) this.weight(Number(s.slice(i, end)));
  }

  weight(v) {
    if (!(v >= 0) || !Number.isFinite(v)) fail('weight', { where: this.where(), got: v });
    if (this.rowValues >= this.limits.tokens)
      fail('tooManyNumbers', { where: `${this.headPath()}[${this.headRows.at(-1) - 1}]`, max: this.limits.tokens });
    if (this.values.length >= this.limits.values) fail('tooManyWeights', { max: { grouped: this.limits.values } });
    this.values.push(v);
    this.rowValues++;
    this.rowSum += v;
  }

  // Numbers (and the commas between them) of the row being read, from s[i]; returns where the
  // run stops (at a ']' or anything else the general loop handles), or where the number starts
  // that the piece ends inside (with this.unfinished set).
  numbers(s, i) {
    const depth = this.kinds.length;
    for (;;) {
      let j = this.weightAt(s, i);
      if (j < 0) {
        // the number may go on in the next piece
        this.unfinished = true;
        return i;
      }
      // Whitespace, then a comma and the next number, or anything else for the general loop.
      let c = s.charCodeAt(j);
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = s.charCodeAt(++j);
      if (c !== 0x2c) {
        this.states[depth - 1] = AFTER_VALUE;
        return j;
      }
      c = s.charCodeAt(++j);
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = s.charCodeAt(++j);
      if (!(c === 0x2d || (c >= 0x30 && c <= 0x39))) {
        this.states[depth - 1] = AFTER_COMMA;
        return j;
      }
      i = j;
    }
  }

  // The number at s[start], kept as a weight; returns where it ends, or -1 when the piece ends
  // first. Short decimals are converted exactly here (digits / 10^k with both exact doubles is
  // correctly rounded, as Number() would give); the rest go through Number().
  weightAt(s, start) {
    const n = s.length;
    let j = start;
    let c = s.charCodeAt(j);
    const negative = c === 0x2d;
    if (negative) c = s.charCodeAt(++j);
    let mantissa = 0;
    let digits = 0;
    let fraction = 0;
    if (c === 0x30) c = s.charCodeAt(++j);
    else if (c >= 0x31 && c <= 0x39) {
      while (c >= 0x30 && c <= 0x39) {
        mantissa = mantissa * 10 + (c - 0x30);
        digits++;
        c = s.charCodeAt(++j);
      }
    } else if (j < n) notJson('badNumber', { at: s.slice(start, start + 12) });
    let simple = true;
    if (c === 0x2e) {
      c = s.charCodeAt(++j);
      const first = j;
      while (c >= 0x30 && c <= 0x39) {
        mantissa = mantissa * 10 + (c - 0x30);
        digits++;
        fraction++;
        c = s.charCodeAt(++j);
      }
      if (j === first && j < n) notJson('badNumber', { at: s.slice(start, start + 12) });
    }
    if (c === 0x65 || c === 0x45) {
      simple = false;
      j = numberEnd(s, start);
    }
    if (j - start > MAX_NUMBER) fail('longNumber', { max: MAX_NUMBER });
    if (j < 0 || j >= n) return -1;
    const v =
      simple && digits <= 15 && fraction <= 22
        ? (negative ? -mantissa : mantissa) / POW10[fraction]
        : Number(s.slice(start, j));
    this.weight(v);
    return j;
  }

  result() {
    if (!this.tokens || this.tokens.length === 0) fail('tokensArray');
    if (!this.sawAttentions || this.layerHeads.length === 0) fail('attentionsArray');
    const T = this.T;
    // Shapes not checked while reading ("attentions" came before "tokens").
    let head = 0;
    let row = 0;
    this.layerHeads.forEach((heads, l) => {
      for (let h = 0; h < heads; h++, head++) {
        const rows = this.headRows[head];
        if (rows !== T) fail('rows', { where: `attentions[${l}][${h}]`, rows: T, got: rows });
        for (let i = 0; i < rows; i++, row++) {
          const got = this.rowLengths.data[row];
          if (got !== T) fail('numbers', { where: `attentions[${l}][${h}][${i}]`, numbers: T, got });
        }
      }
    });
    const all = this.values.data;
    let offset = 0;
    const layers = this.layerHeads.map((H) => {
      const data = all.subarray(offset, offset + H * T * T);
      offset += H * T * T;
      return { data, shape: [H, T, T] };
    });
    return { tokens: this.tokens, layers };
  }
}

// Where the JSON number starting at s[i] ends (checked against JSON's grammar); -1 if the piece
// ends first.
function numberEnd(s, i) {
  const n = s.length;
  let j = i;
  const digitsFrom = (k) => {
    let m = k;
    while (m < n && s.charCodeAt(m) >= 0x30 && s.charCodeAt(m) <= 0x39) m++;
    return m;
  };
  const bad = () => notJson('badNumber', { at: s.slice(i, i + 12) });
  if (s.charCodeAt(j) === 0x2d) j++;
  if (j >= n) return -1;
  if (s.charCodeAt(j) === 0x30) j++;
  else if (s.charCodeAt(j) >= 0x31 && s.charCodeAt(j) <= 0x39) j = digitsFrom(j);
  else bad();
  if (j < n && s.charCodeAt(j) === 0x2e) {
    const k = digitsFrom(j + 1);
    if (k === j + 1) return k >= n ? -1 : bad();
    j = k;
  }
  if (j < n && (s.charCodeAt(j) === 0x65 || s.charCodeAt(j) === 0x45)) {
    j++;
    if (j < n && (s.charCodeAt(j) === 0x2b || s.charCodeAt(j) === 0x2d)) j++;
    const k = digitsFrom(j);
    if (k === j) return k >= n ? -1 : bad();
    j = k;
  }
  if (j - i > MAX_NUMBER) fail('longNumber', { max: MAX_NUMBER });
  return j >= n ? -1 : j;
}

/** Text → { tokens: string[], layers: [{ data: Float32Array, shape: [H, T, T] }] } (all at once). */
export function parseAttentionJson(text) {
  const reader = createAttentionJsonReader();
  reader.push(String(text));
  return reader.end();
}

/** Refuses a file larger than the import reads, before any of it is read. */
export function checkFileSize(bytes) {
  const max = IMPORT_LIMITS.fileBytes;
  if (bytes > max) fail('tooLarge', { size: { decimal: (bytes / 2 ** 20).toFixed(1) }, max: max / 2 ** 20 });
}

// Gives the page its thread back: input, timers and frames run before the next slice.
const nextTask = () =>
  globalThis.scheduler?.yield
    ? globalThis.scheduler.yield()
    : new Promise((resolve) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => {
          ch.port1.close();
          resolve();
        };
        ch.port2.postMessage(null);
      });

// Characters parsed between looks at the clock: ~0.3 ms once optimised, ~10 ms for the first
// pieces, still interpreted (measured in Node 20; 64 K characters took 40 ms cold).
const PIECE = 1 << 14;
const DECODE_BYTES = 1 << 20;

/**
 * Reads a File or Blob (or a string) in slices of at most `budgetMs` of parsing each, yielding to
 * the page between them. onProgress(fraction) after each slice; `signal` cancels (the promise
 * rejects with its reason). Resolves with what parseAttentionJson returns.
 */
export async function readAttentionFile(
  source,
  { signal, onProgress = () => {}, budgetMs = 8, now = () => performance.now() } = {},
) {
  const isText = typeof source === 'string';
  const total = isText ? source.length : source.size;
  checkFileSize(total);
  signal?.throwIfAborted();
  const reader = createAttentionJsonReader(IMPORT_LIMITS, { length: total });
  const pieces = isText ? stringPieces(source) : blobPieces(source);
  let sliceStart = now();
  for await (const text of pieces) {
    for (let k = 0; k < text.length; k += PIECE) {
      reader.push(text.slice(k, k + PIECE));
      if (isText) pieces.read += Math.min(PIECE, text.length - k);
      if (now() - sliceStart >= budgetMs) {
        onProgress(Math.min(1, pieces.read / Math.max(1, total)));
        await nextTask();
        signal?.throwIfAborted();
        sliceStart = now();
      }
    }
  }
  const parsed = reader.end();
  onProgress(1);
  return parsed;
}

// A string in pieces; the caller counts `read` (characters).
function stringPieces(text) {
  return {
    read: 0,
    async *[Symbol.asyncIterator]() {
      for (let k = 0; k < text.length; k += 4 * PIECE) yield text.slice(k, k + 4 * PIECE);
    },
  };
}

// The blob's text in the pieces its stream delivers; `read` counts the bytes read so far.
function blobPieces(blob) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const out = {
    read: 0,
    async *[Symbol.asyncIterator]() {
      const stream = blob.stream().getReader();
      try {
        for (;;) {
          const { value, done } = await stream.read();
          if (done) break;
          // (Node hands a Blob over in one chunk: decode it a megabyte at a time.)
          for (let k = 0; k < value.byteLength; k += DECODE_BYTES) {
            out.read += Math.min(DECODE_BYTES, value.byteLength - k);
            yield decodeOrFail(decoder, value.subarray(k, k + DECODE_BYTES), true);
          }
        }
        yield decodeOrFail(decoder, undefined, false);
      } finally {
        stream.releaseLock();
      }
    },
  };
  return out;
}

function decodeOrFail(decoder, bytes, more) {
  try {
    return decoder.decode(bytes, { stream: more });
  } catch {
    return fail('notUtf8');
  }
}

/** Token strings → ids (equal strings share an id), as head scores compare tokens by equality. */
export function tokenIds(tokens) {
  const ids = new Map();
  return tokens.map((t) => {
    if (!ids.has(t)) ids.set(t, ids.size);
    return ids.get(t);
  });
}
