// "FlashAttention, tile by tile": the explorer's scores cut into tiles of B_r × B_c; Step / Play /
// Reset walk them in FlashAttention-2 order (row blocks outer, column blocks inner). For the row
// block of the current tile the panel shows each row's running max m, running sum ℓ and
// unnormalised output Õ, and writes out the rescaling e^(m_old − m_new) where the max moved; tiles
// the causal mask hides entirely are skipped. At the end the tiled output sits next to softmax(S′)·V
// with their largest difference, and the memory a tile needs next to the n × m matrix.
// Every number comes from the core (flash-math.js: attn.lessons.flashAttention beside
// attn.scaledDotProductAttention). Test hooks: [data-action="flash-step"], [data-flash-step]
// (data-step, data-steps), [data-flash-difference] (data-value: the largest |tiled − naive|).
import {
  button,
  el,
  failureLine,
  field,
  lessonExplainBox,
  lessonPanel,
  numberInput,
  setIfIdle,
  setText,
} from './dom.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { INFERENCE_LIMITS, english, formatNumber, setLesson } from '../model/model.js';
import { flashRun, rescale, stepState, tileCells, tileMemory } from './flash-math.js';
import {
  explainDifference,
  explainMemory,
  explainOutput,
  explainPartial,
  explainRowState,
  explainScore,
} from './flash-explain.js';
import { explainedStat, setStat } from '../explain/explain.js';

const PLAY_MS = 900;
// A tile's state: its class and its message (inference.flash.tile.<state>).
const TILE_STATES = { nowSkipped: 'now-skipped', now: 'now', skipped: 'skipped', done: 'done', toCome: 'to-come' };

// The block sizes, the causal switch and Step / Play / Reset.
function flashControls(update, { t }) {
  const rows = numberInput(INFERENCE_LIMITS.block);
  const cols = numberInput(INFERENCE_LIMITS.block);
  rows.dataset.control = 'flash-block-rows';
  cols.dataset.control = 'flash-block-cols';
  const causal = el('input');
  causal.type = 'checkbox';
  const causalLabel = el('label', 'check');
  causalLabel.append(causal, el('span', '', t('inference.flash.causal')));
  const step = button(t('inference.flash.step'));
  step.dataset.action = 'flash-step';
  const play = button(t('inference.flash.play'));
  play.setAttribute('aria-pressed', 'false');
  const reset = button(t('inference.flash.reset'));
  reset.dataset.action = 'flash-reset';
  const controls = el('div', 'lesson-controls');
  controls.append(
    field(t('inference.flash.blockRows'), rows),
    field(t('inference.flash.blockCols'), cols),
    causalLabel,
    step,
    play,
    reset,
  );
  const set = (value) => update((s) => setLesson(s, 'flash', value));
  rows.addEventListener('change', () => set({ blockRows: Number(rows.value), step: 0 }));
  cols.addEventListener('change', () => set({ blockCols: Number(cols.value), step: 0 }));
  causal.addEventListener('change', () => set({ causal: causal.checked, step: 0 }));
  reset.addEventListener('click', () => set({ step: 0 }));
  return { controls, rows, cols, causal, step, play };
}

// The grid of tiles: visited, skipped, current, still to come.
function drawTiles(table, run, f, s, { t }) {
  const R = Math.ceil(run.n / f.blockRows);
  const C = Math.ceil(run.m / f.blockCols);
  const body = el('tbody');
  for (let r = 0; r < R; r++) {
    const tr = el('tr');
    for (let c = 0; c < C; c++) {
      const k = r * C + c;
      const st = run.trace.steps[k];
      const state =
        k === s - 1 ? (st.skipped ? 'nowSkipped' : 'now') : k < s ? (st.skipped ? 'skipped' : 'done') : 'toCome';
      const td = el(
        'td',
        `flash-tile ${TILE_STATES[state]}`,
        k === s - 1 ? '●' : k < s ? (st.skipped ? '–' : '✓') : '',
      );
      const label = t(`inference.flash.tile.${state}`, { row: r + 1, col: c + 1 });
      td.setAttribute('aria-label', label);
      td.title = label;
      tr.append(td);
    }
    body.append(tr);
  }
  table.replaceChildren(el('caption', '', t('inference.flash.tilesCaption')), body);
}

