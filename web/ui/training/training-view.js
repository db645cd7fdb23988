// The "Train a tiny transformer" view: controls, loss curves and one card per head, composed
// around a Worker trainer (web/lib/trainer.js), so training never blocks the page. Progress
// messages update the test hooks every time, the charts at most every 250 ms (curves.js) and the
// cards' numbers and heatmaps at most every MAP_MS.
// Test hooks: the root is [data-training] with data-step and data-loss kept current;
// [data-action="train"] starts and [data-action="pause"] pauses; head cards: see head-cards.js.
import { createTrainer } from '../../lib/trainer.js';
import { el } from '../dom.js';
import { createTrainingControls } from './controls.js';
import { createHeadCards, heatmapDraws } from './head-cards.js';
import { createLossPanel } from './loss-panel.js';
import { HELD_OUT, TRAINED, normalizeSettings, settingsToParams, trainerConfig } from './config.js';
import { describeAblation } from './ablation.js';
import { createYourTextPanel } from './your-text.js';

const STYLES = new URL('./training.css', import.meta.url).href;
const MAP_MS = 500;
const GENERAL_MS = 1000;

/**
 * Token labels for the heatmaps: BOS and filler named, text characters made visible. Repeated
 * tokens stop before the filler (BOS and the two copies are what the heads work on).
 */
export function tokenLabels(tokens, vocabulary) {
  if (vocabulary) return tokens.map((t) => ({ ' ': '␣', '\n': '⏎' }[vocabulary[t]] ?? vocabulary[t]));
  const filler = tokens.indexOf(1);
  return tokens.slice(0, filler > 0 ? filler : tokens.length).map((t) => (t === 0 ? 'B' : String(t)));
}

/**
 * Mounts the view into `root`. options: settings (initial; see config.js), text (the text task's
 * text), theme ('auto' | 'light' | 'dark'), syncUrl (keep the address's #view=train… current),
 * onOpenHead({ layer, head, state, config, tokens, labels }) (hand a head to the explorer).
 * Resolves with { el, settings(), trainer(), destroy() }.
 */
