// "The KV cache": the explorer's sequence decoded one token at a time by model.decoder on a
// one-layer model built from the explorer's own q, k, v rows (kv-math.js). Each step appends the
// new token's k and v rows to the caches, the new query attends over them (its weights shown for
// every head), and the step is compared with the same model's full causal pass. Controls: key/
// value heads shared by the query heads (MHA → GQA → MQA) with the cache's size, and a sliding
// window whose ring buffer (slot p mod W) is drawn. Below, the memory table for real models.
// Test hooks: [data-kv-step] (data-step, data-steps), data-stat="kv-cache-bytes" and
// "kv-difference" (data-value), heatmaps kv-weights, kv-full, kv-keys, kv-values, [data-kv-ring].
import { button, el, failureLine, field, lessonPanel, numberInput, setIfIdle, setText } from './dom.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { INFERENCE_LIMITS, divisors, factor, formatNumber, kvLessonView, setLesson, subscript } from '../model/model.js';
import { cacheHead, decodeSteps, explorerHeads, kvHeadOf } from './kv-math.js';
import { createMemoryTable } from './kv-table.js';
import { createExplainBox, explainedStat, explanation, setStat } from '../explain/explain.js';

const TEXT = {
  intro: 'A model writing text produces one token at a time. The keys and values of earlier tokens never change (attention is causal), so a decoder keeps them in a cache: each step computes only the new token\u2019s q, k and v, appends k and v, and lets the new query attend over the cache. Here the head above is decoded that way by the core\u2019s decoder, and every step is checked against a full causal pass.',
  step: (i, T, label) => `Decoding token ${i} of ${T} (${label}): its k and v join the cache, its query attends over it.`,
  bytes: (bytes, H, g, d, kept) => `Cache: ${bytes} bytes = 2 \u00b7 1 layer \u00b7 ${g} key/value head${g > 1 ? 's' : ''} \u00b7 head_dim ${d} \u00b7 ${kept} token${kept > 1 ? 's' : ''} \u00b7 4 bytes.`,
  shrink: (H, g, ratio) => `${H} query heads share ${g} key/value head${g > 1 ? 's' : ''}: the cache is ${ratio}\u00d7 smaller than with one key/value head per query head.`,
  padded: (d, dk) => `head_dim is ${d} here, not ${dk}: the model reads each token as a one-hot vector, so heads \u00d7 head_dim must reach the number of tokens; the extra columns of q, k and v are zeros and change no score.`,
  oneHead: 'The explorer shows one head, so there is nothing to share: choose several heads in sentence mode (the Heads field above) to see grouped-query and multi-query attention.',
  pooled: 'With fewer key/value heads, each group\u2019s keys and values are the mean of its heads\u2019 (as Ainslie et al. convert a multi-head model to grouped-query attention), so the weights differ from the heads above; the cached step still equals the full pass.',
  cross: 'Cross-attention is on: a decoder caches its own tokens, so this lesson decodes the first tokens of the sentence against themselves.',
  ring: (W) => `Ring buffer of ${W} slots: position p is kept in slot p mod ${W}, overwriting the position ${W} before it.`,
};

function kvControls(update) {
  const prev = button('\u25c0 Previous');
  const next = button('Next token \u25b6');
  next.dataset.action = 'kv-step';
  const kv = el('select');
  kv.dataset.control = 'kv-heads';
  const windowInput = numberInput(INFERENCE_LIMITS.windowSize);
  windowInput.dataset.control = 'kv-window';
  const controls = el('div', 'lesson-controls');
  controls.append(prev, next, field('Key/value heads', kv), field('Sliding window W (0 = none)', windowInput));
  const set = (value) => update((s) => setLesson(s, 'kv', value));
  prev.addEventListener('click', () => update((s) => setLesson(s, 'kv', { step: Math.max(0, (s.lessons.kv.step ?? ui.last) - 1) })));
  next.addEventListener('click', () => update((s) => setLesson(s, 'kv', { step: Math.min(ui.last, (s.lessons.kv.step ?? ui.last) + 1) })));
  kv.addEventListener('change', () => set({ kvHeads: Number(kv.value) }));
  windowInput.addEventListener('change', () => set({ windowSize: Number(windowInput.value) }));
  const ui = { controls, prev, next, kv, windowInput, last: 0 };  // last: the last token's index, set by render
  return ui;
}

