// The explorer as a component: mountExplorer(root, options) builds every panel inside `root`,
// redraws them from one state object whenever it changes (at most once per animation frame), and
// hands back a small handle to read, replace and watch that state. Nothing here reaches outside
// `root` unless asked to (options.documentTheme, options.toolbarHost), so several explorers can
// live in one page, in a shadow root, or in an iframe.
import { createAttention } from '../lib/attention.js';
import { createComputer } from './compute.js';
import { createControls, createDisplayControls } from './controls.js';
import { createExplainPanel, explain } from './explain.js';
import { createExportControls } from './export.js';
import { createHeadsPanel } from './heads-panel.js';
import { createInputsPanel } from './inputs-panel.js';
import { createLessons } from './lessons/index.js';
import { createPipeline } from './pipeline.js';
import { makeEmbedder, makeFiller, presetById, randomMatrices } from './presets.js';
import { createShareControls } from './share.js';
import { createStore, setCell, setSentence, toggleCustom } from './state.js';
import { decodeState, encodeState, linkFor, presetFromHash, stateFromHash, validateState } from './url-state.js';
import { NO_PAGE_MESSAGE, packageUrls } from './package-urls.js';
import { el } from './dom.js';

export const DEFAULT_PRESET = 'lesson';
/** Panels a host can pick with options.panels (default: all of them). */
export const PANEL_IDS = ['display', 'share', 'export', 'controls', 'inputs', 'pipeline', 'heads', 'lessons', 'explain'];
// Past this many milliseconds per redraw, typing is debounced instead of redrawn every frame.
const SLOW_RENDER_MS = 24;
const DEBOUNCE_MS = 90;
// The address bar follows the state this long after the last change.
const URL_DEBOUNCE_MS = 300;
// null when a bundler moved this module away from the page and the element (package-urls.js).
const { page: STANDALONE_PAGE, element: ELEMENT_MODULE } = packageUrls(import.meta.url);

// One WebAssembly instance per page, shared by every explorer in it (each keeps its own layers).
let sharedAttention = null;
function attentionCore() {
  sharedAttention ??= createAttention({ simd: 'auto' }).catch((err) => {
    sharedAttention = null;
    throw err;
  });
  return sharedAttention;
}

// Whether matrix a no longer holds b's values (same shape, some cell changed).
function differs(a, b) {
  if (!a || !b || a === b || a.rows !== b.rows || a.cols !== b.cols) return false;
  for (let k = 0; k < a.data.length; k++) if (!Object.is(a.data[k], b.data[k])) return true;
  return false;
}

const ID_REFS = ['for', 'aria-labelledby', 'aria-describedby', 'aria-controls'];

