// The sections of the "Gradients" lesson below its loss: the backward pass as explained heatmaps,
// the nudge check, the gradient step and "which keys learn?". Each is { el, draw(...) }; the
// numbers come from gradients-math.js (the core), the explanations from gradients-explain.js.
import { button, el, field, numberInput, setText } from './dom.js';
import { descend, nudge, steepestCell, whichKeysLearn } from './gradients-math.js';
import { explainGradient } from './gradients-explain.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { english, formatNumber } from '../model/model.js';

// key, formula (its title), what its rows are (queries or keys) and whether its columns are keys
const MAPS = [
  ['dO', 'dO = ∂L/∂O', 'queries', false],
  ['dA', 'dA = dO·Vᵀ', 'queries', true],
  ['dS', 'dS = A ⊙ (dA − rowsum(dO ⊙ O))', 'queries', true],
  ['dQ', 'dQ = scale·dS·K', 'queries', false],
  ['dK', 'dK = scale·dSᵀ·Q', 'keys', false],
  ['dV', 'dV = Aᵀ·dO', 'keys', false],
];
const PICKABLE = new Set(['dQ', 'dK', 'dV']);

export function stat(name, className = 'lesson-stat') {
  const out = el('output', className);
  out.dataset.stat = name;
  return out;
}

export function setStat(out, value, text = formatNumber(value), i18n = english) {
  text = i18n.decimal(text);
  out.dataset.value = String(value);
  setText(out, text);
}

export function select(name, options) {
  const s = el('select');
  s.dataset.control = name;
  for (const [value, text] of options) {
    const o = el('option', '', text);
    o.value = value;
    s.append(o);
  }
  return s;
}

export function numberField(name, range, step, value) {
  const input = numberInput(range, step);
  input.dataset.control = name;
  input.value = String(value);
  input.inputMode = 'decimal';
  return input;
}

/** dO, dA, dS, dQ, dK, dV as heatmaps; hovering explains a cell, clicking dQ/dK/dV picks it. */
export function createMapsSection(onPick, i18n = english) {
  const { t } = i18n;
  const root = el('div');
  const note = el('p', 'lesson-note', t('lessons.gradients.mapsNote'));
  const title = el('h4', 'explain-title', t('lessons.gradients.explainTitle'));
  const body = el('div', 'explain-body');
  body.setAttribute('aria-live', 'polite');
  body.append(el('p', 'explain-idle', t('lessons.gradients.explainIdle')));
  const explainBox = el('div', 'explain grad-explain');
  explainBox.append(title, body);
  let context = null;
  const explain = (key, i, j) => {
    if (!context) return;
    const e = explainGradient(key, i, j, context, i18n);
    setText(title, e.title);
    body.replaceChildren(
      ...e.lines.map((l) => {
        const p = el('p', `explain-${l.kind}`, l.text);
        p.translate = l.words; // a formula with the numbers in it
        return p;
      }),
    );
  };
  const maps = {};
  const grid = el('div', 'grad-maps');
  for (const [key, label] of MAPS) {
    const box = el('div', 'grad-map');
    maps[key] = createHeatmap({
      name: `grad-${key}`,
      label: t('lessons.gradients.mapLabel', { formula: label }),
      kind: 'diverging',
      i18n,
      onInspect: (i, j) => explain(key, i, j),
      onActivate: PICKABLE.has(key) ? (i, j) => onPick({ matrix: key[1].toLowerCase(), i, j }) : undefined,
    });
    const mapTitle = el('p', 'lesson-map-title', label);
    mapTitle.translate = false;
    box.append(mapTitle, maps[key].el);
    grid.append(box);
  }
  root.append(note, grid, explainBox);

  return {
    el: root,
    /** ctx: { head, grads, goal, target, cell, hidden } (also what the explanations read). */
    draw(state, result, display, ctx, pick) {
      context = ctx;
      const { queries, keys } = result.labels;
      const g = ctx.grads;
      const tensors = { dO: g.dO, dA: g.dA, dS: g.gradScores, dQ: g.gradQ, dK: g.gradK, dV: g.gradV };
      const padCols = state.mask.kind === 'padding' ? state.mask.pad : null;
      for (const [key, , rows, keyCols] of MAPS) {
        const t = tensors[key];
        maps[key].update({
          tensor: t,
          rowLabels: rows === 'keys' ? keys : queries,
          colLabels: keyCols ? keys : Array.from({ length: t.shape[1] }, (_, c) => String(c + 1)),
          hidden: keyCols ? result.hidden : null,
          fullyMasked: rows === 'keys' ? null : result.fullyMasked,
          padCols: keyCols ? padCols : null,
          padRows: rows === 'keys' ? padCols : null,
          clickable: PICKABLE.has(key),
          ...display,
        });
        const picked = pick && key === `d${pick.matrix.toUpperCase()}`;
        if (PICKABLE.has(key))
          maps[key].setHighlight({ cells: picked ? new Set([pick.i * t.shape[1] + pick.j]) : null });
      }
    },
  };
}

