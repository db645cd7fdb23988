// The inputs: either Q, K, V typed directly, or a sentence whose tokens label the rows, the token
// vectors X and the projection matrices W_Q, W_K, W_V (and W_O with several heads), followed by
// the projections Q = X·W_Q, K = X·W_K, V = X·W_V the core computes from them.
import { createCard, el, section, setHidden, setText } from './dom/dom.js';
import { createHeatmap } from './heatmap/heatmap.js';
import { createInputMatrixCard } from './input-matrix-card.js';
import { createSentenceBox } from './sentence-box.js';
import { activeMatrices, describeDModel, dims, english } from './model/model.js';

// Matrices whose title is their name alone (the others' titles are in the catalogue).
const NAMED = { WQ: 'W_Q', WK: 'W_K', WV: 'W_V', WO: 'W_O', BQ: 'b_Q', BK: 'b_K', BV: 'b_V', BO: 'b_O' };
const titleOf = (name, t) => NAMED[name] ?? t(`explorer.inputs.title.${name}`);
// The editors in page order: each projection bias right after its W.
const EDITOR_NAMES = ['Q', 'K', 'V', 'X', 'XM', 'WQ', 'BQ', 'WK', 'BK', 'WV', 'BV', 'WO', 'BO'];

// A projection Q, K or V computed by the core, as a heatmap in its card.
function createProjectionCard(name, onInspect, i18n) {
  const card = createCard({ title: `${name} = X·W_${name}`, className: 'matrix-card' });
  card.el.querySelector('.title-text').translate = false; // a formula
  const map = createHeatmap({
    name,
    label: i18n.t('explorer.inputs.projectionLabel', { name }),
    kind: 'diverging',
    onInspect: (i, j) => onInspect({ kind: 'proj', name, i, j }),
    i18n,
  });
  card.body.append(map.el);
  return { card, map };
}

// An editor card for every input matrix, in page order, in one grid.
function createEditorCards({ onEdit, onInspect, onReset, canReset, i18n }) {
  const { t } = i18n;
  const matrixGrid = el('div', 'matrices');
  const editors = {};
  const matrixCards = {};
  for (const name of EDITOR_NAMES) {
    const card = createInputMatrixCard({
      name,
      title: titleOf(name, t),
      hint: t(`explorer.inputs.hint.${name}`),
      onEdit,
      onInspect,
      onReset,
      canReset,
      i18n,
    });
    editors[name] = card.editor;
    matrixCards[name] = card;
    matrixGrid.append(card.el);
  }
  return { matrixGrid, matrixCards, editors };
}

function renderProjection({ card, map }, name, { state, result, d, display }, { t }) {
  const labels = result.labels;
  const p = result.proj[name];
  const src = name !== 'Q' && d.cross ? 'X_mem' : 'X';
  card.setTitle(`${name} = ${src}·W_${name}${d.biases ? ` + b_${name}` : ''}`);
  card.setShape(`${p.shape[0]} × ${p.shape[1]}`);
  card.setHint(d.multi ? t('explorer.inputs.split', { heads: d.heads, width: p.shape[1] / d.heads }) : '');
  map.update({
    tensor: p,
    rowLabels: name === 'Q' ? labels.queries : labels.keys,
    colLabels: Array.from({ length: p.shape[1] }, (_, c) => String(c + 1)),
    padRows: state.mask.kind === 'padding' && (name !== 'Q' || !d.cross) ? state.mask.pad : null,
    groupCols: d.multi ? p.shape[1] / d.heads : 0,
    ...display,
  });
}

/**
 * onReset(name) puts a matrix back to the example's values; canReset(name) says whether it has
 * been edited since the example set it. only: the matrices a single-lesson embed shows (Q, K, V:
 * the editors in Q/K/V mode, the projections of a sentence, whose sentence box stays); default all.
 */
export function createInputsPanel({
  onEdit,
  onInspect,
  onSentence,
  onPositional,
  onReset = () => {},
  canReset = () => false,
  only = null,
  i18n = english,
}) {
  const { t } = i18n;
  const wanted = (name) => !only || only.includes(name);
  const { root, sub } = section('inputs', 'inputs', t('explorer.inputs.title'));
  const sentenceBox = createSentenceBox({ onSentence, onPositional, i18n }); // sentence mode
  root.append(sentenceBox.el, sentenceBox.vectors);

  const { matrixGrid, matrixCards, editors } = createEditorCards({ onEdit, onInspect, onReset, canReset, i18n });
  root.append(matrixGrid);

  // Projections (sentence mode).
  const projGrid = el('div', 'matrices projections');
  const projCards = Object.fromEntries(
    ['Q', 'K', 'V'].map((name) => [name, createProjectionCard(name, onInspect, i18n)]),
  );
  const projMaps = Object.fromEntries(Object.entries(projCards).map(([name, { map }]) => [name, map]));
  projGrid.append(...Object.values(projCards).map(({ card }) => card.el));
  const projHeading = el('h3', 'subsection', t('explorer.inputs.projections'));
  root.append(projHeading, projGrid);

  return {
    el: root,
    /** The sentence field (sentence mode), which the whole explorer shows first, above the steps. */
    sentence: sentenceBox.el,
    editors,
    projMaps,
    render(state, result, display) {
      const d = dims(state);
      const active = new Map(activeMatrices(state).map(([n, r, c]) => [n, [r, c]]));
      setHidden(sentenceBox.el, !d.sentence);
      setHidden(sentenceBox.vectors, !d.sentence || Boolean(only));
      setHidden(projHeading, !d.sentence || Boolean(only));
      setHidden(projGrid, !d.sentence);
      setText(
        sub,
        d.sentence
          ? only
            ? t('explorer.inputs.sub.sentenceOnly')
            : `${t('explorer.inputs.sub.sentence', { dModel: d.dModel })} ${describeDModel(state, i18n)}`.trim()
          : t(only ? 'explorer.inputs.sub.qkvOnly' : 'explorer.inputs.sub.qkv'),
      );
      if (d.sentence) sentenceBox.render(state);
      for (const [name, card] of Object.entries(matrixCards))
        card.render({ state, d, labels: result.labels, display, shape: wanted(name) ? active.get(name) : undefined });
      if (d.sentence && !result.error) {
        for (const name of ['Q', 'K', 'V']) {
          projCards[name].card.setVisible(wanted(name));
          if (wanted(name)) renderProjection(projCards[name], name, { state, result, d, display }, i18n);
        }
      }
    },
    /** Editor or projection map by matrix name, for highlighting. */
    target(name, sentenceMode) {
      if (sentenceMode && ['Q', 'K', 'V'].includes(name)) return projMaps[name];
      return editors[name];
    },
  };
}
