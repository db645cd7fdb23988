// Multi-head view: every head's weights side by side (pick one to inspect its steps), the head
// average, the concatenated head outputs and the layer output concat·W_O.
import { createCard, el, section, setAttr, setHidden, setText } from './dom/dom.js';
import { createHeatmap } from './heatmap/heatmap.js';
import { parameterSentence } from './parameter-count.js';
import { english } from './model/model.js';

/** only: the cards a single-lesson embed shows (of grid, average, concat, output); default all. */
export function createHeadsPanel({ onInspect, onSelectHead, only = null, i18n = english }) {
  const { t } = i18n;
  const { root, heading, sub } = section('heads', 'heads', t('common.lesson.heads'));
  // "Heads look at different tokens" is a common misreading: say what they do differ in.
  const sameTokens = el('p', 'section-sub heads-see-all');
  sameTokens.dataset.stat = 'heads-see-all';
  heading.append(sameTokens);

  const gridCard = createCard({
    title: t('explorer.heads.all'),
    formula: 'head\u2095 = softmax(Q\u2095K\u2095\u1d40 / \u221ad\u2095) V\u2095',
    hint: t(only ? 'explorer.heads.allHintAlone' : 'explorer.heads.allHint'),
  });
  const headGrid = el('div', 'head-grid');
  gridCard.body.append(headGrid);

  const avgCard = createCard({
    title: t('explorer.heads.average'),
    formula: '\u0100 = (A\u2081 + \u2026 + A\u2095) / h',
    hint: t('explorer.heads.averageHint'),
  });
  const avgMap = createHeatmap({
    name: 'average',
    label: t('explorer.heads.averageLabel'),
    kind: 'weights',
    onInspect: (i, j) => onInspect({ kind: 'average', i, j }),
    i18n,
  });
  avgCard.body.append(avgMap.el);

  const concatCard = createCard({
    title: t('explorer.heads.concat'),
    formula: 'concat = [head\u2081 | \u2026 | head\u2095]',
    hint: t('explorer.heads.concatHint'),
  });
  const concatMap = createHeatmap({
    name: 'concat',
    label: t('explorer.heads.concatLabel'),
    kind: 'diverging',
    onInspect: (i, j) => onInspect({ kind: 'concat', i, j }),
    i18n,
  });
  concatCard.body.append(concatMap.el);

  const outCard = createCard({
    title: t('explorer.heads.output'),
    formula: 'MultiHead = concat\u00b7W_O',
    hint: t('explorer.heads.outputHint'),
  });
  const outMap = createHeatmap({
    name: 'mha-output',
    label: t('explorer.heads.outputLabel'),
    kind: 'diverging',
    onInspect: (i, j) => onInspect({ kind: 'mha-output', i, j }),
    i18n,
  });
  outCard.body.append(outMap.el);

  const cards = el('div', 'steps');
  const all = { grid: gridCard, average: avgCard, concat: concatCard, output: outCard };
  cards.append(
    ...Object.entries(all)
      .filter(([key]) => !only || only.includes(key))
      .map(([, card]) => card.el),
  );
  root.append(cards);

  let headViews = [];

  function buildHeads(h) {
    headGrid.replaceChildren();
    headViews = [];
    for (let k = 0; k < h; k++) {
      const figure = el('figure', 'head-tile');
      const button = el('button', 'head-button', t('explorer.controls.head', { k: k + 1 }));
      button.type = 'button';
      button.addEventListener('click', () => onSelectHead(k));
      const map = createHeatmap({
        name: `head-${k + 1}`,
        label: t('explorer.heads.tileLabel', { k: k + 1 }),
        kind: 'weights',
        small: true,
        i18n,
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
        sub.replaceChildren(
          `${t('explorer.heads.sizes', { heads: d.heads, width: m.headDim, dModel: d.dModel })} `,
          parameterSentence(
            {
              weights: m.parameterCountWeights,
              withBiases: m.parameterCountWithBiases,
              dModel: d.dModel,
              heads: d.heads,
              layer: { biases: m.biases, count: m.parameterCount },
            },
            i18n,
          ),
        );
      }
      const seeKey = `${d.heads}|${d.n}|${d.m}|${d.dModel}`;
      if (sameTokens.dataset.key !== seeKey) {
        sameTokens.dataset.key = seeKey;
        setAttr(sameTokens, 'data-value', String(d.m));
        setText(
          sameTokens,
          t('explorer.heads.seeAll', { m: d.m, heads: d.heads, n: d.n, width: m.headDim, dModel: d.dModel }),
        );
      }
      if (headViews.length !== m.heads.length) buildHeads(m.heads.length);
      const padCols = state.mask.kind === 'padding' ? state.mask.pad : null;
      headViews.forEach((v, k) => {
        const name = state.headNames[k];
        const label = name
          ? t('explorer.controls.headNamed', { k: k + 1, name })
          : t('explorer.controls.head', { k: k + 1 });
        setText(v.button, label);
        const selected = k === state.view.head;
        v.figure.classList.toggle('selected', selected);
        setAttr(v.button, 'aria-pressed', String(selected));
        v.map.update({
          tensor: m.heads[k],
          rowLabels: queries,
          colLabels: keys,
          hidden: result.hidden,
          fullyMasked: result.fullyMasked,
          padCols,
          clickable: true,
          ...display,
        });
      });
      avgCard.setShape(`${d.n} \u00d7 ${d.m}`);
      avgMap.update({
        tensor: m.average,
        rowLabels: queries,
        colLabels: keys,
        hidden: result.hidden,
        fullyMasked: result.fullyMasked,
        padCols,
        ...display,
      });
      const cols = (t) => Array.from({ length: t.shape[1] }, (_, c) => String(c + 1));
      concatCard.setShape(`${d.n} \u00d7 ${d.dModel}`);
      concatMap.update({
        tensor: m.concat,
        rowLabels: queries,
        colLabels: cols(m.concat),
        groupCols: m.headDim,
        ...display,
      });
      outCard.setShape(`${d.n} \u00d7 ${d.dModel}`);
      outMap.update({ tensor: m.output, rowLabels: queries, colLabels: cols(m.output), ...display });
    },
  };
}
