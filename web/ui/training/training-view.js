// The "Train a tiny transformer" view: controls, loss curves and one card per head, composed
// around a Worker trainer (web/lib/trainer.js), so training never blocks the page. Progress
// messages update the test hooks every time, the charts at most every 250 ms (curves.js) and the
// cards' numbers and heatmaps at most every MAP_MS.
// Test hooks: the root is [data-training] with data-step and data-loss kept current;
// [data-action="train"] starts and [data-action="pause"] pauses; head cards: see head-cards.js.
import { createTrainer } from '../../lib/trainer.js';
import { el, instrumented, mapDrawCount } from '../dom/dom.js';
import { english } from '../model/model.js';
import { createTrainingControls } from './controls.js';
import { createHeadCards } from './head-cards.js';
import { createLossPanel } from './loss-panel.js';
import { HELD_OUT, TRAINED, normalizeSettings, settingsToParams, trainerConfig } from './config.js';
import { describeAblation } from './ablation.js';
import { createYourTextPanel } from './your-text.js';
import { createGeneratePanel } from './generate-panel.js';
import { trainerGenerator } from './generate-models.js';
import { onCheckpointChange } from '../checkpoint/checkpoint.js';
import { replayHistory } from './history.js';

const STYLES = new URL('./training.css', import.meta.url).href;
const MAP_MS = 500;
const GENERAL_MS = 1000;

/**
 * Token labels for the heatmaps: BOS and filler named, text characters made visible. Repeated
 * tokens stop before the filler (BOS and the two copies are what the heads work on).
 */
function vocabularyLabels(tokens, vocabulary) {
  if (vocabulary) return tokens.map((t) => ({ ' ': '␣', '\n': '⏎' })[vocabulary[t]] ?? vocabulary[t]);
  const filler = tokens.indexOf(1);
  return tokens.slice(0, filler > 0 ? filler : tokens.length).map((t) => (t === 0 ? 'B' : String(t)));
}

// Marks `root` as the training view (its test hooks at their start values) and keeps its theme:
// options.theme, or the system's while it is 'auto'. The stylesheet link is for the caller
// to append; `styled` resolves once it has loaded (or failed to).
function prepareRoot(root, options) {
  for (const placeholder of root.querySelectorAll(':scope > [data-placeholder]')) placeholder.remove();
  root.classList.add('ae-root', 'training-root');
  root.dataset.training = '';
  root.dataset.step = '0';
  root.dataset.loss = '';
  const link = el('link');
  link.rel = 'stylesheet';
  link.href = STYLES;
  const styled = new Promise((resolve) => {
    link.onload = resolve;
    link.onerror = resolve;
  });
  const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
  const theme = () =>
    options.theme && options.theme !== 'auto' ? options.theme : darkQuery.matches ? 'dark' : 'light';
  const applyTheme = () => {
    root.dataset.theme = theme();
  };
  applyTheme();
  darkQuery.addEventListener('change', applyTheme);
  return { link, styled, theme, stopTheme: () => darkQuery.removeEventListener('change', applyTheme) };
}

// Controls and losses at the side, head cards and the text panel in the main column; returns the
// container for extra panels the page adds below.
function layoutPanels(root, link, { controls, loss, cards, yourText, generate }) {
  const extras = el('div', 'training-extras');
  const layout = el('div', 'training-layout');
  const side = el('div', 'training-side');
  side.append(controls.el, loss.el);
  const main = el('div', 'training-main');
  main.append(cards.el, yourText.el, generate.el);
  layout.append(side, main);
  root.append(link, layout, extras);
  return extras;
}

// Training speed in steps per second, over the progress of the last two seconds.
function createRateMeter() {
  let recent = [];
  return {
    reset() {
      recent = [];
    },
    /** Records a step when `counting`; the rate, or null until two steps are recorded. */
    update(now, step, counting) {
      if (counting) recent.push([now, step]);
      while (recent.length > 2 && now - recent[0][0] > 2000) recent.shift();
      if (recent.length < 2) return null;
      const [t0, s0] = recent[0];
      return ((step - s0) * 1000) / Math.max(1, now - t0);
    },
  };
}

