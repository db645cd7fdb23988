// "FlashAttention, tile by tile": the explorer's scores cut into tiles of B_r × B_c; Step / Play /
// Reset walk them in FlashAttention-2 order (row blocks outer, column blocks inner). For the row
// block of the current tile the panel shows each row's running max m, running sum ℓ and
// unnormalised output Õ, and writes out the rescaling e^(m_old − m_new) where the max moved; tiles
// the causal mask hides entirely are skipped. At the end the tiled output sits next to softmax(S′)·V
// with their largest difference, and the memory a tile needs next to the n × m matrix.
// Every number comes from the core (flash-math.js: attn.lessons.flashAttention beside
// attn.scaledDotProductAttention). Test hooks: [data-action="flash-step"], [data-flash-step]
// (data-step, data-steps), [data-flash-difference] (data-value: the largest |tiled − naive|).
import { button, el, failureLine, field, lessonPanel, numberInput, setIfIdle, setText } from './dom.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { INFERENCE_LIMITS, formatNumber, setLesson } from '../model/model.js';
import { flashRun, rescale, stepState, tileCells, tileMemory } from './flash-math.js';
import {
  explainDifference, explainMemory, explainOutput, explainPartial, explainRowState, explainScore,
} from './flash-explain.js';
import { createExplainBox, explainedStat, setStat } from '../explain/explain.js';

const PLAY_MS = 900;

const TEXT = {
  intro: 'FlashAttention computes softmax(S\u2032)\u00b7V without ever holding the n \u00d7 m score matrix. It walks the scores tile by tile and keeps, for each query row, only a running max m, a running sum \u2113 of exp(S\u2032 \u2212 m) and an unnormalised output \u00d5. When a tile raises a row\u2019s max, what was summed so far is rescaled by e^(m_old \u2212 m_new). Step through the tiles of the head above.',
  before: (steps) => `Before the first tile: ${steps} tiles to visit. Press Step.`,
  at: (k, steps, r, c) => `Tile ${k} of ${steps}: row block ${r}, column block ${c}.`,
  skipped: (k, steps, r, c) => `Tile ${k} of ${steps}: row block ${r}, column block ${c}, skipped (the causal mask hides all of it).`,
  end: 'Every tile visited: each row block\u2019s \u00d5 divided by its \u2113 is the output.',
  first: (i) => `Query ${i}: first visible keys, m starts at the tile\u2019s largest score (nothing to rescale).`,
  moved: (i, a, b, f) => `Query ${i}: the max moved from ${a} to ${b}, so \u2113 and \u00d5 are multiplied by e^(${a} \u2212 ${b}) = ${f}.`,
  kept: (i, a) => `Query ${i}: the max stays ${a}; nothing is rescaled.`,
  none: (i) => `Query ${i}: no visible key yet (m = \u2212\u221e).`,
  memory: 'Memory a tile step needs, against the score matrix:',
  tileLabel: (r, c, what) => `Tile (${r}, ${c}): ${what}`,
};

// The block sizes, the causal switch and Step / Play / Reset.
function flashControls(update) {
  const rows = numberInput(INFERENCE_LIMITS.block);
  const cols = numberInput(INFERENCE_LIMITS.block);
  rows.dataset.control = 'flash-block-rows';
  cols.dataset.control = 'flash-block-cols';
  const causal = el('input');
  causal.type = 'checkbox';
  const causalLabel = el('label', 'check');
  causalLabel.append(causal, el('span', '', 'Causal mask'));
  const step = button('Step');
  step.dataset.action = 'flash-step';
  const play = button('Play');
  play.setAttribute('aria-pressed', 'false');
  const reset = button('Reset');
  reset.dataset.action = 'flash-reset';
  const controls = el('div', 'lesson-controls');
  controls.append(field('Block rows B\u1d63', rows), field('Block columns B_c', cols), causalLabel, step, play, reset);
  const set = (value) => update((s) => setLesson(s, 'flash', value));
  rows.addEventListener('change', () => set({ blockRows: Number(rows.value), step: 0 }));
  cols.addEventListener('change', () => set({ blockCols: Number(cols.value), step: 0 }));
  causal.addEventListener('change', () => set({ causal: causal.checked, step: 0 }));
  reset.addEventListener('click', () => set({ step: 0 }));
  return { controls, rows, cols, causal, step, play };
}