// One sentence per row of the block: where its max went and the factor that rescaled ℓ and Õ.
function rescaleSentences(list, st, labels, { t, decimal }) {
  const num = (x) => decimal(formatNumber(x));
  const items = [];
  for (let row = 0; row < st.rows; row++) {
    const i = st.first + row;
    const mOld = st.before ? st.before.rowMax[row] : -Infinity;
    const mNew = st.now.rowMax[row];
    const query = { query: i + 1, label: labels[i] };
    let text;
    if (mNew === -Infinity) text = t('inference.flash.rescale.none', query);
    else if (mOld === -Infinity) text = t('inference.flash.rescale.first', query);
    else if (mOld === mNew) text = t('inference.flash.rescale.kept', { ...query, max: num(mNew) });
    else
      text = t('inference.flash.rescale.moved', {
        ...query,
        from: num(mOld),
        to: num(mNew),
        factor: num(rescale(mOld, mNew)),
      });
    items.push(el('li', '', text));
  }
  list.replaceChildren(...items);
}

// The line over the tiles: before the first, at tile k (skipped or not), after the last.
function statusText({ t }, s, steps, now) {
  if (s === 0) return t('inference.flash.before', { count: steps });
  const at = { k: s, count: steps, row: now.rowBlock + 1, col: now.colBlock + 1 };
  if (s === steps) return `${t('inference.flash.at', at)} ${t('inference.flash.end')}`;
  return t(now.skipped ? 'inference.flash.skipped' : 'inference.flash.at', at);
}

// Play / Pause: a step every PLAY_MS until the last tile. Returns stop().
function player(ui, root, { t }, next, current, update) {
  let timer = 0;
  const stop = () => {
    clearInterval(timer);
    timer = 0;
    ui.play.textContent = t('inference.flash.play');
    ui.play.setAttribute('aria-pressed', 'false');
  };
  const finished = () => {
    const { run, settings } = current();
    return !run || settings.step >= run.trace.steps.length;
  };
  ui.step.addEventListener('click', () => {
    stop();
    next();
  });
  ui.play.addEventListener('click', () => {
    if (timer) return stop();
    ui.play.textContent = t('inference.flash.pause');
    ui.play.setAttribute('aria-pressed', 'true');
    if (current().run && finished()) update((s) => setLesson(s, 'flash', { step: 0 }));
    timer = setInterval(() => {
      if (!root.isConnected || finished()) return stop();
      next();
      return undefined;
    }, PLAY_MS);
    return undefined;
  });
  return stop;
}

export function createFlashAttentionPanel({ attn, update, i18n = english }) {
  const { t } = i18n;
  const { root, intro } = lessonPanel('flash-attention', t('inference.flash.intro'));
  const ui = flashControls(update, i18n);
  const explain = lessonExplainBox(i18n);
  let run = null;
  let settings = null;
  let st = null;
  const status = el('p', 'lesson-summary');
  status.dataset.flashStep = '';
  status.setAttribute('aria-live', 'polite');
  const tiles = el('table', 'flash-tiles');
  tiles.dataset.flashTiles = '';
  const maps = createFlashMaps(explain, () => ({ run, settings, st }), i18n);
  const top = el('div', 'flash-top');
  top.append(tiles);
  const body = el('div');
  const failure = failureLine(body);
  body.append(status, top, maps.scoresBlock, maps.stateBlock, explain.el, maps.endBlock, maps.memoryBlock);
  root.append(intro, ui.controls, failure.el, body);
  const next = () =>
    update((s) =>
      setLesson(s, 'flash', { step: Math.min(s.lessons.flash.step + 1, run ? run.trace.steps.length : 0) }),
    );
  const stop = player(ui, root, i18n, next, () => ({ run, settings }), update);

  return {
    el: root,
    render(state, result, display) {
      if (result.error) return failure.fail(t('inference.cannotCompute', { message: result.error }));
      settings = state.lessons.flash;
      setIfIdle(ui.rows, settings.blockRows);
      setIfIdle(ui.cols, settings.blockCols);
      ui.rows.max = String(result.dims.n);
      ui.cols.max = String(result.dims.m);
      ui.causal.checked = settings.causal;
      try {
        run = flashRun(attn, result.head, settings);
      } catch (err) {
        return failure.fail(t('inference.coreRefused', { message: err.message }));
      }
      failure.ok();
      const steps = run.trace.steps.length;
      const s = Math.min(settings.step, steps);
      st = stepState(run, s, settings.blockRows);
      ui.step.disabled = s >= steps;
      status.dataset.step = String(s);
      status.dataset.steps = String(steps);
      setText(status, statusText(i18n, s, steps, st?.now));
      drawTiles(tiles, run, settings, s, i18n);
      maps.draw(run, settings, st, s, result.labels, display);
      explain.refresh();
      return undefined;
    },
    pause: stop,
    dispose: stop,
  };
}

