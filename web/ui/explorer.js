// The explorer as a component: mountExplorer(root, options) builds every panel inside `root`,
// redraws them from one state object whenever it changes (at most once per animation frame), and
// hands back a small handle to read, replace and watch that state. Nothing here reaches outside
// `root` unless asked to (options.documentTheme, options.toolbarHost), so several explorers can
// live in one page, in a shadow root, or in an iframe. The panels are their own modules; this
// file composes them: the first example, the store, the panels, their layout, the redraw, the
// address bar and the handle.
import { createAttention } from '../lib/attention.js';
import { createAgreementCheck } from './agreement-check.js';
import { createBiasCard } from './bias-matrix.js';
import {
  controlGroups,
  controlLevel,
  createComputer,
  createHighlighter,
  createStore,
  encodeState,
  initialState,
  lessonSpec,
  lessonTitle,
  linkFor,
  loadEnglishParts,
  loadTrainedSources,
  makeEmbedder,
  makeFiller,
  NO_PAGE_MESSAGE,
  packageUrls,
  PIPELINE_STEPS,
  preloadLinkCodec,
  presetById,
  randomMatrices,
  setCell,
  setLesson,
  setSentence,
  stateFromHash,
  toggleCustom,
  trackOrigins,
  trainedSources,
  unknownLessonMessage,
  usesTrainedSource,
  validateState,
} from './model/model.js';
import { createControls, createDisplayControls } from './controls.js';
import { createExplainPanel, loadedExplainers, loadExplainers } from './explain/explain.js';
import { createExportControls } from './export/export.js';
import { createHeadsPanel } from './heads-panel.js';
import { createInputsPanel } from './inputs-panel.js';
import { createLessons, prepareLesson } from './lessons/index.js';
import {
  browserIdle,
  createNotice,
  el,
  instrumented,
  isCovered,
  markLanguage,
  setAttr,
  widgetTranslator,
} from './dom/dom.js';
import { createPipeline } from './pipeline.js';
import { createRedraw } from './redraw.js';
import { scopeIds } from './scope-ids.js';
import { createShareControls } from './share.js';
import { createStartHere } from './start-here.js';
import { createUrlSync } from './url-sync.js';
import { createWarmUp, kindOf } from './warm-up.js';

export { DEFAULT_PRESET } from './model/model.js';
/** Panels a host can pick with options.panels (default: all of them). */
const PANEL_IDS = ['display', 'share', 'export', 'controls', 'inputs', 'pipeline', 'heads', 'lessons', 'explain'];
// null when a bundler moved this module away from the page and the element (package-urls.js).
const { page: STANDALONE_PAGE, embed: EMBED_PAGE, element: ELEMENT_MODULE } = packageUrls(import.meta.url);

// One WebAssembly instance per page, shared by every explorer in it (each keeps its own layers).
let sharedAttention = null;
function attentionCore() {
  sharedAttention ??= createAttention({ simd: 'auto' }).catch((err) => {
    sharedAttention = null;
    throw err;
  });
  return sharedAttention;
}

// The "Loading…" line, which later shows a fatal error; its id is scoped like the rest.
function createStatus(root, options, { t }) {
  const status = el('p', 'status', t('explorer.status.loading'));
  status.id = 'status';
  status.setAttribute('role', 'status');
  const box = el('div');
  box.append(status);
  const prefix = scopeIds(box, root.getRootNode(), options.idPrefix);
  root.append(status);
  return {
    el: status,
    prefix,
    fatal(message) {
      status.textContent = message;
      status.classList.add('error');
      status.hidden = false;
      root.setAttribute('aria-busy', 'false');
    },
  };
}

// The example's controls: presets, sizes, masks, and "new random numbers".
function controlsFor(ex) {
  const { attn, store } = ex;
  return createControls({
    update: (fn) => store.update(fn),
    i18n: ex.i18n,
    groups: ex.groups,
    applyPreset: (id) => ex.loadPreset(id),
    randomize(seed) {
      const s = store.get();
      const next = seed ?? (s.seed + 1) % 0x100000000;
      store.set({ ...s, seed: next, headNames: [], matrices: { ...s.matrices, ...randomMatrices(attn, s, next) } });
    },
  });
}

