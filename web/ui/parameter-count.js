// One way to state a multi-head layer's parameter count, shared by the heads panel and the Cost
// tab so the two never disagree: the weights alone, the weights with the biases, and the count
// the lessons warn about (a full-size set of W per head), all from numbers the core computed.
// With one head there is no such mistake to warn about (h × 4·d² = 4·d²), so the sentence says
// what one head is instead; the explorer's single head, which has no W_O, has a sentence of its own.
import { el } from './dom/dom.js';
import { english } from './model/model.js';

const grouped = (v) => Math.round(v).toLocaleString('en-US').replace(/,/g, '\u202f');

// A translated sentence whose {name} placeholders are elements (the counts with their hooks).
function rich(text, nodes) {
  return text
    .split(/\{(\w+)\}/)
    .map((part, k) => (k % 2 ? (nodes[part] ?? `{${part}}`) : part))
    .filter((p) => p !== '');
}

// A count in bold with its test hook (data-stat, data-value).
function num(stat, value) {
  const b = el('b', '', grouped(value));
  b.dataset.stat = stat;
  b.dataset.value = String(value);
  return b;
}

/**
 * counts: { weights (4·d², no biases), withBiases (4·d² + 4·d), dModel, heads }, and `layer`
 * ({ biases, count }, the page's layer as the core counts it) when the sentence describes it.
 * Returns a <span> whose parts carry data-stat hooks (parameters-layer, parameters-weights,
 * parameters-biases, parameters-wrong).
 */
export function parameterSentence({ weights, withBiases, dModel, heads, layer = null }, { t } = english) {
  const span = el('span', 'parameter-count');
  if (layer) {
    // Which of the two counts below this layer has, from the layer itself.
    const count = num('parameters-layer', layer.count);
    count.dataset.biases = String(layer.biases);
    span.append(
      ...rich(t(layer.biases ? 'explorer.params.layerBiases' : 'explorer.params.layerNoBiases'), { count }),
      ' ',
    );
  }
  const counts = { weights: num('parameters-weights', weights), withBiases: num('parameters-biases', withBiases) };
  if (heads === 1) {
    // One head: nothing is split, so the count a lesson warns about is this same count.
    span.append(...rich(t('explorer.params.oneHead', { dModel }), counts));
    return span;
  }
  const wrong = el('s', '');
  wrong.append(num('parameters-wrong', heads * weights));
  span.append(...rich(t('explorer.params.heads', { heads, dModel }), { ...counts, wrong }));
  return span;
}

/**
 * The explorer's single head (sentence mode): W_Q, W_K (d_model × d_k) and W_V (d_model × d_v),
 * with b_Q, b_K, b_V when it has biases, and no W_O; next to it the one-head layer of
 * nn.MultiheadAttention, which adds W_O. Hooks: parameters-head, parameters-layer-one-head.
 */
export function singleHeadSentence({ dModel, dk, dv, biases, count, layerCount }, { t } = english) {
  const span = el('span', 'parameter-count');
  const nodes = { count: num('parameters-head', count), layerCount: num('parameters-layer-one-head', layerCount) };
  span.append(
    ...rich(t(biases ? 'explorer.params.singleBiases' : 'explorer.params.single', { dModel, dk, dv }), nodes),
  );
  return span;
}