function fillKvOptions(select, H, value) {
  const key = `${H}`;
  if (select.dataset.heads !== key) {
    select.dataset.heads = key;
    select.replaceChildren(...divisors(H).map((g) => {
      const kind = g === H ? 'MHA' : g === 1 ? 'MQA' : 'GQA';
      const o = el('option', '', `${g} (${kind})`);
      o.value = String(g);
      return o;
    }));
  }
  select.value = String(value);
}

// The token strip: decoded, the current one, not generated yet.
function drawStrip(strip, labels, step) {
  strip.replaceChildren(...labels.map((t, j) => el('li', j < step ? 'past' : j === step ? 'current' : 'future', t)));
}

// The ring buffer's slots: which position each holds, the newest marked.
function drawRing(ring, cache, labels, step) {
  const slots = Array.from(cache.positions, (p, s) => {
    const li = el('li', p === step ? 'current' : 'past', `slot ${s}: ${p + 1} ${labels[p]}`);
    li.dataset.slot = String(s);
    li.dataset.position = String(p);
    return li;
  });
  ring.replaceChildren(...slots);
}

export function createKvCachePanel({ attn, update }) {
  const { root, intro } = lessonPanel('kv-cache', TEXT.intro);
  const ui = kvControls(update);
  const explain = createExplainBox();
  let ctx = null;
  const inspect = (fn) => (i, j) => { if (ctx) explain.show(fn(ctx, i, j)); };
  const maps = {
    weights: createHeatmap({ name: 'kv-weights', label: 'The new query\u2019s weights over the cache, per head', kind: 'weights', onInspect: inspect(explainWeight) }),
    full: createHeatmap({ name: 'kv-full', label: 'The same row of the full causal pass', kind: 'weights', legend: false, onInspect: inspect(explainFull) }),
    keys: createHeatmap({ name: 'kv-keys', label: 'K cache', kind: 'diverging', legend: false, onInspect: inspect((c, i, j) => explainCache(c, 'keys', i, j)) }),
    values: createHeatmap({ name: 'kv-values', label: 'V cache', kind: 'diverging', legend: false, onInspect: inspect((c, i, j) => explainCache(c, 'values', i, j)) }),
  };
  const status = el('p', 'lesson-summary');
  status.dataset.kvStep = '';
  status.setAttribute('aria-live', 'polite');
  const strip = el('ol', 'token-strip');
  strip.setAttribute('aria-label', 'Tokens decoded so far');
  const ring = el('ol', 'kv-ring');
  ring.dataset.kvRing = '';
  ring.setAttribute('aria-label', 'Cache slots');
  const ringNote = el('p', 'lesson-note');
  const notes = el('div');
  const bytes = explainedStat('kv-cache-bytes', () => ctx && explain.show(explainBytes(ctx)));
  const difference = explainedStat('kv-difference', () => ctx && explain.show(explainDifference(ctx)));
  const bytesLine = el('p', 'lesson-summary');
  bytesLine.append('Bytes in the cache (decoder.cacheBytes): ', bytes);
  const sizeLine = el('p', 'lesson-note');
  const diffLine = el('p', 'lesson-summary');
  diffLine.append('Largest difference between the cached step and the full pass (weights and logits): ', difference);
  const tableExplain = createExplainBox('Point at, tap or focus a cache size in the table to see how it was computed.');
  const table = createMemoryTable({ update, explain: tableExplain });
  const body = el('div');
  const failure = failureLine(body);
  body.append(status, strip, notes, kvSides(maps), diffLine, cacheSides(maps), ring, ringNote, bytesLine, sizeLine, explain.el,
    el('h4', 'lesson-gap', 'How much memory real models\u2019 caches take'), table.el, tableExplain.el);
  root.append(intro, ui.controls, failure.el, body);

  return {
    el: root,
    render(state, result, display) {
      if (result.error) return failure.fail(`Cannot compute: ${result.error}`);
      table.draw(state.lessons.kv.table);
      let run;
      const heads = explorerHeads(result);
      const T = Math.min(result.dims.n, result.dims.m);
      const k = { ...state.lessons.kv, ...kvLessonView(state.lessons.kv, heads.length, T) };
      ui.last = T - 1;
      try {
        run = decodeSteps(attn, heads, { scale: result.head.scale, kvHeads: k.kvHeads, windowSize: k.windowSize, step: k.step });
      } catch (err) {
        return failure.fail(`The core refused: ${err.message}`);
      }
      failure.ok();
      const d = result.dims;
      const labels = result.labels.queries.slice(0, T);
      const shown = d.multi ? result.head.index : 0;
      ctx = { run, heads, k, labels, scale: result.head.scale, shown, g: kvHeadOf(shown, heads.length, k.kvHeads) };
      drawControls(ui, k, T, heads.length);
      status.dataset.step = String(k.step);
      status.dataset.steps = String(T);
      setText(status, TEXT.step(k.step + 1, T, labels[k.step]));
      drawStrip(strip, labels, k.step);
      drawNotes(notes, ctx, d, heads[0].q.shape[1]);
      drawKvMaps(maps, ctx, display);
      ring.hidden = !(k.windowSize > 0);
      ringNote.hidden = ring.hidden;
      if (!ring.hidden) { drawRing(ring, run.cache, labels, k.step); setText(ringNote, TEXT.ring(k.windowSize)); }
      const kept = run.cache.positions.length;
      setText(sizeLine, `${TEXT.bytes(run.cacheBytes, heads.length, k.kvHeads, run.headDim, kept)} ${k.kvHeads < heads.length ? TEXT.shrink(heads.length, k.kvHeads, heads.length / k.kvHeads) : ''}`.trim());
      setStat(bytes, run.cacheBytes, `${run.cacheBytes} B`);
      setStat(difference, run.difference, formatNumber(run.difference, 3));
      return undefined;
    },
  };
}