// What a matrix editor may do (the inputs' and the bias card's alike): edit and reset a matrix
// unless it is read-only, and explain a cell.
function matrixEditing(ex) {
  const { store, isReadOnly, origins } = ex;
  return {
    onEdit: (name, i, j, v) => {
      if (!isReadOnly(name)) store.update((s) => setCell(s, name, i, j, v), { source: 'edit' });
    },
    onReset: (name) => {
      if (!isReadOnly(name)) origins.reset(name);
    },
    canReset: (name) => !isReadOnly(name) && origins.edited(name),
    onInspect: (t) => ex.inspect(t),
  };
}

// The inputs: the matrices (only a step lesson's own), the sentence and the positions.
function inputsFor(ex) {
  const { store, spec } = ex;
  return createInputsPanel({
    i18n: ex.i18n,
    ...matrixEditing(ex),
    onSentence(text) {
      const next = setSentence(store.get(), text);
      if (next) store.set(next);
      return Boolean(next);
    },
    onPositional: (kind) => store.update((s) => ({ ...s, positional: kind })),
    only: spec?.kind === 'step' ? spec.inputs : null,
  });
}

// The steps of the computation (only a step lesson's own), with the bias card among them.
function pipelineFor(ex, biasCard) {
  const { store, spec, i18n } = ex;
  return createPipeline({
    biasCard,
    i18n,
    ...(spec?.kind === 'step' ? { only: spec.steps, title: lessonTitle(spec.id, i18n) } : {}),
    onInspect: (t) => ex.inspect(t),
    onToggleMask: (i, j) => {
      if (store.get().mask.kind === 'custom') store.update((s) => toggleCustom(s, i, j));
    },
  });
}

// Every panel, wired to the store. `ex` is the explorer's shared context (see mountExplorer).
function createPanels(ex) {
  const { attn, store, spec, i18n } = ex;
  const update = (fn) => store.update(fn);
  const controls = controlsFor(ex);
  const inputs = inputsFor(ex);
  const biasCard = createBiasCard({ i18n, ...matrixEditing(ex) });
  const pipeline = pipelineFor(ex, biasCard);
  const check = createAgreementCheck(i18n);
  if (!spec) pipeline.el.append(check.el);
  const heads = createHeadsPanel({
    i18n,
    onInspect: (t) => ex.inspect(t),
    onSelectHead: (k) => update((s) => ({ ...s, view: { ...s.view, head: k } })),
    only: spec?.kind === 'heads' ? spec.cards : null,
  });
  // A lesson's own controls may change the example: with read-only matrices they may not edit them.
  const lessons = createLessons({
    attn,
    computer: ex.computer,
    update: ex.guardedUpdate,
    only: spec?.kind === 'tab' ? spec.id : null,
    i18n: ex.i18n,
  });
  const share = createShareControls({
    getState: () => store.get(),
    linkBase: ex.linkBase,
    elementUrl: ELEMENT_MODULE,
    embedUrl: EMBED_PAGE,
    i18n,
  });
  const exporter = createExportControls({
    getView: () => ex.view(),
    i18n,
    idPrefix: () => ex.root.dataset.idPrefix ?? '',
  });
  const explainPanel = createExplainPanel(i18n);
  return {
    controls,
    inputs,
    pipeline,
    check,
    heads,
    lessons,
    share,
    exporter,
    biasCard,
    explainPanel,
    displayControls: createDisplayControls({ update, i18n }),
    startHere: ex.options.startHere && !spec ? startHereFor(ex, { inputs, pipeline, explainPanel }) : null,
  };
}

