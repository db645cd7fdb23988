// One card per attention head of the model being trained: its attention on the probe sequence (a
// heatmap with token labels), its previous-token, induction and duplicate-token scores now and
// over the steps, a label once a score passes its threshold, and two actions: ablate the head
// (its output zeroed; the card says what the loss and the other heads' scores lose) and open the
// head in the explorer's step-by-step pipeline.
// Test hooks: each card is [data-head-score][data-layer][data-head] with data-previous-token,
// data-induction and data-duplicate-token (current scores); the maps are table[data-heatmap].
import { countMapDraw, el, setText, writeAnswer } from '../dom/dom.js';
import { english } from '../model/model.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { createLineChart } from './curves.js';
import { THRESHOLDS, headTitle } from './config.js';
import { queueHeatmap } from './queue-heatmap.js';

// Each score: its key, its line style; its names are the messages training.score.<key> (in the
// charts' legends) and training.score.<key>.short (the cards' numbers).
const SCORE_NAMES = [
  ['previousToken', 'a'],
  ['induction', 'b'],
  ['duplicateToken', 'c'],
];
const SCORE_KEYS = SCORE_NAMES.map(([key]) => key);

/** The job a head's scores name ('previousToken', 'induction', 'duplicateToken'), or '' for none. */
function headJob(scores) {
  if (scores.induction >= THRESHOLDS.induction) return 'induction';
  if (scores.previousToken >= THRESHOLDS.previousToken) return 'previousToken';
  if (scores.duplicateToken >= THRESHOLDS.duplicateToken) return 'duplicateToken';
  return '';
}

/** The label a head earns from its scores ('' when none passes its threshold), in i18n's language. */
export function headLabel(scores, i18n = english) {
  const job = headJob(scores);
  return job ? i18n.t(`training.head.label.${job}`) : '';
}

/** The cards' score numbers: a <dl> of short names and '–'; returns { numbers, values }. */
export function scoreNumbers({ t }) {
  const numbers = el('dl', 'head-numbers');
  const values = {};
  for (const [key] of SCORE_NAMES) {
    values[key] = el('dd', '', '–');
    numbers.append(el('dt', '', t(`training.score.${key}.short`)), values[key]);
  }
  return { numbers, values };
}

// A card's scores: its data- hooks (every probe) and, from the last redraw (drawn), its numbers,
// label and class; or none of them, under the induction question's cover (its numbers, label and
// charts together).
function cardScores({ root, values, badge }, { t, decimal }) {
  return {
    show(scores, drawn) {
      for (const key of SCORE_KEYS) root.dataset[key] = String(scores[key]);
      if (!drawn) return;
      for (const key of SCORE_KEYS) setText(values[key], decimal(drawn[key].toFixed(2)));
      const job = headJob(drawn);
      badge.hidden = !job;
      badge.textContent = job ? t(`training.head.label.${job}`) : '';
      root.classList.toggle('is-induction', job === 'induction');
      root.classList.toggle('is-previous', job === 'previousToken');
    },
    hide() {
      for (const key of SCORE_KEYS) {
        delete root.dataset[key];
        setText(values[key], '–');
      }
      badge.hidden = true;
      badge.textContent = '';
      root.classList.remove('is-induction', 'is-previous');
    },
  };
}

function createHeadCard(layer, head, { onAblate, onOpen, i18n }) {
  const { t } = i18n;
  const fixed = (x) => i18n.decimal(x.toFixed(2));
  const root = el('article', 'head-card');
  Object.assign(root.dataset, { headScore: '', layer: String(layer), head: String(head) });
  const name = headTitle(layer, head, i18n);
  const title = el('h3', 'head-title', name);
  const badge = el('span', 'head-badge');
  badge.hidden = true;
  title.append(' ', badge);
  const { numbers, values } = scoreNumbers(i18n);
  const chart = createLineChart({
    title: t('training.head.chart', { layer: layer + 1, head: head + 1 }),
    small: true,
    yMax: 1,
    format: fixed,
    i18n,
    series: SCORE_NAMES.map(([key, style]) => ({ key, label: t(`training.score.${key}`), style })),
  });
  const map = createHeatmap({
    name: `train-l${layer}-h${head}`,
    label: t('training.head.map', { layer: layer + 1, head: head + 1 }),
    kind: 'weights',
    small: true,
    i18n,
  });
  const actions = el('div', 'head-actions');
  const ablate = el('button', 'small-button', t('training.head.ablate'));
  ablate.type = 'button';
  ablate.dataset.action = 'ablate';
  ablate.setAttribute('aria-pressed', 'false');
  ablate.title = t('training.head.ablateTitle');
  const open = el('button', 'small-button', t('training.head.open'));
  open.type = 'button';
  open.dataset.action = 'open-head';
  open.hidden = !onOpen; // only where an explorer can take the head (the stand-alone page)
  actions.append(ablate, open);
  const effect = el('p', 'ablation-effect');
  effect.setAttribute('aria-live', 'polite');
  effect.hidden = true;
  root.append(title, numbers, chart.el, map.el, actions, effect);
  ablate.addEventListener('click', () => onAblate(layer, head));
  open.addEventListener('click', () => onOpen?.(layer, head));

  const scoreText = cardScores({ root, values, badge }, i18n);
  let drawn = null;

  return {
    el: root,
    chart,
    /** The data- hooks always; the numbers, label and map only with `attention` (a redraw). */
    update(scores, attention, labels, display) {
      if (attention) drawn = scores;
      writeAnswer(numbers, { show: () => scoreText.show(scores, drawn), hide: scoreText.hide });
      if (!attention) return;
      queueHeatmap(map, { tensor: attention, rowLabels: labels, colLabels: labels, ...display }, countMapDraw);
    },
    setAblated(on, text = '') {
      ablate.setAttribute('aria-pressed', String(on));
      ablate.textContent = t(on ? 'training.head.restore' : 'training.head.ablate');
      root.classList.toggle('ablated', on);
      // What the others lose says which head mattered: not while the induction question covers it.
      writeAnswer(effect, {
        show() {
          effect.hidden = !text;
          effect.textContent = text;
        },
        hide() {
          effect.hidden = true;
          effect.textContent = '';
        },
      });
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

/** The cards of every head, layer by layer; i18n: the view's translator. */
export function createHeadCards({ onAblate, onOpen = null, i18n = english }) {
  const root = el('section', 'head-cards');
  root.id = 'training-heads'; // the page's skip link
  root.tabIndex = -1;
  const heading = el('h2', 'section-title', i18n.t('training.heads.title'));
  heading.id = `train-heads-${Math.random().toString(36).slice(2, 8)}`;
  root.setAttribute('aria-labelledby', heading.id);
  const note = el(
    'p',
    'hint',
    i18n.t('training.heads.note', {
      previousToken: THRESHOLDS.previousToken,
      induction: THRESHOLDS.induction,
      probes: 8,
    }),
  );
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
          const card = createHeadCard(l, h, { onAblate, onOpen, i18n });
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
          const scores = {
            previousToken: layer.previousToken[h],
            induction: layer.induction[h],
            duplicateToken: layer.duplicateToken[h],
          };
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
