// "The KV cache": the explorer's sequence decoded one token at a time by model.decoder on a
// one-layer model built from the explorer's own q, k, v rows (kv-math.js). Each step appends the
// new token's k and v rows to the caches, the new query attends over them (its weights shown for
// every head), and the step is compared with the same model's full causal pass. Controls: key/
// value heads shared by the query heads (MHA → GQA → MQA) with the cache's size, and a sliding
// window whose ring buffer (slot p mod W) is drawn. Below, the memory table for real models.
// Test hooks: [data-kv-step] (data-step, data-steps), data-stat="kv-cache-bytes" and
// "kv-difference" (data-value), heatmaps kv-weights, kv-full, kv-keys, kv-values, [data-kv-ring].
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
import { INFERENCE_LIMITS, english, factor, formatNumber, setLesson, subscript } from '../model/model.js';
import { divisors, kvLessonView } from './inference-math.js';
import { cacheHead, decodeSteps, explorerHeads, kvHeadOf } from './kv-math.js';
import { createMemoryTable } from './kv-table.js';
import { explainedStat, explanation, setStat } from '../explain/explain.js';

function kvControls(update, { t }) {
  const prev = button(t('inference.kv.previous'));
  const next = button(t('inference.kv.next'));
  next.dataset.action = 'kv-step';
  const kv = el('select');
  kv.dataset.control = 'kv-heads';
  const windowInput = numberInput(INFERENCE_LIMITS.windowSize);
  windowInput.dataset.control = 'kv-window';
  const controls = el('div', 'lesson-controls');
  controls.append(prev, next, field(t('inference.kv.heads'), kv), field(t('inference.kv.window'), windowInput));
  const set = (value) => update((s) => setLesson(s, 'kv', value));
  prev.addEventListener('click', () =>
    update((s) => setLesson(s, 'kv', { step: Math.max(0, (s.lessons.kv.step ?? ui.last) - 1) })),
  );
  next.addEventListener('click', () =>
    update((s) => setLesson(s, 'kv', { step: Math.min(ui.last, (s.lessons.kv.step ?? ui.last) + 1) })),
  );
  kv.addEventListener('change', () => set({ kvHeads: Number(kv.value) }));
  windowInput.addEventListener('change', () => set({ windowSize: Number(windowInput.value) }));
  const ui = { controls, prev, next, kv, windowInput, last: 0 }; // last: the last token's index, set by render
  return ui;
}

// MHA, GQA, MQA are the names the literature uses in every language.
function fillKvOptions(select, H, value) {
  const key = `${H}`;
  if (select.dataset.heads !== key) {
    select.dataset.heads = key;
    select.replaceChildren(
      ...divisors(H).map((g) => {
        const kind = g === H ? 'MHA' : g === 1 ? 'MQA' : 'GQA';
        const o = el('option', '', `${g} (${kind})`);
        o.value = String(g);
        o.translate = false;
        return o;
      }),
    );
  }
  select.value = String(value);
}

// The token strip: decoded, the current one, not generated yet (token labels: the reader's text).
function drawStrip(strip, labels, step) {
  strip.replaceChildren(
    ...labels.map((t, j) => {
      const li = el('li', j < step ? 'past' : j === step ? 'current' : 'future', t);
      li.translate = false;
      return li;
    }),
  );
}

// The ring buffer's slots: which position each holds, the newest marked.
function drawRing(ring, cache, labels, step, { t }) {
  const slots = Array.from(cache.positions, (p, s) => {
    const li = el('li', p === step ? 'current' : 'past');
    const label = el('span', '', labels[p]);
    label.translate = false;
    li.append(t('inference.kv.slot', { slot: s, position: p + 1 }), ' ', label);
    li.dataset.slot = String(s);
    li.dataset.position = String(p);
    return li;
  });
  ring.replaceChildren(...slots);
}

function kvMaps(inspect, { t }, i18n) {
  const map = (name, key, kind, legend, fn) => {
    const heatmap = createHeatmap({
      name,
      label: t(key),
      kind,
      legend,
      onInspect: (i, j) => inspect(fn, heatmap, i, j),
      i18n,
    });
    return heatmap;
  };
  return {
    weights: map('kv-weights', 'inference.kv.map.weights', 'weights', true, (c, i, j) => explainWeight(c, i, j, i18n)),
    full: map('kv-full', 'inference.kv.map.full', 'weights', false, (c, i, j) => explainFull(c, i, j, i18n)),
    keys: map('kv-keys', 'inference.kv.map.keys', 'diverging', false, (c, i, j) => explainCache(c, 'keys', i, j, i18n)),
    values: map('kv-values', 'inference.kv.map.values', 'diverging', false, (c, i, j) =>
      explainCache(c, 'values', i, j, i18n),
    ),
  };
}