export async function mountTraining(root, options = {}) {
  for (const placeholder of root.querySelectorAll(':scope > [data-placeholder]')) placeholder.remove();
  root.classList.add('ae-root', 'training-root');
  root.dataset.training = '';
  root.dataset.step = '0';
  root.dataset.loss = '';
  const link = el('link');
  link.rel = 'stylesheet';
  link.href = STYLES;
  const styled = new Promise((resolve) => { link.onload = resolve; link.onerror = resolve; });
  const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
  const theme = () => (options.theme && options.theme !== 'auto' ? options.theme : darkQuery.matches ? 'dark' : 'light');
  const applyTheme = () => { root.dataset.theme = theme(); };
  applyTheme();
  darkQuery.addEventListener('change', applyTheme);

  let settings = normalizeSettings(options.settings);
  let text = options.text ?? '';
  let trainer = null;
  let running = false;
  let destroyed = false;
  let generation = 0;  // bumps with each new trainer; stale replies are ignored
  let labels = [];
  let lastMap = 0;
  let lastGeneral = 0;
  let rateWindow = [];
  const ablated = new Set();

  const controls = createTrainingControls({
    onSettings: (s, t) => { settings = s; text = t; writeUrl(); rebuild(); },
    onAction: (name) => act(name).catch(showError),
  });
  const loss = createLossPanel();
  const cards = createHeadCards({
    onAblate: (l, h) => toggleAblation(l, h).catch(showError),
    onOpen: options.onOpenHead ? (l, h) => openHead(l, h).catch(showError) : null,
  });
  const yourText = createYourTextPanel({
    attend: (ids) => (trainer ? trainer.attend(ids) : Promise.reject(new Error('the model is still being built'))),
    display: () => display(),
  });
  const extras = el('div', 'training-extras');
  const layout = el('div', 'training-layout');
  const side = el('div', 'training-side');
  side.append(controls.el, loss.el);
  const main = el('div', 'training-main');
  main.append(cards.el, yourText.el);
  layout.append(side, main);
  root.append(link, layout, extras);
  await styled;

  function showError(err) {
    controls.setStatus(err.message.replace(/^trainer: /, ''), true);
  }

  function writeUrl() {
    if (!options.syncUrl) return;
    const url = new URL(window.location.href);
    url.hash = settingsToParams(settings).toString();
    window.history.replaceState(window.history.state, '', url.href);
  }

  const display = () => ({ palette: 'viridis', theme: theme() });

  // Main-thread time spent on progress messages (data-progress-ms: the last, data-progress-max-ms:
  // the longest once the first few have built the maps' tables).
  let progressMax = 0;
  let progressCount = 0;
  function onProgress(p, gen) {
    if (gen !== generation || destroyed) return;
    const t0 = performance.now();
    const maps0 = heatmapDraws();
    try {
      showProgress(p, gen);
    } finally {
      const ms = performance.now() - t0;
      if (++progressCount > 3) progressMax = Math.max(progressMax, ms);
      root.dataset.progressMs = ms.toFixed(2);
      root.dataset.progressMaxMs = progressMax.toFixed(2);
      // Heatmaps redrawn inside this handler (they are queued for the next frames instead).
      root.dataset.progressMaps = String(Math.max(Number(root.dataset.progressMaps ?? 0), heatmapDraws() - maps0));
      root.dataset.mapsDrawn = String(heatmapDraws());
    }
  }

  function showProgress(p, gen) {
    root.dataset.step = String(p.step);
    if (p.loss !== null) root.dataset.loss = String(p.loss);
    const now = performance.now();
    if (running || p.losses.length) rateWindow.push([now, p.step]);
    while (rateWindow.length > 2 && now - rateWindow[0][0] > 2000) rateWindow.shift();
    if (rateWindow.length > 1) {
      const [t0, s0] = rateWindow[0];
      loss.setRate(((p.step - s0) * 1000) / Math.max(1, now - t0));
    }
    if (!p.probe) return;
    if (!labels.length) labels = tokenLabels(p.probe.tokens, trainer?.vocabulary);
    const train = p.losses.length ? p.losses.reduce((a, b) => a + b, 0) / p.losses.length : NaN;
    loss.push(p.step, { train, repeated: p.probe.loss, all: p.probe.allTokensLoss });
    const draw = !running || now - lastMap > MAP_MS;
    if (draw) lastMap = now;
    cards.update(p.step, p.probe, labels, display(), { draw });
    // A status region (read out by screen readers): at the maps' pace, not 30 times a second.
    if (draw) yourText.refresh();
    if (draw && p.loss !== null) controls.setStatus(`Step ${p.step}: loss ${p.loss.toFixed(3)}${running ? '' : ' (paused)'}`);
    if (settings.task === 'repeated' && (!running || now - lastGeneral > GENERAL_MS)) {
      lastGeneral = now;
      generalise(gen).catch(() => {});
    }
  }

  async function generalise(gen) {
    const t = trainer;
    const [trained, heldOut] = [await t.evaluate({ repeatLengths: [...TRAINED] }), await t.evaluate({ repeatLengths: [...HELD_OUT] })];
    if (gen === generation && !destroyed) loss.setGeneralisation(trained, heldOut);
  }

  let building = null;
  async function rebuild() {
    const gen = ++generation;
    running = false;
    controls.setRunning(false, true);
    controls.setStatus('Building the model\u2026');
    const old = trainer;
    trainer = null;
    old?.terminate().catch(() => {});
    ablated.clear();
    labels = [];
    rateWindow = [];
    progressCount = 0;
    progressMax = 0;
    root.dataset.step = '0';
    root.dataset.loss = '';
    loss.setTask(settings.task);
    loss.reset();
    cards.build(settings.layers, settings.heads);
    yourText.setModel(null);
    const task = (async () => {
      const t = await createTrainer(trainerConfig(settings, text || undefined));
      if (gen !== generation || destroyed) {
        t.terminate().catch(() => {});
        return;
      }
      trainer = t;
      t.onProgress = (p) => onProgress(p, gen);
      t.onStopped = () => { if (gen === generation) setRunning(false); };
      t.onError = (err) => { if (gen === generation) { setRunning(false); showError(err); } };
      controls.setRunning(false);
      controls.setStatus(`${t.parameterCount.toLocaleString('en')} parameters. Press Train.`);
      yourText.setModel(t.vocabulary ? { vocabulary: t.vocabulary, contextLength: t.config.model.contextLength, layers: settings.layers, heads: settings.heads } : null);
      onProgress({ step: 0, loss: null, losses: [], probe: await t.probe() }, gen);
    })();
    building = task;
    try {
      await task;
    } catch (err) {
      if (gen === generation) {
        controls.setRunning(false);
        showError(err);
      }
    }
  }

  function setRunning(on) {
    running = on;
    root.dataset.running = String(on);
    controls.setRunning(on);
  }

  async function act(name) {
    await building;
    if (!trainer) return;
    if (name === 'train') {
      setRunning(true);
      rateWindow = [];
      await trainer.start();
    } else if (name === 'pause') {
      // data-running turns false once the Worker has stopped: its last progress comes before the reply.
      controls.setRunning(false, true);
      running = false;
      await trainer.pause();
      setRunning(false);
    } else if (name === 'step') {
      await trainer.step(1);
    } else if (name === 'reset') {
      setRunning(false);
      await rebuild();
    }
  }

  async function toggleAblation(layer, head) {
    await building;
    if (!trainer) return;
    const key = `${layer},${head}`;
    if (ablated.has(key)) ablated.delete(key);
    else ablated.add(key);
    const list = [...ablated].map((k) => { const [l, h] = k.split(',').map(Number); return { layer: l, head: h }; });
    const base = await trainer.evaluate({});
    const without = list.length ? await trainer.evaluate({ ablate: list }) : base;
    for (const card of cards.all()) card.setAblated(false);
    const text = list.length ? describeAblation(base, without, list) : '';
    for (const { layer: l, head: h } of list) cards.card(l, h)?.setAblated(true, l === layer && h === head ? text : '');
    if (list.length && !ablated.has(key)) cards.card(list[0].layer, list[0].head)?.setAblated(true, text);
  }

  async function openHead(layer, head) {
    if (!options.onOpenHead) return;
    await building;
    if (!trainer) return;
    if (running) await act('pause');
    const state = await trainer.getState();
    const probe = await trainer.probe();
    const shown = tokenLabels(probe.tokens, trainer.vocabulary);
    options.onOpenHead({ layer, head, state, config: trainer.config.model, tokens: probe.tokens.slice(0, shown.length), labels: shown });
  }

  controls.set(settings, text);
  await rebuild();
  root.dataset.ready = 'true';
  root.setAttribute('aria-busy', 'false');

  return {
    el: root,
    extras,
    settings: () => ({ ...settings }),
    step: () => Number(root.dataset.step),
    start: () => act('train'),
    pause: () => act('pause'),
    trainer: () => trainer,
    /** The new model's promise after a settings change. */
    built: () => building,
    /** Loads trained parameters into the current model and shows them (a trained example). */
    async load(state, { step = 0 } = {}) {
      await building;
      await trainer.load(state, { step });
      rateWindow = [];
      onProgress({ step, loss: null, losses: [], probe: await trainer.probe() }, generation);
      controls.setStatus(`Step ${step}: trained parameters loaded. Train continues from them.`);
    },
    async apply(nextSettings, nextText = '') {
      settings = normalizeSettings(nextSettings);
      text = nextText;
      controls.set(settings, text);
      writeUrl();
      await rebuild();
    },
    destroy() {
      destroyed = true;
      generation++;
      darkQuery.removeEventListener('change', applyTheme);
      trainer?.terminate().catch(() => {});
      trainer = null;
      root.replaceChildren();
      root.classList.remove('ae-root', 'training-root');
      for (const key of ['training', 'step', 'loss', 'ready', 'theme', 'running']) delete root.dataset[key];
    },
  };
}
