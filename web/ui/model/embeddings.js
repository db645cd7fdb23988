// Token vectors for sentence mode. No model has trained them: each word gets a random vector that
// is fixed for that word and seed, so the same word always has the same row of X and different
// sentences give different attention. The rule, simple enough to redo in NumPy:
//
//   word_seed(word)  = FNV-1a 32-bit hash of the UTF-8 bytes of word.lower(), XOR the page's seed
//   word vector      = np.random.RandomState(word_seed(word)).randn(d_model)
//   position vector  = none: zeros; sinusoidal: PE[p, 2i] = sin(p / 10000^(2i/d_model)),
//                      PE[p, 2i+1] = cos(p / 10000^(2i/d_model)) (Vaswani et al.); learned-style:
//                      the word vector of the text "<position p>" (random, fixed per position p,
//                      counted from 0), as a trained position table would be but not trained
//   X[p]             = round(word vector + position vector, 2)
//
// (randn(k) is a prefix of randn(k + 1) in NumPy's legacy generator, so a wider d_model keeps
// every word's first columns.)
//
// With state.vectors.source = 'text-model', X comes from the trained text model instead
// (trained-vectors.js says how).
import { textModelX, usesTextModel } from './trained-vectors.js';

export const POSITIONAL = ['none', 'sinusoidal', 'learned'];

/** FNV-1a, 32 bits, over the UTF-8 bytes of `text`. */
export function fnv1a32(text) {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The seed of a word's random vector: the hash of the lower-cased word, XOR the page's seed. */
export const wordSeed = (word, seed) => (fnv1a32(String(word).toLowerCase()) ^ seed) >>> 0;

const round2 = (x) => Math.round(x * 100) / 100;

function randomVector(attn, seed, length) {
  const rng = attn.randomState(seed);
  try {
    return rng.randn(length).data;
  } finally {
    rng.dispose();
  }
}

/** Position p's vector of length d for one kind of positional encoding. */
export function positionVector(attn, kind, p, d, seed) {
  if (kind === 'sinusoidal') {
    return Float64Array.from({ length: d }, (_, c) => {
      const angle = p / 10000 ** ((2 * Math.floor(c / 2)) / d);
      return c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    });
  }
  if (kind === 'learned') return randomVector(attn, wordSeed(`<position ${p}>`, seed), d);
  return new Float64Array(d);
}

/**
 * X for `tokens` (rows) with d_model columns: each row the token's word vector plus its position's
 * vector, rounded to 2 decimals. Returns { rows, cols, data }.
 */
export function tokenVectors(attn, state) {
  // Until the model has loaded, the random vectors stand in (the vector-source control loads it
  // and sets the model's X and weights as soon as it is there).
  if (usesTextModel(state)) return textModelX(state) ?? randomVectors(attn, state);
  return randomVectors(attn, state);
}

function randomVectors(attn, { tokens, seed, dModel, positional = 'none' }) {
  const words = new Map();
  const data = [];
  tokens.forEach((token, p) => {
    const key = String(token).toLowerCase();
    if (!words.has(key)) words.set(key, randomVector(attn, wordSeed(key, seed), dModel));
    const w = words.get(key);
    const pos = positionVector(attn, positional, p, dModel, seed);
    for (let c = 0; c < dModel; c++) data.push(round2(w[c] + pos[c]));
  });
  return { rows: tokens.length, cols: dModel, data };
}

/** A short key of what X is made from; X is rebuilt when it changes. */
export const tokenVectorsKey = (s) =>
  fnv1a32(
    JSON.stringify(
      usesTextModel(s)
        ? [s.tokens, s.sentence, s.dModel, 'text-model', s.vectors.layer ?? 0]
        : [s.tokens, s.seed, s.dModel, s.positional ?? 'none'],
    ),
  ).toString(16);
