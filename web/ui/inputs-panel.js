// The inputs: either Q, K, V typed directly, or a sentence whose tokens label the rows, the token
// vectors X and the projection matrices W_Q, W_K, W_V (and W_O with several heads), followed by
// the projections Q = X·W_Q, K = X·W_K, V = X·W_V the core computes from them.
import { createCard, el, section, setHidden, setText } from './dom/dom.js';
import { createHeatmap } from './heatmap/heatmap.js';
import { createInputMatrixCard } from './input-matrix-card.js';
import { createSentenceBox } from './sentence-box.js';
import { activeMatrices, describeDModel, dims } from './model/model.js';

const TITLES = {
  Q: ['Queries Q', 'What each query token is looking for.'],
  K: ['Keys K', 'What each key token offers to be matched on.'],
  V: ['Values V', 'What each key token passes on when attended to.'],
  X: ['Token vectors X', 'One row per token (for a typed sentence: its word\u2019s vector plus its position\u2019s). Edit it to change what a token "means".'],
  WQ: ['W_Q', 'Projects a token vector to its query.'],
  WK: ['W_K', 'Projects a token vector to its key.'],
  WV: ['W_V', 'Projects a token vector to its value.'],
  WO: ['W_O', 'Mixes the concatenated head outputs into the layer output.'],
  XM: ['Memory vectors X_mem', 'One row per memory token (cross-attention): the keys and values are computed from these rows.'],
  BQ: ['b_Q', 'Added to every row of Q = X\u00b7W_Q + b_Q.'],
  BK: ['b_K', 'Added to every row of K. A bias on the keys shifts every score of a query equally, so the softmax cancels it.'],
  BV: ['b_V', 'Added to every row of V, so it passes unchanged into every output row (weights sum to 1).'],
  BO: ['b_O', 'Added to every row of the layer output.'],
};
// The editors in page order: each projection bias right after its W.
const EDITOR_NAMES = ['Q', 'K', 'V', 'X', 'XM', 'WQ', 'BQ', 'WK', 'BK', 'WV', 'BV', 'WO', 'BO'];

// A projection Q, K or V computed by the core, as a heatmap in its card.
function createProjectionCard(name, onInspect) {
  const card = createCard({ title: `${name} = X\u00b7W_${name}`, className: 'matrix-card' });
  const map = createHeatmap({ name, label: `${name} = X times W_${name}`, kind: 'diverging', onInspect: (i, j) => onInspect({ kind: 'proj', name, i, j }) });
  card.body.append(map.el);
  return { card, map };
}

function renderProjection({ card, map }, name, { state, result, d, display }) {
  const labels = result.labels;
  const t = result.proj[name];
  const src = name !== 'Q' && d.cross ? 'X_mem' : 'X';
  card.setTitle(`${name} = ${src}\u00b7W_${name}${d.biases ? ` + b_${name}` : ''}`);
  card.setShape(`${t.shape[0]} \u00d7 ${t.shape[1]}`);
  card.setHint(d.multi
    ? `Columns are split into ${d.heads} heads of ${t.shape[1] / d.heads}: head 1 reads columns 1\u2013${t.shape[1] / d.heads}, and so on.`
    : '');
  map.update({
    tensor: t, rowLabels: name === 'Q' ? labels.queries : labels.keys,
    colLabels: Array.from({ length: t.shape[1] }, (_, c) => String(c + 1)),
    padRows: state.mask.kind === 'padding' && (name !== 'Q' || !d.cross) ? state.mask.pad : null,
    groupCols: d.multi ? t.shape[1] / d.heads : 0,
    ...display,
  });
}

/**
 * onReset(name) puts a matrix back to the example's values; canReset(name) says whether it has
 * been edited since the example set it. only: the matrices a single-lesson embed shows (Q, K, V:
 * the editors in Q/K/V mode, the projections of a sentence, whose sentence box stays); default all.
 */
export function createInputsPanel({ onEdit, onInspect, onSentence, onPositional, onReset = () => {}, canReset = () => false, only = null }) {
  const wanted = (name) => !only || only.includes(name);
  const { root, sub } = section('inputs', 'inputs', 'Inputs');
  const sentenceBox = createSentenceBox({ onSentence, onPositional });  // sentence mode
  root.append(sentenceBox.el, sentenceBox.vectors);

  const matrixGrid = el('div', 'matrices');
  root.append(matrixGrid);
  const editors = {};
  const matrixCards = {};
  for (const name of EDITOR_NAMES) {
    const [title, hint] = TITLES[name];
    const card = createInputMatrixCard({ name, title, hint, onEdit, onInspect, onReset, canReset });
    editors[name] = card.editor;
    matrixCards[name] = card;
    matrixGrid.append(card.el);
  }

  // Projections (sentence mode).
  const projGrid = el('div', 'matrices projections');
  const projMaps = {};
  const projCards = {};
  for (const name of ['Q', 'K', 'V']) {
    projCards[name] = createProjectionCard(name, onInspect);
    projMaps[name] = projCards[name].map;
    projGrid.append(projCards[name].card.el);
  }
  const projHeading = el('h3', 'subsection', 'Projections, computed by the core');
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
      setText(sub, d.sentence
        ? (only ? 'Type a sentence: every number below follows at once.' : `Type a sentence, then edit the token vectors and the projection weights (d_model = ${d.dModel}). Every number below follows at once. ${describeDModel(state)}`.trim())
        : `Edit any ${only ? 'number' : 'query, key or value'}. Every number below follows at once.`);
      if (d.sentence) sentenceBox.render(state);
      for (const [name, card] of Object.entries(matrixCards))
        card.render({ state, d, labels: result.labels, display, shape: wanted(name) ? active.get(name) : undefined });
      if (d.sentence && !result.error) {
        for (const name of ['Q', 'K', 'V']) {
          projCards[name].card.setVisible(wanted(name));
          if (wanted(name)) renderProjection(projCards[name], name, { state, result, d, display });
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