// Fixed ids (#preset, #pipeline, …) are test hooks and label targets. The first explorer in a
// document or shadow root keeps them; a later one gets a prefix so no id is ever duplicated.
function scopeIds(tree, scope, prefix) {
  const withId = [...tree.querySelectorAll('[id]')];
  if (!prefix) {
    const taken = withId.some((e) => scope.getElementById?.(e.id) ?? scope.querySelector?.(`#${CSS.escape(e.id)}`));
    if (!taken) return '';
    prefix = `ae${Math.random().toString(36).slice(2, 8)}-`;
  }
  const ids = new Set(withId.map((e) => e.id));
  for (const e of withId) e.id = prefix + e.id;
  for (const attr of ID_REFS) {
    for (const e of tree.querySelectorAll(`[${attr}]`)) {
      const value = e.getAttribute(attr).split(/\s+/).map((id) => (ids.has(id) ? prefix + id : id)).join(' ');
      e.setAttribute(attr, value);
    }
  }
  return prefix;
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
 *
 * A state that fails its checks (a bad link) shows a message and the default example instead.
 */
export async function mountExplorer(root, options = {}) {
  const panels = new Set(Array.isArray(options.panels) ? options.panels.filter((p) => PANEL_IDS.includes(p)) : PANEL_IDS);
  const readOnly = options.readOnly === true ? true : new Set(Array.isArray(options.readOnly) ? options.readOnly.map(String) : []);
  const isReadOnly = (name) => readOnly === true || readOnly.has(name);

  root.classList.add('ae-root');
  root.setAttribute('aria-busy', 'true');
  for (const placeholder of root.querySelectorAll(':scope > [data-placeholder]')) placeholder.remove();
  const scope = root.getRootNode();
  const status = el('p', 'status', 'Loading the attention core\u2026');
  status.id = 'status';
  status.setAttribute('role', 'status');
  const statusBox = el('div');
  statusBox.append(status);
  const prefix = scopeIds(statusBox, scope, options.idPrefix);
  root.append(status);

  const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
  const resolveTheme = (setting) => (setting === 'auto' ? (darkQuery.matches ? 'dark' : 'light') : setting);

  function showFatal(message) {
    status.textContent = message;
    status.classList.add('error');
    status.hidden = false;
    root.setAttribute('aria-busy', 'false');
  }

  let attn;
  try {
    attn = await attentionCore();
  } catch (err) {
    showFatal(`The attention core could not be loaded: ${err.message}`);
    throw err;
  }

  let seedForFill = 42;
  const fill = makeFiller(attn, () => seedForFill);

  // The first example: a link (option or address bar), a state object, or a preset.
  const notice = el('div', 'notice');
  notice.setAttribute('role', 'alert');
  notice.hidden = true;
  const noticeText = el('p');
  const noticeClose = el('button', 'small-button', 'Dismiss');
  noticeClose.type = 'button';
  noticeClose.addEventListener('click', () => { notice.hidden = true; });
  notice.append(noticeText, noticeClose);
  const showNotice = (message) => {
    noticeText.textContent = message;
    notice.hidden = !message;
  };
  const hashLink = options.syncUrl ? stateFromHash(window.location.hash) : null;
  const hashPreset = options.syncUrl ? presetFromHash(window.location.hash) : null;
  const presetId = [options.preset, hashPreset].find((id) => presetById(id)) ?? DEFAULT_PRESET;
  if (options.preset && !presetById(options.preset)) showNotice(`There is no example called \u201c${String(options.preset).slice(0, 40)}\u201d. Showing the default example instead.`);
  let checked = null;
  const linkText = options.link ?? hashLink;
  if (linkText != null) {
    const r = await decodeState(linkText);
    if (r.ok) checked = r.state;
    else showNotice(`This link\u2019s example could not be opened: ${r.error}. Showing the default example instead.`);
  } else if (options.state !== undefined) {
    try {
      checked = validateState(options.state);
    } catch (err) {
      showNotice(`The example could not be opened: ${err.message}. Showing the default example instead.`);
    }
  }
  let initial = checked ?? presetById(presetId).build(attn);
  if (options.theme) initial = { ...initial, display: { ...initial.display, theme: options.theme } };
  const store = createStore(initial, fill, makeEmbedder(attn));
  seedForFill = store.get().seed;
  const computer = createComputer(attn);
  const update = (fn) => store.update(fn);
  // Each matrix as the example last set it (a preset, a link, new random values, new words, a
  // resize); cell edits leave it alone, so "Reset" can bring back its exact values.
  const origin = { ...store.get().matrices };
  store.subscribe((s, prev, meta) => {
    if (meta.source === 'edit') return;
    for (const [name, m] of Object.entries(s.matrices)) if (m !== prev.matrices[name]) origin[name] = m;
  });

  let result = null;
  let target = null;  // the cell being explained

  const explainPanel = createExplainPanel();
  const inspect = (t) => {
    target = t;
    showExplanation();
  };
  const displayControls = createDisplayControls({ update });
  const controls = createControls({
    update,
    applyPreset(id) {
      const preset = presetById(id);
      if (!preset) return;
      const s = store.get();
      target = null;
      store.set({ ...preset.build(attn), display: s.display, lessons: s.lessons });
    },
    randomize(seed) {
      const s = store.get();
      const next = seed ?? (s.seed + 1) % 0x100000000;
      store.set({ ...s, seed: next, headNames: [], matrices: { ...s.matrices, ...randomMatrices(attn, s, next) } });
    },
  });
  const inputs = createInputsPanel({
    onEdit: (name, i, j, v) => { if (!isReadOnly(name)) store.update((s) => setCell(s, name, i, j, v), { source: 'edit' }); },
    onReset(name) {
      const m = origin[name];
      if (!m || isReadOnly(name)) return;
      store.update((s) => (s.matrices[name]?.rows === m.rows && s.matrices[name]?.cols === m.cols
        ? { ...s, matrices: { ...s.matrices, [name]: m } } : s), { source: 'reset' });
    },
    canReset: (name) => !isReadOnly(name) && differs(store.get().matrices[name], origin[name]),
    onInspect: inspect,
    onSentence(text) {
      const next = setSentence(store.get(), text);
      if (!next) return false;
      store.set(next);
      return true;
    },
    onPositional: (kind) => update((s) => ({ ...s, positional: kind })),
  });
  const pipeline = createPipeline({
    onInspect: inspect,
    onToggleMask: (i, j) => {
      if (store.get().mask.kind === 'custom') update((s) => toggleCustom(s, i, j));
    },
  });
  const heads = createHeadsPanel({
    onInspect: inspect,
    onSelectHead: (k) => update((s) => ({ ...s, view: { ...s.view, head: k } })),
  });

  // Panels, in page order. Each is { id, el, render(state, result, display) }; a panel that is
  // not shown is neither attached nor drawn.
  const lessons = createLessons({ attn, computer, update });
  const views = [
    { id: 'inputs', el: inputs.el, render: (s, r, d) => inputs.render(s, r, d) },
    { id: 'pipeline', el: pipeline.el, render: (s, r, d) => pipeline.render(s, r, d) },
    { id: 'heads', el: heads.el, render: (s, r, d) => heads.render(s, r, d) },
    { id: 'lessons', el: lessons.el, render: (s, r, d) => lessons.render(s, r, d) },
  ].filter((v) => panels.has(v.id));

  const linkBase = () => options.linkBase ?? (options.syncUrl ? window.location.href : STANDALONE_PAGE);
  const share = createShareControls({ getState: () => store.get(), linkBase, elementUrl: ELEMENT_MODULE });
  const exporter = createExportControls({
    getView: () => {
      const s = store.get();
      const pitfall = panels.has('lessons') && s.lessons.panel === 'pitfalls' ? s.lessons.pitfall : null;
      return { state: s, result, pitfall, display: { palette: s.display.palette, theme: resolveTheme(s.display.theme) } };
    },
  });
  const toolbar = el('div', 'explorer-toolbar');
  if (panels.has('display')) toolbar.append(displayControls.el);
  if (panels.has('share')) toolbar.append(share.el);
  if (panels.has('export')) toolbar.append(exporter.el);
  const layout = el('div', 'layout');
  const content = el('div', 'content');
  content.append(...views.map((v) => v.el));
  if (panels.has('explain')) content.append(explainPanel.el);
  if (panels.has('controls')) layout.append(controls.el);
  else layout.classList.add('no-controls');
  layout.append(content);

  // Several explorers on one page: each one's landmarks (Controls, Inputs, …) carry its name too,
  // so a screen reader's landmark list tells them apart.
  if (options.label) {
    const name = el('span', 'visually-hidden', `, ${options.label}`);
    name.id = 'explorer-label';
    layout.append(name);
    for (const landmark of layout.querySelectorAll('section, aside')) {
      const by = landmark.getAttribute('aria-labelledby');
      if (by) landmark.setAttribute('aria-labelledby', `${by} ${name.id}`);
      else if (landmark.hasAttribute('aria-label')) landmark.setAttribute('aria-label', `${landmark.getAttribute('aria-label')}, ${options.label}`);
    }
  }
  const tree = el('div');
  tree.append(toolbar, layout);
  const treePrefix = scopeIds(tree, scope, prefix || options.idPrefix);
  if (treePrefix) root.dataset.idPrefix = treePrefix;
  status.hidden = true;
  if (options.toolbarHost) options.toolbarHost.append(toolbar);
  else if (toolbar.childElementCount) root.append(toolbar);
  root.append(notice, layout);
  controls.setPreset(checked ? '' : presetId);
  root.classList.toggle('read-only', readOnly === true);

  // Cells related to the explained one, outlined across panels.
  let lit = [];
  function highlight() {
    const plan = [];
    if (target && result && !result.error) planHighlight(plan);
    const next = plan.filter(([component]) => component).map(([component]) => component);
    for (const c of lit) if (!next.includes(c)) c.setHighlight({});
    for (const [component, spec] of plan) component?.setHighlight(spec);
    lit = next;
  }

  function planHighlight(plan) {
    const d = result.dims;
    const { i, j } = target;
    const m = d.m;
    const off = d.multi ? result.head.index * result.head.dk : 0;
    const qkv = (name) => inputs.target(name, d.sentence);
    const cell = (r, c, cols) => new Set([r * cols + c]);
    const P = pipeline.maps;
    const H = heads.maps;
    switch (target.kind) {
      case 'scores': plan.push([qkv('Q'), { rows: new Set([i]) }], [qkv('K'), { rows: new Set([j]) }], [P.scores, { cells: cell(i, j, m) }]); break;
      case 'scaled': plan.push([P.scores, { cells: cell(i, j, m) }], [P.scaled, { cells: cell(i, j, m) }]); break;
      case 'masked': plan.push([P.scaled, { cells: cell(i, j, m) }], [P.masked, { cells: cell(i, j, m) }]); break;
      case 'weights': plan.push([P.masked, { rows: new Set([i]) }], [P.weights, { cells: cell(i, j, m) }]); break;
      case 'output': plan.push([P.weights, { rows: new Set([i]) }], [qkv('V'), { cols: new Set([off + j]) }], [P.output, { cells: cell(i, j, result.head.output.shape[1]) }]); break;
      case 'proj': plan.push([inputs.editors.X, { rows: new Set([i]) }], [inputs.editors[`W${target.name}`], { cols: new Set([j]) }]); break;
      case 'input':
        if (target.name === 'Q') plan.push([P.scores, { rows: new Set([i]) }]);
        if (target.name === 'K') plan.push([P.scores, { cols: new Set([i]) }]);
        if (target.name === 'V') plan.push([P.output, { cols: new Set([j]) }]);
        if (target.name === 'X' && d.sentence) for (const n of ['Q', 'K', 'V']) plan.push([inputs.projMaps[n], { rows: new Set([i]) }]);
        if (['WQ', 'WK', 'WV'].includes(target.name)) plan.push([inputs.projMaps[target.name[1]], { cols: new Set([j]) }]);
        if (target.name === 'WO' && d.multi) plan.push([H['mha-output'], { cols: new Set([j]) }]);
        break;
      case 'head':
      case 'average':
        if (d.multi) for (const map of [...heads.headMaps(), H.average]) plan.push([map, { cells: cell(i, j, m) }]);
        break;
      case 'mha-output': plan.push([H.concat, { rows: new Set([i]) }], [inputs.editors.WO, { cols: new Set([j]) }], [H['mha-output'], { cells: cell(i, j, d.dModel) }]); break;
      default: break;
    }
  }

  function showExplanation() {
    const text = target ? explain(target, store.get(), result) : null;
    if (target && !text) target = null;  // the cell is gone (resized, or an error)
    explainPanel.show(text);
    highlight();
  }

  function applyReadOnly() {
    for (const [name, editor] of Object.entries(inputs.editors)) {
      if (!isReadOnly(name)) continue;
      for (const input of editor.el.querySelectorAll('input')) if (!input.readOnly) input.readOnly = true;
    }
  }

  let renders = 0;
  function render() {
    const t0 = performance.now();
    const s = store.get();
    const theme = resolveTheme(s.display.theme);
    root.dataset.theme = theme;
    if (options.toolbarHost) options.toolbarHost.dataset.theme = theme;
    if (options.documentTheme) document.documentElement.dataset.theme = theme;
    const display = { palette: s.display.palette, theme };
    result = computer.compute(s);
    controls.render(s, result);
    displayControls.render(s);
    exporter.render();
    for (const v of views) v.render(s, result, display);
    if (readOnly === true || readOnly.size) applyReadOnly();
    showExplanation();
    const ms = performance.now() - t0;
    renders += 1;
    root.dataset.renders = String(renders);
    root.dataset.renderMs = ms.toFixed(2);
    return ms;
  }

  // Redraw once per frame; if a redraw costs more than a frame, wait for a pause in typing.
  let scheduled = false;
  let destroyed = false;
  let lastMs = 0;
  function schedule() {
    if (scheduled || destroyed) return;
    scheduled = true;
    const run = () => {
      scheduled = false;
      if (destroyed) return;
      try {
        lastMs = render();
      } catch (err) {
        showFatal(`Something went wrong while drawing: ${err.message}`);
      }
    };
    if (lastMs > SLOW_RENDER_MS) setTimeout(run, DEBOUNCE_MS);
    else requestAnimationFrame(run);
  }

  const listeners = new Set();
  const unsubscribe = store.subscribe((s, prev, meta) => {
    seedForFill = s.seed;
    schedule();
    for (const cb of listeners) {
      try {
        cb(s, meta);
      } catch (err) {
        console.error(err);
      }
    }
  });
  darkQuery.addEventListener('change', schedule);

  // The address bar follows the state (replaceState: no history entry per keystroke), and a link
  // pasted into the address bar of an open page is loaded like a fresh one.
  let urlTimer = 0;
  let urlSeq = 0;
  let writtenHash = null;
  async function writeUrl() {
    const seq = ++urlSeq;
    let hash = '';
    try {
      hash = `#s=${await encodeState(store.get())}`;
    } catch {
      hash = '';  // too large for a link: the address shows no state rather than an old one
    }
    if (seq !== urlSeq || destroyed) return;
    writtenHash = hash;
    const url = new URL(window.location.href);
    url.hash = hash;
    window.history.replaceState(window.history.state, '', url.href);
  }
  const urlListener = () => {
    clearTimeout(urlTimer);
    urlTimer = setTimeout(writeUrl, URL_DEBOUNCE_MS);
  };
  async function onHashChange() {
    if (window.location.hash === writtenHash) return;
    const text = stateFromHash(window.location.hash);
    if (text == null) return;  // an in-page anchor such as #pipeline
    const r = await decodeState(text);
    if (destroyed) return;
    if (!r.ok) {
      showNotice(`This link\u2019s example could not be opened: ${r.error}. The example shown is unchanged.`);
      return;
    }
    showNotice('');
    target = null;
    controls.setPreset('');
    store.set(r.state, { source: 'url' });
  }
  if (options.syncUrl) {
    listeners.add(urlListener);
    window.addEventListener('hashchange', onHashChange);
    // A bad link is replaced by the example actually shown.
    if (hashLink != null && !checked) writeUrl();
  }

  lastMs = render();
  root.setAttribute('aria-busy', 'false');
  root.dataset.ready = 'true';
  root.dataset.simd = String(attn.simd);

  return {
    /** A deep copy of the current state (plain JSON-compatible data). */
    getState: () => structuredClone(store.get()),
    /** Replaces the state; it is repaired by reconcile (sizes clamped, matrices resized). */
    setState(state, meta = { source: 'api' }) {
      const next = validateState(state);  // throws a StateError naming the first bad field
      target = null;
      controls.setPreset('');
      store.set(next, meta);
    },
    /** The state as link text ("v1.…"); rejects with a StateError when it is too large. */
    encode: () => encodeState(store.get()),
    /** A link to the stand-alone page (or options.linkBase) showing the current state. */
    async link() {
      const base = linkBase();
      if (!base) throw new Error(NO_PAGE_MESSAGE);
      return linkFor(base, await encodeState(store.get()));
    },
    /** Shows a message above the panels (empty text hides it). */
    notify: showNotice,
    /** Calls cb(state, meta) after every change; returns a function that stops the calls. */
    onChange(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    /** The element holding the theme/palette tools (for hosts adding their own buttons). */
    toolbar,
    attention: attn,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      unsubscribe();
      listeners.clear();
      clearTimeout(urlTimer);
      window.removeEventListener('hashchange', onHashChange);
      darkQuery.removeEventListener('change', schedule);
      lessons.dispose();
      computer.dispose();
      toolbar.remove();
      notice.remove();
      layout.remove();
      status.remove();
      root.classList.remove('ae-root', 'read-only');
      for (const key of ['ready', 'renders', 'renderMs', 'simd', 'theme', 'idPrefix']) delete root.dataset[key];
    },
  };
}