// The panel's parts: status line, token strip, ring buffer, notes, the two stats and the table.
function kvParts(ctxOf, explain, update, i18n) {
  const { t } = i18n;
  const status = el('p', 'lesson-summary');
  status.dataset.kvStep = '';
  status.setAttribute('aria-live', 'polite');
  const strip = el('ol', 'token-strip');
  strip.setAttribute('aria-label', t('inference.kv.strip'));
  const ring = el('ol', 'kv-ring');
  ring.dataset.kvRing = '';
  ring.setAttribute('aria-label', t('inference.kv.ring'));
  const bytes = explainedStat('kv-cache-bytes', () => explain.show(() => ctxOf() && explainBytes(ctxOf(), i18n)));
  const difference = explainedStat('kv-difference', () =>
    explain.show(() => ctxOf() && explainDifference(ctxOf(), i18n)),
  );
  const bytesLine = el('p', 'lesson-summary');
  bytesLine.append(t('inference.kv.bytesLine'), ' ', bytes);
  const diffLine = el('p', 'lesson-summary');
  diffLine.append(t('inference.kv.differenceLine'), ' ', difference);
  const tableExplain = lessonExplainBox(i18n, 'inference.kv.tableIdle');
  const table = createMemoryTable({ update, explain: tableExplain, i18n });
  return {
    status,
    strip,
    ring,
    ringNote: el('p', 'lesson-note'),
    notes: el('div'),
    bytes,
    difference,
    bytesLine,
    diffLine,
    sizeLine: el('p', 'lesson-note'),
    tableExplain,
    table,
  };
}

export function createKvCachePanel({ attn, update, i18n = english }) {
  const { t } = i18n;
  const { root, intro } = lessonPanel('kv-cache', t('inference.kv.intro'));
  const ui = kvControls(update, i18n);
  const explain = lessonExplainBox(i18n);
  let ctx = null;
  // Cell (i, j) of `heatmap`, explained from the numbers drawn now (again after each drawing).
  const maps = kvMaps(
    (fn, heatmap, i, j) => explain.show(() => (ctx && heatmap.has(i, j) ? fn(ctx, i, j) : null)),
    i18n,
    i18n,
  );
  const p = kvParts(() => ctx, explain, update, i18n);
  const body = el('div');
  const failure = failureLine(body);
  body.append(
    p.status,
    p.strip,
    p.notes,
    kvSides(maps, t),
    p.diffLine,
    cacheSides(maps, t),
    p.ring,
    p.ringNote,
    p.bytesLine,
    p.sizeLine,
    explain.el,
  );
  // The memory of real models: a further section (folded when the lesson is shown alone), which
  // needs no computation of this head, so it stays when the head cannot be computed.
  const memory = el('div', 'lesson-gap');
  memory.append(el('h4', '', t('inference.kv.tableTitle')), p.table.el, p.tableExplain.el);
  root.append(intro, ui.controls, failure.el, body, memory);

  return {
    el: root,
    render(state, result, display) {
      if (result.error) return failure.fail(t('inference.cannotCompute', { message: result.error }));
      p.table.draw(state.lessons.kv.table);
      p.tableExplain.refresh();
      let run;
      const heads = explorerHeads(result);
      const T = Math.min(result.dims.n, result.dims.m);
      const k = { ...state.lessons.kv, ...kvLessonView(state.lessons.kv, heads.length, T) };
      ui.last = T - 1;
      try {
        run = decodeSteps(attn, heads, {
          scale: result.head.scale,
          kvHeads: k.kvHeads,
          windowSize: k.windowSize,
          step: k.step,
        });
      } catch (err) {
        return failure.fail(t('inference.coreRefused', { message: err.message }));
      }
      failure.ok();
      const d = result.dims;
      const labels = result.labels.queries.slice(0, T);
      const shown = d.multi ? result.head.index : 0;
      ctx = { run, heads, k, labels, scale: result.head.scale, shown, g: kvHeadOf(shown, heads.length, k.kvHeads) };
      drawControls(ui, k, T, heads.length);
      drawKvText(p, ctx, d, T, i18n);
      drawKvMaps(maps, ctx, display, i18n);
      explain.refresh();
      return undefined;
    },
  };
}

