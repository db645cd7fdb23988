// The Generate panel: continues a prompt with whatever model the view holds (the model being
// trained, a trained example, an imported file, a GPT-2 checkpoint), token by token in that model's
// Worker (generation.js), so the page stays responsive and Stop ends it after the token under way.
// Each new token shows the new query's attention over the cache for every head of a chosen layer,
// that layer's K and V caches growing (a ring buffer with a window), the cache's bytes with the
// formula, milliseconds per token with the cache against recomputing the prefix, and the largest
// difference between the cached logits and a full pass.
// Test hooks: [data-generate] (data-running, data-reason); [data-action="generate"],
// [data-action="generate-step"], [data-action="generate-stop"]; [data-generated] (the text;
// data-tokens: every id, data-new: how many are new); [data-kv-cache] (data-length, data-bytes);
// [data-cache-difference] (data-value); heatmaps gen-attention, gen-keys, gen-values.
import { el } from '../dom/dom.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { createExplainBox, explainedStat, setStat } from '../explain/explain.js';
import { formatNumber } from '../model/model.js';
import { queueHeatmap } from './frame-queue.js';
import { explainAttention, explainBytes, explainCache, explainDifference, explainTiming } from './generate-explain.js';

// Positions shown in the maps: the last ones (a long text's first tokens scroll out of view).
const SHOWN = 48;

const TEXT = {
  none: 'No model yet: train one, open a trained example or a checkpoint.',
  ready: (name) => `Continues your prompt with ${name}.`,
  running: (i, n) => `Token ${i} of ${n}\u2026`,
  ended: {
    done: (n) => `Generated ${n} token${n === 1 ? '' : 's'}.`,
    length: (n) => `Generated ${n} token${n === 1 ? '' : 's'}: the model\u2019s context is full.`,
    cancelled: (n) => `Stopped after ${n} token${n === 1 ? '' : 's'}.`,
    'model-changed': (n) => `Stopped after ${n} token${n === 1 ? '' : 's'}: the model changed (training or a new model).`,
  },
  shown: (n, total) => `The last ${n} of ${total} positions are shown.`,
  bytes: (b, L, kv, d, kept) => `Cache: ${b} bytes = 2 \u00b7 ${L} layers \u00b7 ${kv} key/value heads \u00b7 head_dim ${d} \u00b7 ${kept} positions \u00b7 4 bytes.`,
};

let nextId = 0;
const uid = (name) => `gen-${name}-${++nextId}`;

function labelled(text, control, hint) {
  const wrap = el('div', 'field');
  control.id ||= uid('field');
  const lab = el('label', '', text);
  lab.htmlFor = control.id;
  wrap.append(lab, control);
  if (hint) wrap.append(el('span', 'field-hint', hint));
  return wrap;
}

function input(type, attrs = {}) {
  const i = el('input', type === 'number' ? 'number' : '');
  i.type = type;
  for (const [k, v] of Object.entries(attrs)) i[k] = String(v);
  return i;
}

function button(action, text, className = 'small-button') {
  const b = el('button', className, text);
  b.type = 'button';
  b.dataset.action = action;
  return b;
}