// "Start here" and what its three buttons do.
function startHereFor(ex, { inputs, pipeline, explainPanel }) {
  return createStartHere(
    {
      sentence() {
        const field =
          ex.store.get().mode === 'sentence'
            ? inputs.sentence.querySelector('input')
            : inputs.editors.Q.el.querySelector('.cell-input');
        field?.scrollIntoView({ block: 'center' });
        field?.focus();
      },
      weight() {
        explainPanel.setOpen(true);
        pipeline.maps.weights.el.scrollIntoView({ block: 'center' });
        pipeline.maps.weights.focusCell(0, 0);
      },
      mask() {
        const on = ex.store.get().mask.kind !== 'causal';
        ex.store.update((s) => ({ ...s, mask: { ...s.mask, kind: on ? 'causal' : 'none' } }));
        return on;
      },
    },
    ex.i18n,
  );
}

// Panels in page order, each { id, el, render(state, result, display) }; a panel that is not
// shown is neither attached nor drawn.
const viewsOf = (p, shown) =>
  [
    { id: 'inputs', el: p.inputs.el, render: (state, result, display) => p.inputs.render(state, result, display) },
    {
      id: 'pipeline',
      el: p.pipeline.el,
      render: (state, result, display) => {
        p.pipeline.render(state, result, display);
        p.check.render(state, result);
      },
    },
    { id: 'heads', el: p.heads.el, render: (state, result, display) => p.heads.render(state, result, display) },
    { id: 'lessons', el: p.lessons.el, render: (state, result, display) => p.lessons.render(state, result, display) },
  ].filter((v) => shown.has(v.id));

// Several explorers on one page: each one's landmarks (Controls, Inputs, …) carry its name too,
// so a screen reader's landmark list tells them apart.
function nameLandmarks(layout, label) {
  const name = el('span', 'visually-hidden', `, ${label}`);
  name.id = 'explorer-label';
  layout.append(name);
  for (const landmark of layout.querySelectorAll('section, aside')) {
    const by = landmark.getAttribute('aria-labelledby');
    if (by) landmark.setAttribute('aria-labelledby', `${by} ${name.id}`);
    else if (landmark.hasAttribute('aria-label'))
      landmark.setAttribute('aria-label', `${landmark.getAttribute('aria-label')}, ${label}`);
  }
}

// The toolbar and the layout built from the panels: the controls beside the content on wide
// screens (above it otherwise, and always above a single lesson's few), the explanation docked
// beside the content on wide screens (at the bottom of the screen, folded, on narrow ones).
function assemble(p, views, shown, options, spec) {
  const toolbar = el('div', 'explorer-toolbar');
  if (shown.has('display')) toolbar.append(p.displayControls.el);
  if (shown.has('share')) toolbar.append(p.share.el);
  if (shown.has('export')) toolbar.append(p.exporter.el);
  const layout = el('div', 'layout');
  if (spec) layout.classList.add('single-lesson', `lesson-kind-${spec.kind}`);
  const content = el('div', 'content');
  // Every lesson shown alone is #lesson-panel-ID (a lesson tab's is its own panel).
  if (spec && spec.kind !== 'tab') content.id = `lesson-panel-${spec.id}`;
  if (spec && spec.kind !== 'tab' && p.question) content.append(p.question.el);
  // The whole explorer leads with the sentence and the steps (the attention weights in the first
  // screen), then the matrices they come from.
  const first = spec || !shown.has('pipeline') ? [] : ['pipeline'];
  if (first.length && shown.has('inputs')) content.append(p.inputs.sentence);
  content.append(
    ...[...views.filter((v) => first.includes(v.id)), ...views.filter((v) => !first.includes(v.id))].map((v) => v.el),
  );
  if (shown.has('controls')) layout.append(p.controls.el);
  else layout.classList.add('no-controls');
  // "Start here": above the content on narrow screens, at the top of the explanation's column on wide ones.
  if (p.startHere) {
    layout.append(p.startHere.el);
    layout.classList.add('with-start');
  }
  layout.append(content);
  if (shown.has('explain')) {
    layout.append(p.explainPanel.el);
    layout.classList.add('with-explain');
  }
  if (options.label) nameLandmarks(layout, options.label);
  return { toolbar, layout };
}