/** ΔL after adding ε to one input, next to ε × gradient. */
export function createNudgeSection(attn, i18n = english) {
  const { t } = i18n;
  const num = (v, digits) => i18n.decimal(formatNumber(v, digits));
  let eps = 1e-3;
  let last = null;
  const input = numberField('grad-eps', [1e-6, 1], 'any', eps);
  const text = stat('grad-nudge', 'grad-sentence');
  const root = el('div', 'lesson-gap');
  root.append(
    el('h4', '', t('lessons.gradients.nudgeTitle')),
    field('ε', input),
    el('p', 'lesson-note', t('lessons.gradients.nudgeNote')),
    text,
  );
  function draw(ctx, masks, pick) {
    last = [ctx, masks, pick];
    const p = pick ?? steepestCell(ctx.grads);
    const r = nudge(attn, ctx.head, masks, ctx.goal, ctx.target, ctx.cell, ctx.grads, p, eps);
    Object.assign(text.dataset, { eps: String(r.eps), change: String(r.change), predicted: String(r.predicted) });
    setText(
      text,
      t('lessons.gradients.nudge', {
        cell: `${p.matrix.toUpperCase()}[${p.i + 1},${p.j + 1}]`,
        eps: num(r.eps),
        before: num(r.before, 6),
        after: num(r.after, 6),
        change: num(r.change),
        gradient: num(r.gradient),
        predicted: num(r.predicted),
      }),
    );
  }
  input.addEventListener('change', () => {
    const v = Number(input.value);
    if (v > 0) eps = v;
    if (last) draw(...last);
  });
  return { el: root, draw };
}

// The losses of one click, in words: all of them for a few steps, else the first three and the last.
function stepsText(losses, i18n) {
  const shown = losses.length <= 6 ? losses : [...losses.slice(0, 3), null, losses.at(-1)];
  const change = ((losses.at(-1) - losses[0]) / Math.abs(losses[0] || 1)) * 100;
  return i18n.decimal(
    `${shown.map((x) => (x === null ? '…' : formatNumber(x, 4))).join(' → ')} (${change >= 0 ? '+' : '−'}${Math.abs(change).toFixed(1)} %)`,
  );
}

/**
 * Steps of gradient descent on Q, K or V, written back into the explorer's state. One click takes
 * `steps per click` steps (10 by default: one step at this learning rate moves the loss by a few
 * per cent at most, too little to see), each from a fresh backward pass; the panel lists the
 * losses of the click and of every click so far.
 */