// The prompt and the sampling settings.
function generateControls() {
  const prompt = el('textarea');
  prompt.rows = 2;
  const count = input('number', { min: 1, max: 512, step: 1, value: 20 });
  const temperature = input('number', { min: 0, max: 5, step: 0.1, value: 0.8 });
  const topK = input('number', { min: 0, max: 100000, step: 1, value: 0 });
  const seed = input('number', { min: 0, max: 99999, step: 1, value: 0 });
  const greedy = input('checkbox');
  const check = input('checkbox');
  check.checked = true;
  const layer = el('select');
  const head = el('select');
  const grid = el('div', 'settings-grid');
  grid.append(labelled('New tokens', count), labelled('Temperature', temperature), labelled('Top-k', topK, '0 = every token'), labelled('Seed', seed),
    labelled('Layer shown', layer), labelled('Head shown (caches)', head));
  const checks = el('div', 'generate-checks');
  const g = el('label', 'check');
  g.append(greedy, ' Greedy (always the most likely token)');
  const c = el('label', 'check');
  c.append(check, ' Check each token against a full pass');
  checks.append(g, c);
  const buttons = el('div', 'run-buttons');
  const generate = button('generate', 'Generate', 'primary-button');
  const step = button('generate-step', 'Step');
  const stop = button('generate-stop', 'Stop');
  buttons.append(generate, step, stop);
  const promptNote = el('p', 'hint');
  const model = el('select');
  model.dataset.generateModel = '';
  for (const [value, text] of [['view', 'The model of this view'], ['checkpoint', 'The opened checkpoint']]) {
    const o = el('option', '', text);
    o.value = value;
    model.append(o);
  }
  const modelField = labelled('Model', model);
  modelField.hidden = true;
  return { model, modelField, prompt, promptNote, count, temperature, topK, seed, greedy, check, layer, head, grid, checks, buttons, generate, step, stop };
}

function fillSelect(select, n, name, value) {
  if (select.dataset.count !== String(n)) {
    select.dataset.count = String(n);
    select.replaceChildren(...Array.from({ length: n }, (_, i) => {
      const o = el('option', '', `${name} ${i + 1}`);
      o.value = String(i);
      return o;
    }));
  }
  select.value = String(Math.min(value, n - 1));
}

/**
 * display() → { palette, theme }. setModel(model | null) with model = { name, config (numLayers,
 * numHeads, numKVHeads, dModel, vocabSize, contextLength, attentionWindow, positions),
 * defaultPrompt, read(text) → { ids, note }, labels(ids) → one string per id, text(ids) → string,
 * generate(request, onToken) → Promise<{ tokens, reason }>, cancel(), prepare() → Promise (e.g.
 * pause training) }.
 */
export function createGeneratePanel({ display }) {
  const root = el('section', 'card generate-panel');
  root.dataset.generate = '';
  const heading = el('h2', 'card-title', 'Generate');
  heading.id = uid('heading');
  root.setAttribute('aria-labelledby', heading.id);
  const about = el('p', 'hint');
  const ui = generateControls();
  const status = el('p', 'run-status');
  status.setAttribute('role', 'status');
  const out = createOutput();
  const explain = createExplainBox('Point at, tap or focus any number of a generated token to see how it was computed.', { heading: 'h3' });
  const maps = createMaps(explain, () => out.context());
  root.append(heading, about, ui.modelField, labelled('Prompt', ui.prompt), ui.promptNote, ui.grid, ui.checks, ui.buttons, status, out.el, maps.el, explain.el);
  const run = createRun({ root, ui, status, out, maps, display });
  ui.generate.addEventListener('click', () => run.start(false));
  ui.step.addEventListener('click', () => run.start(true));
  ui.stop.addEventListener('click', () => run.stop());
  ui.greedy.addEventListener('change', () => { ui.temperature.disabled = ui.greedy.checked; });
  ui.head.addEventListener('change', () => out.redraw());
  ui.prompt.addEventListener('input', () => run.promptChanged());
  // Two models can be in the view: the one it trains and an opened checkpoint.
  const models = { view: null, checkpoint: null };
  const use = () => {
    const both = models.view && models.checkpoint;
    ui.modelField.hidden = !both;
    if (!both) ui.model.value = models.checkpoint ? 'checkpoint' : 'view';
    const model = models[ui.model.value] ?? models.view ?? models.checkpoint;
    run.setModel(model);
    about.textContent = model ? TEXT.ready(model.name) : TEXT.none;
    root.dataset.model = model ? (model === models.checkpoint ? 'checkpoint' : 'view') : '';
  };
  ui.model.addEventListener('change', use);
  return {
    el: root,
    /** The view's own model (its trainer), or null while it is being built. */
    setModel(model) {
      models.view = model;
      use();
    },
    /** The opened checkpoint's model, or null; a new one becomes the one used. */
    setCheckpoint(model) {
      models.checkpoint = model;
      if (model) ui.model.value = 'checkpoint';
      use();
    },
    /** Whether a generation is under way. */
    running: () => run.running,
  };
}

