// "Gradients: how attention learns": the backward pass of the explorer's head, live. Pick a loss
// (reach a target output T, or one output cell), see dO, dA = dO·Vᵀ, dS, dQ, dK, dV as heatmaps
// (each cell explained), check one gradient against a nudge of its input, take gradient steps on
// Q, K or V, and measure which keys learn with and without ÷√dₖ. Every number comes from the core
// (gradients-math.js); this module only lays them out. The panel's own settings stay local.
// Test hooks: data-control on the controls, data-stat (+ data-value) on the numbers, heatmaps
// named grad-dO, grad-dA, grad-dS, grad-dQ, grad-dK, grad-dV.
import { button, el, field, numberInput, setIfIdle, setText } from './dom.js';
import { headGradients, nudge, steepestCell, stepped, whichKeysLearn } from './gradients-math.js';
import { explainGradient } from './gradients-explain.js';
import { createHeatmap } from '../heatmap.js';
import { createMatrixEditor } from '../matrix-editor.js';
import { formatNumber } from '../format.js';
import { maskOptions } from '../state.js';

const SUB_K = '\u2096';
const MAPS = [
  ['dO', 'dO = \u2202L/\u2202O', 'output'],
  ['dA', 'dA = dO\u00b7V\u1d40', 'scores'],
  ['dS', 'dS = A \u2299 (dA \u2212 rowsum(dO \u2299 O))', 'scores'],
  ['dQ', 'dQ = scale\u00b7dS\u00b7K', 'q'],
  ['dK', 'dK = scale\u00b7dS\u1d40\u00b7Q', 'k'],
  ['dV', 'dV = A\u1d40\u00b7dO', 'k'],
];

function stat(name, className = 'lesson-stat') {
  const out = el('output', className);
  out.dataset.stat = name;
  return out;
}

function setStat(out, value, text = formatNumber(value)) {
  out.dataset.value = String(value);
  setText(out, text);
}

function select(name, options) {
  const s = el('select');
  s.dataset.control = name;
  for (const [value, text] of options) {
    const o = el('option', '', text);
    o.value = value;
    s.append(o);
  }
  return s;
}

function numberField(name, range, step, value) {
  const input = numberInput(range, step);
  input.dataset.control = name;
  input.value = String(value);
  input.inputMode = 'decimal';
  return input;
}