// Main-thread time spent on progress messages (data-progress-ms: the last, data-progress-max-ms:
// the longest once the first few have built the maps' tables), on an instrumented page only
// (dom/instrument.js). Heatmaps are queued and drawn a few per frame (dom/frames.js), so none
// should be drawn inside a handler: data-progress-maps counts the most that were.
function createProgressTiming(root) {
  if (!instrumented()) return { reset() {}, measure: (handle) => handle() };
  let max = 0;
  let count = 0;
  return {
    reset() {
      max = 0;
      count = 0;
    },
    measure(handle) {
      const t0 = performance.now();
      const maps0 = mapDrawCount();
      try {
        handle();
      } finally {
        const ms = performance.now() - t0;
        if (++count > 3) max = Math.max(max, ms);
        root.dataset.progressMs = ms.toFixed(2);
        root.dataset.progressMaxMs = max.toFixed(2);
        root.dataset.progressMaps = String(Math.max(Number(root.dataset.progressMaps ?? 0), mapDrawCount() - maps0));
        root.dataset.mapsDrawn = String(mapDrawCount());
      }
    },
  };
}

/**
 * Mounts the view into `root`. options: settings (initial; see config.js), text (the text task's
 * text), theme ('auto' | 'light' | 'dark'), syncUrl (keep the address's #view=train… current),
 * onOpenHead({ layer, head, state, config, tokens, labels }) (hand a head to the explorer), i18n (a
 * translator, default English; every panel gets it), checkpointGenerator (checkpoint/panels.js's:
 * the Generate panel's model of an opened checkpoint; none without it).
 * Resolves with { el, settings(), trainer(), destroy() }.
 */
export async function mountTraining(root, options = {}) {
  const view = new TrainingView(root, options);
  await view.styled;
  view.controls.set(view.settings, view.text);
  await view.rebuild();
  root.dataset.ready = 'true';
  root.setAttribute('aria-busy', 'false');
  return view.handle();
}

// The view's panels and its run: one trainer at a time, built anew when the settings change,
// its progress shown in the panels.
class TrainingView {
  constructor(root, options) {
    const { link, styled, theme, stopTheme } = prepareRoot(root, options);
    const i18n = options.i18n ?? english;
    Object.assign(this, { root, options, styled, theme, stopTheme, i18n });
    this.settings = normalizeSettings(options.settings);
    this.text = options.text ?? '';
    this.trainer = null;
    this.building = null; // the current model's promise
    this.running = false;
    this.destroyed = false;
    this.generation = 0; // bumps with each new trainer; stale replies are ignored
    this.labels = [];
    this.lastMap = 0;
    this.lastGeneral = 0;
    this.rate = createRateMeter();
    this.timing = createProgressTiming(root);
    this.ablated = new Set();
    this.controls = createTrainingControls({
      onSettings: (s, t) => {
        this.settings = s;
        this.text = t;
        this.writeUrl();
        this.rebuild();
      },
      onAction: (name) => this.act(name).catch((err) => this.showError(err)),
      i18n,
    });
    this.loss = createLossPanel({ i18n });
    this.cards = createHeadCards({
      onAblate: (l, h) => this.toggleAblation(l, h).catch((err) => this.showError(err)),
      onOpen: options.onOpenHead ? (l, h) => this.openHead(l, h).catch((err) => this.showError(err)) : null,
      i18n,
    });
    this.yourText = createYourTextPanel({
      attend: (ids) =>
        this.trainer ? this.trainer.attend(ids) : Promise.reject(new Error(i18n.t('training.yourText.building'))),
      display: () => this.display(),
      i18n,
    });
    this.generate = createGeneratePanel({ display: () => this.display(), i18n });
    // The open checkpoint's model (checkpoint/generator.js, loaded with the checkpoint panels).
    const generator = options.checkpointGenerator ?? (() => null);
    this.generate.setCheckpoint(generator(i18n));
    this.stopCheckpoint = onCheckpointChange(() => this.generate.setCheckpoint(generator(i18n)));
    this.extras = layoutPanels(root, link, this);
  }

  /** What the page's handle offers; the view's own state stays inside. */
  handle() {
    return {
      el: this.root,
      extras: this.extras,
      settings: () => ({ ...this.settings }),
      step: () => Number(this.root.dataset.step),
      start: () => this.act('train').catch((err) => this.showError(err)),
      pause: () => this.act('pause'),
      trainer: () => this.trainer,
      /** The new model's promise after a settings change. */
      built: () => this.building,
      /** Loads trained parameters and shows them (a trained example): at = { step, example, history }. */
      load: (state, at) => this.load(state, at),
      apply: (nextSettings, nextText) => this.apply(nextSettings, nextText),
      destroy: () => this.destroy(),
    };
  }

  // The trainer's errors are its API's, in English: the learner reads them inside a sentence.
  showError(err) {
    this.controls.setStatus(
      this.i18n.t('training.status.error', { reason: err.message.replace(/^trainer: /, '') }),
      true,
    );
  }

