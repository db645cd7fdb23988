// "Token by token": why a causal mask makes attention autoregressive. For the chosen token i, row
// i of causal attention over the whole sequence is compared with attention of query i over keys
// 1..i only, the way a model generating text computes it when tokens after i do not exist yet.
// Two calls to the core (the page's layer and scale), shown side by side with their largest
// difference.
import { button, el, failureLine, lessonPanel, setText, sideBySide, userText } from './dom.js';
import { compare, diffText } from './compare.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { english, setLesson } from '../model/model.js';

const PLAY_MS = 1100;

const slice = (t, row, from, to) => {
  const cols = t.shape[1];
  return { data: t.data.slice(row * cols + from, row * cols + to), shape: [1, to - from] };
};

// The tokens so far: before i, i itself, and those not generated yet.
function drawStrip(strip, queries, i, { t }) {
  const items = queries.map((q, j) => {
    const li = el('li', j < i ? 'past' : j === i ? 'current' : 'future');
    li.append(userText(q));
    if (j > i) li.title = t('lessons.steps.future');
    return li;
  });
  strip.replaceChildren(...items);
}

// Equal when the prefix's weights and output match the causal row's and the causal row gives
// every key after the k-th exactly 0.
function showVerdict(verdict, prefix, rowW, rowO, k, m, i18n) {
  const { t } = i18n;
  const w = compare(prefix.weights.data, rowW.data.subarray(0, k));
  const o = compare(prefix.output.data, rowO.data);
  let leaked = 0;
  for (let j = k; j < m; j++) if (rowW.data[j] !== 0) leaked++;
  const equal = !w.differ.size && !o.differ.size && !leaked;
  const maxDiff = Math.max(w.maxDiff, o.maxDiff);
  verdict.dataset.equal = String(equal);
  verdict.dataset.maxDiff = String(maxDiff);
  const diff = i18n.decimal(diffText(maxDiff));
  let text;
  if (equal) text = t(maxDiff === 0 ? 'lessons.steps.identical' : 'lessons.steps.rounding', { k, diff });
  else text = leaked ? t('lessons.steps.leaked', { diff, count: leaked }) : t('lessons.steps.notEqual', { diff });
  setText(verdict, text);
}

// Token i + 1 of n on the range, in the position line and on the buttons.
function drawPosition({ range, position, prev, next }, i, n, token, { t }) {
  range.max = String(n);
  if (range.getRootNode().activeElement !== range) range.value = String(i + 1);
  range.setAttribute('aria-valuetext', t('lessons.steps.valueText', { i: i + 1, n, token }));
  setText(position, t('lessons.steps.position', { i: i + 1, n }));
  prev.disabled = i === 0;
  next.disabled = i >= n - 1;
}

// The lesson compares with a causal mask whatever the page's mask: a note says so for the others.
function drawMaskNote(maskNote, kind, { t }) {
  setText(maskNote, kind === 'causal' || kind === 'none' ? '' : t(`lessons.steps.ignoresMask.${kind}`));
  maskNote.hidden = !maskNote.textContent;
}

// The causal weights with row i outlined, then row i of them beside query i's attention over keys
// 1..k alone. Returns row i's weights and output, { rowW, rowO }.
function drawComparison({ full, causalRow, prefixRow }, { causal, prefix, i, k, d, labels, display }, { t }) {
  const { queries, keys } = labels;
  const common = { ...display };
  // Future keys (j > i, or past the last key) drawn hatched: the causal mask hides them.
  const future = new Uint8Array(d.n * d.m);
  for (let r = 0; r < d.n; r++) for (let c = r + 1; c < d.m; c++) future[r * d.m + c] = 1;
  full.update({ tensor: causal.weights, rowLabels: queries, colLabels: keys, hidden: future, ...common });
  full.setHighlight({ rows: new Set([i]) });
  const rowW = slice(causal.weights, i, 0, d.m);
  const dOut = causal.output.shape[1];
  const rowO = slice(causal.output, i, 0, dOut);
  const outCols = Array.from({ length: dOut }, (_, c) => String(c + 1));
  causalRow.w.update({
    tensor: rowW,
    rowLabels: [queries[i]],
    colLabels: keys,
    hidden: future.subarray(i * d.m, (i + 1) * d.m),
    ...common,
  });
  causalRow.o.update({ tensor: rowO, rowLabels: [queries[i]], colLabels: outCols, ...common });
  prefixRow.w.update({ tensor: prefix.weights, rowLabels: [queries[i]], colLabels: keys.slice(0, k), ...common });
  prefixRow.o.update({ tensor: prefix.output, rowLabels: [queries[i]], colLabels: outCols, ...common });
  setText(prefixRow.h, t('lessons.steps.prefixHeading', { i: i + 1, count: k }));
  setText(causalRow.h, t('lessons.steps.causalHeading', { i: i + 1 }));
  return { rowW, rowO };
}

