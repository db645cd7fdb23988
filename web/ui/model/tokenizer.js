// A deliberately simple word-level tokenizer: words (with an inner apostrophe, "didn't"), single
// punctuation marks, and the special token [PAD]. Real models use sub-word vocabularies; here a
// token only needs to label a row and a column. With { chars: true } (sentence mode's vectors from
// the character-level text model, trained-vectors.js) every character is a token instead.
import { charLabel } from './char-tokens.js';

export const PAD = '[PAD]';
export const MAX_TOKEN_LENGTH = 24;

const TOKEN = /\[pad\]|[\p{L}\p{N}]+(?:['\u2019][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/giu;

/**
 * Splits a sentence into at most `maxTokens` tokens (words and marks, or with `chars` characters,
 * space shown as ␣); `truncated` says whether any were dropped.
 */
export function tokenize(text, maxTokens = 16, { chars = false } = {}) {
  if (chars) {
    const all = Array.from(String(text), charLabel);
    return { tokens: all.slice(0, maxTokens), truncated: all.length > maxTokens };
  }
  const all = [];
  for (const match of String(text).matchAll(TOKEN)) {
    const t = match[0];
    all.push(t.toLowerCase() === '[pad]' ? PAD : t.slice(0, MAX_TOKEN_LENGTH));
  }
  return { tokens: all.slice(0, maxTokens), truncated: all.length > maxTokens };
}

export const isPad = (token) => token === PAD;