  writeUrl() {
    if (!this.options.syncUrl) return;
    const url = new URL(window.location.href);
    // The page's language stays in the address with the settings.
    const lang = new URLSearchParams(url.hash.replace(/^#/, '')).get('lang');
    url.hash = settingsToParams(this.settings, lang ? { lang } : {}).toString();
    window.history.replaceState(window.history.state, '', url.href);
  }

  display() {
    return { palette: 'viridis', theme: this.theme() };
  }

  onProgress(p, gen) {
    if (gen !== this.generation || this.destroyed) return;
    this.timing.measure(() => this.showProgress(p, gen));
  }

  showProgress(p, gen) {
    const { root, loss, cards, controls, running } = this;
    root.dataset.step = String(p.step);
    if (p.loss !== null) root.dataset.loss = String(p.loss);
    const now = performance.now();
    const stepsPerSecond = this.rate.update(now, p.step, running || p.losses.length > 0);
    if (stepsPerSecond !== null) loss.setRate(stepsPerSecond);
    if (!p.probe) return;
    if (!this.labels.length) this.labels = vocabularyLabels(p.probe.tokens, this.trainer?.vocabulary);
    const train = p.losses.length ? p.losses.reduce((a, b) => a + b, 0) / p.losses.length : NaN;
    loss.push(p.step, { train, repeated: p.probe.loss, all: p.probe.allTokensLoss });
    const draw = !running || now - this.lastMap > MAP_MS;
    if (draw) this.lastMap = now;
    cards.update(p.step, p.probe, this.labels, this.display(), { draw });
    // A status region (read out by screen readers): at the maps' pace, not 30 times a second.
    if (draw) this.yourText.refresh();
    if (draw && p.loss !== null) {
      controls.setStatus(
        this.i18n.t(running ? 'training.status.step' : 'training.status.stepPaused', {
          step: p.step,
          loss: this.i18n.decimal(p.loss.toFixed(3)),
        }),
      );
    }
    if (this.settings.task === 'repeated' && (!running || now - this.lastGeneral > GENERAL_MS)) {
      this.lastGeneral = now;
      this.generalise(gen).catch(() => {});
    }
  }

  async generalise(gen) {
    const t = this.trainer;
    const [trained, heldOut] = [
      await t.evaluate({ repeatLengths: [...TRAINED] }),
      await t.evaluate({ repeatLengths: [...HELD_OUT] }),
    ];
    if (gen === this.generation && !this.destroyed) this.loss.setGeneralisation(trained, heldOut);
  }

  async rebuild() {
    const gen = ++this.generation;
    const { root, controls, loss, settings } = this;
    this.running = false;
    controls.setRunning(false, true);
    controls.setStatus(this.i18n.t('training.status.building'));
    const old = this.trainer;
    this.trainer = null;
    old?.terminate().catch(() => {});
    this.ablated.clear();
    this.loaded = null;
    this.labels = [];
    this.rate.reset();
    this.timing.reset();
    root.dataset.step = '0';
    root.dataset.loss = '';
    loss.setTask(settings.task);
    loss.reset();
    this.cards.build(settings.layers, settings.heads);
    this.yourText.setModel(null);
    this.generate.setModel(null);
    const task = this.#build(gen);
    this.building = task;
    try {
      await task;
    } catch (err) {
      if (gen === this.generation) {
        controls.setRunning(false);
        this.showError(err);
      }
    }
  }

  // Creates the trainer of generation `gen` (dropped when a newer one was asked for meanwhile).
  async #build(gen) {
    const controls = this.controls;
    const t = await createTrainer(trainerConfig(this.settings, this.text || undefined));
    if (gen !== this.generation || this.destroyed) {
      t.terminate().catch(() => {});
      return;
    }
    this.trainer = t;
    t.onProgress = (p) => this.onProgress(p, gen);
    t.onStopped = () => {
      if (gen === this.generation) this.setRunning(false);
    };
    t.onError = (err) => {
      if (gen === this.generation) {
        this.setRunning(false);
        this.showError(err);
      }
    };
    controls.setRunning(false);
    this.loss.setVocabulary(t.vocabulary?.length ?? t.config.model.vocabSize);
    // Where no Worker can start (an opaque-origin frame whose CSP refuses data: Workers) the trainer runs here.
    this.root.dataset.trainerMode = t.mode;
    const i18n = this.i18n;
    const parameters = t.parameterCount.toLocaleString(i18n.lang === 'qps' ? 'en' : i18n.lang);
    controls.setStatus(
      i18n.t(t.mode === 'main-thread' ? 'training.status.readyMainThread' : 'training.status.ready', { parameters }),
    );
    const { layers, heads } = this.settings;
    this.yourText.setModel(
      t.vocabulary ? { vocabulary: t.vocabulary, contextLength: t.config.model.contextLength, layers, heads } : null,
    );
    // Generation reads the model as it is: training pauses first (a step would change it under the cache).
    this.generate.setModel(
      trainerGenerator(t, { prepare: () => (this.running ? this.act('pause') : Promise.resolve()), i18n }),
    );
    this.onProgress({ step: 0, loss: null, losses: [], probe: await t.probe() }, gen);
  }

  setRunning(on) {
    this.running = on;
    this.root.dataset.running = String(on);
    this.controls.setRunning(on);
  }

  async act(name) {
    await this.building;
    const trainer = this.trainer;
    if (!trainer) return;
    if (name === 'train' || name === 'step') this.trainedSinceLoad = true;
    if (name === 'train') {
      this.setRunning(true);
      this.rate.reset();
      // Resolves when the run ends; a trainer replaced meanwhile (new settings) was terminated.
      await trainer.start().catch((err) => {
        if (trainer === this.trainer) throw err;
      });
    } else if (name === 'pause') {
      // data-running turns false once the Worker has stopped: its last progress comes before the reply.
      this.controls.setRunning(false, true);
      this.running = false;
      await trainer.pause();
      this.setRunning(false);
    } else if (name === 'step') {
      await trainer.step(1);
    } else if (name === 'reset') {
      this.setRunning(false);
      await this.rebuild();
    }
  }

  async toggleAblation(layer, head) {
    await this.building;
    const { ablated, cards } = this;
    if (!this.trainer) return;
    const key = `${layer},${head}`;
    if (ablated.has(key)) ablated.delete(key);
    else ablated.add(key);
    const list = [...ablated].map((k) => {
      const [l, h] = k.split(',').map(Number);
      return { layer: l, head: h };
    });
    const base = await this.trainer.evaluate({});
    const without = list.length ? await this.trainer.evaluate({ ablate: list }) : base;
    for (const card of cards.all()) card.setAblated(false);
    const text = list.length ? describeAblation(base, without, list, this.i18n) : '';
    for (const { layer: l, head: h } of list) cards.card(l, h)?.setAblated(true, l === layer && h === head ? text : '');
    if (list.length && !ablated.has(key)) cards.card(list[0].layer, list[0].head)?.setAblated(true, text);
  }

  async openHead(layer, head) {
    if (!this.options.onOpenHead) return;
    await this.building;
    if (!this.trainer) return;
    if (this.running) await this.act('pause');
    const state = await this.trainer.getState();
    const probe = await this.trainer.probe();
    const shown = vocabularyLabels(probe.tokens, this.trainer.vocabulary);
    const step = Number(this.root.dataset.step);
    // The head says what it is: a trained example only while its weights are the file's.
    const example = this.loaded?.step === step && !this.trainedSinceLoad ? this.loaded.example : null;
    this.options.onOpenHead({
      layer,
      head,
      state,
      config: this.trainer.config.model,
      tokens: probe.tokens.slice(0, shown.length),
      labels: shown,
      task: this.settings.task,
      step,
      example,
    });
  }

  async load(state, { step = 0, example = null, history = null } = {}) {
    await this.building;
    await this.trainer.load(state, { step });
    this.loaded = { step, example };
    this.trainedSinceLoad = false;
    this.rate.reset();
    if (history) replayHistory(this, history); // the run's curves, not a line from step 0
    this.onProgress({ step, loss: null, losses: [], probe: await this.trainer.probe() }, this.generation);
    this.controls.setStatus(this.i18n.t('training.status.loaded', { step }));
  }

  async apply(nextSettings, nextText = '') {
    this.settings = normalizeSettings(nextSettings);
    this.text = nextText;
    this.controls.set(this.settings, this.text);
    this.writeUrl();
    await this.rebuild();
  }

  destroy() {
    const root = this.root;
    this.destroyed = true;
    this.generation++;
    this.stopTheme();
    this.stopCheckpoint();
    this.trainer?.terminate().catch(() => {});
    this.trainer = null;
    root.replaceChildren();
    root.classList.remove('ae-root', 'training-root');
    for (const key of ['training', 'step', 'loss', 'ready', 'theme', 'running', 'trainerMode'])
      delete root.dataset[key];
  }
}
