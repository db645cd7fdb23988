// One way to state a multi-head layer's parameter count, shared by the heads panel and the Cost
// tab so the two never disagree: the weights alone, the weights with the biases, and the count
// the lessons warn about (a full-size set of W per head), all from numbers the core computed.
// With one head there is no such mistake to warn about (h × 4·d² = 4·d²), so the sentence says
// what one head is instead; the explorer's single head, which has no W_O, has a sentence of its own.
import { el } from './dom/dom.js';

const grouped = (v) => Math.round(v).toLocaleString('en-US').replace(/,/g, '\u202f');

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
export function parameterSentence({ weights, withBiases, dModel, heads, layer = null }) {
  const span = el('span', 'parameter-count');
  if (layer) {
    // Which of the two counts below this layer has, from the layer itself.
    span.append(layer.biases ? 'This layer has the biases b_Q, b_K, b_V, b_O: ' : 'This layer has no biases: ',
      num('parameters-layer', layer.count), ' parameters. ');
    span.lastElementChild.dataset.biases = String(layer.biases);
  }
  span.append(
    'W_Q, W_K, W_V and W_O hold ', num('parameters-weights', weights), ' weights (4\u00b7d_model\u00b2), or ',
    num('parameters-biases', withBiases), ' with the biases b_Q, b_K, b_V, b_O (4\u00b7d_model\u00b2 + 4\u00b7d_model), ',
  );
  if (heads === 1) {
    // One head: nothing is split, so the count a lesson warns about is this same count.
    span.append(`with one head that is d_model = ${dModel} wide. More heads split those columns between them, so the count stays the same for any h.`);
    return span;
  }
  const wrong = el('s', '');
  wrong.append(num('parameters-wrong', heads * weights));
  span.append(
    `whatever the number of heads: not h \u00d7 4\u00b7d_model\u00b2 = `, wrong,
    `, because the ${heads} heads split d_model = ${dModel} between them instead of each getting full-size matrices.`,
  );
  return span;
}

/**
 * The explorer's single head (sentence mode): W_Q, W_K (d_model × d_k) and W_V (d_model × d_v),
 * with b_Q, b_K, b_V when it has biases, and no W_O; next to it the one-head layer of
 * nn.MultiheadAttention, which adds W_O. Hooks: parameters-head, parameters-layer-one-head.
 */
export function singleHeadSentence({ dModel, dk, dv, biases, count, layerCount }) {
  const span = el('span', 'parameter-count');
  span.append(
    `This single head has W_Q and W_K (d_model \u00d7 d_k = ${dModel} \u00d7 ${dk}) and W_V (${dModel} \u00d7 ${dv})${biases ? ' with their biases' : ''}: `,
    num('parameters-head', count), ` parameters (d_model\u00b7(2d_k + d_v)${biases ? ' + 2d_k + d_v' : ''}), and no W_O: its output is the head\u2019s own. `,
    'A layer of one head (nn.MultiheadAttention with num_heads = 1) makes each W d_model wide and adds W_O: ',
    num('parameters-layer-one-head', layerCount), ` parameters (4\u00b7d_model\u00b2${biases ? ' + 4\u00b7d_model' : ''}).`,
  );
  return span;
}
