// Multi-head view: every head's weights side by side (pick one to inspect its steps), the head
// average, the concatenated head outputs and the layer output concat·W_O.
import { createCard, el, section, setAttr, setHidden, setText } from './dom/dom.js';
import { createHeatmap } from './heatmap/heatmap.js';
import { parameterSentence } from './parameter-count.js';

/** only: the cards a single-lesson embed shows (of grid, average, concat, output); default all. */
export function createHeadsPanel({ onInspect, onSelectHead, only = null }) {
  const { root, heading, sub } = section('heads', 'heads', 'Multi-head attention');
  // "Heads look at different tokens" is a common misreading: say what they do differ in.
  const sameTokens = el('p', 'section-sub heads-see-all');
  sameTokens.dataset.stat = 'heads-see-all';
  heading.append(sameTokens);

  const gridCard = createCard({
    title: 'All heads', formula: 'head\u2095 = softmax(Q\u2095K\u2095\u1d40 / \u221ad\u2095) V\u2095',
    hint: `Each head attends with its own slice of W_Q, W_K and W_V, so each can follow a different relationship.${only ? '' : ' Pick one to see its steps above.'}`,
  });
  const headGrid = el('div', 'head-grid');
  gridCard.body.append(headGrid);

  const avgCard = createCard({ title: 'Head average', formula: '\u0100 = (A\u2081 + \u2026 + A\u2095) / h', hint: 'The weights torch.nn.MultiheadAttention returns by default. An average can hide what single heads do.' });
  const avgMap = createHeatmap({ name: 'average', label: 'Head average of the attention weights', kind: 'weights', onInspect: (i, j) => onInspect({ kind: 'average', i, j }) });
  avgCard.body.append(avgMap.el);

  const concatCard = createCard({ title: 'Concatenated heads', formula: 'concat = [head\u2081 | \u2026 | head\u2095]', hint: 'The head outputs side by side: no head has seen another yet.' });
  const concatMap = createHeatmap({ name: 'concat', label: 'Concatenated head outputs', kind: 'diverging', onInspect: (i, j) => onInspect({ kind: 'concat', i, j }) });
  concatCard.body.append(concatMap.el);

  const outCard = createCard({ title: 'Layer output', formula: 'MultiHead = concat\u00b7W_O', hint: 'W_O is the only place where information from different heads combines.' });
  const outMap = createHeatmap({ name: 'mha-output', label: 'Multi-head output, concat times W_O', kind: 'diverging', onInspect: (i, j) => onInspect({ kind: 'mha-output', i, j }) });
  outCard.body.append(outMap.el);

  const cards = el('div', 'steps');
  const all = { grid: gridCard, average: avgCard, concat: concatCard, output: outCard };
  cards.append(...Object.entries(all).filter(([key]) => !only || only.includes(key)).map(([, card]) => card.el));
  root.append(cards);

  let headViews = [];

  function buildHeads(h) {
    headGrid.replaceChildren();
    headViews = [];
    for (let k = 0; k < h; k++) {
      const figure = el('figure', 'head-tile');
      const button = el('button', 'head-button', `Head ${k + 1}`);
      button.type = 'button';
      button.addEventListener('click', () => onSelectHead(k));
      const map = createHeatmap({
        name: `head-${k + 1}`, label: `Head ${k + 1} attention weights`, kind: 'weights', small: true,
        onInspect: (i, j) => onInspect({ kind: 'head', head: k, i, j }),
        onActivate: () => onSelectHead(k),
      });
      const caption = el('figcaption');
      caption.append(button);
      figure.append(caption, map.el);
      headGrid.append(figure);
      headViews.push({ figure, button, map });
    }
  }

  return {
    el: root,
    maps: { average: avgMap, concat: concatMap, 'mha-output': outMap },
    headMaps: () => headViews.map((v) => v.map),
    render(state, result, display) {
      const d = result.dims;
      setHidden(root, !d.multi || !!result.error);
      if (root.hidden) return;
      const m = result.multi;
      const { queries, keys } = result.labels;
      const countKey = `${d.heads}|${d.dModel}|${m.parameterCount}|${m.parameterCountWithBiases}|${m.biases}`;
      if (sub.dataset.key !== countKey) {
        sub.dataset.key = countKey;
        sub.replaceChildren(`${d.heads} heads of d\u2095 = ${m.headDim} features each (d_model = ${d.dModel}). `,
          parameterSentence({
            weights: m.parameterCountWeights, withBiases: m.parameterCountWithBiases, dModel: d.dModel, heads: d.heads,
            layer: { biases: m.biases, count: m.parameterCount },
          }));
      }
      const seeKey = `${d.heads}|${d.n}|${d.m}|${d.dModel}`;
      if (sameTokens.dataset.key !== seeKey) {
        sameTokens.dataset.key = seeKey;
        setAttr(sameTokens, 'data-value', String(d.m));
        setText(sameTokens, `Every head sees all ${d.m} tokens: each of the ${d.heads} weight maps below is ${d.n} \u00d7 ${d.m}. `
          + `The heads differ only in which ${m.headDim} of the ${d.dModel} columns of Q, K and V they read, the subspace W_Q, W_K and W_V project to. `
          + `Splitting into heads is a reshape of Q (${d.n} \u00d7 ${d.dModel} \u2192 ${d.heads} \u00d7 ${d.n} \u00d7 ${m.headDim}), not a loop over tokens or heads.`);
      }
      if (headViews.length !== m.heads.length) buildHeads(m.heads.length);
      const padCols = state.mask.kind === 'padding' ? state.mask.pad : null;
      headViews.forEach((v, k) => {
        const name = state.headNames[k];
        const label = name ? `Head ${k + 1}: ${name}` : `Head ${k + 1}`;
        setText(v.button, label);
        const selected = k === state.view.head;
        v.figure.classList.toggle('selected', selected);
        setAttr(v.button, 'aria-pressed', String(selected));
        v.map.update({ tensor: m.heads[k], rowLabels: queries, colLabels: keys, hidden: result.hidden, fullyMasked: result.fullyMasked, padCols, clickable: true, ...display });
      });
      avgCard.setShape(`${d.n} \u00d7 ${d.m}`);
      avgMap.update({ tensor: m.average, rowLabels: queries, colLabels: keys, hidden: result.hidden, fullyMasked: result.fullyMasked, padCols, ...display });
      const cols = (t) => Array.from({ length: t.shape[1] }, (_, c) => String(c + 1));
      concatCard.setShape(`${d.n} \u00d7 ${d.dModel}`);
      concatMap.update({ tensor: m.concat, rowLabels: queries, colLabels: cols(m.concat), groupCols: m.headDim, ...display });
      outCard.setShape(`${d.n} \u00d7 ${d.dModel}`);
      outMap.update({ tensor: m.output, rowLabels: queries, colLabels: cols(m.output), ...display });
    },
  };
}