// One drawing of everything from state `s`.
function drawState(ex, s) {
  const theme = ex.resolveTheme(s.display.theme);
  setAttr(ex.root, 'data-theme', theme);
  if (ex.options.toolbarHost) setAttr(ex.options.toolbarHost, 'data-theme', theme);
  if (ex.options.documentTheme) setAttr(document.documentElement, 'data-theme', theme);
  const display = { palette: s.display.palette, theme };
  ex.result = ex.computer.compute(s);
  ex.panels.controls.render(s, ex.result);
  ex.panels.displayControls.render(s);
  ex.panels.exporter.render();
  ex.panels.startHere?.render(s);
  for (const v of ex.views) v.render(s, ex.result, display);
  ex.question?.render(s, ex.result);
  if (ex.readOnly === true || ex.readOnly.size) applyReadOnly(ex);
  ex.showExplanation(s);
}

// One drawing of the current state; returns its cost in ms (a warm-up after it not counted) and
// whether it drew a new kind or size of page.
function draw(ex) {
  const t0 = performance.now();
  const s = ex.store.get();
  if (usesTrainedSource(s) && !trainedSources()) return drawWhenLoaded(ex);
  drawState(ex, s);
  const ms = performance.now() - t0;
  const kind = kindOf(s);
  ex.warmUp(s, kind);
  const rebuilt = kind !== ex.kind;
  ex.kind = kind;
  ex.renders += 1;
  ex.root.dataset.renders = String(ex.renders);
  if (instrumented()) setAttr(ex.root, 'data-render-ms', ms.toFixed(2)); // (two redraws can take the same time)
  return { ms, rebuilt };
}

// A state whose token vectors come from a trained source, given after the first drawing (a host's
// setState) before that source's code has loaded: drawn once it is here; a failed load is said in
// the notice and tried again with the next change. (Such a first example loads it before drawing.)
function drawWhenLoaded(ex) {
  loadTrainedSources().then(
    () => {
      if (!ex.destroyed) ex.redraw.schedule();
    },
    (err) => {
      if (!ex.destroyed) ex.notice.show(ex.i18n.t('explorer.status.drawFailed', { reason: err.message }));
    },
  );
  return { ms: 0, rebuilt: true }; // (nothing drawn: it neither starts nor ends typing's debounce)
}

function applyReadOnly(ex) {
  const editors = { ...ex.panels.inputs.editors, B: ex.panels.biasCard.editor };
  for (const [name, editor] of Object.entries(editors)) {
    if (!ex.isReadOnly(name)) continue;
    editor.setReadOnly(true);
  }
}

/**
 * Mounts an explorer into `root` and resolves once it has drawn.
 *
 * options.state          initial state (any part; checked, then repaired by reconcile) — wins over preset
 * options.link           initial state as link text ("v1.…", from encodeState) — wins over state
 * options.preset         preset id for the initial example (default 'lesson')
 * options.syncUrl        read the state from location.hash and keep the hash up to date
 * options.theme          'auto' | 'light' | 'dark' (overrides the state's display theme)
 * options.readOnly       true, or a list of matrix names whose cells cannot be edited
 * options.panels         ids from PANEL_IDS to show (default all)
 * options.toolbarHost    element outside root for the theme/palette tools (default: top of root)
 * options.documentTheme  also set data-theme on <html> (the stand-alone page)
 * options.idPrefix       prefix for element ids (default: none unless the ids are taken)
 * options.linkBase       page that shared links open (default: this page with syncUrl, else index.html)
 * options.label          a name for this explorer, added to its landmarks' names (several on a page)
 * options.lesson         one lesson alone (lesson-registry.js: a lesson tab, a pipeline step, heads)
 * options.controls       'none' | 'minimal' | 'full': the control groups shown (default: 'full', or
 *                        'minimal' for a lesson: the few it needs)
 * options.reveal         'predict': the lesson's question hides its answer until a guess is made
 *                        (predict/predict.js); answers are 'attention-explorer:answer' events on root
 * options.start          starting numbers as text: { q, k, v, x, sentence, mask } (starting-numbers.js)
 * options.startHere      show "Start here" (three things to try) above the steps (the stand-alone page)
 * options.lang           the language ('en', 'de', 'es'; 'qps' the pseudo-locale of the tests); default:
 *                        ?lang= of the address, else the browser's languages, else English
 * options.i18n           a translator (model/i18n.js createTranslator) to use instead of options.lang
 *
 * A state that fails its checks (a bad link) shows a message and the default example instead.
 */