function drawControls(ui, k, T, H) {
  ui.prev.disabled = k.step === 0;
  ui.next.disabled = k.step >= T - 1;
  fillKvOptions(ui.kv, H, k.kvHeads);
  ui.kv.disabled = H === 1;
  setIfIdle(ui.windowInput, k.windowSize);
  ui.windowInput.max = String(T);
}

function drawNotes(notes, ctx, d, dk) {
  const lines = [];
  if (ctx.heads.length === 1) lines.push(TEXT.oneHead);
  if (ctx.k.kvHeads < ctx.heads.length) lines.push(TEXT.pooled);
  if (ctx.run.headDim > Math.max(dk, ctx.heads[0].v.shape[1])) lines.push(TEXT.padded(ctx.run.headDim, dk));
  if (d.cross) lines.push(TEXT.cross);
  notes.replaceChildren(...lines.map((t) => el('p', 'lesson-note', t)));
}

function kvSides(maps) {
  const sides = el('div', 'lesson-compare');
  const a = el('div', 'lesson-side');
  a.append(el('h4', '', 'Decoder: the new query over the cache'), maps.weights.el);
  const b = el('div', 'lesson-side');
  b.append(el('h4', '', 'Full causal pass: the same row'), maps.full.el);
  sides.append(a, b);
  return sides;
}

function cacheSides(maps) {
  const sides = el('div', 'lesson-compare');
  const a = el('div', 'lesson-side');
  a.append(el('h4', '', 'K cache (slot order)'), maps.keys.el);
  const b = el('div', 'lesson-side');
  b.append(el('h4', '', 'V cache (slot order)'), maps.values.el);
  sides.append(a, b);
  return sides;
}

function drawKvMaps(maps, ctx, display) {
  const { run, heads, labels, k } = ctx;
  const H = heads.length;
  const length = run.length;
  const rows = Array.from({ length: H }, (_, h) => `head ${h + 1}`);
  const cols = labels.slice(0, length);
  const hidden = Uint8Array.from(run.weights.data, (_, i) => (k.windowSize > 0 && i % length <= k.step - k.windowSize ? 1 : 0));
  maps.weights.update({ tensor: run.weights, rowLabels: rows, colLabels: cols, hidden, ...display });
  maps.full.update({ tensor: run.full, rowLabels: rows, colLabels: cols, hidden, ...display });
  maps.weights.setHighlight({ rows: new Set([ctx.shown]) });
  const slots = Array.from(run.cache.positions, (p, s) => `${s}:${labels[p]}`);
  const dk = heads[0].k.shape[1];
  const dv = heads[0].v.shape[1];
  maps.keys.update({ tensor: cacheHead(run.cache.keys, ctx.g, dk), rowLabels: slots, colLabels: Array.from({ length: dk }, (_, c) => String(c + 1)), ...display });
  maps.values.update({ tensor: cacheHead(run.cache.values, ctx.g, dv), rowLabels: slots, colLabels: Array.from({ length: dv }, (_, c) => String(c + 1)), ...display });
}

const at = (t, i, j) => t.data[i * t.shape[1] + j];