// The text so far (prompt and new tokens) and the numbers of the last token.
function createOutput() {
  const box = el('div', 'generate-output');
  const text = el('p', 'generated');
  text.dataset.generated = '';
  text.setAttribute('aria-live', 'polite');
  const cache = el('p', 'hint');
  cache.dataset.kvCache = '';
  const stats = el('dl', 'generate-stats');
  box.append(text, cache, stats);
  let state = null;
  return {
    el: box,
    text, cache, stats,
    set(next) { state = next; },
    context: () => state,
    redraw: () => state?.redraw?.(),
  };
}

function createMaps(explain, context) {
  const inspect = (fn) => (i, j) => { const c = context(); if (c?.step) explain.show(fn(c, i, j)); };
  const attention = createHeatmap({ name: 'gen-attention', label: 'The new query\u2019s weights over the cache, each head', kind: 'weights', onInspect: inspect(explainAttention) });
  const keys = createHeatmap({ name: 'gen-keys', label: 'K cache of the shown head', kind: 'diverging', legend: false, onInspect: inspect((c, i, j) => explainCache(c, 'keys', i, j)) });
  const values = createHeatmap({ name: 'gen-values', label: 'V cache of the shown head', kind: 'diverging', legend: false, onInspect: inspect((c, i, j) => explainCache(c, 'values', i, j)) });
  const box = el('div', 'generate-maps');
  const titles = { attention: el('h3', 'map-title'), keys: el('h3', 'map-title'), values: el('h3', 'map-title') };
  const note = el('p', 'hint');
  const caches = el('div', 'generate-caches');
  const k = el('div');
  k.append(titles.keys, keys.el);
  const v = el('div');
  v.append(titles.values, values.el);
  caches.append(k, v);
  box.append(titles.attention, attention.el, note, caches);
  box.hidden = true;
  return { el: box, attention, keys, values, titles, note, explain };
}

// One generation at a time: starts, steps, stops, and draws each token as it arrives.
function createRun({ root, ui, status, out, maps, display }) {
  let model = null;
  let canContinue = false;
  let difference = 0;
  let sums = { cached: 0, full: 0, count: 0 };
  let made = 0;
  const self = {
    running: false,
    setModel(m) {
      if (self.running) model?.cancel();
      model = m;
      canContinue = false;
      ui.prompt.value = m ? m.defaultPrompt : '';
      if (m) {
        fillSelect(ui.layer, m.config.numLayers, 'layer', m.config.numLayers - 1);
        fillSelect(ui.head, m.config.numHeads, 'head', 0);
      }
      self.readPrompt();
      buttons();
    },
    readPrompt() {
      ui.promptNote.textContent = model ? model.read(ui.prompt.value).note : '';
    },
    async start(stepOnly) {
      if (!model || self.running) return;
      const m = model;
      const { ids } = m.read(ui.prompt.value);
      if (!ids.length && !(stepOnly && canContinue)) { status.textContent = 'Type a prompt first.'; return; }
      await m.prepare();
      const count = stepOnly ? 1 : Number(ui.count.value) || 1;
      const fresh = () => {
        difference = 0;
        sums = { cached: 0, full: 0, count: 0 };
        made = 0;
        return { ...requestFrom(ui, count), prompt: ids };
      };
      const request = stepOnly && canContinue ? { ...requestFrom(ui, 1), continue: true } : fresh();
      self.running = true;
      root.dataset.running = 'true';
      buttons();
      const total = (request.continue ? made : 0) + request.maxNewTokens;
      const onToken = (step) => {
        if (m !== model) return;
        made++;
        difference = step.difference === null ? difference : Math.max(difference, step.difference);
        sums = { cached: sums.cached + step.msCached, full: sums.full + (step.msFull ?? 0), count: sums.count + 1 };
        status.textContent = TEXT.running(made, total);
        showStep(out, maps, ui, m, step, { difference, sums, display: display() });
      };
      try {
        // Training went on since the last token (the cache no longer fits the model): start again.
        const end = await m.generate(request, onToken).catch((err) => {
          if (request.continue && /no generation to continue/.test(err.message)) return m.generate(fresh(), onToken);
          throw err;
        });
        if (m !== model) return;
        canContinue = end.reason === 'done' || end.reason === 'cancelled';
        root.dataset.reason = end.reason;
        status.textContent = TEXT.ended[end.reason](made);
      } catch (err) {
        status.textContent = err.message.replace(/^\w+: /, '');
        canContinue = false;
      } finally {
        self.running = false;
        root.dataset.running = 'false';
        buttons();
      }
    },
    /** A new prompt: Step starts from it instead of going on with the last text. */
    promptChanged() {
      canContinue = false;
      self.readPrompt();
    },
    stop() {
      if (self.running) model?.cancel();
    },
  };
  function buttons() {
    ui.generate.disabled = !model || self.running;
    ui.step.disabled = !model || self.running;
    ui.stop.disabled = !self.running;
  }
  buttons();
  return self;
}

