// GPT-2's byte-level BPE tokenizer (the 50 257 tokens of Hugging Face's "gpt2" tokenizer and of
// OpenAI's GPT-2; `<|endoftext|>` is 50256), entry `attention-explorer/gpt2-tokenizer`. The merge
// ranks ship inside the js-tiktoken npm package (ranks/gpt2, ~545 KB), whose BPE core and ranks
// scripts/build.sh copies into web/lib/vendor/ as plain ES modules (scripts/vendor/
// vendor-tiktoken.mjs): a page served as it is, under a strict Content-Security-Policy and without
// a bundler or an import map, loads them too. Nothing is fetched at run time, and nothing loads
// unless this module is imported; the ranks are parsed at the first call. The full documentation
// is in gpt2-tokenizer.d.ts.
import { Tiktoken } from './vendor/tiktoken-lite.js';
import gpt2 from './vendor/gpt2-ranks.js';
import { bytePairEncode } from './byte-pair-merge.js';
import { detachedMessage, isDetached, typedArrayLength, typedArrayName } from './typed-arrays.js';

/** Token id of `<|endoftext|>`, which GPT-2 puts between documents. */
export const END_OF_TEXT = 50256;
/** Number of token ids, 0 … 50256. */
export const VOCAB_SIZE = 50257;

let tokenizer = null;
const bpe = () => (tokenizer ??= new Tiktoken(gpt2));

function fail(message) {
  throw new Error(`gpt2-tokenizer: ${message}`);
}

const show = (x) =>
  typeof x === 'number' || typeof x === 'bigint'
    ? String(x)
    : typeof x === 'string'
      ? JSON.stringify(x)
      : x === null
        ? 'null'
        : Array.isArray(x)
          ? 'an array'
          : typeof x;

/**
 * Token ids of `text`. `<|endoftext|>` in the text becomes 50256, as Hugging Face's tokenizer
 * does; with `{ special: false }` it is tokenized as ordinary characters.
 */
export function encode(text, options) {
  if (typeof text !== 'string') fail(`text must be a string, got ${show(text)}`);
  return encodeText(text, readSpecial(options));
}

// js-tiktoken's encode with 'all' special tokens allowed (special) or none (each read as
// characters), with the merge of each piece done by bytePairEncode: the text split at each special
// token, each part into GPT-2's pre-tokenizer pieces, each piece's UTF-8 bytes a token if they
// have a rank, else merged.
function encodeText(text, special) {
  const { rankMap, specialTokens, patStr, textEncoder } = bpe();
  const ids = [];
  const encodePart = (part) => {
    for (const [match] of part.matchAll(new RegExp(patStr, 'gu'))) {
      const bytes = textEncoder.encode(match);
      const whole = rankMap.get(bytes.join(','));
      if (whole !== undefined) ids.push(whole);
      else for (const id of bytePairEncode(bytes, rankMap)) ids.push(id);
    }
  };
  if (!special) {
    encodePart(text);
    return ids;
  }
  let from = 0;
  for (const found of text.matchAll(specialTokenPattern(specialTokens))) {
    encodePart(text.slice(from, found.index));
    ids.push(specialTokens[found[0]]);
    from = found.index + found[0].length;
  }
  encodePart(text.slice(from));
  return ids;
}

const specialTokenPattern = (tokens) =>
  new RegExp(
    Object.keys(tokens)
      .map((t) => t.replace(/[\\^$*+?.()|[\]{}]/g, '\\$&'))
      .join('|'),
    'g',
  );

function readSpecial(options) {
  if (options === undefined) return true;
  if (options === null || typeof options !== 'object')
    fail(`options must be an object such as { special: false }, got ${show(options)}`);
  for (const key of Object.keys(options))
    if (key !== 'special') fail(`unknown option ${JSON.stringify(key)} (the only option is special)`);
  // Own only: Object.prototype.special = false must not change how a text is read.
  const special = (Object.hasOwn(options, 'special') ? options.special : undefined) ?? true;
  if (typeof special !== 'boolean') fail(`options.special must be true or false, got ${show(special)}`);
  return special;
}

// ids: an array or typed array of integers in [0, VOCAB_SIZE), read once each into a plain array.
// A typed array is measured by the engine (a subclass's `length` is not asked), and a detached one,
// which would read as empty, is refused.
function readIds(ids) {
  const kind = typedArrayName(ids);
  if (!Array.isArray(ids) && !kind) fail(`ids must be an array or typed array of token ids, got ${show(ids)}`);
  if (kind && isDetached(ids)) fail(detachedMessage('ids', kind));
  const length = kind ? typedArrayLength(ids) : ids.length;
  if (!Number.isSafeInteger(length) || length < 0 || length > 2 ** 31)
    fail(`ids has an invalid length (${show(length)})`);
  const out = new Array(length);
  for (let i = 0; i < length; i++) {
    const x = typeof ids[i] === 'bigint' ? Number(ids[i]) : ids[i];
    if (!Number.isInteger(x) || x < 0 || x >= VOCAB_SIZE)
      fail(`ids[${i}] is ${show(ids[i])}, not a token id (an integer in [0, ${VOCAB_SIZE}))`);
    out[i] = x;
  }
  return out;
}

/**
 * The text of token ids. Bytes that do not form whole UTF-8 characters (a character split across
 * ids, or cut off at the end) become U+FFFD, as Hugging Face's decode does.
 */
export function decode(ids) {
  return bpe().decode(readIds(ids));
}

/** Each id's own text (decode of that id alone): what a lesson shows as the tokens of a text. */
export function tokenStrings(ids) {
  const tokens = bpe();
  return readIds(ids).map((id) => tokens.decode([id]));
}

// GPT-2's bytes_to_unicode (OpenAI's encoder.py): every byte as a printable character, the
// printable ASCII and Latin-1 ones as themselves, the others from U+0100 on (space → Ġ, \n → Ċ).
let byteChars = null;
function byteToChar() {
  if (byteChars) return byteChars;
  const printable = (b) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  byteChars = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) byteChars[b] = String.fromCharCode(printable(b) ? b : 256 + extra++);
  return byteChars;
}

/**
 * Each id as GPT-2's vocabulary (vocab.json / encoder.json) writes it: its bytes through
 * bytes_to_unicode, so a leading space shows as Ġ and a newline as Ċ ("ĠHello"). `<|endoftext|>`
 * stays as it is.
 */
export function tokenPieces(ids) {
  const tokens = bpe();
  const chars = byteToChar();
  return readIds(ids).map((id) => {
    if (id === END_OF_TEXT) return '<|endoftext|>';
    return Array.from(tokens.textMap.get(id), (b) => chars[b]).join('');
  });
}
