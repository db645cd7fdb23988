// "Gradients: how attention learns": the backward pass of the explorer's head, live. Pick a loss
// (reach a target output T, or one output cell); the sections below (gradients-sections.js) show
// dO, dA = dO·Vᵀ, dS, dQ, dK, dV as explained heatmaps, check one gradient against a nudge of its
// input, take gradient steps on Q, K or V (ten per click by default, each from its own backward
// pass), and measure which keys learn with and without ÷√dₖ.
// Every number comes from the core (gradients-math.js). The panel's own settings stay local.
// Test hooks: data-control on the controls, data-stat (+ data-value) on the numbers, heatmaps
// named grad-dO, grad-dA, grad-dS, grad-dQ, grad-dK, grad-dV.
import { button, el, field, sentence, setIfIdle, setText } from './dom.js';
import { headGradients } from './gradients-math.js';
import {
  createKeysSection,
  createMapsSection,
  createNudgeSection,
  createStepSection,
  numberField,
  select,
  setStat,
  stat,
} from './gradients-sections.js';
import { createMatrixEditor } from '../matrix-editor/matrix-editor.js';
import { english, formatNumber, maskOptions } from '../model/model.js';

// The loss: what to learn, the target T (editable) or the output cell, and L itself.
function createLossSection(local, redraw, i18n) {
  const { t } = i18n;
  const goal = select('grad-goal', [
    ['target', t('lessons.gradients.goal.target')],
    ['cell', t('lessons.gradients.goal.cell')],
  ]);
  const row = numberField('grad-cell-row', [1, 24], 1, 1);
  const col = numberField('grad-cell-col', [1, 64], 1, 1);
  const cellFields = el('div', 'lesson-inline');
  cellFields.append(field(t('lessons.gradients.row'), row), field(t('lessons.gradients.column'), col));
  const controls = el('div', 'lesson-controls');
  controls.append(field(t('lessons.gradients.goal'), goal, 'lesson-field wide'), cellFields);
  const editor = createMatrixEditor({
    name: 'grad-T',
    label: t('lessons.gradients.targetLabel'),
    i18n,
    onEdit: (_name, i, j, v) => {
      local.target[i * local.targetCols + j] = v;
      redraw();
    },
  });
  const zero = button('T = 0');
  const copy = button(t('lessons.gradients.copyOutput'));
  const buttons = el('div', 'lesson-inline');
  buttons.append(zero, copy);
  const targetBox = el('div', 'grad-target');
  targetBox.append(el('p', 'lesson-map-title', t('lessons.gradients.targetTitle')), editor.el, buttons);
  const loss = stat('grad-loss');
  const lossLine = el('p', 'lesson-summary');
  lossLine.append(...sentence(i18n, 'lessons.gradients.loss', {}, { loss }));
  const root = el('div');
  root.append(controls, targetBox, lossLine);

  goal.addEventListener('change', () => {
    local.goal = goal.value;
    local.changed();
  });
  const cellInput = () => {
    local.cell = { i: Math.max(0, Number(row.value) - 1 || 0), j: Math.max(0, Number(col.value) - 1 || 0) };
    local.changed();
  };
  row.addEventListener('change', cellInput);
  col.addEventListener('change', cellInput);
  zero.addEventListener('click', () => {
    local.target?.fill(0);
    local.changed();
  });
  copy.addEventListener('click', () => {
    if (local.output) local.target.set(local.output.data);
    local.changed();
  });

  return {
    el: root,
    draw(result, display, grads) {
      const [n, dv] = result.head.output.shape;
      goal.value = local.goal;
      cellFields.hidden = local.goal !== 'cell';
      targetBox.hidden = local.goal !== 'target';
      setIfIdle(row, local.cell.i + 1);
      setIfIdle(col, local.cell.j + 1);
      row.max = String(n);
      col.max = String(dv);
      editor.update({
        matrix: { rows: n, cols: dv, data: local.target },
        rowLabels: result.labels.queries,
        theme: display.theme,
      });
      if (grads) setStat(loss, grads.loss, formatNumber(grads.loss, 6), i18n);
    },
  };
}

export function createGradientsPanel({ attn, update, i18n = english }) {
  const { t } = i18n;
  const root = el('div', 'lesson-panel');
  root.dataset.lesson = 'gradients';
  let last = null; // the explorer's latest (state, result, display), to redraw after local edits
  const redraw = () => last && render(...last);
  const local = {
    goal: 'target',
    cell: { i: 0, j: 0 },
    target: null,
    targetShape: '',
    targetCols: 0,
    pick: null,
    output: null,
    changed: () => {
      steps.reset();
      redraw();
    }, // a new loss: the step history no longer applies
  };
  const intro = el('p', 'lesson-intro', t('lessons.gradients.intro'));
  const headNote = el('p', 'lesson-note');
  const error = el('p', 'error');
  error.hidden = true;
  const lossSection = createLossSection(local, redraw, i18n);
  const maps = createMapsSection((pick) => {
    local.pick = pick;
    redraw();
  }, i18n);
  const nudges = createNudgeSection(attn, i18n);
  const steps = createStepSection(update, attn, i18n);
  const keys = createKeysSection(attn, i18n);
  root.append(intro, headNote, lossSection.el, error, maps.el, nudges.el, steps.el, keys.el);

  // New sizes: a new zero target, and the picked cell and the step history are dropped.
  function syncSizes(result) {
    const [n, dv] = result.head.output.shape;
    if (`${n}x${dv}` !== local.targetShape) {
      local.targetShape = `${n}x${dv}`;
      local.target = new Float32Array(n * dv);
      local.targetCols = dv;
      local.pick = null;
      steps.reset();
    }
    local.cell = { i: Math.min(local.cell.i, n - 1), j: Math.min(local.cell.j, dv - 1) };
  }

  function render(state, result, display) {
    last = [state, result, display];
    keys.draw();
    const fail = (message) => {
      error.textContent = message;
      error.hidden = false;
      maps.el.hidden = true;
      nudges.el.hidden = true;
      steps.el.hidden = true;
    };
    if (result.error) return fail(t('lessons.error.compute', { error: result.error }));
    syncSizes(result);
    const masks = maskOptions(state);
    let grads;
    try {
      grads = headGradients(attn, result.head, masks, local.goal, local.target, local.cell);
    } catch (err) {
      lossSection.draw(result, display, null);
      return fail(t('lessons.error.refused', { error: err.message }));
    }
    error.hidden = true;
    maps.el.hidden = false;
    nudges.el.hidden = false;
    steps.el.hidden = false;
    local.output = grads.output;
    lossSection.draw(result, display, grads);
    const context = {
      head: result.head,
      grads,
      goal: local.goal,
      target: local.target,
      cell: local.cell,
      hidden: result.hidden,
    };
    maps.draw(state, result, display, context, local.pick);
    nudges.draw(context, masks, local.pick);
    steps.draw(grads, result.dims.sentence, {
      head: result.head,
      masks,
      goal: local.goal,
      target: local.target,
      cell: local.cell,
    });
    setText(headNote, result.dims.multi ? t('lessons.gradients.headNote', { head: result.head.index + 1 }) : '');
    headNote.hidden = !result.dims.multi;
    root.dataset.goal = local.goal;
    return undefined;
  }

  return { el: root, render };
}