// The grid of tiles: visited, skipped, current, still to come.
function drawTiles(table, run, f, s) {
  const R = Math.ceil(run.n / f.blockRows);
  const C = Math.ceil(run.m / f.blockCols);
  const body = el('tbody');
  for (let r = 0; r < R; r++) {
    const tr = el('tr');
    for (let c = 0; c < C; c++) {
      const k = r * C + c;
      const st = run.trace.steps[k];
      const what = k === s - 1 ? (st.skipped ? 'now, skipped' : 'now') : k < s ? (st.skipped ? 'skipped' : 'done') : 'to come';
      const td = el('td', `flash-tile ${what.replace(', ', ' ').replace(' ', '-')}`, k === s - 1 ? '\u25cf' : k < s ? (st.skipped ? '\u2013' : '\u2713') : '');
      td.setAttribute('aria-label', TEXT.tileLabel(r + 1, c + 1, what));
      td.title = TEXT.tileLabel(r + 1, c + 1, what);
      tr.append(td);
    }
    body.append(tr);
  }
  table.replaceChildren(el('caption', '', 'Tiles (row blocks \u00d7 column blocks)'), body);
}

// One sentence per row of the block: where its max went and the factor that rescaled ℓ and Õ.
function rescaleSentences(list, st, labels) {
  const items = [];
  for (let row = 0; row < st.rows; row++) {
    const i = st.first + row;
    const mOld = st.before ? st.before.rowMax[row] : -Infinity;
    const mNew = st.now.rowMax[row];
    const name = `${i + 1} (${labels[i]})`;
    let text;
    if (mNew === -Infinity) text = TEXT.none(name);
    else if (mOld === -Infinity) text = TEXT.first(name);
    else if (mOld === mNew) text = TEXT.kept(name, formatNumber(mNew));
    else text = TEXT.moved(name, formatNumber(mOld), formatNumber(mNew), formatNumber(rescale(mOld, mNew)));
    items.push(el('li', '', text));
  }
  list.replaceChildren(...items);
}

