// Multi-head view: every head's weights side by side (pick one to inspect its steps), the head
// average, the concatenated head outputs and the layer output concat·W_O.
import { createCard, el, section, setAttr, setHidden, setText } from './dom/dom.js';
import { createHeatmap } from './heatmap/heatmap.js';
import { parameterSentence } from './parameter-count.js';
import { english } from './model/model.js';

// The cards under the head grid, each one map: the heads' average, their outputs side by side, and
// the layer's output. A cell's explanation is asked for under the map's name.
const SUMMARIES = [
  {
    key: 'average',
    name: 'average',
    kind: 'weights',
    formula: 'Ā = (A₁ + … + Aₕ) / h',
    title: 'explorer.heads.average',
    hint: 'explorer.heads.averageHint',
    label: 'explorer.heads.averageLabel',
  },
  {
    key: 'concat',
    name: 'concat',
    kind: 'diverging',
    formula: 'concat = [head₁ | … | headₕ]',
    title: 'explorer.heads.concat',
    hint: 'explorer.heads.concatHint',
    label: 'explorer.heads.concatLabel',
  },
  {
    key: 'output',
    name: 'mha-output',
    kind: 'diverging',
    formula: 'MultiHead = concat·W_O',
    title: 'explorer.heads.output',
    hint: 'explorer.heads.outputHint',
    label: 'explorer.heads.outputLabel',
  },
];

// One summary card and its map.
function summaryCard({ name, kind, formula, title, hint, label }, onInspect, i18n) {
  const { t } = i18n;
  const card = createCard({ title: t(title), formula, hint: t(hint) });
  const map = createHeatmap({
    name,
    label: t(label),
    kind,
    onInspect: (i, j) => onInspect({ kind: name, i, j }),
    i18n,
  });
  card.body.append(map.el);
  return { card, map };
}

// One head's tile: a button that picks the head, over a small map of its weights.
function headTile(k, { onInspect, onSelectHead, i18n }) {
  const { t } = i18n;
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
  return { figure, button, map };
}

// The sizes under the heading and the layer's parameter count (rewritten only when they change).
function renderSizes(sub, d, m, i18n) {
  const countKey = `${d.heads}|${d.dModel}|${m.parameterCount}|${m.parameterCountWithBiases}|${m.biases}`;
  if (sub.dataset.key === countKey) return;
  sub.dataset.key = countKey;
  sub.replaceChildren(
    `${i18n.t('explorer.heads.sizes', { heads: d.heads, width: m.headDim, dModel: d.dModel })} `,
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

// "Every head sees all m tokens", with the sizes that differ between heads.
function renderSeeAll(sameTokens, d, m, { t }) {
  const seeKey = `${d.heads}|${d.n}|${d.m}|${d.dModel}`;
  if (sameTokens.dataset.key === seeKey) return;
  sameTokens.dataset.key = seeKey;
  setAttr(sameTokens, 'data-value', String(d.m));
  setText(
    sameTokens,
    t('explorer.heads.seeAll', { m: d.m, heads: d.heads, n: d.n, width: m.headDim, dModel: d.dModel }),
  );
}

// Each head's tile: its name, whether it is the one selected, and its weights.
function renderHeads(headViews, state, result, { display, padCols, t }) {
  const m = result.multi;
  const { queries, keys } = result.labels;
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
}

// The average, concat and output cards.
function renderSummaries(summaries, result, { display, padCols }) {
  const d = result.dims;
  const m = result.multi;
  const { queries, keys } = result.labels;
  summaries.average.card.setShape(`${d.n} × ${d.m}`);
  summaries.average.map.update({
    tensor: m.average,
    rowLabels: queries,
    colLabels: keys,
    hidden: result.hidden,
    fullyMasked: result.fullyMasked,
    padCols,
    ...display,
  });
  const cols = (t) => Array.from({ length: t.shape[1] }, (_, c) => String(c + 1));
  summaries.concat.card.setShape(`${d.n} × ${d.dModel}`);
  summaries.concat.map.update({
    tensor: m.concat,
    rowLabels: queries,
    colLabels: cols(m.concat),
    groupCols: m.headDim,
    ...display,
  });
  summaries.output.card.setShape(`${d.n} × ${d.dModel}`);
  summaries.output.map.update({ tensor: m.output, rowLabels: queries, colLabels: cols(m.output), ...display });
}

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
    formula: 'headₕ = softmax(QₕKₕᵀ / √dₕ) Vₕ',
    hint: t(only ? 'explorer.heads.allHintAlone' : 'explorer.heads.allHint'),
  });
  const headGrid = el('div', 'head-grid');
  gridCard.body.append(headGrid);
  const summaries = Object.fromEntries(SUMMARIES.map((c) => [c.key, summaryCard(c, onInspect, i18n)]));

  const cards = el('div', 'steps');
  const all = {
    grid: gridCard,
    average: summaries.average.card,
    concat: summaries.concat.card,
    output: summaries.output.card,
  };
  cards.append(
    ...Object.entries(all)
      .filter(([key]) => !only || only.includes(key))
      .map(([, card]) => card.el),
  );
  root.append(cards);

  let headViews = [];
  return {
    el: root,
    maps: { average: summaries.average.map, concat: summaries.concat.map, 'mha-output': summaries.output.map },
    headMaps: () => headViews.map((v) => v.map),
    render(state, result, display) {
      const d = result.dims;
      setHidden(root, !d.multi || !!result.error);
      if (root.hidden) return;
      const m = result.multi;
      renderSizes(sub, d, m, i18n);
      renderSeeAll(sameTokens, d, m, i18n);
      if (headViews.length !== m.heads.length) {
        headViews = Array.from({ length: m.heads.length }, (_, k) => headTile(k, { onInspect, onSelectHead, i18n }));
        headGrid.replaceChildren(...headViews.map((v) => v.figure));
      }
      const padCols = state.mask.kind === 'padding' ? state.mask.pad : null;
      renderHeads(headViews, state, result, { display, padCols, t });
      renderSummaries(summaries, result, { display, padCols });
    },
  };
}