function requestFrom(ui, maxNewTokens) {
  const topK = Math.round(Number(ui.topK.value));
  return {
    maxNewTokens: Math.max(1, Math.min(512, Math.round(maxNewTokens))),
    temperature: ui.greedy.checked ? 0 : Math.max(0, Number(ui.temperature.value) || 0),
    topK: topK > 0 ? topK : null,
    seed: Math.max(0, Math.round(Number(ui.seed.value) || 0)),
    layer: Number(ui.layer.value) || 0,
    check: ui.check.checked,
  };
}

// Draws one token's numbers: the text, the bytes, the timings and difference, and the three maps.
function showStep(out, maps, ui, model, step, { difference, sums, display }) {
  const c = model.config;
  const labels = model.labels(step.tokens);
  // Every token after the prompt is new (index counts the generation's new tokens, Step included).
  const promptLength = step.tokens.length - step.index - 1;
  const full = model.text(step.tokens);
  const before = model.text(step.tokens.slice(0, promptLength));
  const after = full.startsWith(before) ? full.slice(before.length) : model.text(step.tokens.slice(promptLength));
  out.text.replaceChildren(el('span', 'generated-prompt', before), el('mark', 'generated-new', after));
  out.text.dataset.tokens = step.tokens.join(' ');
  out.text.dataset.new = String(step.index + 1);
  const kept = step.cache.positions.length;
  out.cache.dataset.length = String(step.length);
  out.cache.dataset.bytes = String(step.cacheBytes);
  out.cache.textContent = TEXT.bytes(step.cacheBytes, c.numLayers, c.numKVHeads, c.dModel / c.numHeads, kept);
  const ctx = {
    step, config: c, label: (p) => labels[p] ?? '', windowSize: c.attentionWindow ?? 0, positions: c.positions,
    mean: { cached: sums.cached / sums.count, full: sums.full / sums.count }, count: sums.count, difference,
  };
  drawStats(out, maps.explain, ctx);
  ctx.redraw = () => drawMaps(maps, ui, ctx, display);
  out.set(ctx);
  ctx.redraw();
}

