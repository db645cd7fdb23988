// One card per attention head of the model being trained: its attention on the probe sequence (a
// heatmap with token labels), its previous-token, induction and duplicate-token scores now and
// over the steps, a label once a score passes its threshold, and two actions: ablate the head
// (its output zeroed; the card says what the loss and the other heads' scores lose) and open the
// head in the explorer's step-by-step pipeline.
// Test hooks: each card is [data-head-score][data-layer][data-head] with data-previous-token,
// data-induction and data-duplicate-token (current scores); the maps are table[data-heatmap].
import { countMapDraw, el } from '../dom/dom.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { createLineChart } from './curves.js';
import { THRESHOLDS, headTitle } from './config.js';
import { queueHeatmap } from './frame-queue.js';


const SCORE_NAMES = [
  ['previousToken', 'previous-token', 'prev', 'a'],
  ['induction', 'induction', 'induction', 'b'],
  ['duplicateToken', 'duplicate-token', 'dup', 'c'],
];

/** The label a head earns from its scores ('' when none passes its threshold). */
export function headLabel(scores) {
  if (scores.induction >= THRESHOLDS.induction) return 'induction head';
  if (scores.previousToken >= THRESHOLDS.previousToken) return 'previous-token head';
  if (scores.duplicateToken >= THRESHOLDS.duplicateToken) return 'duplicate-token head';
  return '';
}

function createHeadCard(layer, head, { onAblate, onOpen }) {
  const root = el('article', 'head-card');
  Object.assign(root.dataset, { headScore: '', layer: String(layer), head: String(head) });
  const title = el('h3', 'head-title', headTitle(layer, head));
  const badge = el('span', 'head-badge');
  badge.hidden = true;
  title.append(' ', badge);
  const numbers = el('dl', 'head-numbers');
  const values = {};
  for (const [key, , short] of SCORE_NAMES) {
    const dd = el('dd', '', '–');
    numbers.append(el('dt', '', short), dd);
    values[key] = dd;
  }
  const chart = createLineChart({
    title: `${headTitle(layer, head)}: scores over the steps`, small: true, yMax: 1, format: (v) => v.toFixed(2),
    series: SCORE_NAMES.map(([key, label, , style]) => ({ key, label, style })),
  });
  const map = createHeatmap({ name: `train-l${layer}-h${head}`, label: `${headTitle(layer, head)}: attention on the probe sequence (rows: queries, columns: keys)`, kind: 'weights', small: true });
  const actions = el('div', 'head-actions');
  const ablate = el('button', 'small-button', 'Ablate');
  ablate.type = 'button';
  ablate.dataset.action = 'ablate';
  ablate.setAttribute('aria-pressed', 'false');
  ablate.title = 'Zero this head\u2019s output and see what the loss and the scores lose';
  const open = el('button', 'small-button', 'Open in the explorer');
  open.type = 'button';
  open.dataset.action = 'open-head';
  open.hidden = !onOpen;  // only where an explorer can take the head (the stand-alone page)
  actions.append(ablate, open);
  const effect = el('p', 'ablation-effect');
  effect.setAttribute('aria-live', 'polite');
  effect.hidden = true;
  root.append(title, numbers, chart.el, map.el, actions, effect);
  ablate.addEventListener('click', () => onAblate(layer, head));
  open.addEventListener('click', () => onOpen?.(layer, head));

  return {
    el: root,
    chart,
    /** The data- hooks always; the numbers, label and map only with `attention` (a redraw). */
    update(scores, attention, labels, display) {
      for (const key of ['previousToken', 'induction', 'duplicateToken']) root.dataset[key] = String(scores[key]);
      if (!attention) return;
      for (const key of ['previousToken', 'induction', 'duplicateToken']) values[key].textContent = scores[key].toFixed(2);
      const label = headLabel(scores);
      badge.hidden = !label;
      badge.textContent = label;
      root.classList.toggle('is-induction', label === 'induction head');
      root.classList.toggle('is-previous', label === 'previous-token head');
      queueHeatmap(map, { tensor: attention, rowLabels: labels, colLabels: labels, ...display }, countMapDraw);
    },
    setAblated(on, text = '') {
      ablate.setAttribute('aria-pressed', String(on));
      ablate.textContent = on ? 'Restore' : 'Ablate';
      root.classList.toggle('ablated', on);
      effect.hidden = !text;
      effect.textContent = text;
    },
  };
}

// Head h of a [H, T, T] attention, its first n queries and keys ([n, n]).
function cropHead(a, h, n) {
  const t = a.shape[1];
  const out = new Float32Array(n * n);
  for (let i = 0; i < n; i++) out.set(a.data.subarray((h * t + i) * t, (h * t + i) * t + n), i * n);
  return { data: out, shape: [n, n] };
}

/** The cards of every head, layer by layer. */
export function createHeadCards({ onAblate, onOpen = null }) {
  const root = el('section', 'head-cards');
  root.id = 'training-heads';  // the page's skip link
  root.tabIndex = -1;
  const heading = el('h2', 'section-title', 'Every head, on a probe sequence');
  heading.id = `train-heads-${Math.random().toString(36).slice(2, 8)}`;
  root.setAttribute('aria-labelledby', heading.id);
  const note = el('p', 'hint', `A head is named once a score passes its threshold: previous-token ≥ ${THRESHOLDS.previousToken}, induction ≥ ${THRESHOLDS.induction}. Scores are measured on 8 probe sequences; the map shows the first.`);
  const grid = el('div', 'head-grid');
  root.append(heading, note, grid);
  let cards = [];

  return {
    el: root,
    /** New cards for a model of `layers` × `heads`. */
    build(layers, heads) {
      cards = [];
      grid.replaceChildren();
      for (let l = 0; l < layers; l++) {
        const row = [];
        for (let h = 0; h < heads; h++) {
          const card = createHeadCard(l, h, { onAblate, onOpen });
          row.push(card);
          grid.append(card.el);
        }
        cards.push(row);
      }
    },
    /**
     * probe: a trainer probe ({ headScores, attentions }); labels: the tokens the maps show (the
     * first labels.length of the probe sequence); draw: also redraw the heatmaps.
     */
    update(step, probe, labels, display, { draw = true, chart = true } = {}) {
      probe.headScores?.forEach((layer, l) => {
        layer.induction.forEach((_, h) => {
          const card = cards[l]?.[h];
          if (!card) return;
          const scores = { previousToken: layer.previousToken[h], induction: layer.induction[h], duplicateToken: layer.duplicateToken[h] };
          let attention = null;
          if (draw && probe.attentions) attention = cropHead(probe.attentions[l], h, labels.length);
          card.update(scores, attention, labels, display);
          if (chart) card.chart.push(step, scores);
        });
      });
    },
    card: (l, h) => cards[l]?.[h],
    all: () => cards.flat(),
  };
}
