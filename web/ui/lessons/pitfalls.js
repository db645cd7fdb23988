// "Pitfalls side by side": the explorer's current inputs computed correctly next to the same
// inputs computed with a chosen mistake. The mistake is made by the core (the `pitfall` option of
// scaledDotProductAttention / the multi-head layer), never imitated here; this panel only shows
// both results, marks the cells that differ and reads the row sums from attn.lessons.rowStats.
import { button, el, field, lessonPanel, setText } from './dom.js';
import { compare, diffText } from './compare.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { formatNumber, maskOptions, MULTI_HEAD_PITFALLS, PITFALLS, setLesson } from '../model/model.js';

const SUB_K = '\u2096';

const MISTAKES = {
  'mask-after-softmax': {
    label: 'Mask applied after the softmax',
    text: 'The softmax runs over every key, then the hidden weights are set to 0. Nothing renormalizes the rest, so a row that hid keys sums to less than 1 and its output shrinks towards 0.',
    needsMask: true,
  },
  'mask-value-zero': {
    label: 'Mask value 0 instead of \u2212\u221e',
    text: 'Hidden scores become 0 instead of \u2212\u221e. But e\u2070 = 1 is an ordinary weight: hidden keys still take part, and they win whenever the visible scores are negative.',
    needsMask: true,
  },
  'scale-by-dk': {
    label: `Scaling by d${SUB_K} instead of \u221ad${SUB_K}`,
    text: `Dividing by d${SUB_K} shrinks the scores \u221ad${SUB_K} times too much: the weights drift towards uniform and the model can no longer focus (no difference at d${SUB_K} = 1).`,
  },
  'scale-by-dmodel': {
    label: 'Scaling by \u221ad_model instead of the head\u2019s \u221ad\u2096',
    text: `Each head sums over its own d${SUB_K} = d_model / h features, so that is the spread to correct. Dividing by \u221ad_model makes every head's scores \u221ah times too small.`,
    multi: true,
  },
  'skip-wo': {
    label: 'W_O skipped',
    text: 'The concatenated heads are returned as they are. The weights do not change, but each output column now comes from one head only: the heads never mix.',
    multi: true,
  },
};

const largest = (data) => data.reduce((m, v) => (Number.isFinite(v) ? Math.max(m, Math.abs(v)) : m), 0);

// What the chosen mistake does, and the notes that say when it cannot show here: no mask for a
// masking mistake, or a scale set by hand for a scaling one.
function explainMistake({ about, maskNote, useCausal, scaleNote }, state, result, pitfall) {
  const mistake = MISTAKES[pitfall];
  setText(about, mistake.text);
  const noMask = mistake.needsMask && state.mask.kind === 'none';
  maskNote.hidden = !noMask;
  useCausal.hidden = !noMask;
  if (noMask) setText(maskNote, 'This mistake only matters where keys are hidden, and no mask is chosen: both sides are the same.');
  const scaleMistake = ['scale-by-dk', 'scale-by-dmodel'].includes(pitfall);
  setText(scaleNote, scaleMistake && !result.defaultScale
    ? `The correct side uses the explorer\u2019s scale (\u00d7${formatNumber(result.head.scale, 4)}); the mistake replaces it.`
    : '');
  scaleNote.hidden = !scaleNote.textContent;
}

const cols = (t) => Array.from({ length: t.shape[1] }, (_, c) => String(c + 1));
const sums = (st) => [{ key: 'sum', label: '\u03a3', title: 'row sum', values: st.sum.data, format: (v) => v.toFixed(3) }];