// One side of the comparison: its heading, row i's weights and its output.
function sideColumn(title, key, i18n) {
  const { t } = i18n;
  const col = el('div', 'lesson-side');
  const h = el('h4', '', title);
  const w = createHeatmap({
    name: `steps-${key}-weights`,
    label: t('lessons.steps.weightsLabel', { side: title }),
    kind: 'weights',
    legend: false,
    i18n,
  });
  const oTitle = el('p', 'lesson-map-title', t('lessons.steps.output'));
  const o = createHeatmap({
    name: `steps-${key}-output`,
    label: t('lessons.steps.outputLabel', { side: title }),
    kind: 'diverging',
    legend: false,
    i18n,
  });
  col.append(h, w.el, oTitle, o.el);
  return { el: col, h, w, o };
}

export function createStepsPanel({ computer, update, i18n = english }) {
  const { t } = i18n;
  const { root, intro } = lessonPanel('steps', t('lessons.steps.intro'));

  const range = el('input');
  range.type = 'range';
  range.min = '1';
  range.step = '1';
  range.setAttribute('aria-label', t('lessons.steps.token'));
  const prev = button(t('lessons.steps.previous'));
  const next = button(t('lessons.steps.next'));
  const play = button(t('lessons.steps.play'));
  play.setAttribute('aria-pressed', 'false');
  const position = el('output', 'lesson-stat');
  const controls = el('div', 'lesson-controls');
  const rangeWrap = el('label', 'lesson-field wide');
  rangeWrap.append(el('span', 'lesson-field-label', t('lessons.steps.token')), range);
  controls.append(rangeWrap, position, prev, next, play);

  const strip = el('ol', 'token-strip');
  strip.setAttribute('aria-label', t('lessons.steps.strip'));
  const maskNote = el('p', 'lesson-note');

  const fullTitle = el('p', 'lesson-map-title', t('lessons.steps.fullTitle'));
  const full = createHeatmap({ name: 'steps-causal', label: t('lessons.steps.fullLabel'), kind: 'weights', i18n });
  const causalRow = sideColumn(t('lessons.steps.causalRow'), 'causal', i18n);
  const prefixRow = sideColumn(t('lessons.steps.prefixRow'), 'prefix', i18n);
  const { sides, verdict } = sideBySide(causalRow.el, prefixRow.el, 'steps-verdict');
  const body = el('div');
  const failure = failureLine(body);
  body.append(strip, maskNote, fullTitle, full.el, sides, verdict);
  root.append(intro, controls, failure.el, body);

  let n = 1;
  let step = 0;
  let timer = 0;
  const go = (i) => update((s) => setLesson(s, 'step', i));
  range.addEventListener('input', () => go(Number(range.value) - 1));
  prev.addEventListener('click', () => go(Math.max(0, step - 1)));
  next.addEventListener('click', () => go(Math.min(n - 1, step + 1)));
  const stop = () => {
    clearInterval(timer);
    timer = 0;
    play.textContent = t('lessons.steps.play');
    play.setAttribute('aria-pressed', 'false');
  };
  play.addEventListener('click', () => {
    if (timer) return stop();
    play.textContent = t('lessons.steps.pause');
    play.setAttribute('aria-pressed', 'true');
    if (step >= n - 1) go(0);
    timer = setInterval(() => {
      if (!root.isConnected || step >= n - 1) return stop();
      go(step + 1);
      return undefined;
    }, PLAY_MS);
    return undefined;
  });

  const ui = { range, position, prev, next, strip, maskNote, full, causalRow, prefixRow };
  return {
    el: root,
    render(state, result, display) {
      if (result.error) return failure.fail(t('lessons.error.compute', { error: result.error }));
      const d = result.dims;
      n = d.n;
      step = Math.min(state.lessons.step, n - 1);
      const i = step;
      const k = Math.min(i + 1, d.m); // keys 1..i (top-left aligned when n > m)
      drawPosition(ui, i, n, result.labels.queries[i], i18n);

      let causal;
      let prefix;
      try {
        causal = computer.variant({ causal: true });
        prefix = computer.variant({ queries: [i], keys: Array.from({ length: k }, (_, j) => j) });
      } catch (err) {
        failure.fail(t('lessons.error.refused', { error: err.message }));
        return;
      }
      failure.ok();

      drawStrip(strip, result.labels.queries, i, i18n);
      drawMaskNote(maskNote, state.mask.kind, i18n);
      const { rowW, rowO } = drawComparison(ui, { causal, prefix, i, k, d, labels: result.labels, display }, i18n);
      showVerdict(verdict, prefix, rowW, rowO, k, d.m, i18n);
    },
    pause: stop,
    dispose: stop,
  };
}