export async function mountExplorer(root, options = {}) {
  root.classList.add('ae-root');
  root.setAttribute('aria-busy', 'true');
  const i18n = options.i18n ?? (await widgetTranslator({ attribute: options.lang }));
  markLanguage(root, i18n);
  for (const placeholder of root.querySelectorAll(':scope > [data-placeholder]')) placeholder.remove();
  const status = createStatus(root, options, i18n);
  const notice = createNotice(i18n);
  const spec = lessonOf(options, notice, i18n);
  loadBesideCore(options, spec);
  let attn;
  try {
    attn = await attentionCore();
  } catch (err) {
    status.fatal(i18n.t('explorer.status.coreFailed', { reason: err.message }));
    throw err;
  }
  const start = await initialState(
    startOptions(options, spec),
    options.syncUrl ? window.location.hash : '',
    attn,
    notice.show,
    i18n,
  );
  if (spec) start.state = lessonState(start.state, spec, options);
  const ex = context(root, options, attn, start, notice, spec);
  ex.i18n = i18n;
  ex.panels = createPanels(ex);
  ex.question = await addQuestion(ex);
  ex.panels.question = ex.question;
  ex.views = viewsOf(ex.panels, ex.shown);
  ex.highlighter = createHighlighter(ex.panels);
  const { toolbar, layout } = assemble(ex.panels, ex.views, ex.shown, options, ex.spec);
  layout.classList.add(`controls-${ex.level}`);
  // Docked beside the content on a wide screen; on a narrow or short one the explanation waits
  // folded at the bottom and the controls fold to one line above the content.
  if (window.matchMedia('(max-width: 1099px), (max-height: 640px)').matches) ex.panels.explainPanel.setOpen(false);
  if (window.matchMedia('(max-width: 760px)').matches) {
    if (ex.groups.length > 3) ex.panels.controls.setOpen(false);
    ex.panels.startHere?.setOpen(false);
  }
  const tree = el('div');
  tree.append(toolbar, layout);
  const treePrefix = scopeIds(tree, root.getRootNode(), status.prefix || options.idPrefix);
  if (treePrefix) root.dataset.idPrefix = treePrefix;
  status.el.hidden = true;
  if (options.toolbarHost) options.toolbarHost.append(toolbar);
  else if (toolbar.childElementCount) root.append(toolbar);
  root.append(notice.el, layout);
  ex.panels.controls.setPreset(start.checked ? '' : start.presetId);
  root.classList.toggle('read-only', ex.readOnly === true);
  const handle = connect(ex, { toolbar, layout, status, notice, start });
  root.setAttribute('aria-busy', 'false');
  root.dataset.ready = 'true';
  root.dataset.simd = String(attn.simd);
  if (spec) root.dataset.lesson = spec.id;
  return handle;
}

// The single lesson options.lesson names (lesson-registry.js), or null: none named, or a name
// that is not an explorer lesson (said in the notice; the whole explorer is shown).
function lessonOf(options, notice, i18n) {
  if (options.lesson == null || options.lesson === '') return null;
  const spec = lessonSpec(options.lesson);
  if (spec && spec.kind !== 'train') return spec;
  notice.show(
    spec ? i18n.t('explorer.notice.trainingLesson', { id: spec.id }) : unknownLessonMessage(options.lesson, i18n),
  );
  return null;
}

