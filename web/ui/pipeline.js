// The attention pipeline of one head, step by step: QKᵀ → scale → + mask → softmax → × V. Each
// step is a card with its formula, a one-line hint and a heatmap; the weights carry per-row
// sums, entropies and maxima so saturation is visible at a glance.
import { createCard, el, isCovered, section, setAttr, setHidden, setText, writeAnswer } from './dom/dom.js';
import { createHeatmap } from './heatmap/heatmap.js';
import { english, formatNumber, subscript } from './model/model.js';

const SUB_K = 'ₖ';

// The section's subtitle: the sizes, or the head shown, and what rows and columns are.
function subtitle(d, head, { t }) {
  const sizes = d.multi
    ? t('explorer.pipeline.sub.multi', { k: head.index + 1, heads: d.heads, dk: head.dk })
    : t('explorer.pipeline.sub.one', { n: d.n, m: d.m, dk: d.dk, dv: d.dv });
  return d.cross ? `${sizes} ${t('explorer.pipeline.sub.cross', { n: d.n, m: d.m })}` : sizes;
}

// The scaled scores' formula: its words and the scale it ends with.
function scaledFormula(scaling, head, { t, decimal }) {
  const T = scaling.temperature;
  const scale = decimal(formatNumber(head.scale));
  if (scaling.sqrtDk && T === 1) return [`S′ = S / √${head.dk} = S × `, scale];
  if (scaling.sqrtDk) return [`S′ = S / (T·√d${SUB_K}) = S × `, scale];
  if (T !== 1) return [t('explorer.pipeline.scaledNoSqrt'), scale];
  return [t('explorer.pipeline.scalingOff')];
}

function scaledNote(state, result, d, head, { t }) {
  if (!state.scaling.sqrtDk) return t('explorer.pipeline.scalingOffNote');
  return d.multi && !result.defaultScale ? t('explorer.pipeline.sameScale', { dk: head.dk }) : '';
}

// Step 4: the weights with their per-row statistics, the summary line under them and a note
// naming the fully masked rows.
function renderWeights(step, map, summary, { result, d, head, hn, shapeNM, common, queries, i18n }) {
  const { t, decimal } = i18n;
  const st = result.stats;
  step.setShape(shapeNM);
  step.setTitle(hn(t('explorer.pipeline.weights')));
  // Means over the rows that see a key, and ln m for comparison, all from the core. The sentence
  // is drawn with the map (see alongside in heatmap.js); the numbers for readers are written now.
  // Under a predict question's cover, neither (they describe the weights covered).
  writeAnswer(summary, {
    show() {
      setAttr(summary, 'data-mean-entropy', String(st.meanEntropy));
      setAttr(summary, 'data-mean-max', String(st.meanMax));
    },
    hide() {
      for (const name of ['data-mean-entropy', 'data-mean-max']) summary.removeAttribute(name);
      setText(summary, '');
    },
  });
  const writeSummary = () => {
    if (isCovered(summary)) return; // (the map writes it again when the cover comes off)
    setText(
      summary,
      st.visibleRows
        ? t('explorer.pipeline.summary', {
            entropy: decimal(st.meanEntropy.toFixed(2)),
            m: d.m,
            uniform: decimal(st.uniformEntropy.toFixed(2)),
            max: decimal(st.meanMax.toFixed(2)),
          })
        : t('explorer.pipeline.allMasked'),
    );
  };
  map.update({
    tensor: head.weights,
    hidden: result.hidden,
    fullyMasked: result.fullyMasked,
    ...common,
    stats: [
      {
        key: 'sum',
        label: 'Σ',
        title: t('explorer.pipeline.stat.sum'),
        values: st.rowSums,
        format: (v) => decimal(v.toFixed(3)),
      },
      {
        key: 'entropy',
        label: 'H',
        title: t('explorer.pipeline.stat.entropy'),
        values: st.entropy,
        format: (v) => decimal(v.toFixed(2)),
      },
      {
        key: 'max',
        label: t('explorer.pipeline.stat.max'),
        title: t('explorer.pipeline.stat.maxTitle'),
        values: st.maxWeight,
        format: (v) => decimal(v.toFixed(2)),
      },
    ],
    alongside: writeSummary,
  });
  if (result.fullyMasked.size) {
    const names = [...result.fullyMasked].map((i) => t('explorer.pipeline.quoted', { label: queries[i] })).join(', ');
    step.setNote(t('explorer.pipeline.fullyMasked', { count: result.fullyMasked.size, names }));
  } else {
    step.setNote('');
  }
}

