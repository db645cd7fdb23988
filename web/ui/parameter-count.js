// One way to state a multi-head layer's parameter count, shared by the heads panel and the Cost
// tab so the two never disagree: the weights alone, the weights with the biases, and the count
// the lessons warn about (a full-size set of W per head), all from numbers the core computed.
import { el } from './dom/dom.js';

const grouped = (v) => Math.round(v).toLocaleString('en-US').replace(/,/g, '\u202f');

/**
 * counts: { weights (4·d², no biases), withBiases (4·d² + 4·d), dModel, heads }, and `layer`
 * ({ biases, count }, the page's layer as the core counts it) when the sentence describes it.
 * Returns a <span> whose parts carry data-stat hooks (parameters-layer, parameters-weights,
 * parameters-biases, parameters-wrong).
 */
export function parameterSentence({ weights, withBiases, dModel, heads, layer = null }) {
  const span = el('span', 'parameter-count');
  const num = (stat, value) => {
    const b = el('b', '', grouped(value));
    b.dataset.stat = stat;
    b.dataset.value = String(value);
    return b;
  };
  if (layer) {
    // Which of the two counts below this layer has, from the layer itself.
    span.append(layer.biases ? 'This layer has the biases b_Q, b_K, b_V, b_O: ' : 'This layer has no biases: ',
      num('parameters-layer', layer.count), ' parameters. ');
    span.lastElementChild.dataset.biases = String(layer.biases);
  }
  const wrong = el('s', '');
  wrong.append(num('parameters-wrong', heads * weights));
  span.append(
    'W_Q, W_K, W_V and W_O hold ', num('parameters-weights', weights), ' weights (4\u00b7d_model\u00b2), or ',
    num('parameters-biases', withBiases), ' with the biases b_Q, b_K, b_V, b_O (4\u00b7d_model\u00b2 + 4\u00b7d_model), ',
    `whatever the number of heads: not h \u00d7 4\u00b7d_model\u00b2 = `, wrong,
    `, because the ${heads} head${heads > 1 ? 's' : ''} split d_model = ${dModel} between them instead of each getting full-size matrices.`,
  );
  return span;
}