// The five heatmaps: S′ (with the tile outlined), the row block's m, ℓ and Õ, and the tiled and
// naive outputs; a cell is explained on hover or focus, once a step is shown (`always`: before).
function createFlashHeatmaps(explain, current, i18n) {
  const { t } = i18n;
  // Cell (i, j) of `heatmap`, explained from the numbers drawn now (again after each drawing).
  const inspect = (fn, heatmap, i, j) =>
    explain.show(() => {
      const c = current();
      return c.run && (c.st || fn.always) && heatmap.has(i, j) ? fn(c, i, j) : null;
    });
  const always = (fn) => Object.assign(fn, { always: true });
  const map = (name, key, fn, legend = false) => {
    const heatmap = createHeatmap({
      name,
      label: t(key),
      kind: 'diverging',
      legend,
      onInspect: (i, j) => inspect(fn, heatmap, i, j),
      i18n,
    });
    return heatmap;
  };
  const scores = map(
    'flash-scores',
    'inference.flash.map.scores',
    always((c, i, j) => explainScore(c.run, c.settings, i, j, i18n)),
    true,
  );
  const state = map('flash-state', 'inference.flash.map.state', (c, i, j) =>
    explainRowState(c.run, c.settings, c.st, i, j, i18n),
  );
  const partial = map('flash-partial', 'inference.flash.map.partial', (c, i, j) =>
    explainPartial(c.run, c.settings, c.st, i, j, i18n),
  );
  const tiled = map(
    'flash-tiled',
    'inference.flash.map.tiled',
    always((c, i, j) => explainOutput(c.run, 'tiled', i, j, i18n)),
  );
  const naive = map(
    'flash-naive',
    'inference.flash.map.naive',
    always((c, i, j) => explainOutput(c.run, 'naive', i, j, i18n)),
  );
  return { scores, state, partial, tiled, naive };
}

// The stats under the maps: the rescalings of this step, the outputs' difference and the memory
// a tile and the full matrix take, each explained on hover or focus.
function createFlashStats(explain, current, i18n) {
  const rescaleList = el('ul', 'flash-rescale');
  rescaleList.dataset.flashRescale = '';
  const difference = explainedStat('flash-difference', () =>
    explain.show(() => current().run && explainDifference(current().run, i18n)),
  );
  difference.dataset.flashDifference = '';
  const showMemory = () =>
    explain.show(() => {
      const c = current();
      return c.run && explainMemory(c.run, tileMemory(c.run, c.settings.blockRows, c.settings.blockCols), i18n);
    });
  const tileBytes = explainedStat('flash-tile-bytes', showMemory);
  const fullBytes = explainedStat('flash-full-bytes', showMemory);
  return { rescaleList, difference, tileBytes, fullBytes };
}

// The heatmaps and the stats under them, in their blocks.
function createFlashMaps(explain, current, i18n) {
  const { t } = i18n;
  const maps = createFlashHeatmaps(explain, current, i18n);
  const stats = createFlashStats(explain, current, i18n);
  const parts = {
    ...maps,
    ...stats,
    i18n,
    stateBlock: stateSection(maps.state, maps.partial, stats.rescaleList, t),
    endBlock: endSection(maps.tiled, maps.naive, stats.difference, t),
  };
  return {
    scoresBlock: block(t('inference.flash.scoresTitle'), maps.scores.el),
    stateBlock: parts.stateBlock,
    endBlock: parts.endBlock,
    memoryBlock: memorySection(stats.tileBytes, stats.fullBytes, t),
    draw: (run, f, st, s, labels, display) => drawFlashMaps(parts, run, f, st, s, labels, display),
  };
}