// Each step's drawing from the context render() builds: (card, map, ctx, summary).
const DRAW = {
  scores(card, map, { head, hn, shapeNM, clickable, result, common, i18n: { t } }) {
    card.setShape(shapeNM);
    card.setTitle(hn(t('explorer.pipeline.scores')));
    card.setNote(clickable ? t('explorer.pipeline.customNote') : '');
    map.update({ tensor: head.scores, hidden: clickable ? result.hidden : null, clickable, ...common });
  },
  scaled(card, map, { state, result, d, head, shapeNM, clickable, common, i18n }) {
    card.setFormula(...scaledFormula(state.scaling, head, i18n));
    card.setShape(shapeNM);
    card.setNote(scaledNote(state, result, d, head, i18n));
    map.update({ tensor: head.scaled, hidden: clickable ? result.hidden : null, clickable, ...common });
  },
  masked(card, map, { state, result, d, head, shapeNM, clickable, common, single, i18n: { t } }) {
    const mask = t(`explorer.pipeline.maskName.${state.mask.kind}`);
    card.setFormula(t(d.biasMatrix ? 'explorer.pipeline.maskedBias' : 'explorer.pipeline.masked', { mask }));
    card.setShape(shapeNM);
    // Nothing hidden: the step folds to its title and says so (its map would repeat step 2's),
    // except in a lesson shown alone, whose few steps are the point.
    const idle = !single && state.mask.kind === 'none' && !d.biasMatrix;
    card.el.classList.toggle('step-idle', idle);
    card.setNote(idle ? t('explorer.pipeline.noMask') : '');
    map.update({ tensor: head.masked, hidden: result.hidden, fullyMasked: result.fullyMasked, clickable, ...common });
  },
  weights(card, map, ctx, summary) {
    renderWeights(card, map, summary, ctx);
  },
  output(card, map, { result, d, head, hn, queries, display, i18n: { t } }) {
    card.setShape(`${d.n} × ${head.output.shape[1]}`);
    card.setTitle(hn(t('explorer.pipeline.output')));
    card.setFormula(d.multi ? `head${subscript(head.index + 1)} = A·Vₕ` : 'O = A·V');
    map.update({
      tensor: head.output,
      rowLabels: queries,
      colLabels: Array.from({ length: head.output.shape[1] }, (_, c) => String(c + 1)),
      ...display,
      fullyMasked: result.fullyMasked,
    });
  },
};

// The steps in page order: each card's number, title and hint (catalogue keys), its formula
// (written out, or `formulaKey` in the catalogue where it has words) and its map's kind. A click on
// a score step's cell toggles it in a custom mask.
const STEPS = [
  {
    key: 'scores',
    step: '1',
    title: 'explorer.pipeline.scores',
    formula: 'S = Q·Kᵀ',
    hint: 'explorer.pipeline.scoresHint',
    kind: 'diverging',
    togglesMask: true,
  },
  {
    key: 'scaled',
    step: '2',
    title: 'explorer.pipeline.scaled',
    formula: `S′ = S / √d${SUB_K}`,
    hint: 'explorer.pipeline.scaledHint',
    kind: 'diverging',
    togglesMask: true,
  },
  {
    key: 'masked',
    step: '3',
    title: 'explorer.pipeline.maskedTitle',
    formulaKey: 'explorer.pipeline.maskedFormula',
    hint: 'explorer.pipeline.maskedHint',
    kind: 'diverging',
    togglesMask: true,
  },
  {
    key: 'weights',
    step: '4',
    title: 'explorer.pipeline.weights',
    formulaKey: 'explorer.pipeline.weightsFormula',
    hint: 'explorer.pipeline.weightsHint',
    className: 'wide-ok',
    kind: 'weights',
  },
  {
    key: 'output',
    step: '5',
    title: 'explorer.pipeline.output',
    formula: 'O = A·V',
    hint: 'explorer.pipeline.outputHint',
    kind: 'diverging',
  },
];