// The key row of position p that head h's query meets in the cache (the group's mean with GQA).
function cachedKey(ctx, h, p) {
  const g = kvHeadOf(h, ctx.heads.length, ctx.k.kvHeads);
  const s = Array.prototype.indexOf.call(ctx.run.cache.positions, p);
  const d = ctx.run.cache.keys.shape[2];
  const kept = ctx.run.cache.keys.shape[1];
  return ctx.run.cache.keys.data.subarray((g * kept + s) * d, (g * kept + s + 1) * d);
}

function explainWeight(ctx, h, j) {
  const { line, done } = explanation();
  const { run, heads, k, labels } = ctx;
  const i = k.step;
  const w = at(run.weights, h, j);
  if (k.windowSize > 0 && j <= i - k.windowSize) {
    line(`a = 0 exactly: position ${j + 1} left the window of ${k.windowSize} (it is no longer in the cache).`, 'result');
    return done(`Head ${h + 1}: weight of position ${j + 1}`);
  }
  const q = heads[h].q;
  const key = cachedKey(ctx, h, j);
  const terms = [];
  for (let x = 0; x < q.shape[1]; x++) terms.push(`${factor(at(q, i, x))}\u00d7${factor(key[x])}`);
  line(`s = scale \u00d7 q${subscript(i + 1)}\u00b7k${subscript(j + 1)} = ${formatNumber(ctx.scale)} \u00d7 (${terms.join(' + ')})`);
  line(`a = e^s / \u03a3 over the cache of e^s = ${formatNumber(w)}`, 'result');
  line(`Head ${h + 1}\u2019s new query (${labels[i]}) against the cached key of ${labels[j]}, read from key/value head ${kvHeadOf(h, heads.length, k.kvHeads) + 1}.`, 'text');
  return done(`Head ${h + 1}: weight of position ${j + 1} (decoder)`);
}

function explainFull(ctx, h, j) {
  const { line, done } = explanation();
  const i = ctx.k.step;
  line(`A[${i + 1},${j + 1}] of head ${h + 1} in model.forward over tokens 1\u2026${i + 1} = ${formatNumber(at(ctx.run.full, h, j))}`, 'result');
  line(`The decoder gave ${formatNumber(at(ctx.run.weights, h, j))}: the cache changes how the work is done, not the result.`, 'text');
  return done(`Head ${h + 1}: full causal pass, row ${i + 1}`);
}

function explainCache(ctx, which, s, x) {
  const { line, done } = explanation();
  const p = ctx.run.cache.positions[s];
  const name = which === 'keys' ? 'k' : 'v';
  const width = which === 'keys' ? ctx.heads[0].k.shape[1] : ctx.heads[0].v.shape[1];
  const value = at(cacheHead(ctx.run.cache[which], ctx.g, width), s, x);
  line(`${name}${subscript(p + 1)}[${x + 1}] = ${formatNumber(value)}`, 'result');
  line(`Slot ${s} holds position ${p + 1} (${ctx.labels[p]}), written when that token was decoded and never recomputed.`, 'text');
  if (ctx.k.kvHeads < ctx.heads.length) line(`Key/value head ${ctx.g + 1}: the mean of its ${ctx.heads.length / ctx.k.kvHeads} query heads\u2019 ${name} rows.`, 'text');
  return done(`${which === 'keys' ? 'K' : 'V'} cache, slot ${s}, column ${x + 1}`);
}

function explainBytes(ctx) {
  const { line, done } = explanation();
  const { run, k } = ctx;
  const kept = run.cache.positions.length;
  line(`decoder.cacheBytes = 2 \u00b7 layers \u00b7 kv_heads \u00b7 head_dim \u00b7 kept \u00b7 4 = 2 \u00b7 1 \u00b7 ${k.kvHeads} \u00b7 ${run.headDim} \u00b7 ${kept} \u00b7 4`);
  line(`= ${run.cacheBytes} B`, 'result');
  line(k.windowSize > 0 ? `With a window of ${k.windowSize} the cache keeps at most ${k.windowSize} tokens, however long the text grows.` : 'Without a window it grows by one token\u2019s keys and values every step.', 'text');
  return done('Bytes in the cache');
}

function explainDifference(ctx) {
  const { line, done } = explanation();
  line(`max |decoder \u2212 full pass| over the weights and logits of token ${ctx.k.step + 1} = ${formatNumber(ctx.run.difference, 6)}`, 'result');
  line('The decoder reuses the cached keys and values instead of recomputing them; the numbers are the same up to float32 rounding.', 'text');
  return done('Cached step against the full pass');
}
