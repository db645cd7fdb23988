// "Pitfalls side by side": the explorer's current inputs computed correctly next to the same
// inputs computed with a chosen mistake. The mistake is made by the core (the `pitfall` option of
// scaledDotProductAttention / the multi-head layer), never imitated here; this panel only shows
// both results, marks the cells that differ and reads the row sums from attn.lessons.rowStats.
import { button, el, field, lessonPanel, setText, writeAnswer } from './dom.js';
import { compare, diffText } from './compare.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { english, formatNumber, maskOptions, MULTI_HEAD_PITFALLS, PITFALLS, setLesson } from '../model/model.js';

// The mistakes' names and explanations are lessons.pitfalls.ID.label and .text in the catalogues.
const MISTAKES = {
  'mask-after-softmax': { needsMask: true },
  'mask-value-zero': { needsMask: true },
  'scale-by-dk': {},
  'scale-by-dmodel': { multi: true },
  'skip-wo': { multi: true },
};

const largest = (data) => data.reduce((m, v) => (Number.isFinite(v) ? Math.max(m, Math.abs(v)) : m), 0);

// What the chosen mistake does, and the notes that say when it cannot show here: no mask for a
// masking mistake, or a scale set by hand for a scaling one.
function explainMistake({ about, maskNote, useCausal, scaleNote }, state, result, pitfall, i18n) {
  const { t } = i18n;
  const mistake = MISTAKES[pitfall];
  // What the mistake does is the answer to the pitfalls question: nothing of it under its cover.
  const text = t(`lessons.pitfalls.${pitfall}.text`);
  writeAnswer(about, { show: () => setText(about, text), hide: () => setText(about, '') });
  const noMask = mistake.needsMask && state.mask.kind === 'none';
  maskNote.hidden = !noMask;
  useCausal.hidden = !noMask;
  if (noMask) setText(maskNote, t('lessons.pitfalls.noMask'));
  const scaleMistake = ['scale-by-dk', 'scale-by-dmodel'].includes(pitfall);
  setText(
    scaleNote,
    scaleMistake && !result.defaultScale
      ? t('lessons.pitfalls.ownScale', { scale: i18n.decimal(formatNumber(result.head.scale, 4)) })
      : '',
  );
  scaleNote.hidden = !scaleNote.textContent;
}

const cols = (t) => Array.from({ length: t.shape[1] }, (_, c) => String(c + 1));
const sums = (st, i18n) => [
  {
    key: 'sum',
    label: 'Σ',
    title: i18n.t('lessons.pitfalls.rowSum'),
    values: st.sum.data,
    format: (v) => i18n.decimal(v.toFixed(3)),
  },
];

// Both sides' weights (with their row sums) and outputs; cells that differ are outlined.
// Returns the comparisons of the weights (w) and outputs (o).
function drawSides({ right, wrong }, good, bad, { state, result, pitfall, display, goodStats, badStats, i18n }) {
  const { t } = i18n;
  const d = result.dims;
  const { queries, keys } = result.labels;
  const what = t(d.multi ? 'lessons.pitfalls.averageWeights' : 'lessons.pitfalls.weights');
  setText(right.wTitle, what);
  setText(wrong.wTitle, what);
  setText(right.oTitle, t(d.multi ? 'lessons.pitfalls.layerOutput' : 'lessons.pitfalls.headOutput'));
  setText(wrong.oTitle, pitfall === 'skip-wo' ? t('lessons.pitfalls.layerOutputNoWo') : right.oTitle.textContent);
  const padCols = state.mask.kind === 'padding' ? state.mask.pad : null;
  right.weights.update({
    tensor: good.weights,
    rowLabels: queries,
    colLabels: keys,
    hidden: result.hidden,
    fullyMasked: result.fullyMasked,
    padCols,
    stats: sums(goodStats, i18n),
    ...display,
  });
  wrong.weights.update({
    tensor: bad.weights,
    rowLabels: queries,
    colLabels: keys,
    padCols,
    stats: sums(badStats, i18n),
    ...display,
  });
  // One colour scale for both outputs: equal numbers must look equal side by side.
  const span = Math.max(largest(good.output.data), largest(bad.output.data));
  right.output.update({ tensor: good.output, rowLabels: queries, colLabels: cols(good.output), span, ...display });
  wrong.output.update({ tensor: bad.output, rowLabels: queries, colLabels: cols(bad.output), span, ...display });

  const w = compare(bad.weights.data, good.weights.data);
  const o = compare(bad.output.data, good.output.data);
  right.weights.setHighlight({ cells: w.differ });
  wrong.weights.setHighlight({ cells: w.differ });
  right.output.setHighlight({ cells: o.differ });
  wrong.output.setHighlight({ cells: o.differ });
  return { w, o };
}