// A step's card (without its map).
function stepCard({ step, title, formula, formulaKey, hint, className }, { t }) {
  return createCard({
    step,
    title: t(title),
    formula: formulaKey ? t(formulaKey) : formula,
    hint: t(hint),
    className,
  });
}

// The context each step's drawing takes (see DRAW), from one render's arguments.
function drawContext(state, result, display, { single, i18n }) {
  const { t } = i18n;
  const d = result.dims;
  const head = result.head;
  const { queries, keys } = result.labels;
  const padCols = state.mask.kind === 'padding' ? state.mask.pad : null;
  const clickable = state.mask.kind === 'custom';
  const common = { rowLabels: queries, colLabels: keys, padCols, ...display };
  const headName = state.headNames[head.index];
  // A step's title with the head shown: "Scores — head 2 (previous token)".
  const hn = (title) =>
    !d.multi
      ? title
      : headName
        ? t('explorer.pipeline.titleHeadNamed', { title, k: head.index + 1, name: headName })
        : t('explorer.pipeline.titleHead', { title, k: head.index + 1 });
  const shapeNM = `${d.n} × ${d.m}`;
  return { state, result, d, head, hn, shapeNM, common, queries, clickable, display, single, i18n };
}

/**
 * biasCard: the bias matrix's step (bias-matrix.js), placed between the scaled and masked scores;
 * only: the steps to show (a single-lesson embed, e.g. ['masked', 'weights']; default all), with
 * `title` as the section's heading.
 */
export function createPipeline({ onInspect, onToggleMask, biasCard = null, only = null, title, i18n = english }) {
  const { t } = i18n;
  const { root, sub } = section('pipeline', 'pipeline', title ?? t('explorer.pipeline.title'));
  root.id = 'pipeline';
  const grid = el('div', 'steps');
  root.append(grid);

  const steps = {};
  const maps = {};
  for (const spec of STEPS) {
    const { key } = spec;
    const card = stepCard(spec, i18n);
    if (key === 'masked' && biasCard && (!only || only.includes('masked'))) grid.append(biasCard.el);
    if (only && !only.includes(key)) continue;
    steps[key] = card;
    maps[key] = createHeatmap({
      name: key,
      label: card.el.querySelector('.title-text').textContent,
      kind: spec.kind,
      onInspect: (i, j) => onInspect({ kind: key, i, j }),
      i18n,
      ...(spec.togglesMask ? { onActivate: (i, j) => onToggleMask(i, j) } : {}),
    });
    card.body.append(maps[key].el);
    grid.append(card.el);
  }

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
        setText(errorBox, t('explorer.pipeline.error', { reason: result.error }));
        setHidden(errorBox, false);
        grid.classList.toggle('stale', true);
        return;
      }
      setHidden(errorBox, true);
      grid.classList.toggle('stale', false); // (unlike remove(), writes only on change)
      setText(sub, subtitle(result.dims, result.head, i18n));
      const ctx = drawContext(state, result, display, { single: Boolean(only), i18n });
      for (const key of Object.keys(steps)) DRAW[key](steps[key], maps[key], ctx, summary);
    },
  };
}