// The status line, the strip, the notes, the ring buffer and the cache's size.
function drawKvText(p, ctx, d, T, i18n) {
  const { t, decimal } = i18n;
  const { run, k, labels, heads } = ctx;
  p.status.dataset.step = String(k.step);
  p.status.dataset.steps = String(T);
  setText(p.status, t('inference.kv.status', { i: k.step + 1, count: T, label: labels[k.step] }));
  drawStrip(p.strip, labels, k.step);
  drawNotes(p.notes, ctx, d, heads[0].q.shape[1], t);
  p.ring.hidden = !(k.windowSize > 0);
  p.ringNote.hidden = p.ring.hidden;
  if (!p.ring.hidden) {
    drawRing(p.ring, run.cache, labels, k.step, i18n);
    setText(p.ringNote, t('inference.kv.ringNote', { count: k.windowSize }));
  }
  const kept = run.cache.positions.length;
  const H = heads.length;
  const size = t('inference.kv.bytes', {
    bytes: run.cacheBytes,
    kvHeads: k.kvHeads,
    headDim: run.headDim,
    tokens: kept,
  });
  const shrink =
    k.kvHeads < H ? ` ${t('inference.kv.shrink', { heads: H, count: k.kvHeads, ratio: H / k.kvHeads })}` : '';
  setText(p.sizeLine, `${size}${shrink}`);
  setStat(p.bytes, run.cacheBytes, `${run.cacheBytes} B`);
  setStat(p.difference, run.difference, decimal(formatNumber(run.difference, 3)));
}

function drawControls(ui, k, T, H) {
  ui.prev.disabled = k.step === 0;
  ui.next.disabled = k.step >= T - 1;
  fillKvOptions(ui.kv, H, k.kvHeads);
  ui.kv.disabled = H === 1;
  setIfIdle(ui.windowInput, k.windowSize);
  ui.windowInput.max = String(T);
}

function drawNotes(notes, ctx, d, dk, t) {
  const lines = [];
  if (ctx.heads.length === 1) lines.push(t('inference.kv.oneHead'));
  if (ctx.k.kvHeads < ctx.heads.length) lines.push(t('inference.kv.pooled'));
  if (ctx.run.headDim > Math.max(dk, ctx.heads[0].v.shape[1]))
    lines.push(t('inference.kv.padded', { d: ctx.run.headDim, dk }));
  if (d.cross) lines.push(t('inference.kv.cross'));
  notes.replaceChildren(...lines.map((text) => el('p', 'lesson-note', text)));
}

function sides(left, leftMap, right, rightMap) {
  const box = el('div', 'lesson-compare');
  const a = el('div', 'lesson-side');
  a.append(el('h4', '', left), leftMap.el);
  const b = el('div', 'lesson-side');
  b.append(el('h4', '', right), rightMap.el);
  box.append(a, b);
  return box;
}

const kvSides = (maps, t) =>
  sides(t('inference.kv.decoderTitle'), maps.weights, t('inference.kv.fullTitle'), maps.full);
const cacheSides = (maps, t) =>
  sides(t('inference.kv.keysTitle'), maps.keys, t('inference.kv.valuesTitle'), maps.values);

function drawKvMaps(maps, ctx, display, { t }) {
  const { run, heads, labels, k } = ctx;
  const H = heads.length;
  const length = run.length;
  const rows = Array.from({ length: H }, (_, h) => t('inference.kv.headRow', { head: h + 1 }));
  const cols = labels.slice(0, length);
  const hidden = Uint8Array.from(run.weights.data, (_, i) =>
    k.windowSize > 0 && i % length <= k.step - k.windowSize ? 1 : 0,
  );
  maps.weights.update({ tensor: run.weights, rowLabels: rows, colLabels: cols, hidden, ...display });
  maps.full.update({ tensor: run.full, rowLabels: rows, colLabels: cols, hidden, ...display });
  maps.weights.setHighlight({ rows: new Set([ctx.shown]) });
  const slots = Array.from(run.cache.positions, (p, s) => `${s}:${labels[p]}`);
  const dk = heads[0].k.shape[1];
  const dv = heads[0].v.shape[1];
  maps.keys.update({
    tensor: cacheHead(run.cache.keys, ctx.g, dk),
    rowLabels: slots,
    colLabels: Array.from({ length: dk }, (_, c) => String(c + 1)),
    ...display,
  });
  maps.values.update({
    tensor: cacheHead(run.cache.values, ctx.g, dv),
    rowLabels: slots,
    colLabels: Array.from({ length: dv }, (_, c) => String(c + 1)),
    ...display,
  });
}

const at = (t, i, j) => t.data[i * t.shape[1] + j];
const numbers = ({ decimal }) => ({
  num: (x, digits) => decimal(formatNumber(x, digits)),
  fac: (x) => decimal(factor(x)),
});