// How much differs, and how many rows (with a visible key) the mistake left summing to less than 1.
function summarize(summary, { w, o }, bad, badStats, fullyMasked, i18n) {
  const { t } = i18n;
  const diff = (x) => i18n.decimal(diffText(x));
  let short = 0;
  let smallest = Infinity;
  badStats.sum.data.forEach((v, i) => {
    if (fullyMasked.has(i)) return;
    if (v < 1 - 1e-4) short++;
    smallest = Math.min(smallest, v);
  });
  const weights = w.differ.size
    ? t('lessons.pitfalls.weightsDiffer', {
        count: w.differ.size,
        total: bad.weights.data.length,
        diff: diff(w.maxDiff),
      })
    : t('lessons.pitfalls.weightsSame');
  const output = o.differ.size
    ? t('lessons.pitfalls.outputDiffers', {
        count: o.differ.size,
        total: bad.output.data.length,
        diff: diff(o.maxDiff),
      })
    : t('lessons.pitfalls.outputSame');
  const text = short
    ? t('lessons.pitfalls.summaryShort', {
        weights,
        output,
        short: t('lessons.pitfalls.rowsShort', { count: short, smallest: i18n.decimal(smallest.toFixed(3)) }),
      })
    : t('lessons.pitfalls.summary', { weights, output });
  const numbers = {
    weightsDiffer: String(w.differ.size),
    outputDiffer: String(o.differ.size),
    rowsShort: String(short),
  };
  // Under the pitfalls question's cover, none of it: how many rows sum to less than 1 is its answer.
  writeAnswer(summary, {
    show() {
      summary.textContent = text;
      Object.assign(summary.dataset, numbers);
    },
    hide() {
      summary.textContent = '';
      for (const key of Object.keys(numbers)) delete summary.dataset[key];
    },
  });
}

export function createPitfallsPanel({ attn, computer, update, i18n = english }) {
  const { t } = i18n;
  const { root, intro } = lessonPanel('pitfalls', t('lessons.pitfalls.intro'));
  const select = el('select');
  select.dataset.control = 'pitfall';
  const controls = el('div', 'lesson-controls');
  controls.append(field(t('lessons.pitfalls.mistake'), select));
  const about = el('p', 'lesson-note');
  const maskNote = el('p', 'lesson-callout');
  const useCausal = button(t('lessons.pitfalls.useCausal'));
  maskNote.hidden = true;
  const maskRow = el('div', 'lesson-inline');
  maskRow.append(maskNote, useCausal);
  const scaleNote = el('p', 'lesson-note');
  const summary = el('p', 'lesson-summary');
  summary.dataset.stat = 'pitfall-summary';
  summary.setAttribute('aria-live', 'polite');
  const error = el('p', 'error');
  error.hidden = true;

  const side = (title, key) => {
    const col = el('div', 'lesson-side');
    const h = el('h4', '', title);
    const wTitle = el('p', 'lesson-map-title', t('lessons.pitfalls.weights'));
    const weights = createHeatmap({
      name: `pitfall-${key}-weights`,
      label: t('lessons.pitfalls.weightsLabel', { side: title }),
      kind: 'weights',
      i18n,
    });
    const oTitle = el('p', 'lesson-map-title', t('lessons.pitfalls.output'));
    const output = createHeatmap({
      name: `pitfall-${key}-output`,
      label: t('lessons.pitfalls.outputLabel', { side: title }),
      kind: 'diverging',
      i18n,
    });
    col.append(h, wTitle, weights.el, oTitle, output.el);
    return { el: col, h, wTitle, oTitle, weights, output };
  };
  const right = side(t('lessons.pitfalls.correct'), 'correct');
  const wrong = side(t('lessons.pitfalls.wrong'), 'wrong');
  const sides = el('div', 'lesson-compare');
  sides.append(right.el, wrong.el);
  root.append(intro, controls, about, maskRow, scaleNote, error, summary, sides);

  select.addEventListener('change', () => update((s) => setLesson(s, 'pitfall', select.value)));
  useCausal.addEventListener('click', () => update((s) => ({ ...s, mask: { ...s.mask, kind: 'causal' } })));
  let optionsFor = null;

  return {
    el: root,
    render(state, result, display) {
      const fail = (message) => {
        error.textContent = message;
        error.hidden = false;
        sides.hidden = true;
        summary.textContent = '';
      };
      if (result.error) return fail(t('lessons.error.compute', { error: result.error }));
      const d = result.dims;
      const kinds = PITFALLS.filter((p) => d.multi || !MULTI_HEAD_PITFALLS.includes(p));
      if (optionsFor !== kinds.length) {
        optionsFor = kinds.length;
        select.replaceChildren(
          ...kinds.map((p) => {
            const o = el('option', '', t(`lessons.pitfalls.${p}.label`));
            o.value = p;
            return o;
          }),
        );
      }
      const pitfall = state.lessons.pitfall;
      select.value = pitfall;
      explainMistake({ about, maskNote, useCausal, scaleNote }, state, result, pitfall, i18n);

      let bad;
      try {
        bad = computer.variant({ ...maskOptions(state), pitfall });
      } catch (err) {
        return fail(t('lessons.error.refused', { error: err.message }));
      }
      if (!bad) return fail(t('lessons.pitfalls.nothing'));
      error.hidden = true;
      sides.hidden = false;

      const good = d.multi
        ? { weights: result.multi.average, output: result.multi.output }
        : { weights: result.head.weights, output: result.head.output };
      const goodStats = attn.lessons.rowStats(good.weights);
      const badStats = attn.lessons.rowStats(bad.weights);
      const diffs = drawSides({ right, wrong }, good, bad, {
        state,
        result,
        pitfall,
        display,
        goodStats,
        badStats,
        i18n,
      });
      summarize(summary, diffs, bad, badStats, result.fullyMasked, i18n);
      root.dataset.pitfall = pitfall;
      return undefined;
    },
  };
}