// What the first drawing will need besides the core, loading alongside it rather than after it: a
// lesson's tab shown from the start (with the parts of the API it calls: an inference lesson's
// WebAssembly then downloads beside the core's), and the link codec of a first example from a link.
function loadBesideCore(options, spec) {
  if (spec?.kind === 'tab') prepareLesson(spec.id);
  if (options.link != null || (options.syncUrl && stateFromHash(window.location.hash) != null)) preloadLinkCodec();
}

// A lesson's own example when the embed names none (a teacher's starting numbers go over it).
function startOptions(options, spec) {
  const named = options.preset || options.link != null || options.state !== undefined;
  if (!spec?.preset || named) return options;
  return { ...options, preset: spec.preset, start: { ...spec.start, ...options.start } };
}

// The lesson's tab open, and a predict question's setting in place (the mistake it asks about).
function lessonState(state, spec, options) {
  let s = { ...state, lessons: { ...(state.lessons ?? {}) } };
  if (spec.kind === 'tab') s = setLesson(s, 'panel', spec.id);
  if (options.reveal === 'predict' && spec.predict === 'row-sum') s = setLesson(s, 'pitfall', 'mask-after-softmax');
  return s;
}

// Predict, then reveal: the lesson's question above its figures (reveal: 'predict'). Its code and
// English text load only then: the explorer shows its "Loading…" line until they are here.
async function addQuestion(ex) {
  const { spec, panels, options, root } = ex;
  if (options.reveal !== 'predict' || !spec?.predict) return null;
  const [{ createQuestion, dispatchAnswer }] = await Promise.all([
    import('./predict/predict.js'),
    loadEnglishParts('explorer-later'),
  ]);
  const question = createQuestion(spec.predict, spec.id, {
    attn: ex.attn,
    computer: ex.computer,
    pipeline: panels.pipeline,
    lessons: panels.lessons,
    i18n: ex.i18n,
    emit: (detail) => dispatchAnswer(root, detail),
    onCover() {
      ex.panels.exporter.render(); // an open Export menu offers what is covered no longer, or no more
      if (ex.target) ex.showExplanation();
    },
  });
  if (!question) return null;
  // (A step lesson's question goes above its matrices and steps, once they are laid out: assemble.)
  if (spec.kind === 'tab') panels.lessons.holder(spec.id).prepend(question.el);
  return question;
}

// The panels to show: a single lesson's own (with what options.panels adds to them, the lesson
// tabs excepted), or options.panels; the controls only when a group of them is shown.
function shownPanels(options, spec, groups) {
  const asked = Array.isArray(options.panels) ? options.panels.filter((p) => PANEL_IDS.includes(p)) : null;
  let shown;
  if (!spec) {
    shown = new Set(asked ?? PANEL_IDS);
  } else {
    const own =
      spec.kind === 'tab'
        ? ['lessons']
        : spec.kind === 'heads'
          ? ['heads', 'explain']
          : ['pipeline', 'explain', ...(spec.inputs.length ? ['inputs'] : [])];
    shown = new Set([...own, 'controls', ...(asked ?? []).filter((p) => p !== 'lessons')]);
  }
  if (!groups.length) shown.delete('controls');
  return shown;
}

// Whether `next` changes a matrix that may not be edited (a lesson's own control, say).
const editsReadOnly = (ex, prev, next) =>
  Object.keys(next.matrices ?? {}).some((name) => next.matrices[name] !== prev.matrices[name] && ex.isReadOnly(name));