// The key row of position p that head h's query meets in the cache (the group's mean with GQA).
function cachedKey(ctx, h, p) {
  const g = kvHeadOf(h, ctx.heads.length, ctx.k.kvHeads);
  const s = Array.prototype.indexOf.call(ctx.run.cache.positions, p);
  const d = ctx.run.cache.keys.shape[2];
  const kept = ctx.run.cache.keys.shape[1];
  return ctx.run.cache.keys.data.subarray((g * kept + s) * d, (g * kept + s + 1) * d);
}

function explainWeight(ctx, h, j, i18n) {
  const { t } = i18n;
  const { num, fac } = numbers(i18n);
  const { line, done } = explanation();
  const { run, heads, k, labels } = ctx;
  const i = k.step;
  const w = at(run.weights, h, j);
  if (k.windowSize > 0 && j <= i - k.windowSize) {
    line(t('inference.kv.explain.leftWindow', { position: j + 1, window: k.windowSize }), 'result');
    return done(t('inference.kv.explain.weightTitle', { head: h + 1, position: j + 1 }));
  }
  const q = heads[h].q;
  const key = cachedKey(ctx, h, j);
  const terms = [];
  for (let x = 0; x < q.shape[1]; x++) terms.push(`${fac(at(q, i, x))}×${fac(key[x])}`);
  line(
    t('inference.kv.explain.score', {
      qi: subscript(i + 1),
      kj: subscript(j + 1),
      scale: num(ctx.scale),
      sum: terms.join(' + '),
    }),
  );
  line(t('inference.kv.explain.weight', { value: num(w) }), 'result');
  line(
    t('inference.kv.explain.weightWhy', {
      head: h + 1,
      query: labels[i],
      key: labels[j],
      group: kvHeadOf(h, heads.length, k.kvHeads) + 1,
    }),
    'text',
  );
  return done(t('inference.kv.explain.decoderTitle', { head: h + 1, position: j + 1 }));
}

function explainFull(ctx, h, j, i18n) {
  const { t } = i18n;
  const { num } = numbers(i18n);
  const { line, done } = explanation();
  const i = ctx.k.step;
  line(
    t('inference.kv.explain.full', { i: i + 1, j: j + 1, head: h + 1, value: num(at(ctx.run.full, h, j)) }),
    'result',
  );
  line(t('inference.kv.explain.fullWhy', { value: num(at(ctx.run.weights, h, j)) }), 'text');
  return done(t('inference.kv.explain.fullTitle', { head: h + 1, row: i + 1 }));
}

function explainCache(ctx, which, s, x, i18n) {
  const { t } = i18n;
  const { line, done } = explanation();
  const p = ctx.run.cache.positions[s];
  const name = which === 'keys' ? 'k' : 'v';
  const width = which === 'keys' ? ctx.heads[0].k.shape[1] : ctx.heads[0].v.shape[1];
  const value = at(cacheHead(ctx.run.cache[which], ctx.g, width), s, x);
  line(`${name}${subscript(p + 1)}[${x + 1}] = ${numbers(i18n).num(value)}`, 'result');
  line(t('inference.kv.explain.slot', { slot: s, position: p + 1, label: ctx.labels[p] }), 'text');
  if (ctx.k.kvHeads < ctx.heads.length)
    line(t('inference.kv.explain.group', { group: ctx.g + 1, count: ctx.heads.length / ctx.k.kvHeads, name }), 'text');
  return done(
    t(which === 'keys' ? 'inference.kv.explain.keysTitle' : 'inference.kv.explain.valuesTitle', {
      slot: s,
      column: x + 1,
    }),
  );
}

function explainBytes(ctx, { t }) {
  const { line, done } = explanation();
  const { run, k } = ctx;
  const kept = run.cache.positions.length;
  line(t('inference.kv.explain.bytes', { kvHeads: k.kvHeads, headDim: run.headDim, kept }));
  line(`= ${run.cacheBytes} B`, 'result');
  line(
    k.windowSize > 0
      ? t('inference.kv.explain.bytesWindow', { window: k.windowSize })
      : t('inference.kv.explain.bytesGrow'),
    'text',
  );
  return done(t('inference.kv.explain.bytesTitle'));
}

function explainDifference(ctx, i18n) {
  const { t } = i18n;
  const { line, done } = explanation();
  line(
    t('inference.kv.explain.difference', { token: ctx.k.step + 1, value: numbers(i18n).num(ctx.run.difference, 6) }),
    'result',
  );
  line(t('inference.kv.explain.differenceWhy'), 'text');
  return done(t('inference.kv.explain.differenceTitle'));
}