function drawStats(out, explain, ctx) {
  if (!out.statsBuilt) {
    out.statsBuilt = {
      bytes: explainedStat('gen-cache-bytes', () => explain.show(explainBytes(out.context()))),
      cached: explainedStat('gen-ms-cached', () => explain.show(explainTiming(out.context()))),
      full: explainedStat('gen-ms-full', () => explain.show(explainTiming(out.context()))),
      difference: explainedStat('gen-difference', () => explain.show(explainDifference(out.context()))),
    };
    out.statsBuilt.difference.dataset.cacheDifference = '';
    const s = out.statsBuilt;
    for (const [term, value] of [['Bytes in the cache', s.bytes], ['Mean time per token with the cache', s.cached],
      ['Mean time per token recomputing the prefix', s.full], ['Largest difference, cached logits against a full pass', s.difference]]) {
      const dd = el('dd');
      dd.append(value);
      out.stats.append(el('dt', '', term), dd);
    }
  }
  const s = out.statsBuilt;
  setStat(s.bytes, ctx.step.cacheBytes, `${ctx.step.cacheBytes} B`);
  // Means over the generation: one token of a tiny model takes less than the timer's resolution.
  const ms = (x) => (x > 0 ? `${formatNumber(x, 3)} ms` : 'under the timer\u2019s resolution');
  setStat(s.cached, ctx.mean.cached, ms(ctx.mean.cached));
  setStat(s.full, ctx.step.msFull === null ? '' : ctx.mean.full, ctx.step.msFull === null ? 'not measured' : ms(ctx.mean.full));
  setStat(s.difference, ctx.step.difference === null && ctx.count === 1 ? '' : ctx.difference, ctx.step.difference === null ? 'not checked' : formatNumber(ctx.difference, 3));
}

function drawMaps(maps, ui, ctx, display) {
  const { step, config } = ctx;
  maps.el.hidden = false;
  const [H, length] = step.attention.shape;
  const first = Math.max(0, length - SHOWN);
  ctx.first = first;
  const cols = Array.from({ length: length - first }, (_, j) => ctx.label(first + j));
  const attention = { data: new Float32Array(H * (length - first)), shape: [H, length - first] };
  for (let h = 0; h < H; h++) attention.data.set(step.attention.data.subarray(h * length + first, (h + 1) * length), h * (length - first));
  maps.titles.attention.textContent = `Layer ${step.layer + 1}: the query of \u201c${ctx.label(step.tokens.length - 2)}\u201d over the cache, each head`;
  queueHeatmap(maps.attention, { tensor: attention, rowLabels: Array.from({ length: H }, (_, h) => `head ${h + 1}`), colLabels: cols, ...display });
  maps.note.textContent = length > SHOWN ? TEXT.shown(SHOWN, length) : '';
  const head = Number(ui.head.value) || 0;
  const kvHead = Math.floor(head / (config.numHeads / config.numKVHeads));
  ctx.kvHead = kvHead;
  const [, kept, d] = step.cache.keys.shape;
  const firstSlot = Math.max(0, kept - SHOWN);
  ctx.firstSlot = firstSlot;
  ctx.cacheValue = (which, slot, x) => step.cache[which].data[(kvHead * kept + slot) * d + x];
  const rows = Array.from({ length: kept - firstSlot }, (_, s) => `${firstSlot + s}:${ctx.label(step.cache.positions[firstSlot + s])}`);
  const part = (which) => ({ data: step.cache[which].data.slice((kvHead * kept + firstSlot) * d, (kvHead * kept + kept) * d), shape: [kept - firstSlot, d] });
  maps.titles.keys.textContent = `K cache of layer ${step.layer + 1}, key/value head ${kvHead + 1} (slot: token)`;
  maps.titles.values.textContent = `V cache of layer ${step.layer + 1}, key/value head ${kvHead + 1}`;
  const colLabels = Array.from({ length: d }, (_, x) => String(x + 1));
  queueHeatmap(maps.keys, { tensor: part('keys'), rowLabels: rows, colLabels, ...display });
  queueHeatmap(maps.values, { tensor: part('values'), rowLabels: rows, colLabels, ...display });
}
