// "How was this number computed?" for the Generate panel: each number of a generated token (a
// weight over the cache, a cached key or value, the cache's bytes, the timings, the difference
// against a full pass) written out with what the Worker measured or the core computed.
import { explanation } from '../explain/explain.js';
import { formatNumber } from '../model/model.js';

const at = (t, i, j) => t.data[i * t.shape[1] + j];

/** A weight of the attention map: head h, the j-th shown position. */
export function explainAttention(c, h, j) {
  const { line, done } = explanation();
  const p = c.first + j;
  const query = c.step.tokens.length - 2;
  line(`a = ${formatNumber(at(c.step.attention, h, p))}`, 'result');
  line(`Head ${h + 1} of layer ${c.step.layer + 1}: the query of ${c.label(query)} (position ${query + 1}) over the cached key of ${c.label(p)} (position ${p + 1}), softmax(q\u00b7k/\u221ad) over every position the cache still holds.`, 'text');
  if (c.windowSize && p <= query - c.windowSize) line(`Exactly 0: position ${p + 1} has left the window of ${c.windowSize}.`, 'text');
  line(`The next token, ${c.label(query + 1)}, was drawn from the logits this step produced.`, 'text');
  return done(`Layer ${c.step.layer + 1}, head ${h + 1}: weight on position ${p + 1}`);
}

/** A cell of the K or V cache of the shown key/value head. */
export function explainCache(c, which, s, x) {
  const { line, done } = explanation();
  const slot = c.firstSlot + s;
  const p = c.step.cache.positions[slot];
  line(`${which === 'keys' ? 'k' : 'v'}[${x + 1}] = ${formatNumber(c.cacheValue(which, slot, x))}`, 'result');
  line(`Slot ${slot} holds position ${p + 1} (${c.label(p)}) of key/value head ${c.kvHead + 1} in layer ${c.step.layer + 1}: computed once, when that token was appended, and read by every later query.`, 'text');
  if (which === 'keys' && c.positions === 'rope') line('Keys are cached after RoPE turned them, as the heads use them.', 'text');
  if (c.windowSize) line(`With a window of ${c.windowSize}, position p lives in slot p mod ${c.windowSize}: a ring buffer.`, 'text');
  return done(`${which === 'keys' ? 'K' : 'V'} cache, slot ${slot}, column ${x + 1}`);
}

/** The cache's bytes with the formula. */
export function explainBytes(c) {
  const { line, done } = explanation();
  const kept = c.step.cache.positions.length;
  const { numLayers, numKVHeads, dModel, numHeads } = c.config;
  line(`2 \u00b7 layers \u00b7 kv_heads \u00b7 head_dim \u00b7 kept \u00b7 4 = 2 \u00b7 ${numLayers} \u00b7 ${numKVHeads} \u00b7 ${dModel / numHeads} \u00b7 ${kept} \u00b7 4`);
  line(`= ${c.step.cacheBytes} B (decoder.cacheBytes)`, 'result');
  line(c.windowSize ? `The window keeps at most ${c.windowSize} positions per layer: the cache stops growing there.` : 'It grows by one token\u2019s keys and values, in every layer, with each token.', 'text');
  return done('Bytes in the key/value cache');
}

/** The timings, the latest token's and the mean over the generation. */
export function explainTiming(c) {
  const { line, done } = explanation();
  line(`with the cache: ${formatNumber(c.step.msCached, 3)} ms (mean ${formatNumber(c.mean.cached, 3)} ms over ${c.count} tokens)`);
  if (c.step.msFull !== null) line(`recomputing the prefix: ${formatNumber(c.step.msFull, 3)} ms (mean ${formatNumber(c.mean.full, 3)} ms)`);
  line(`Measured in the Worker with performance.now(): decoder.sample runs the one new token through the model against the cache; model.forward over all ${c.step.tokens.length - 1} tokens is what a model without a cache would run for this token. The gap grows with the length.`, 'text');
  return done('Milliseconds per token');
}

/** The largest difference between the cached logits and a full pass. */
export function explainDifference(c) {
  const { line, done } = explanation();
  line(`max over tokens of max\u1d65 |logit_cached \u2212 logit_full| = ${formatNumber(c.difference, 6)}`, 'result');
  line(`For every token the Worker also ran model.forward over the whole prefix and compared its last logits with the cached step\u2019s (${c.config.vocabSize} logits each): the same numbers up to float32 rounding.`, 'text');
  return done('Cached logits against a full pass');
}