// The shared context of one explorer: settings, store, computer, and the explained cell.
function context(root, options, attn, start, notice, spec = null) {
  const level = controlLevel(options.controls, spec ? 'minimal' : 'full');
  const groups = controlGroups(level, spec);
  const shown = shownPanels(options, spec, groups);
  const readOnly =
    options.readOnly === true ? true : new Set(Array.isArray(options.readOnly) ? options.readOnly.map(String) : []);
  const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
  let seedForFill = 42;
  const store = createStore(
    start.state,
    makeFiller(attn, () => seedForFill),
    makeEmbedder(attn),
  );
  seedForFill = store.get().seed;
  store.subscribe((s) => {
    seedForFill = s.seed;
  });
  const ex = {
    root,
    options,
    attn,
    store,
    shown,
    readOnly,
    darkQuery,
    notice,
    spec,
    groups,
    level,
    warmUp: createWarmUp((s) => drawState(ex, s), store.reconciled),
    computer: createComputer(attn),
    origins: trackOrigins(store),
    isReadOnly: (name) => readOnly === true || readOnly.has(name),
    guardedUpdate: (fn, meta) =>
      store.update((s) => {
        const next = fn(s);
        return next && editsReadOnly(ex, s, next) ? s : next;
      }, meta),
    resolveTheme: (setting) => (setting === 'auto' ? (darkQuery.matches ? 'dark' : 'light') : setting),
    linkBase: () => options.linkBase ?? (options.syncUrl ? window.location.href : STANDALONE_PAGE),
    result: null,
    destroyed: false,
    kind: null, // the kind and size of page drawn last (warm-up.js)
    target: null, // the cell being explained
    renders: 0,
    inspect(t) {
      ex.target = t;
      ex.showExplanation();
    },
    showExplanation(s = store.get()) {
      if (ex.target && coveredCell(ex, ex.target)) ex.target = null; // its explanation is the answer
      const explainers = loadedExplainers();
      if (ex.target && !explainers) {
        explainLater(ex);
        return;
      }
      const text = ex.target ? explainers.explain(ex.target, s, ex.result, ex.i18n) : null;
      if (ex.target && !text) ex.target = null; // the cell is gone (resized, or an error)
      ex.panels.explainPanel.show(text);
      ex.highlighter.update(ex.target, ex.result);
    },
    // An example replaces the matrices and settings; the display and the lesson tabs stay.
    loadPreset(id, meta) {
      const preset = presetById(id);
      if (!preset) return;
      const s = store.get();
      ex.target = null;
      store.set({ ...preset.build(attn), display: s.display, lessons: s.lessons }, meta);
    },
    // A whole state from outside (a link, the host): it names no preset.
    loadState(state, meta) {
      ex.target = null;
      ex.panels.controls.setPreset('');
      store.set(state, meta);
    },
    view() {
      const s = store.get();
      const pitfall = shown.has('lessons') && s.lessons.panel === 'pitfalls' ? s.lessons.pitfall : null;
      return {
        state: s,
        result: ex.result,
        pitfall,
        display: { palette: s.display.palette, theme: ex.resolveTheme(s.display.theme) },
        withheld: withheldFromExport(ex),
      };
    },
  };
  return ex;
}

// What a covered answer's export would give away: null when no step of the pipeline is covered,
// else a test of an exported matrix ({ id, group }) for the covered step and every one computed
// from it (the later steps, and the heads' weights and what follows them).
function withheldFromExport(ex) {
  const maps = ex.panels.pipeline?.maps ?? {};
  const first = PIPELINE_STEPS.findIndex((key) => maps[key] && isCovered(maps[key].table));
  if (first < 0) return null;
  const later = new Set(PIPELINE_STEPS.slice(first));
  return (m) => later.has(m.id) || m.group === 'heads';
}

// Whether the cell `target` lies in a map under a predict question's cover.
function coveredCell(ex, target) {
  const table = ex.panels.pipeline?.maps[target.kind]?.table;
  return Boolean(table && isCovered(table));
}

