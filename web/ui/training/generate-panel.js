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
import { el, numberInput } from '../dom/dom.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { createExplainBox, explainedStat, setStat } from '../explain/explain.js';
import { english, formatNumber } from '../model/model.js';
import { queueHeatmap } from './queue-heatmap.js';
import { explainAttention, explainBytes, explainCache, explainDifference, explainTiming } from './generate-explain.js';

// Positions shown in the maps: the last ones (a long text's first tokens scroll out of view).
const SHOWN = 48;

// The number fields' ranges. Each field clamps and rounds what is typed (numberInput) as soon as it
// changes, so Generate uses the number it shows. The API takes any finite temperature ≥ 0 (0 is
// greedy, here as the checkbox is; the field keeps two decimals, finer than a learner tells
// apart), any top-k ≥ 1 (the vocabulary's size or more keeps every token, as 0 does here: the
// largest, 100000, is past GPT-2's 50257) and seeds up to 2^32 − 1.
const COUNT = [1, 512];
const TEMPERATURE = [0, 5];
const TOP_K = [0, 100000];
const SEED = [0, 99999];

// How a generation ended (its reason) → the message saying so.
const ENDED = {
  done: 'training.generate.ended.done',
  length: 'training.generate.ended.length',
  cancelled: 'training.generate.ended.cancelled',
  'model-changed': 'training.generate.ended.modelChanged',
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

function checkbox() {
  const i = el('input');
  i.type = 'checkbox';
  return i;
}

function button(action, text, className = 'small-button') {
  const b = el('button', className, text);
  b.type = 'button';
  b.dataset.action = action;
  return b;
}

// The sampling settings (and which layer and head to show), in a grid of labelled fields; what
// the number fields say of a value they clamp goes in `notes` (below the run buttons).
function settingsFields(i18n, notes) {
  const { t } = i18n;
  // Each note names its field: the notes are together, below the buttons.
  const number = (name, range, step, value, options = {}) => {
    const label = (note) => t('training.generate.fieldNote', { field: t(name), note });
    const i = numberInput(range, step, i18n, { noteIn: notes, label, ...options });
    i.value = String(value);
    return i;
  };
  const count = number('training.generate.count', COUNT, 1, 20);
  const temperature = number('training.generate.temperature', TEMPERATURE, 0.01, 0.8, { decimals: 2 });
  temperature.inputMode = 'decimal';
  const topK = number('training.generate.topK', TOP_K, 1, 0);
  const seed = number('training.generate.seed', SEED, 1, 0);
  const layer = el('select');
  const head = el('select');
  const grid = el('div', 'settings-grid');
  grid.append(
    labelled(t('training.generate.count'), count),
    labelled(t('training.generate.temperature'), temperature, t('training.generate.temperatureHint')),
    labelled(t('training.generate.topK'), topK, t('training.generate.topKHint')),
    labelled(t('training.generate.seed'), seed),
    labelled(t('training.generate.layer'), layer),
    labelled(t('training.generate.head'), head),
  );
  return { count, temperature, topK, seed, layer, head, grid };
}

// "Greedy" (off) and "check against a full pass" (on).
function sampleChecks({ t }) {
  const greedy = checkbox();
  const check = checkbox();
  check.checked = true;
  const checks = el('div', 'generate-checks');
  const g = el('label', 'check');
  g.append(greedy, ' ', t('training.generate.greedy'));
  const c = el('label', 'check');
  c.append(check, ' ', t('training.generate.check'));
  checks.append(g, c);
  return { greedy, check, checks };
}

// Generate, one step, and stop.
function runButtons({ t }) {
  const buttons = el('div', 'run-buttons');
  const generate = button('generate', t('training.generate.generate'), 'primary-button');
  const step = button('generate-step', t('training.generate.step'));
  const stop = button('generate-stop', t('training.generate.stop'));
  buttons.append(generate, step, stop);
  return { buttons, generate, step, stop };
}

// Which model continues the prompt: the view's or a checkpoint (hidden until there is a choice).
function modelChoice({ t }) {
  const model = el('select');
  model.dataset.generateModel = '';
  for (const value of ['view', 'checkpoint']) {
    const o = el('option', '', t(`training.generate.model.${value}`));
    o.value = value;
    model.append(o);
  }
  const modelField = labelled(t('training.generate.model'), model);
  modelField.hidden = true;
  return { model, modelField };
}

// The prompt and the sampling settings.
function generateControls(i18n) {
  const prompt = el('textarea');
  prompt.rows = 2;
  const notes = el('div', 'generate-notes');
  const settings = settingsFields(i18n, notes);
  const checks = sampleChecks(i18n);
  const buttons = runButtons(i18n);
  const promptNote = el('p', 'hint');
  const choice = modelChoice(i18n);
  return { ...choice, prompt, promptNote, ...settings, ...checks, ...buttons, notes };
}

// Options 1…n named by `name(i)` (counted from 1); `value` selected.
function fillSelect(select, n, name, value) {
  if (select.dataset.count !== String(n)) {
    select.dataset.count = String(n);
    select.replaceChildren(
      ...Array.from({ length: n }, (_, i) => {
        const o = el('option', '', name(i + 1));
        o.value = String(i);
        return o;
      }),
    );
  }
  select.value = String(Math.min(value, n - 1));
}

/**
 * display() → { palette, theme }. setModel(model | null) with model = { name, config (numLayers,
 * numHeads, numKVHeads, dModel, vocabSize, contextLength, attentionWindow, positions),
 * defaultPrompt, read(text) → { ids, note }, labels(ids) → one string per id, text(ids) → string,
 * generate(request, onToken) → Promise<{ tokens, reason }>, cancel(), prepare() → Promise (e.g.
 * pause training) }. i18n: the view's translator (the model's name and notes are the model's own).
 */
export function createGeneratePanel({ display, i18n = english }) {
  const { t } = i18n;
  const root = el('section', 'card generate-panel');
  root.dataset.generate = '';
  const heading = el('h2', 'card-title', t('training.generate.title'));
  heading.id = uid('heading');
  root.setAttribute('aria-labelledby', heading.id);
  const about = el('p', 'hint');
  const ui = generateControls(i18n);
  ui.prompt.setAttribute('translate', 'no'); // the learner's own text
  const status = el('p', 'run-status');
  status.setAttribute('role', 'status');
  const out = createOutput();
  const explain = createExplainBox(t('training.generate.explainIdle'), { heading: 'h3', i18n });
  // The box's own title until a number is explained (each explanation brings its own).
  explain.el.querySelector('.explain-title').textContent = t('training.generate.explainTitle');
  const maps = createMaps(explain, () => out.context(), i18n);
  root.append(
    heading,
    about,
    ui.modelField,
    labelled(t('training.generate.prompt'), ui.prompt),
    ui.promptNote,
    ui.grid,
    ui.checks,
    ui.buttons,
    ui.notes,
    status,
    out.el,
    maps.el,
    explain.el,
  );
  const run = createRun({ root, ui, status, out, maps, display, i18n });
  ui.generate.addEventListener('click', () => run.start(false));
  ui.step.addEventListener('click', () => run.start(true));
  ui.stop.addEventListener('click', () => run.stop());
  ui.greedy.addEventListener('change', () => {
    ui.temperature.disabled = ui.greedy.checked;
  });
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
    about.textContent = model ? t('training.generate.ready', { name: model.name }) : t('training.generate.none');
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
  text.setAttribute('translate', 'no'); // the prompt and what the model wrote
  text.setAttribute('aria-live', 'polite');
  const cache = el('p', 'hint');
  cache.dataset.kvCache = '';
  const stats = el('dl', 'generate-stats');
  box.append(text, cache, stats);
  let state = null;
  return {
    el: box,
    text,
    cache,
    stats,
    set(next) {
      state = next;
    },
    context: () => state,
    redraw: () => state?.redraw?.(),
  };
}

function createMaps(explain, context, i18n) {
  const { t } = i18n;
  const inspect = (fn) => (i, j) => {
    const c = context();
    if (c?.step) explain.show(fn(c, i, j, i18n));
  };
  const attention = createHeatmap({
    name: 'gen-attention',
    label: t('training.generate.map.attention'),
    kind: 'weights',
    onInspect: inspect(explainAttention),
    i18n,
  });
  const keys = createHeatmap({
    name: 'gen-keys',
    label: t('training.generate.map.keys'),
    kind: 'diverging',
    legend: false,
    onInspect: inspect((c, i, j) => explainCache(c, 'keys', i, j, i18n)),
    i18n,
  });
  const values = createHeatmap({
    name: 'gen-values',
    label: t('training.generate.map.values'),
    kind: 'diverging',
    legend: false,
    onInspect: inspect((c, i, j) => explainCache(c, 'values', i, j, i18n)),
    i18n,
  });
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
  return { el: box, attention, keys, values, titles, note, explain, i18n };
}

// One generation at a time: starts, steps, stops, and draws each token as it arrives.
function createRun({ root, ui, status, out, maps, display, i18n }) {
  const { t } = i18n;
  let model = null;
  let canContinue = false;
  let difference = 0;
  let sums = { cached: 0, full: 0, count: 0 };
  let made = 0;
  let stopped = false; // Stop pressed during this generation
  const self = {
    running: false,
    setModel(m) {
      if (self.running) model?.cancel();
      model = m;
      canContinue = false;
      ui.prompt.value = m ? m.defaultPrompt : '';
      if (m) {
        fillSelect(
          ui.layer,
          m.config.numLayers,
          (n) => t('training.generate.layerOption', { n }),
          m.config.numLayers - 1,
        );
        fillSelect(ui.head, m.config.numHeads, (n) => t('training.generate.headOption', { n }), 0);
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
      const problem =
        !ids.length && !(stepOnly && canContinue) ? t('training.generate.noPrompt') : missingNumber(ui, stepOnly, t);
      if (problem) {
        status.textContent = problem;
        return;
      }
      // Busy from the first moment: preparing (pausing training) takes a reply from the Worker, and
      // a second press meanwhile would start a second generation beside this one.
      self.running = true;
      stopped = false;
      root.dataset.running = 'true';
      buttons();
      try {
        await m.prepare();
        // A Stop pressed meanwhile (while training paused) found no generation in the model to
        // cancel: this one ends before it starts, as a Stop before the first token would end it.
        if (stopped) return end('cancelled', 0);
        const count = stepOnly ? 1 : Number(ui.count.value);
        const fresh = () => {
          difference = 0;
          sums = { cached: 0, full: 0, count: 0 };
          made = 0;
          return { ...requestFrom(ui, count), prompt: ids };
        };
        const request = stepOnly && canContinue ? { ...requestFrom(ui, 1), continue: true } : fresh();
        const total = (request.continue ? made : 0) + request.maxNewTokens;
        const onToken = (step) => {
          if (m !== model) return;
          made++;
          difference = step.difference === null ? difference : Math.max(difference, step.difference);
          sums = { cached: sums.cached + step.msCached, full: sums.full + (step.msFull ?? 0), count: sums.count + 1 };
          status.textContent = t('training.generate.running', { made, total });
          showStep(out, maps, ui, m, step, { difference, sums, display: display() });
        };
        // Training went on since the last token (the cache no longer fits the model): start again.
        const result = await m.generate(request, onToken).catch((err) => {
          if (request.continue && /no generation to continue/.test(err.message)) return m.generate(fresh(), onToken);
          throw err;
        });
        if (m !== model) return;
        canContinue = result.reason === 'done' || result.reason === 'cancelled';
        end(result.reason, made);
      } catch (err) {
        status.textContent = t('training.generate.failed', { reason: err.message.replace(/^\w+: /, '') });
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
      if (!self.running) return;
      stopped = true;
      model?.cancel();
    },
  };
  function end(reason, count) {
    root.dataset.reason = reason;
    status.textContent = t(ENDED[reason], { count });
  }
  function buttons() {
    ui.generate.disabled = !model || self.running;
    ui.step.disabled = !model || self.running;
    ui.stop.disabled = !self.running;
  }
  buttons();
  return self;
}

// A message naming the first field the run uses that holds no number (its own check refused what
// was typed), or '' when each holds one. Step makes one token whatever the count says, and greedy
// sampling uses no temperature.
function missingNumber(ui, stepOnly, t) {
  for (const [field, name, used] of [
    [ui.count, 'training.generate.count', !stepOnly],
    [ui.temperature, 'training.generate.temperature', !ui.greedy.checked],
    [ui.topK, 'training.generate.topK', true],
    [ui.seed, 'training.generate.seed', true],
  ]) {
    const typed = field.value.trim();
    if (used && (typed === '' || !Number.isFinite(Number(typed))))
      return t('training.generate.notNumber', { field: t(name), min: field.min, max: field.max });
  }
  return '';
}

// The request the fields make: each number as its field shows it (the fields clamp and round).
function requestFrom(ui, maxNewTokens) {
  const topK = Number(ui.topK.value);
  return {
    maxNewTokens,
    temperature: ui.greedy.checked ? 0 : Number(ui.temperature.value),
    topK: topK > 0 ? topK : null,
    seed: Number(ui.seed.value),
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
  out.cache.textContent = maps.i18n.t('training.generate.bytes', {
    bytes: step.cacheBytes,
    layers: c.numLayers,
    kvHeads: c.numKVHeads,
    headDim: c.dModel / c.numHeads,
    kept,
  });
  const ctx = {
    step,
    config: c,
    label: (p) => labels[p] ?? '',
    windowSize: c.attentionWindow ?? 0,
    positions: c.positions,
    mean: { cached: sums.cached / sums.count, full: sums.full / sums.count },
    count: sums.count,
    difference,
  };
  drawStats(out, maps, ctx);
  ctx.redraw = () => drawMaps(maps, ui, ctx, display);
  out.set(ctx);
  ctx.redraw();
}

function drawStats(out, { explain, i18n }, ctx) {
  const { t } = i18n;
  if (!out.statsBuilt) {
    out.statsBuilt = {
      bytes: explainedStat('gen-cache-bytes', () => explain.show(explainBytes(out.context(), i18n))),
      cached: explainedStat('gen-ms-cached', () => explain.show(explainTiming(out.context(), i18n))),
      full: explainedStat('gen-ms-full', () => explain.show(explainTiming(out.context(), i18n))),
      difference: explainedStat('gen-difference', () => explain.show(explainDifference(out.context(), i18n))),
    };
    out.statsBuilt.difference.dataset.cacheDifference = '';
    const s = out.statsBuilt;
    for (const [term, value] of [
      ['bytes', s.bytes],
      ['cached', s.cached],
      ['full', s.full],
      ['difference', s.difference],
    ]) {
      const dd = el('dd');
      dd.append(value);
      out.stats.append(el('dt', '', t(`training.generate.stat.${term}`)), dd);
    }
  }
  const s = out.statsBuilt;
  setStat(s.bytes, ctx.step.cacheBytes, t('training.generate.bytesValue', { bytes: ctx.step.cacheBytes }));
  // Means over the generation: one token of a tiny model takes less than the timer's resolution.
  const ms = (x) =>
    x > 0
      ? t('training.generate.ms', { ms: i18n.decimal(formatNumber(x, 3)) })
      : t('training.generate.underResolution');
  setStat(s.cached, ctx.mean.cached, ms(ctx.mean.cached));
  setStat(
    s.full,
    ctx.step.msFull === null ? '' : ctx.mean.full,
    ctx.step.msFull === null ? t('training.generate.notMeasured') : ms(ctx.mean.full),
  );
  setStat(
    s.difference,
    ctx.step.difference === null && ctx.count === 1 ? '' : ctx.difference,
    ctx.step.difference === null ? t('training.generate.notChecked') : i18n.decimal(formatNumber(ctx.difference, 3)),
  );
}

function drawMaps(maps, ui, ctx, display) {
  const { step, config } = ctx;
  const { t } = maps.i18n;
  maps.el.hidden = false;
  const [H, length] = step.attention.shape;
  const first = Math.max(0, length - SHOWN);
  ctx.first = first;
  const cols = Array.from({ length: length - first }, (_, j) => ctx.label(first + j));
  const attention = { data: new Float32Array(H * (length - first)), shape: [H, length - first] };
  for (let h = 0; h < H; h++)
    attention.data.set(step.attention.data.subarray(h * length + first, (h + 1) * length), h * (length - first));
  maps.titles.attention.textContent = t('training.generate.title.attention', {
    layer: step.layer + 1,
    token: ctx.label(step.tokens.length - 2),
  });
  const rowLabels = Array.from({ length: H }, (_, h) => t('training.generate.headRow', { n: h + 1 }));
  queueHeatmap(maps.attention, { tensor: attention, rowLabels, colLabels: cols, ...display });
  maps.note.textContent = length > SHOWN ? t('training.generate.shown', { shown: SHOWN, total: length }) : '';
  const head = Number(ui.head.value) || 0;
  const kvHead = Math.floor(head / (config.numHeads / config.numKVHeads));
  ctx.kvHead = kvHead;
  const [, kept, d] = step.cache.keys.shape;
  const firstSlot = Math.max(0, kept - SHOWN);
  ctx.firstSlot = firstSlot;
  ctx.cacheValue = (which, slot, x) => step.cache[which].data[(kvHead * kept + slot) * d + x];
  const rows = Array.from(
    { length: kept - firstSlot },
    (_, s) => `${firstSlot + s}:${ctx.label(step.cache.positions[firstSlot + s])}`,
  );
  const part = (which) => ({
    data: step.cache[which].data.slice((kvHead * kept + firstSlot) * d, (kvHead * kept + kept) * d),
    shape: [kept - firstSlot, d],
  });
  maps.titles.keys.textContent = t('training.generate.title.keys', { layer: step.layer + 1, kvHead: kvHead + 1 });
  maps.titles.values.textContent = t('training.generate.title.values', { layer: step.layer + 1, kvHead: kvHead + 1 });
  const colLabels = Array.from({ length: d }, (_, x) => String(x + 1));
  queueHeatmap(maps.keys, { tensor: part('keys'), rowLabels: rows, colLabels, ...display });
  queueHeatmap(maps.values, { tensor: part('values'), rowLabels: rows, colLabels, ...display });
}
