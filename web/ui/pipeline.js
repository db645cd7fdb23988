// The attention pipeline of one head, step by step: QKᵀ → scale → + mask → softmax → × V. Each
// step is a card with its formula, a one-line hint and a heatmap; the weights carry per-row
// sums, entropies and maxima so saturation is visible at a glance.
import { createCard, el, section, setAttr, setHidden, setText } from './dom/dom.js';
import { createHeatmap } from './heatmap/heatmap.js';
import { formatNumber, subscript } from './model/model.js';

const SUB_K = '\u2096';

const MASK_NAMES = { none: 'no mask', causal: 'causal mask', padding: 'padding mask', custom: 'custom mask' };

// The section's subtitle: the sizes, or the head shown, and what rows and columns are.
function subtitle(d, head) {
  const cross = d.cross ? ` Cross-attention: rows are the sentence\u2019s ${d.n} tokens (queries), columns the memory\u2019s ${d.m} tokens (keys and values).` : '';
  return (d.multi
    ? `Showing head ${head.index + 1} of ${d.heads} (d${SUB_K} = d_model / h = ${head.dk}). Pick another head in the controls or in the head grid below.`
    : `n = ${d.n} queries, m = ${d.m} keys, d${SUB_K} = ${d.dk}, d\u1d65 = ${d.dv}.`) + cross;
}

// The scaled scores' formula: its words and the scale it ends with.
function scaledFormula(scaling, head) {
  const T = scaling.temperature;
  const scale = formatNumber(head.scale);
  if (scaling.sqrtDk && T === 1) return [`S\u2032 = S / \u221a${head.dk} = S \u00d7 `, scale];
  if (scaling.sqrtDk) return [`S\u2032 = S / (T\u00b7\u221ad${SUB_K}) = S \u00d7 `, scale];
  if (T !== 1) return [`S\u2032 = S / T  (no \u221ad${SUB_K}) = S \u00d7 `, scale];
  return ['S\u2032 = S  (scaling off)'];
}

function scaledNote(state, result, d, head) {
  if (!state.scaling.sqrtDk) return `Scaling is off: compare the weights' entropy with \u221ad${SUB_K} on.`;
  return d.multi && !result.defaultScale ? `Every head uses the same scale (its own d${SUB_K} = ${head.dk}); torch.nn.MultiheadAttention always uses 1/\u221ad${SUB_K}.` : '';
}

// Step 4: the weights with their per-row statistics, the summary line under them and a note
// naming the fully masked rows.
function renderWeights(step, map, summary, { result, d, head, hn, shapeNM, common, queries }) {
  const st = result.stats;
  step.setShape(shapeNM);
  step.setTitle(`Attention weights${hn}`);
  // Means over the rows that see a key, and ln m for comparison, all from the core. The sentence
  // is drawn with the map (see alongside in heatmap.js); the numbers for readers are written now.
  setAttr(summary, 'data-mean-entropy', String(st.meanEntropy));
  setAttr(summary, 'data-mean-max', String(st.meanMax));
  const writeSummary = () => {
    setText(summary, st.visibleRows
      ? `Mean entropy ${st.meanEntropy.toFixed(2)} nats (uniform attention over ${d.m} keys: ln ${d.m} = ${st.uniformEntropy.toFixed(2)}); mean max weight ${st.meanMax.toFixed(2)}.`
      : 'Every row is fully masked: no query sees any key.');
  };
  map.update({
    tensor: head.weights, hidden: result.hidden, fullyMasked: result.fullyMasked, ...common,
    stats: [
      { key: 'sum', label: '\u03a3', title: 'row sum (1 unless every key is hidden)', values: st.rowSums, format: (v) => v.toFixed(3) },
      { key: 'entropy', label: 'H', title: 'entropy of the row in nats', values: st.entropy, format: (v) => v.toFixed(2) },
      { key: 'max', label: 'max', title: 'largest weight in the row', values: st.maxWeight, format: (v) => v.toFixed(2) },
    ],
    alongside: writeSummary,
  });
  if (result.fullyMasked.size) {
    const names = [...result.fullyMasked].map((i) => `\u201c${queries[i]}\u201d`).join(', ');
    step.setNote(`Fully masked row${result.fullyMasked.size > 1 ? 's' : ''} ${names}: no visible key, so the weights are all 0 (not NaN) and the output row is 0.`);
  } else {
    step.setNote('');
  }
}

