// Sentence mode's fourth source of token vectors: one head of a checkpoint opened in the page (a
// GPT-2 model, web/ui/checkpoint/), reading the learner's sentence split by GPT-2's own tokenizer.
// The head reads 768 numbers per token (GPT-2 small's d_model), far more than the explorer shows,
// but only the span of the sentence's T token vectors matters: with an orthonormal basis B (r × E,
// r ≤ T) of the rows of X (the layer's input, LN₁ of the residual stream, from the core), X = L·B
// exactly, where L = X·Bᵀ holds each token's r coordinates, so X·W + b = [L, 1]·[B·W; b]. The
// explorer gets X = [L, 1] and W = [B·W; b] for q, k and v: the same dot products, so its weights
// are the model's own attention for that head. Lengths and angles between the tokens' vectors
// are kept; the coordinates themselves depend on the basis (Gram–Schmidt in token order).
// state.vectors = { source: 'checkpoint', layer, head, layers, heads, dModel (the model's E),
// rank (r), name, sentence (what X was computed for), stale? } — layers and heads from 0.
// Building a head's X and W (checkpoint-head.js) loads with the trained sources' code, once a
// checkpoint's head is read: the first drawing needs only what is here.

import { english } from './i18n.js';

let pieces = null;

/** Registers GPT-2's tokenizer (text → { ids, pieces }), loaded by the page once a checkpoint opens. */
export function setCheckpointTokenizer(tokenize) {
  pieces = tokenize;
}

/** The sentence as the checkpoint reads it, at most `max` tokens: { ids, pieces, truncated }, or null before a tokenizer is registered. */
export function checkpointTokens(text, max = 24) {
  if (!pieces) return null;
  const all = pieces(String(text ?? ''));
  return { ids: all.ids.slice(0, max), pieces: all.pieces.slice(0, max), truncated: all.ids.length > max };
}

export const usesCheckpoint = (state) => state?.vectors?.source === 'checkpoint';

/** state.vectors for the checkpoint source, checked. */
export function normalizeCheckpointVectors(v) {
  const count = (x, fallback) => (Number.isInteger(x) && x > 0 ? x : fallback);
  const out = {
    source: 'checkpoint',
    layers: count(v.layers, 1),
    heads: count(v.heads, 1),
    dModel: count(v.dModel, 1),
    rank: count(v.rank, 1),
  };
  out.layer = Math.min(out.layers - 1, Math.max(0, Number.isInteger(v.layer) ? v.layer : 0));
  out.head = Math.min(out.heads - 1, Math.max(0, Number.isInteger(v.head) ? v.head : 0));
  out.name = typeof v.name === 'string' ? v.name.slice(0, 80) : 'the checkpoint';
  out.sentence = typeof v.sentence === 'string' ? v.sentence.slice(0, 2000) : '';
  if (v.stale === true) out.stale = true;
  return out;
}

/** Whether the sizes are still the checkpoint head's (the caller also checks X's key). */
export function checkpointFits(state) {
  const v = state.vectors;
  return state.heads === 1 && state.dModel === v.rank + 1 && state.tokens.length <= 24;
}

/**
 * The vector-source note, the sentence help and the note on X for the checkpoint source, in the
 * language of `i18n` (English by default; catalogue part `checkpoint`).
 */
export function describeCheckpoint(state, { t } = english) {
  const v = normalizeCheckpointVectors(state.vectors);
  const where = {
    layer: v.layer + 1,
    head: v.head + 1,
    name: v.name,
    layers: v.layers,
    heads: v.heads,
    dModel: v.dModel,
  };
  return {
    source: t('checkpoint.vectors.source', where),
    help: t(v.stale ? 'checkpoint.vectors.reading' : 'checkpoint.vectors.help'),
    note: t('checkpoint.vectors.note', { ...where, rank: v.rank }),
  };
}