export function createFlashAttentionPanel({ attn, update }) {
  const { root, intro } = lessonPanel('flash-attention', TEXT.intro);
  const ui = flashControls(update);
  const explain = createExplainBox();
  let run = null;
  let settings = null;
  let st = null;
  const status = el('p', 'lesson-summary');
  status.dataset.flashStep = '';
  status.setAttribute('aria-live', 'polite');
  const tiles = el('table', 'flash-tiles');
  tiles.dataset.flashTiles = '';
  const maps = createFlashMaps(explain, () => ({ run, settings, st }));
  const top = el('div', 'flash-top');
  top.append(tiles);
  const body = el('div');
  const failure = failureLine(body);
  body.append(status, top, maps.scoresBlock, maps.stateBlock, explain.el, maps.endBlock, maps.memoryBlock);
  root.append(intro, ui.controls, failure.el, body);

  let timer = 0;
  const stop = () => {
    clearInterval(timer);
    timer = 0;
    ui.play.textContent = 'Play';
    ui.play.setAttribute('aria-pressed', 'false');
  };
  const next = () => update((s) => setLesson(s, 'flash', { step: Math.min(s.lessons.flash.step + 1, run ? run.trace.steps.length : 0) }));
  ui.step.addEventListener('click', () => { stop(); next(); });
  ui.play.addEventListener('click', () => {
    if (timer) return stop();
    ui.play.textContent = 'Pause';
    ui.play.setAttribute('aria-pressed', 'true');
    if (run && settings.step >= run.trace.steps.length) update((s) => setLesson(s, 'flash', { step: 0 }));
    timer = setInterval(() => {
      if (!root.isConnected || !run || settings.step >= run.trace.steps.length) return stop();
      next();
      return undefined;
    }, PLAY_MS);
    return undefined;
  });

  return {
    el: root,
    render(state, result, display) {
      if (result.error) return failure.fail(`Cannot compute: ${result.error}`);
      settings = state.lessons.flash;
      setIfIdle(ui.rows, settings.blockRows);
      setIfIdle(ui.cols, settings.blockCols);
      ui.rows.max = String(result.dims.n);
      ui.cols.max = String(result.dims.m);
      ui.causal.checked = settings.causal;
      try {
        run = flashRun(attn, result.head, settings);
      } catch (err) {
        return failure.fail(`The core refused: ${err.message}`);
      }
      failure.ok();
      const steps = run.trace.steps.length;
      const s = Math.min(settings.step, steps);
      st = stepState(run, s, settings.blockRows);
      ui.step.disabled = s >= steps;
      status.dataset.step = String(s);
      status.dataset.steps = String(steps);
      const now = st?.now;
      setText(status, s === 0 ? TEXT.before(steps) : s === steps ? `${TEXT.at(s, steps, now.rowBlock + 1, now.colBlock + 1)} ${TEXT.end}`
        : (now.skipped ? TEXT.skipped : TEXT.at)(s, steps, now.rowBlock + 1, now.colBlock + 1));
      drawTiles(tiles, run, settings, s);
      maps.draw(run, settings, st, s, result.labels, display);
      return undefined;
    },
    pause: stop,
    dispose: stop,
  };
}

// The heatmaps (S′ with the tile outlined, the row block's m, ℓ and Õ, the two outputs) and the
// stats under them, each explained on hover or focus.
function createFlashMaps(explain, current) {
  const inspect = (fn) => (i, j) => { const c = current(); if (c.run && (c.st || fn.always)) explain.show(fn(c, i, j)); };
  const scoreFn = (c, i, j) => explainScore(c.run, c.settings, i, j);
  scoreFn.always = true;
  const scores = createHeatmap({ name: 'flash-scores', label: 'Scaled scores S\u2032 cut into tiles', kind: 'diverging', onInspect: inspect(scoreFn) });
  const state = createHeatmap({ name: 'flash-state', label: 'Running max m and running sum \u2113 of the row block', kind: 'diverging', legend: false, onInspect: inspect((c, i, j) => explainRowState(c.run, c.settings, c.st, i, j)) });
  const partial = createHeatmap({ name: 'flash-partial', label: 'Unnormalised output \u00d5 of the row block', kind: 'diverging', legend: false, onInspect: inspect((c, i, j) => explainPartial(c.run, c.settings, c.st, i, j)) });
  const tiledFn = (c, i, j) => explainOutput(c.run, 'tiled', i, j);
  const naiveFn = (c, i, j) => explainOutput(c.run, 'naive', i, j);
  tiledFn.always = true;
  naiveFn.always = true;
  const tiled = createHeatmap({ name: 'flash-tiled', label: 'Tiled output \u00d5 / \u2113', kind: 'diverging', legend: false, onInspect: inspect(tiledFn) });
  const naive = createHeatmap({ name: 'flash-naive', label: 'softmax(S\u2032)\u00b7V', kind: 'diverging', legend: false, onInspect: inspect(naiveFn) });
  const rescaleList = el('ul', 'flash-rescale');
  rescaleList.dataset.flashRescale = '';
  const difference = explainedStat('flash-difference', () => current().run && explain.show(explainDifference(current().run)));
  difference.dataset.flashDifference = '';
  const showMemory = () => { const c = current(); if (c.run) explain.show(explainMemory(c.run, tileMemory(c.run, c.settings.blockRows, c.settings.blockCols))); };
  const tileBytes = explainedStat('flash-tile-bytes', showMemory);
  const fullBytes = explainedStat('flash-full-bytes', showMemory);
  const parts = {
    scores, state, partial, tiled, naive, rescaleList, difference, tileBytes, fullBytes,
    stateBlock: stateSection(state, partial, rescaleList),
    endBlock: endSection(tiled, naive, difference),
  };
  return {
    scoresBlock: block('Scaled scores S\u2032 = scale\u00b7QK\u1d40, the current tile outlined', scores.el),
    stateBlock: parts.stateBlock,
    endBlock: parts.endBlock,
    memoryBlock: memorySection(tileBytes, fullBytes),
    draw: (run, f, st, s, labels, display) => drawFlashMaps(parts, run, f, st, s, labels, display),
  };
}