// Both sides' weights (with their row sums) and outputs; cells that differ are outlined.
// Returns the comparisons of the weights (w) and outputs (o).
function drawSides({ right, wrong }, good, bad, { state, result, pitfall, display, goodStats, badStats }) {
  const d = result.dims;
  const { queries, keys } = result.labels;
  const what = d.multi ? 'Head-averaged attention weights' : 'Attention weights';
  setText(right.wTitle, what);
  setText(wrong.wTitle, what);
  setText(right.oTitle, d.multi ? 'Layer output (concat\u00b7W_O)' : 'Output A\u00b7V');
  setText(wrong.oTitle, pitfall === 'skip-wo' ? 'Layer output (the concatenation, no W_O)' : right.oTitle.textContent);
  const padCols = state.mask.kind === 'padding' ? state.mask.pad : null;
  right.weights.update({ tensor: good.weights, rowLabels: queries, colLabels: keys, hidden: result.hidden, fullyMasked: result.fullyMasked, padCols, stats: sums(goodStats), ...display });
  wrong.weights.update({ tensor: bad.weights, rowLabels: queries, colLabels: keys, padCols, stats: sums(badStats), ...display });
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
function summarize(summary, { w, o }, bad, badStats, fullyMasked) {
  let short = 0;
  let smallest = Infinity;
  badStats.sum.data.forEach((v, i) => {
    if (fullyMasked.has(i)) return;
    if (v < 1 - 1e-4) short++;
    smallest = Math.min(smallest, v);
  });
  const parts = [
    w.differ.size ? `${w.differ.size} of ${bad.weights.data.length} weights differ (by up to ${diffText(w.maxDiff)})` : 'The weights are the same',
    o.differ.size ? `${o.differ.size} of ${bad.output.data.length} output values differ (by up to ${diffText(o.maxDiff)})` : 'the output is the same',
  ];
  if (short) parts.push(`${short} row${short > 1 ? 's' : ''} sum${short > 1 ? '' : 's'} to less than 1 (smallest ${smallest.toFixed(3)})`);
  summary.textContent = `${parts.join('; ')}.`;
  summary.dataset.weightsDiffer = String(w.differ.size);
  summary.dataset.outputDiffer = String(o.differ.size);
  summary.dataset.rowsShort = String(short);
}

export function createPitfallsPanel({ attn, computer, update }) {
  const { root, intro } = lessonPanel('pitfalls', 'The same inputs as above, computed right and computed with one classic mistake. Cells that differ are outlined; \u03a3 is each row\u2019s sum.');
  const select = el('select');
  select.dataset.control = 'pitfall';
  const controls = el('div', 'lesson-controls');
  controls.append(field('Mistake', select));
  const about = el('p', 'lesson-note');
  const maskNote = el('p', 'lesson-callout');
  const useCausal = button('Use the causal mask');
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
    const wTitle = el('p', 'lesson-map-title', 'Attention weights');
    const weights = createHeatmap({ name: `pitfall-${key}-weights`, label: `${title}: attention weights`, kind: 'weights' });
    const oTitle = el('p', 'lesson-map-title', 'Output');
    const output = createHeatmap({ name: `pitfall-${key}-output`, label: `${title}: output`, kind: 'diverging' });
    col.append(h, wTitle, weights.el, oTitle, output.el);
    return { el: col, h, wTitle, oTitle, weights, output };
  };
  const right = side('Correct', 'correct');
  const wrong = side('With the mistake', 'wrong');
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
      if (result.error) return fail(`Cannot compute: ${result.error}`);
      const d = result.dims;
      const kinds = PITFALLS.filter((p) => d.multi || !MULTI_HEAD_PITFALLS.includes(p));
      if (optionsFor !== kinds.length) {
        optionsFor = kinds.length;
        select.replaceChildren(...kinds.map((p) => {
          const o = el('option', '', MISTAKES[p].label);
          o.value = p;
          return o;
        }));
      }
      const pitfall = state.lessons.pitfall;
      select.value = pitfall;
      explainMistake({ about, maskNote, useCausal, scaleNote }, state, result, pitfall);

      let bad;
      try {
        bad = computer.variant({ ...maskOptions(state), pitfall });
      } catch (err) {
        return fail(`The core refused: ${err.message}`);
      }
      if (!bad) return fail('Nothing to compare yet.');
      error.hidden = true;
      sides.hidden = false;

      const good = d.multi
        ? { weights: result.multi.average, output: result.multi.output }
        : { weights: result.head.weights, output: result.head.output };
      const goodStats = attn.lessons.rowStats(good.weights);
      const badStats = attn.lessons.rowStats(bad.weights);
      const diffs = drawSides({ right, wrong }, good, bad, { state, result, pitfall, display, goodStats, badStats });
      summarize(summary, diffs, bad, badStats, result.fullyMasked);
      root.dataset.pitfall = pitfall;
      return undefined;
    },
  };
}