// A cell to explain before the explanations' code is here: a loading line until it arrives (then
// the cell still explained is shown), or the failure, tried again with the next cell.
function explainLater(ex) {
  const { t } = ex.i18n;
  ex.panels.explainPanel.status(t('common.loading'));
  ex.highlighter.update(ex.target, ex.result);
  loadExplainers().then(
    () => {
      if (!ex.destroyed) ex.showExplanation();
    },
    (err) => {
      if (!ex.destroyed) ex.panels.explainPanel.status(t('explorer.status.drawFailed', { reason: err.message }), true);
    },
  );
}

// Redraws on change, the address bar, listeners; draws once and returns the handle.
function connect(ex, { toolbar, layout, status, notice, start }) {
  const { store, options } = ex;
  const redraw = createRedraw(
    () => draw(ex),
    (err) => status.fatal(ex.i18n.t('explorer.status.drawFailed', { reason: err.message })),
  );
  ex.redraw = redraw;
  const listeners = new Set();
  const unsubscribe = store.subscribe((s, prev, meta) => {
    redraw.schedule();
    for (const cb of listeners) {
      try {
        cb(s, meta);
      } catch (err) {
        console.error(err);
      }
    }
  });
  ex.darkQuery.addEventListener('change', redraw.schedule);
  const url = options.syncUrl
    ? createUrlSync({
        store,
        showNotice: notice.show,
        i18n: ex.i18n,
        loadState: (state) => ex.loadState(state, { source: 'url' }),
        loadPreset: (id) => {
          ex.loadPreset(id, { source: 'url' });
          ex.panels.controls.setPreset(id);
        },
      })
    : null;
  if (url) {
    listeners.add(url.changed);
    if (start.hashLink != null && !start.checked) url.writeNow(); // a bad link is replaced by the example shown
  }
  redraw.now();
  // The explanations load once the first heatmap is on screen, so a cell explains at once; so does
  // the link codec where the address bar or the share buttons will write links.
  if (ex.shown.has('explain')) browserIdle().then(() => loadExplainers().catch(() => {})); // (a failure: tried again on use)
  if (url || ex.shown.has('share')) browserIdle().then(preloadLinkCodec);
  return handleFor(ex, { listeners, toolbar }, () => {
    if (ex.destroyed) return;
    ex.destroyed = true;
    redraw.stop();
    unsubscribe();
    listeners.clear();
    url?.destroy();
    ex.darkQuery.removeEventListener('change', redraw.schedule);
    ex.panels.lessons.dispose();
    ex.computer.dispose();
    for (const e of [toolbar, notice.el, layout, status.el]) e.remove();
    ex.root.classList.remove('ae-root', 'read-only');
    ex.root.removeAttribute('lang');
    for (const key of ['ready', 'renders', 'renderMs', 'simd', 'theme', 'idPrefix']) delete ex.root.dataset[key];
  });
}

function handleFor(ex, { listeners, toolbar }, destroy) {
  const { store } = ex;
  return {
    /** A deep copy of the current state (plain JSON-compatible data). */
    getState: () => structuredClone(store.get()),
    /** Replaces the state; it is repaired by reconcile (sizes clamped, matrices resized). */
    setState(state, meta = { source: 'api' }) {
      ex.loadState(validateState(state), meta); // throws a StateError naming the first bad field
    },
    /** The state as link text ("v1.…"); rejects with a StateError when it is too large. */
    encode: () => encodeState(store.get()),
    /** A link to the stand-alone page (or options.linkBase) showing the current state. */
    async link() {
      const base = ex.linkBase();
      if (!base) throw new Error(NO_PAGE_MESSAGE);
      return linkFor(base, await encodeState(store.get()));
    },
    /** Shows a message above the panels (empty text hides it). */
    notify: ex.notice.show,
    /** Calls cb(state, meta) after every change; returns a function that stops the calls. */
    onChange(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    /** The element holding the theme/palette tools (for hosts adding their own buttons). */
    toolbar,
    attention: ex.attn,
    /** The explorer's translator (its language: i18n.lang). */
    i18n: ex.i18n,
    destroy,
  };
}