function block(title, ...children) {
  const box = el('div', 'flash-block');
  box.append(el('p', 'lesson-map-title', title), ...children);
  return box;
}

function stateSection(state, partial, rescaleList) {
  const box = el('div', 'flash-state-block');
  const sides = el('div', 'lesson-compare');
  sides.append(block('Per row: m and \u2113 after this tile', state.el), block('Per row: \u00d5 (not yet divided by \u2113)', partial.el));
  box.append(sides, rescaleList);
  return box;
}

function endSection(tiled, naive, difference) {
  const box = el('div', 'flash-end');
  const sides = el('div', 'lesson-compare');
  sides.append(block('Tiled: \u00d5 / \u2113 after the last tile', tiled.el), block('Ordinary: softmax(S\u2032)\u00b7V', naive.el));
  const line = el('p', 'lesson-summary');
  line.append('Largest difference |tiled \u2212 ordinary|: ', difference);
  box.append(sides, line);
  return box;
}

function memorySection(tileBytes, fullBytes) {
  const line = el('p', 'lesson-note flash-memory');
  line.append(TEXT.memory, ' ', tileBytes, ' for a tile, ', fullBytes, ' for the n \u00d7 m scores.');
  return line;
}

// Draws every map and stat of the lesson for step s.
function drawFlashMaps(m, run, f, st, s, labels, display) {
  const steps = run.trace.steps.length;
  const hidden = Uint8Array.from(run.naive.trace.masked.data, (x) => (x === -Infinity ? 1 : 0));
  const tile = st ? tileCells(run, f.blockRows, f.blockCols, st.now.rowBlock, st.now.colBlock) : new Set();
  m.scores.update({ tensor: run.naive.trace.masked, rowLabels: labels.queries, colLabels: labels.keys, hidden, ...display, alongside: () => m.scores.setHighlight({ cells: tile }) });
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
    m.state.update({ tensor: { data, shape: [st.rows, 2] }, rowLabels, colLabels: ['m', '\u2113'], hidden: none, ...display });
    m.partial.update({ tensor: st.now.partialOutput, rowLabels, colLabels: columnLabels(run.dv), ...display });
    rescaleSentences(m.rescaleList, st, labels.queries);
  }
  const end = s >= steps;
  m.endBlock.hidden = !end;
  if (end) {
    m.tiled.update({ tensor: run.trace.output, rowLabels: labels.queries, colLabels: columnLabels(run.dv), ...display });
    m.naive.update({ tensor: run.naive.output, rowLabels: labels.queries, colLabels: columnLabels(run.dv), ...display });
  }
  setStat(m.difference, run.difference, formatNumber(run.difference, 3));
  const mem = tileMemory(run, f.blockRows, f.blockCols);
  setStat(m.tileBytes, mem.tileBytes, `${mem.tile} floats (${mem.tileBytes} B)`);
  setStat(m.fullBytes, mem.fullBytes, `${mem.full} floats (${mem.fullBytes} B)`);
}

const columnLabels = (n) => Array.from({ length: n }, (_, c) => String(c + 1));
