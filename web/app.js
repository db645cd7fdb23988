// Entry module of the explorer page: loads the attention core, builds the panels, and redraws
// everything from one state object whenever it changes (at most once per animation frame).
import { createAttention } from './lib/attention.js';
import { createComputer } from './ui/compute.js';
import { createControls, createDisplayControls } from './ui/controls.js';
import { createExplainPanel, explain } from './ui/explain.js';
import { createHeadsPanel } from './ui/heads-panel.js';
import { createInputsPanel } from './ui/inputs-panel.js';
import { createPipeline } from './ui/pipeline.js';
import { makeFiller, presetById, randomMatrices } from './ui/presets.js';
import { createStore, setCell, setSentence, toggleCustom } from './ui/state.js';

const DEFAULT_PRESET = 'lesson';
// Past this many milliseconds per redraw, typing is debounced instead of redrawn every frame.
const SLOW_RENDER_MS = 24;
const DEBOUNCE_MS = 90;

const app = document.getElementById('app');
const status = document.getElementById('status');

function showFatal(message) {
  status.textContent = message;
  status.classList.add('error');
  status.hidden = false;
  app.setAttribute('aria-busy', 'false');
}

const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
const resolveTheme = (setting) => (setting === 'auto' ? (darkQuery.matches ? 'dark' : 'light') : setting);

async function main() {
  let attn;
  try {
    attn = await createAttention({ simd: 'auto' });
  } catch (err) {
    showFatal(`The attention core could not be loaded: ${err.message}`);
    return;
  }

  let seedForFill = 42;
  const fill = makeFiller(attn, () => seedForFill);
  const store = createStore(presetById(DEFAULT_PRESET).build(attn), fill);
  const computer = createComputer(attn);
  const update = (fn) => store.update(fn);

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
      store.set({ ...preset.build(attn), display: s.display });
    },
    randomize(seed) {
      const s = store.get();
      const next = seed ?? (s.seed + 1) % 0x100000000;
      store.set({ ...s, seed: next, headNames: [], matrices: { ...s.matrices, ...randomMatrices(attn, s, next) } });
    },
  });
  const inputs = createInputsPanel({
    onEdit: (name, i, j, v) => update((s) => setCell(s, name, i, j, v)),
    onInspect: inspect,
    onSentence(text) {
      const next = setSentence(store.get(), text);
      if (!next) return false;
      store.set(next);
      return true;
    },
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

  document.getElementById('display-tools').append(displayControls.el);
  status.hidden = true;
  const layout = document.createElement('div');
  layout.className = 'layout';
  const content = document.createElement('div');
  content.className = 'content';
  content.append(inputs.el, pipeline.el, heads.el, explainPanel.el);
  layout.append(controls.el, content);
  app.append(layout);
  controls.setPreset(DEFAULT_PRESET);

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
    const content = target ? explain(target, store.get(), result) : null;
    if (target && !content) target = null;  // the cell is gone (resized, or an error)
    explainPanel.show(content);
    highlight();
  }

  let renders = 0;
  function render() {
    const t0 = performance.now();
    const s = store.get();
    const theme = resolveTheme(s.display.theme);
    document.documentElement.dataset.theme = theme;
    const display = { palette: s.display.palette, theme };
    result = computer.compute(s);
    controls.render(s, result);
    displayControls.render(s);
    inputs.render(s, result, display);
    pipeline.render(s, result, display);
    heads.render(s, result, display);
    showExplanation();
    const ms = performance.now() - t0;
    renders += 1;
    app.dataset.renders = String(renders);
    app.dataset.renderMs = ms.toFixed(2);
    return ms;
  }

  // Redraw once per frame; if a redraw costs more than a frame, wait for a pause in typing.
  let scheduled = false;
  let lastMs = 0;
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    const run = () => {
      scheduled = false;
      try {
        lastMs = render();
      } catch (err) {
        showFatal(`Something went wrong while drawing: ${err.message}`);
        status.hidden = false;
      }
    };
    if (lastMs > SLOW_RENDER_MS) setTimeout(run, DEBOUNCE_MS);
    else requestAnimationFrame(run);
  }

  store.subscribe((s) => {
    seedForFill = s.seed;
    schedule();
  });
  darkQuery.addEventListener('change', schedule);
  lastMs = render();
  app.setAttribute('aria-busy', 'false');
  app.dataset.ready = 'true';
  app.dataset.simd = String(attn.simd);
}

main().catch((err) => showFatal(`The explorer could not start: ${err.message}`));