function block(title, ...children) {
  const box = el('div', 'flash-block');
  box.append(el('p', 'lesson-map-title', title), ...children);
  return box;
}

function stateSection(state, partial, rescaleList, t) {
  const box = el('div', 'flash-state-block');
  const sides = el('div', 'lesson-compare');
  sides.append(block(t('inference.flash.stateTitle'), state.el), block(t('inference.flash.partialTitle'), partial.el));
  box.append(sides, rescaleList);
  return box;
}

function endSection(tiled, naive, difference, t) {
  const box = el('div', 'flash-end');
  const sides = el('div', 'lesson-compare');
  sides.append(block(t('inference.flash.tiledTitle'), tiled.el), block(t('inference.flash.naiveTitle'), naive.el));
  const line = el('p', 'lesson-summary');
  line.append(t('inference.flash.difference'), ' ', difference);
  box.append(sides, line);
  return box;
}

// Each number after its label ("label: value"), so a translation never splits a sentence.
function memorySection(tileBytes, fullBytes, t) {
  const box = el('div', 'lesson-note flash-memory');
  const tileLine = el('p');
  tileLine.append(t('inference.flash.memoryTile'), ' ', tileBytes);
  const fullLine = el('p');
  fullLine.append(t('inference.flash.memoryFull'), ' ', fullBytes);
  box.append(el('p', '', t('inference.flash.memory')), tileLine, fullLine);
  return box;
}

// Draws every map and stat of the lesson for step s.
function drawFlashMaps(m, run, f, st, s, labels, display) {
  const steps = run.trace.steps.length;
  const hidden = Uint8Array.from(run.naive.trace.masked.data, (x) => (x === -Infinity ? 1 : 0));
  const tile = st ? tileCells(run, f.blockRows, f.blockCols, st.now.rowBlock, st.now.colBlock) : new Set();
  m.scores.update({
    tensor: run.naive.trace.masked,
    rowLabels: labels.queries,
    colLabels: labels.keys,
    hidden,
    ...display,
    alongside: () => m.scores.setHighlight({ cells: tile }),
  });
  m.stateBlock.hidden = !st;
  if (st) {
    const rowLabels = labels.queries.slice(st.first, st.first + st.rows);
    const data = new Float32Array(st.rows * 2);
    const none = new Uint8Array(st.rows * 2);
    for (let r = 0; r < st.rows; r++) {
      data[2 * r] = st.now.rowMax[r];
      data[2 * r + 1] = st.now.rowSum[r];
      if (st.now.rowMax[r] === -Infinity) none[2 * r] = 1;
    }
    m.state.update({
      tensor: { data, shape: [st.rows, 2] },
      rowLabels,
      colLabels: ['m', 'ℓ'],
      hidden: none,
      ...display,
    });
    m.partial.update({ tensor: st.now.partialOutput, rowLabels, colLabels: columnLabels(run.dv), ...display });
    rescaleSentences(m.rescaleList, st, labels.queries, m.i18n);
  }
  const end = s >= steps;
  m.endBlock.hidden = !end;
  if (end) {
    m.tiled.update({
      tensor: run.trace.output,
      rowLabels: labels.queries,
      colLabels: columnLabels(run.dv),
      ...display,
    });
    m.naive.update({
      tensor: run.naive.output,
      rowLabels: labels.queries,
      colLabels: columnLabels(run.dv),
      ...display,
    });
  }
  const { t, decimal } = m.i18n;
  setStat(m.difference, run.difference, decimal(formatNumber(run.difference, 3)));
  const mem = tileMemory(run, f.blockRows, f.blockCols);
  setStat(m.tileBytes, mem.tileBytes, t('inference.flash.floats', { count: mem.tile, bytes: mem.tileBytes }));
  setStat(m.fullBytes, mem.fullBytes, t('inference.flash.floats', { count: mem.full, bytes: mem.fullBytes }));
}

const columnLabels = (n) => Array.from({ length: n }, (_, c) => String(c + 1));