export function createStepSection(update, attn, i18n = english) {
  const { t } = i18n;
  let lr = 0.5;
  let count = 10;
  let context = null; // the head and the loss the gradients were taken for
  const clicks = []; // the loss before the first click, then after each
  const matrix = select('grad-step-matrix', [
    ['Q', 'Q'],
    ['K', 'K'],
    ['V', 'V'],
  ]);
  const rate = numberField('grad-lr', [0, 100], 'any', lr);
  const perClick = numberField('grad-steps', [1, 100], 1, count);
  const step = button(t('lessons.gradients.takeSteps', { count }), 'small-button');
  step.dataset.control = 'grad-step';
  const note = el('p', 'lesson-note');
  const useQkv = button(t('lessons.gradients.useQkv'));
  useQkv.dataset.control = 'grad-use-qkv';
  const noteRow = el('div', 'lesson-inline');
  noteRow.append(note, useQkv);
  const last = stat('grad-steps-taken', 'grad-sentence');
  const history = stat('grad-history', 'grad-sentence');
  const controls = el('div', 'lesson-controls');
  controls.append(
    field(t('lessons.gradients.update'), matrix),
    field(t('lessons.gradients.rate'), rate),
    field(t('lessons.gradients.perClick'), perClick),
    step,
  );
  const root = el('div', 'lesson-gap');
  root.append(
    el('h4', '', t('lessons.gradients.stepsTitle')),
    el('p', 'lesson-note', t('lessons.gradients.stepsNote')),
    controls,
    noteRow,
    last,
    history,
  );
  rate.addEventListener('change', () => {
    const v = Number(rate.value);
    if (v >= 0) lr = v;
  });
  perClick.addEventListener('change', () => {
    const v = Math.round(Number(perClick.value));
    if (v >= 1 && v <= 100) count = v;
    setText(step, t('lessons.gradients.takeSteps', { count }));
  });
  useQkv.addEventListener('click', () => update((s) => ({ ...s, mode: 'qkv' })));
  step.addEventListener('click', () => {
    if (!context) return;
    const name = matrix.value;
    const { head, masks, goal, target, cell } = context;
    const { values, losses } = descend(attn, head, masks, goal, target, cell, name, lr, count);
    if (!clicks.length) clicks.push(losses[0]);
    clicks.push(losses.at(-1));
    last.dataset.losses = losses.join(' ');
    setStat(
      last,
      losses.at(-1),
      t('lessons.gradients.stepsTaken', { count: losses.length - 1, matrix: name, losses: stepsText(losses, i18n) }),
    );
    update((s) => ({ ...s, matrices: { ...s.matrices, [name]: { ...s.matrices[name], data: values } } }));
  });
  return {
    el: root,
    /** Forget the loss history (a new loss or new sizes). */
    reset() {
      clicks.length = 0;
      setStat(last, 0, '');
    },
    /** g: the gradients shown; ctx: { head, masks, goal, target, cell } they were taken for. */
    draw(g, sentence, ctx) {
      // Projections of X have no steps here: what was stepped before no longer applies.
      if (sentence && clicks.length) this.reset();
      context = sentence ? null : ctx;
      step.disabled = sentence;
      useQkv.hidden = !sentence;
      setText(
        note,
        sentence ? t('lessons.gradients.projected') : t('lessons.gradients.stepsUpdate', { matrix: matrix.value }),
      );
      const losses = i18n.decimal(clicks.map((x) => formatNumber(x, 4)).join(' → '));
      setStat(history, clicks.length, clicks.length > 1 ? t('lessons.gradients.history', { losses }) : '');
    },
  };
}

/** d_k = 64: how many of 64 keys get |dS| above a threshold, with and without ÷√d_k. */
export function createKeysSection(attn, i18n = english) {
  const { t } = i18n;
  let threshold = 1e-3;
  let result = null;
  const input = numberField('grad-threshold', [1e-9, 1], 'any', threshold);
  const table = el('table', 'grad-keys');
  const head = el('tr');
  for (const key of ['scores', 'keys', 'norm']) head.append(el('th', '', t(`lessons.gradients.keys.column.${key}`)));
  table.append(head);
  const row = (label, key) => {
    const count = stat(`keys-${key}`),
      norm = stat(`norm-${key}`),
      bar = el('span', 'grad-bar');
    const tr = el('tr');
    const countCell = el('td');
    countCell.append(count, bar);
    const normCell = el('td');
    normCell.append(norm);
    tr.append(el('th', '', label), countCell, normCell);
    table.append(tr);
    return { count, norm, bar };
  };
  const rows = {
    scaled: row(t('lessons.gradients.keys.scaled'), 'scaled'),
    unscaled: row(t('lessons.gradients.keys.unscaled'), 'unscaled'),
  };
  const root = el('div', 'lesson-gap');
  root.append(
    el('h4', '', t('lessons.gradients.keys.title')),
    el('p', 'lesson-note', t('lessons.gradients.keys.note')),
    field(t('lessons.gradients.keys.threshold'), input),
    table,
    el('p', 'lesson-note', t('lessons.gradients.keys.norm')),
  );
  function draw() {
    if (!result) result = whichKeysLearn(attn, { threshold });
    for (const key of ['scaled', 'unscaled']) {
      const r = result[key];
      setStat(rows[key].count, r.keysLearning, `${r.keysLearning.toFixed(1)} `, i18n);
      setStat(rows[key].norm, r.gradientNorm, formatNumber(r.gradientNorm), i18n);
      rows[key].bar.style.width = `${(6 * r.keysLearning) / result.keys}rem`;
    }
  }
  input.addEventListener('change', () => {
    const v = Number(input.value);
    if (!(v > 0)) return;
    threshold = v;
    result = null;
    draw();
  });
  return { el: root, draw };
}