// Each step's drawing from the context render() builds: (card, map, ctx, summary).
const DRAW = {
  scores(card, map, { head, hn, shapeNM, clickable, result, common }) {
    card.setShape(shapeNM);
    card.setTitle(`Scores${hn}`);
    card.setNote(clickable ? 'Custom mask: click a cell (or press Enter on it) to hide or show that pair.' : '');
    map.update({ tensor: head.scores, hidden: clickable ? result.hidden : null, clickable, ...common });
  },
  scaled(card, map, { state, result, d, head, shapeNM, clickable, common }) {
    card.setFormula(...scaledFormula(state.scaling, head));
    card.setShape(shapeNM);
    card.setNote(scaledNote(state, result, d, head));
    map.update({ tensor: head.scaled, hidden: clickable ? result.hidden : null, clickable, ...common });
  },
  masked(card, map, { state, result, d, head, shapeNM, clickable, common, single }) {
    card.setFormula(d.biasMatrix ? `M = S\u2032 + B + mask  (${MASK_NAMES[state.mask.kind]}; score + bias = masked score)` : `M = S\u2032 + mask  (${MASK_NAMES[state.mask.kind]})`);
    card.setShape(shapeNM);
    // Nothing hidden: the step folds to its title and says so (its map would repeat step 2's),
    // except in a lesson shown alone, whose few steps are the point.
    const idle = !single && state.mask.kind === 'none' && !d.biasMatrix;
    card.el.classList.toggle('step-idle', idle);
    card.setNote(idle ? 'No mask: M = S\u2032, the same numbers as step 2. Choose a mask to hide query\u2013key pairs.' : '');
    map.update({ tensor: head.masked, hidden: result.hidden, fullyMasked: result.fullyMasked, clickable, ...common });
  },
  weights(card, map, ctx, summary) {
    renderWeights(card, map, summary, ctx);
  },
  output(card, map, { result, d, head, hn, queries, display }) {
    card.setShape(`${d.n} \u00d7 ${head.output.shape[1]}`);
    card.setTitle(`Output${hn}`);
    card.setFormula(d.multi ? `head${subscript(head.index + 1)} = A\u00b7V\u2095` : 'O = A\u00b7V');
    map.update({
      tensor: head.output, rowLabels: queries,
      colLabels: Array.from({ length: head.output.shape[1] }, (_, c) => String(c + 1)), ...display,
      fullyMasked: result.fullyMasked,
    });
  },
};

/**
 * biasCard: the bias matrix's step (bias-matrix.js), placed between the scaled and masked scores;
 * only: the steps to show (a single-lesson embed, e.g. ['masked', 'weights']; default all), with
 * `title` as the section's heading.
 */
export function createPipeline({ onInspect, onToggleMask, biasCard = null, only = null, title = 'Attention, step by step' }) {
  const { root, sub } = section('pipeline', 'pipeline', title);
  root.id = 'pipeline';
  const grid = el('div', 'steps');
  root.append(grid);

  const inspect = (kind) => (i, j) => onInspect({ kind, i, j });
  const steps = {};
  const maps = {};
  const add = (key, card, kind, extra = {}) => {
    if (only && !only.includes(key)) return;
    steps[key] = card;
    maps[key] = createHeatmap({ name: key, label: card.el.querySelector('.title-text').textContent, kind, onInspect: inspect(key), ...extra });
    card.body.append(maps[key].el);
    grid.append(card.el);
  };

  add('scores', createCard({
    step: '1', title: 'Scores', formula: 'S = Q\u00b7K\u1d40',
    hint: 'Row = query, column = key: the dot product says how well each key matches what the query looks for.',
  }), 'diverging', { onActivate: (i, j) => onToggleMask(i, j) });
  add('scaled', createCard({
    step: '2', title: 'Scaled scores', formula: `S\u2032 = S / \u221ad${SUB_K}`,
    hint: `Dot products grow with d${SUB_K}; dividing by \u221ad${SUB_K} keeps their spread near 1 so the softmax stays soft.`,
  }), 'diverging', { onActivate: (i, j) => onToggleMask(i, j) });
  if (biasCard && (!only || only.includes('masked'))) grid.append(biasCard.el);
  add('masked', createCard({
    step: '3', title: 'Masked scores', formula: 'M = S\u2032 + mask',
    hint: 'Hidden pairs become \u2212\u221e before the softmax, so they get exactly zero weight and the rest still sum to 1.',
  }), 'diverging', { onActivate: (i, j) => onToggleMask(i, j) });
  add('weights', createCard({
    step: '4', title: 'Attention weights', formula: 'A = softmax(M), row by row',
    hint: 'Each row is a probability distribution over the keys. H is its entropy in nats: near 0 means one key takes almost everything.',
    className: 'wide-ok',
  }), 'weights');
  add('output', createCard({
    step: '5', title: 'Output', formula: 'O = A\u00b7V',
    hint: 'Each output row is a weighted average of the value rows: attention mixes values, it never invents new ones.',
  }), 'diverging');

  const summary = el('p', 'weights-summary');
  summary.dataset.stat = 'summary';
  steps.weights?.body.append(summary);
  const errorBox = el('p', 'error');
  errorBox.setAttribute('role', 'alert');
  errorBox.hidden = true;
  root.insertBefore(errorBox, grid);

  return {
    el: root,
    maps,
    /** The card of step `key` (createCard's handle), or undefined when it is not shown. */
    card: (key) => steps[key],
    render(state, result, display) {
      biasCard?.render(state, result, display);
      if (result.error) {
        setText(errorBox, `Cannot compute: ${result.error}`);
        setHidden(errorBox, false);
        grid.classList.toggle('stale', true);
        return;
      }
      setHidden(errorBox, true);
      grid.classList.toggle('stale', false);  // (unlike remove(), writes only on change)
      const d = result.dims;
      const head = result.head;
      const { queries, keys } = result.labels;
      const padCols = state.mask.kind === 'padding' ? state.mask.pad : null;
      const clickable = state.mask.kind === 'custom';
      const common = { rowLabels: queries, colLabels: keys, padCols, ...display };
      const headName = state.headNames[head.index];
      const hn = d.multi ? ` \u2014 head ${head.index + 1}${headName ? ` (${headName})` : ''}` : '';
      setText(sub, subtitle(d, head));

      const shapeNM = `${d.n} \u00d7 ${d.m}`;
      const ctx = { state, result, d, head, hn, shapeNM, common, queries, clickable, display, single: Boolean(only) };
      for (const key of Object.keys(steps)) DRAW[key](steps[key], maps[key], ctx, summary);
    },
  };
}
