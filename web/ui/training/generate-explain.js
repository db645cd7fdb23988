// "How was this number computed?" for the Generate panel: each number of a generated token (a
// weight over the cache, a cached key or value, the cache's bytes, the timings, the difference
// against a full pass) written out with what the Worker measured or the core computed, in the
// view's language (i18n; English by default).
import { explanation } from '../explain/explain.js';
import { english, formatNumber } from '../model/model.js';

const at = (t, i, j) => t.data[i * t.shape[1] + j];
const number = (i18n, v, digits) => i18n.decimal(formatNumber(v, digits));

/** A weight of the attention map: head h, the j-th shown position. */
export function explainAttention(c, h, j, i18n = english) {
  const { t } = i18n;
  const { line, done } = explanation();
  const p = c.first + j;
  const query = c.step.tokens.length - 2;
  const layer = c.step.layer + 1;
  line(`a = ${number(i18n, at(c.step.attention, h, p))}`, 'result');
  line(
    t('training.explain.attention.what', {
      head: h + 1,
      layer,
      query: c.label(query),
      queryPosition: query + 1,
      key: c.label(p),
      keyPosition: p + 1,
    }),
    'text',
  );
  if (c.windowSize && p <= query - c.windowSize)
    line(t('training.explain.attention.window', { position: p + 1, window: c.windowSize }), 'text');
  line(t('training.explain.attention.next', { token: c.label(query + 1) }), 'text');
  return done(t('training.explain.attention.title', { layer, head: h + 1, position: p + 1 }));
}

/** A cell of the K or V cache of the shown key/value head. */
export function explainCache(c, which, s, x, i18n = english) {
  const { t } = i18n;
  const { line, done } = explanation();
  const slot = c.firstSlot + s;
  const p = c.step.cache.positions[slot];
  line(`${which === 'keys' ? 'k' : 'v'}[${x + 1}] = ${number(i18n, c.cacheValue(which, slot, x))}`, 'result');
  line(
    t('training.explain.cache.what', {
      slot,
      position: p + 1,
      token: c.label(p),
      kvHead: c.kvHead + 1,
      layer: c.step.layer + 1,
    }),
    'text',
  );
  if (which === 'keys' && c.positions === 'rope') line(t('training.explain.cache.rope'), 'text');
  if (c.windowSize) line(t('training.explain.cache.ring', { window: c.windowSize }), 'text');
  return done(
    t(which === 'keys' ? 'training.explain.cache.titleKeys' : 'training.explain.cache.titleValues', {
      slot,
      column: x + 1,
    }),
  );
}

/** The cache's bytes with the formula. */
export function explainBytes(c, i18n = english) {
  const { t } = i18n;
  const { line, done } = explanation();
  const kept = c.step.cache.positions.length;
  const { numLayers, numKVHeads, dModel, numHeads } = c.config;
  line(
    t('training.explain.bytes.formula', { layers: numLayers, kvHeads: numKVHeads, headDim: dModel / numHeads, kept }),
  );
  line(t('training.explain.bytes.result', { bytes: c.step.cacheBytes }), 'result');
  line(
    c.windowSize ? t('training.explain.bytes.window', { window: c.windowSize }) : t('training.explain.bytes.grows'),
    'text',
  );
  return done(t('training.explain.bytes.title'));
}

/** The timings, the latest token's and the mean over the generation. */
export function explainTiming(c, i18n = english) {
  const { t } = i18n;
  const { line, done } = explanation();
  line(
    t('training.explain.timing.cached', {
      ms: number(i18n, c.step.msCached, 3),
      mean: number(i18n, c.mean.cached, 3),
      count: c.count,
    }),
  );
  if (c.step.msFull !== null)
    line(t('training.explain.timing.full', { ms: number(i18n, c.step.msFull, 3), mean: number(i18n, c.mean.full, 3) }));
  line(t('training.explain.timing.how', { tokens: c.step.tokens.length - 1 }), 'text');
  return done(t('training.explain.timing.title'));
}

/** The largest difference between the cached logits and a full pass. */
export function explainDifference(c, i18n = english) {
  const { t } = i18n;
  const { line, done } = explanation();
  line(t('training.explain.difference.formula', { difference: number(i18n, c.difference, 6) }), 'result');
  line(t('training.explain.difference.how', { logits: c.config.vocabSize }), 'text');
  return done(t('training.explain.difference.title'));
}
