// "Token by token": why a causal mask makes attention autoregressive. For the chosen token i, row
// i of causal attention over the whole sequence is compared with attention of query i over keys
// 1..i only, the way a model generating text computes it when tokens after i do not exist yet.
// Two calls to the core (the page's layer and scale), shown side by side with their largest
// difference.
import { button, el, failureLine, lessonPanel, setText, sideBySide } from './dom.js';
import { compare, diffText } from './compare.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { setLesson } from '../model/model.js';

const PLAY_MS = 1100;

const slice = (t, row, from, to) => {
  const cols = t.shape[1];
  return { data: t.data.slice(row * cols + from, row * cols + to), shape: [1, to - from] };
};

// The tokens so far: before i, i itself, and those not generated yet.
function drawStrip(strip, queries, i) {
  const items = queries.map((q, j) => {
    const li = el('li', j < i ? 'past' : j === i ? 'current' : 'future', q);
    if (j > i) li.title = 'not generated yet';
    return li;
  });
  strip.replaceChildren(...items);
}

// Equal when the prefix's weights and output match the causal row's and the causal row gives
// every key after the k-th exactly 0.
function showVerdict(verdict, prefix, rowW, rowO, k, m) {
  const w = compare(prefix.weights.data, rowW.data.subarray(0, k));
  const o = compare(prefix.output.data, rowO.data);
  let leaked = 0;
  for (let j = k; j < m; j++) if (rowW.data[j] !== 0) leaked++;
  const equal = !w.differ.size && !o.differ.size && !leaked;
  const maxDiff = Math.max(w.maxDiff, o.maxDiff);
  verdict.dataset.equal = String(equal);
  verdict.dataset.maxDiff = String(maxDiff);
  setText(verdict, equal
    ? `Equal: the causal row gives the keys after ${k} exactly 0, and the rest ${maxDiff === 0 ? 'are identical' : `match to float32 rounding (largest difference ${diffText(maxDiff)})`}.`
    : `Not equal: largest difference ${diffText(maxDiff)}${leaked ? `, ${leaked} future key${leaked > 1 ? 's' : ''} with weight` : ''}.`);
}

export function createStepsPanel({ computer, update }) {
  const { root, intro } = lessonPanel('steps', 'A model writing text has, at step i, only tokens 1..i. Training runs every step at once on the whole sentence, with the causal mask hiding each query\u2019s future. The two give the same numbers, which is what makes that parallel training honest.');

  const range = el('input');
  range.type = 'range';
  range.min = '1';
  range.step = '1';
  range.setAttribute('aria-label', 'Token i');
  const prev = button('\u25c0 Previous');
  const next = button('Next \u25b6');
  const play = button('Play');
  play.setAttribute('aria-pressed', 'false');
  const position = el('output', 'lesson-stat');
  const controls = el('div', 'lesson-controls');
  const rangeWrap = el('label', 'lesson-field wide');
  rangeWrap.append(el('span', 'lesson-field-label', 'Token i'), range);
  controls.append(rangeWrap, position, prev, next, play);

  const strip = el('ol', 'token-strip');
  strip.setAttribute('aria-label', 'Tokens generated so far');
  const maskNote = el('p', 'lesson-note');

  const fullTitle = el('p', 'lesson-map-title', 'Causal attention over the whole sentence (all rows at once)');
  const full = createHeatmap({ name: 'steps-causal', label: 'Causal attention weights, all rows', kind: 'weights' });
  const block = (title, key) => {
    const col = el('div', 'lesson-side');
    const h = el('h4', '', title);
    const w = createHeatmap({ name: `steps-${key}-weights`, label: `${title}: weights`, kind: 'weights', legend: false });
    const oTitle = el('p', 'lesson-map-title', 'Output');
    const o = createHeatmap({ name: `steps-${key}-output`, label: `${title}: output`, kind: 'diverging', legend: false });
    col.append(h, w.el, oTitle, o.el);
    return { el: col, h, w, o };
  };
  const causalRow = block('Row i of causal attention', 'causal');
  const prefixRow = block('Query i over keys 1..i only', 'prefix');
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
    play.textContent = 'Play';
    play.setAttribute('aria-pressed', 'false');
  };
  play.addEventListener('click', () => {
    if (timer) return stop();
    play.textContent = 'Pause';
    play.setAttribute('aria-pressed', 'true');
    if (step >= n - 1) go(0);
    timer = setInterval(() => {
      if (!root.isConnected || step >= n - 1) return stop();
      go(step + 1);
      return undefined;
    }, PLAY_MS);
    return undefined;
  });

  return {
    el: root,
    render(state, result, display) {
      if (result.error) return failure.fail(`Cannot compute: ${result.error}`);
      const d = result.dims;
      n = d.n;
      step = Math.min(state.lessons.step, n - 1);
      const i = step;
      const k = Math.min(i + 1, d.m);  // keys 1..i (top-left aligned when n > m)
      range.max = String(n);
      if (range.getRootNode().activeElement !== range) range.value = String(i + 1);
      range.setAttribute('aria-valuetext', `token ${i + 1} of ${n}: ${result.labels.queries[i]}`);
      setText(position, `${i + 1} of ${n}`);
      prev.disabled = i === 0;
      next.disabled = i >= n - 1;

      let causal;
      let prefix;
      try {
        causal = computer.variant({ causal: true });
        prefix = computer.variant({ queries: [i], keys: Array.from({ length: k }, (_, j) => j) });
      } catch (err) {
        failure.fail(`The core refused: ${err.message}`);
        return;
      }
      failure.ok();

      const { queries, keys } = result.labels;
      drawStrip(strip, queries, i);
      setText(maskNote, state.mask.kind === 'causal' || state.mask.kind === 'none'
        ? ''
        : `This view always applies the causal mask and ignores the ${state.mask.kind} mask chosen above.`);
      maskNote.hidden = !maskNote.textContent;

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
      causalRow.w.update({ tensor: rowW, rowLabels: [queries[i]], colLabels: keys, hidden: future.subarray(i * d.m, (i + 1) * d.m), ...common });
      causalRow.o.update({ tensor: rowO, rowLabels: [queries[i]], colLabels: outCols, ...common });
      prefixRow.w.update({ tensor: prefix.weights, rowLabels: [queries[i]], colLabels: keys.slice(0, k), ...common });
      prefixRow.o.update({ tensor: prefix.output, rowLabels: [queries[i]], colLabels: outCols, ...common });
      setText(prefixRow.h, `Query ${i + 1} over keys 1..${k} only (${k} key${k > 1 ? 's' : ''})`);
      setText(causalRow.h, `Row ${i + 1} of causal attention`);

      showVerdict(verdict, prefix, rowW, rowO, k, d.m);
    },
    pause: stop,
    dispose: stop,
  };
}