export function createGradientsPanel({ attn, update }) {
  const root = el('div', 'lesson-panel');
  root.dataset.lesson = 'gradients';
  const local = { goal: 'target', cell: { i: 0, j: 0 }, target: null, targetShape: '', targetCols: 0, pick: null, eps: 1e-3,
    lr: 0.5, stepMatrix: 'Q', losses: [], keys: null, threshold: 1e-3 };
  let last = null;  // the explorer's latest (state, result, display), to redraw after local edits
  const redraw = () => last && render(...last);

  // ---- the loss
  const intro = el('p', 'lesson-intro', 'Every weight in attention moves by a gradient. Choose what the head should learn; the core runs the backward pass of the head above and shows each step of it, from the loss back to Q, K and V.');
  const goal = select('grad-goal', [['target', 'Reach a target output T: L = \u00bd\u2016O \u2212 T\u2016\u00b2'], ['cell', 'Raise one output cell: L = O[i, j]']]);
  const cellRow = numberField('grad-cell-row', [1, 24], 1, 1);
  const cellCol = numberField('grad-cell-col', [1, 64], 1, 1);
  const cellFields = el('div', 'lesson-inline');
  cellFields.append(field('Row i', cellRow), field('Column j', cellCol));
  const controls = el('div', 'lesson-controls');
  controls.append(field('What to learn', goal, 'lesson-field wide'), cellFields);
  const targetBox = el('div', 'grad-target');
  const targetTitle = el('p', 'lesson-map-title', 'Target T (editable)');
  const targetEditor = createMatrixEditor({ name: 'grad-T', label: 'Target output T', onEdit: (_name, i, j, v) => {
    local.target[i * local.targetCols + j] = v;
    redraw();
  } });
  const zeroT = button('T = 0');
  const copyT = button('T = current output');
  const targetButtons = el('div', 'lesson-inline');
  targetButtons.append(zeroT, copyT);
  targetBox.append(targetTitle, targetEditor.el, targetButtons);
  const lossLine = el('p', 'lesson-summary');
  const loss = stat('grad-loss');
  lossLine.append('Loss L = ', loss);
  const error = el('p', 'error');
  error.hidden = true;

  // ---- the backward pass as heatmaps, explained cell by cell
  const explainTitle = el('h4', 'explain-title', 'How was this number computed?');
  const explainBody = el('div', 'explain-body');
  explainBody.setAttribute('aria-live', 'polite');
  explainBody.append(el('p', 'explain-idle', 'Point at, tap or focus any cell of the gradients to see how it was computed.'));
  const explainBox = el('div', 'explain grad-explain');
  explainBox.append(explainTitle, explainBody);
  let context = null;
  const showExplanation = (map, i, j) => {
    if (!context) return;
    const e = explainGradient(map, i, j, context);
    setText(explainTitle, e.title);
    explainBody.replaceChildren(...e.lines.map((l) => el('p', `explain-${l.kind}`, l.text)));
  };
  const maps = {};
  const grid = el('div', 'grad-maps');
  for (const [key, title] of MAPS) {
    const box = el('div', 'grad-map');
    const pickable = key === 'dQ' || key === 'dK' || key === 'dV';
    maps[key] = createHeatmap({
      name: `grad-${key}`, label: title, kind: 'diverging',
      onInspect: (i, j) => showExplanation(key, i, j),
      onActivate: pickable ? (i, j) => { local.pick = { matrix: key[1].toLowerCase(), i, j }; redraw(); } : undefined,
    });
    box.append(el('p', 'lesson-map-title', title), maps[key].el);
    grid.append(box);
  }
  const mapsNote = el('p', 'lesson-note', 'Forward: scores S \u2192 softmax A \u2192 output O = A\u00b7V. Backward runs the other way: dO \u2192 dA \u2192 dS \u2192 dQ, dK (and dV straight from dO). Click a cell of dQ, dK or dV to nudge that input below.');

  // ---- nudge check
  const eps = numberField('grad-eps', [1e-6, 1], 'any', local.eps);
  const nudgeText = stat('grad-nudge', 'grad-sentence');
  const nudgeBox = el('div', 'lesson-gap');
  nudgeBox.append(el('h4', '', 'Nudge check'), field('\u03b5', eps), el('p', 'lesson-note', 'Add \u03b5 to one input and run the forward pass again: the loss changes by \u03b5 \u00d7 gradient, to first order.'), nudgeText);

  // ---- gradient step
  const stepMatrix = select('grad-step-matrix', [['Q', 'Q'], ['K', 'K'], ['V', 'V']]);
  const lr = numberField('grad-lr', [0, 100], 'any', local.lr);
  const step = button('Take one step', 'small-button');
  step.dataset.control = 'grad-step';
  const stepNote = el('p', 'lesson-note');
  const history = stat('grad-history', 'grad-sentence');
  const useQkv = button('Use Q, K, V directly');
  useQkv.dataset.control = 'grad-use-qkv';
  const stepNoteRow = el('div', 'lesson-inline');
  stepNoteRow.append(stepNote, useQkv);
  const stepControls = el('div', 'lesson-controls');
  stepControls.append(field('Update', stepMatrix), field('Learning rate', lr), step);
  const stepBox = el('div', 'lesson-gap');
  stepBox.append(el('h4', '', 'One gradient step'), el('p', 'lesson-note', 'x \u2190 x \u2212 learning rate \u00d7 \u2202L/\u2202x on the chosen matrix, written back into the explorer: watch the weights above move and the loss fall.'), stepControls, stepNoteRow, history);

  // ---- which keys learn?
  const threshold = numberField('grad-threshold', [1e-9, 1], 'any', local.threshold);
  const keysScaled = stat('keys-scaled');
  const keysUnscaled = stat('keys-unscaled');
  const keysBox = el('div', 'lesson-gap');
  const keysTable = el('table', 'grad-keys');
  const head = el('tr');
  ['scores', 'keys with |dS| above the threshold (of 64)', 'gradient norm \u2016(dQ, dK, dV)\u2016'].forEach((t) => head.append(el('th', '', t)));
  const rowOf = (label, countOut, normOut) => {
    const tr = el('tr');
    const bar = el('span', 'grad-bar');
    const cell = el('td');
    cell.append(countOut, bar);
    tr.append(el('th', '', label), cell, el('td', '', ''));
    tr.lastChild.append(normOut);
    return { tr, bar };
  };
  const normScaled = stat('norm-scaled');
  const normUnscaled = stat('norm-unscaled');
  const scaledRow = rowOf(`scores \u00f7 \u221ad${SUB_K}`, keysScaled, normScaled);
  const unscaledRow = rowOf('raw scores (no \u00f7\u221ad\u2096)', keysUnscaled, normUnscaled);
  keysTable.append(head, scaledRow.tr, unscaledRow.tr);
  keysBox.append(el('h4', '', 'Which keys learn?'),
    el('p', 'lesson-note', `d${SUB_K} = 64, one query, 64 random keys, 200 samples (standard normal, from the core\u2019s generator). Raw scores spread like \u221a64 = 8, the softmax saturates, and almost every key gets no gradient; scaled scores pass gradient to most of them.`),
    field('|dS| threshold', threshold), keysTable,
    el('p', 'lesson-note', 'The norm is larger without the scaling: dQ and dK carry the scale factor, so the few keys that still learn get 8\u00d7 larger, spikier updates, while the rest get none.'));

  root.append(intro, controls, targetBox, lossLine, error, mapsNote, grid, explainBox, nudgeBox, stepBox, keysBox);

  // ---- events
  goal.addEventListener('change', () => { local.goal = goal.value; redraw(); });
  const cellInput = () => {
    local.cell = { i: Math.max(0, Number(cellRow.value) - 1 || 0), j: Math.max(0, Number(cellCol.value) - 1 || 0) };
    redraw();
  };
  cellRow.addEventListener('change', cellInput);
  cellCol.addEventListener('change', cellInput);
  zeroT.addEventListener('click', () => { local.target?.fill(0); local.losses = []; redraw(); });
  copyT.addEventListener('click', () => {
    if (context) local.target.set(context.grads.output.data);
    local.losses = [];
    redraw();
  });
  eps.addEventListener('change', () => { const v = Number(eps.value); if (v > 0) local.eps = v; redraw(); });
  lr.addEventListener('change', () => { const v = Number(lr.value); if (v >= 0) local.lr = v; });
  stepMatrix.addEventListener('change', () => { local.stepMatrix = stepMatrix.value; });
  threshold.addEventListener('change', () => { const v = Number(threshold.value); if (v > 0) { local.threshold = v; local.keys = null; redraw(); } });
  useQkv.addEventListener('click', () => update((s) => ({ ...s, mode: 'qkv' })));
  step.addEventListener('click', () => {
    if (!context || context.sentence) return;
    const name = local.stepMatrix;
    const grad = { Q: context.grads.gradQ, K: context.grads.gradK, V: context.grads.gradV }[name];
    local.losses.push(context.grads.loss);
    update((s) => ({ ...s, matrices: { ...s.matrices, [name]: stepped(s.matrices[name], grad, local.lr) } }));
  });

  function syncTarget(result) {
    const [n, dv] = result.head.output.shape;
    const shape = `${n}x${dv}`;
    if (shape !== local.targetShape) {
      local.targetShape = shape;
      local.target = new Float32Array(n * dv);
      local.targetCols = dv;
      local.losses = [];
      local.pick = null;
    }
    local.cell = { i: Math.min(local.cell.i, n - 1), j: Math.min(local.cell.j, dv - 1) };
  }

  function drawMaps(state, result, display, grads) {
    const { queries, keys } = result.labels;
    const cols = (t) => Array.from({ length: t.shape[1] }, (_, c) => String(c + 1));
    const padCols = state.mask.kind === 'padding' ? state.mask.pad : null;
    const tensors = { dO: grads.dO, dA: grads.dA, dS: grads.gradScores, dQ: grads.gradQ, dK: grads.gradK, dV: grads.gradV };
    for (const [key, , rowsOf] of MAPS) {
      const t = tensors[key];
      const square = rowsOf === 'scores';
      maps[key].update({
        tensor: t, rowLabels: rowsOf === 'k' ? keys : queries, colLabels: square ? keys : cols(t),
        hidden: square ? result.hidden : null, fullyMasked: rowsOf === 'k' ? null : result.fullyMasked,
        padCols: square ? padCols : null, padRows: rowsOf === 'k' ? padCols : null,
        clickable: key === 'dQ' || key === 'dK' || key === 'dV', ...display,
      });
    }
    const p = local.pick;
    for (const key of ['dQ', 'dK', 'dV'])
      maps[key].setHighlight({ cells: p && key === `d${p.matrix.toUpperCase()}` ? new Set([p.i * tensors[key].shape[1] + p.j]) : null });
  }

  function drawNudge(masks, grads) {
    const p = local.pick ?? steepestCell(grads);
    const r = nudge(attn, context.head, masks, local.goal, local.target, local.cell, grads, p, local.eps);
    const name = `${p.matrix.toUpperCase()}[${p.i + 1},${p.j + 1}]`;
    nudgeText.dataset.eps = String(r.eps);
    nudgeText.dataset.change = String(r.change);
    nudgeText.dataset.predicted = String(r.predicted);
    setText(nudgeText, `${name} + ${formatNumber(r.eps)}: the loss goes from ${formatNumber(r.before, 6)} to ${formatNumber(r.after, 6)}, ` +
      `a change of ${formatNumber(r.change)}; \u03b5 \u00d7 gradient = ${formatNumber(r.eps)} \u00d7 ${formatNumber(r.gradient)} = ${formatNumber(r.predicted)}.`);
  }

  function drawKeys() {
    if (!local.keys) local.keys = whichKeysLearn(attn, { threshold: local.threshold });
    const k = local.keys;
    setStat(keysScaled, k.scaled.keysLearning, `${k.scaled.keysLearning.toFixed(1)} `);
    setStat(keysUnscaled, k.unscaled.keysLearning, `${k.unscaled.keysLearning.toFixed(1)} `);
    setStat(normScaled, k.scaled.gradientNorm);
    setStat(normUnscaled, k.unscaled.gradientNorm);
    scaledRow.bar.style.width = `${(6 * k.scaled.keysLearning) / k.keys}rem`;
    unscaledRow.bar.style.width = `${(6 * k.unscaled.keysLearning) / k.keys}rem`;
  }

  function render(state, result, display) {
    last = [state, result, display];
    const fail = (message) => {
      error.textContent = message;
      error.hidden = false;
      grid.hidden = true;
    };
    drawKeys();
    if (result.error) return fail(`Cannot compute: ${result.error}`);
    syncTarget(result);
    goal.value = local.goal;
    cellFields.hidden = local.goal !== 'cell';
    targetBox.hidden = local.goal !== 'target';
    setIfIdle(cellRow, local.cell.i + 1);
    setIfIdle(cellCol, local.cell.j + 1);
    const [n, dv] = result.head.output.shape;
    cellRow.max = String(n);
    cellCol.max = String(dv);
    targetEditor.update({ matrix: { rows: n, cols: dv, data: local.target }, rowLabels: result.labels.queries, theme: display.theme });
    const masks = maskOptions(state);
    let grads;
    try {
      grads = headGradients(attn, result.head, masks, local.goal, local.target, local.cell);
    } catch (err) {
      return fail(`The core refused: ${err.message}`);
    }
    error.hidden = true;
    grid.hidden = false;
    context = { head: result.head, grads, goal: local.goal, target: local.target, cell: local.cell, hidden: result.hidden, sentence: result.dims.sentence };
    setStat(loss, grads.loss, formatNumber(grads.loss, 6));
    drawMaps(state, result, display, grads);
    drawNudge(masks, grads);
    step.disabled = result.dims.sentence;
    useQkv.hidden = !result.dims.sentence;
    setText(stepNote, result.dims.sentence
      ? 'Here Q, K and V are projections of X (sentence mode): switch the explorer to free Q, K, V to step on them directly.'
      : `Steps update ${local.stepMatrix} in the explorer\u2019s inputs above.`);
    const losses = [...local.losses, grads.loss];
    setStat(history, losses.length, losses.length > 1 ? `Loss after each step: ${losses.map((x) => formatNumber(x, 4)).join(' \u2192 ')}` : '');
    root.dataset.goal = local.goal;
    return undefined;
  }

  return { el: root, render };
}
