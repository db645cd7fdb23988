// "Attention mixes, never invents": with 2-dimensional values, every value vector is a point in
// the plane, and every output row A[i]·V is a weighted average of them (weights ≥ 0, sum 1), so
// it lies inside their convex hull. The values and outputs are the core's; the hull is geometry.
// In Q, K, V mode a value point can be dragged (pointer or arrow keys): that edits V, and every
// panel of the explorer follows.
import { button, el, lessonPanel, setSentence, setText, svg, userText } from './dom.js';
import { convexHull } from './geometry.js';
import { drawGrid, drawHull, drawSpokes, fitView, placeOutputs, placeValues, SIZE } from './hull-plot.js';
import { dims, english, setCell, subscript } from '../model/model.js';

const round2 = (x) => Math.round(x * 100) / 100;

// The table of outputs: one row per query, filled by placeOutputs.
function outputsTable({ t }) {
  const table = el('table', 'lesson-table');
  table.dataset.table = 'hull-outputs';
  const caption = el('caption', '', t('lessons.hull.tableCaption'));
  const thead = el('thead');
  const headRow = el('tr');
  for (const key of ['query', 'output', 'inside']) {
    const th = el('th', '', t(`lessons.hull.column.${key}`));
    th.scope = 'col';
    headRow.append(th);
  }
  thead.append(headRow);
  const tbody = el('tbody');
  table.append(caption, thead, tbody);
  return { table, tbody };
}

// The panel's elements: the mode note and its convert button, the plot's layers (values on top,
// so they can be grabbed), the legend, the verdict and the table.
function hullPanelParts(i18n) {
  const { t } = i18n;
  const { root, intro } = lessonPanel('hull', t('lessons.hull.intro'));
  const how = el('p', 'lesson-note');
  const convert = button(t('lessons.hull.convert'));
  const setup = el('div', 'lesson-inline');
  setup.append(how, convert);

  const plot = svg('svg', { viewBox: `0 0 ${SIZE.w} ${SIZE.h}`, role: 'group', 'data-plot': '' }, 'plot hull-plot');
  const grid = svg('g', {}, 'ticks');
  const hull = svg('polygon', {}, 'hull');
  const spokes = svg('g', {}, 'spokes');
  const valuesG = svg('g', {}, 'values');
  const outputsG = svg('g', {}, 'outputs');
  plot.append(grid, hull, spokes, outputsG, valuesG);
  const legend = el('p', 'lesson-note hull-legend');
  const { table, tbody } = outputsTable(i18n);
  const verdict = el('p', 'lesson-summary');
  verdict.dataset.stat = 'hull-verdict';
  const figure = el('div', 'lesson-hull');
  const side = el('div', 'lesson-hull-side');
  side.append(verdict, table);
  figure.append(plot, side);
  root.append(intro, setup, legend, figure);
  return { root, how, convert, plot, grid, hull, spokes, valuesG, outputsG, legend, tbody, verdict, figure };
}

// The update that copies a computed example into Q, K, V mode with two value dimensions (the
// first two columns of V, zero-padded). The exact values (not rounded), so the weights stay what
// they were.
function copyWithTwoValueDims(result) {
  const h = result.head;
  const d = result.dims;
  const take = (t, cols) => {
    const [rows, c] = t.shape;
    const data = [];
    for (let i = 0; i < rows; i++) for (let k = 0; k < cols; k++) data.push(k < c ? t.data[i * c + k] : 0);
    return { rows, cols, data };
  };
  const dk = h.q.shape[1];
  return (s) => ({
    ...s,
    mode: 'qkv',
    n: d.n,
    m: d.m,
    dk,
    dv: 2,
    headNames: [],
    matrices: { ...s.matrices, Q: take(h.q, dk), K: take(h.k, dk), V: take(h.v, 2) },
  });
}

export function createHullPanel({ update, i18n = english }) {
  const { t } = i18n;
  const { root, how, convert, plot, grid, hull, spokes, valuesG, outputsG, legend, tbody, verdict, figure } =
    hullPanelParts(i18n);

  const legendQuery = userText('');
  let last = null; // { state, result }
  let valueEls = []; // { g, circle, label }
  let outputEls = [];
  let rowEls = [];
  let selected = 0; // the query whose weights are drawn as spokes
  let frozen = null; // the view while a point is dragged, so it does not move under the pointer
  let drag = null; // { index, pointerId }

  const editable = () => last && last.state.mode === 'qkv' && dims(last.state).dv === 2;

  // A drag lands on the 0.01 grid; a key press moves by its step from the exact value (12
  // significant digits drop the noise of the float sum, so 0.1 + 0.2 reads 0.3).
  function moveValue(j, x, y, { byStep = false } = {}) {
    const r = byStep ? (v) => Number(v.toPrecision(12)) : round2;
    update((s) => setCell(setCell(s, 'V', j, 0, r(x)), 'V', j, 1, r(y)));
  }

  convert.addEventListener('click', () => {
    if (!last || last.result.error) return;
    update(copyWithTwoValueDims(last.result));
  });

  function toData(evt) {
    const ctm = plot.getScreenCTM();
    if (!ctm || !frozen) return null;
    const p = new DOMPoint(evt.clientX, evt.clientY).matrixTransform(ctm.inverse());
    return [frozen.xInv(p.x), frozen.yInv(p.y)];
  }

  function buildValues(m) {
    valueEls = Array.from({ length: m }, (_, j) => {
      const g = svg(
        'g',
        { tabindex: 0, role: 'button', 'aria-roledescription': t('lessons.hull.draggable') },
        'value-point',
      );
      g.dataset.index = String(j);
      const circle = svg('circle', { r: 9 });
      const label = svg('text', { 'text-anchor': 'middle', translate: 'no' });
      label.textContent = `v${subscript(j + 1)}`;
      g.append(circle, label);
      g.addEventListener('pointerdown', (e) => {
        if (!editable()) return;
        e.preventDefault();
        g.setPointerCapture(e.pointerId);
        g.focus();
        drag = { index: j, pointerId: e.pointerId };
        frozen = last.view;
        g.classList.add('dragging');
      });
      g.addEventListener('pointermove', (e) => {
        if (!drag || drag.pointerId !== e.pointerId) return;
        const p = toData(e);
        if (p) moveValue(j, p[0], p[1]);
      });
      const end = (e) => {
        if (!drag || drag.pointerId !== e.pointerId) return;
        drag = null;
        g.classList.remove('dragging');
        frozen = null;
        draw();
      };
      g.addEventListener('pointerup', end);
      g.addEventListener('pointercancel', end);
      g.addEventListener('keydown', (e) => {
        const step = e.shiftKey ? 0.01 : 0.1;
        const move = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[e.key];
        if (!move || !editable()) return;
        e.preventDefault();
        const V = last.state.matrices.V;
        moveValue(j, V.data[j * 2] + move[0], V.data[j * 2 + 1] + move[1], { byStep: true });
      });
      return { g, circle, label };
    });
    valuesG.replaceChildren(...valueEls.map((v) => v.g));
  }

  function buildOutputs(n) {
    outputEls = Array.from({ length: n }, (_, i) => {
      const g = svg('g', { tabindex: 0, role: 'button' }, 'output-point');
      g.dataset.row = String(i);
      const mark = svg('rect', { width: 9, height: 9, x: -4.5, y: -4.5, transform: 'rotate(45)' });
      const label = svg('text', { 'text-anchor': 'start', translate: 'no' });
      g.append(mark, label);
      const pick = () => {
        selected = i;
        draw();
      };
      g.addEventListener('click', pick);
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          pick();
        }
      });
      return { g, mark, label };
    });
    outputsG.replaceChildren(...outputEls.map((o) => o.g));
    rowEls = Array.from({ length: n }, () => {
      const tr = el('tr');
      const th = el('th');
      th.scope = 'row';
      th.translate = false;
      const xy = el('td', 'mono');
      const inside = el('td');
      tr.append(th, xy, inside);
      return { tr, th, xy, inside };
    });
    tbody.replaceChildren(...rowEls.map((r) => r.tr));
  }

  const fail = (text) => {
    setText(how, text);
    figure.hidden = true;
    legend.hidden = true;
  };

  // Says what the plot needs (or how to drag); false when the values are not points in the plane.
  function explain(state, result) {
    if (result.error) {
      fail(t('lessons.error.compute', { error: result.error }));
      return false;
    }
    const dv = result.head.v.shape[1];
    convert.hidden = dv === 2 && state.mode === 'qkv';
    if (dv !== 2) {
      fail(t(result.dims.multi ? 'lessons.hull.headDims' : 'lessons.hull.valueDims', { count: dv }));
      return false;
    }
    figure.hidden = false;
    legend.hidden = false;
    setText(how, t(state.mode === 'qkv' ? 'lessons.hull.drag' : 'lessons.hull.fromX'));
    return true;
  }

  function draw() {
    if (!last) return;
    const { state, result } = last;
    if (!explain(state, result)) return;
    const h = result.head;
    const V = h.v;
    const O = h.output;
    const m = V.shape[0];
    const n = O.shape[0];
    if (valueEls.length !== m) buildValues(m);
    if (outputEls.length !== n) buildOutputs(n);
    if (selected >= n) selected = 0;
    const vp = Array.from({ length: m }, (_, j) => [V.data[2 * j], V.data[2 * j + 1]]);
    const op = Array.from({ length: n }, (_, i) => [O.data[2 * i], O.data[2 * i + 1]]);

    // The view is frozen while dragging, so the point does not move under the pointer.
    if (!frozen) last.view = fitView(vp.concat(op));
    const view = frozen ?? last.view;
    drawGrid(grid, view, i18n);
    const hullPts = convexHull(vp);
    drawHull(hull, hullPts, view);
    const labels = result.labels;
    placeValues(valueEls, vp, view, labels.keys, editable(), i18n);
    const outside = placeOutputs({ outputEls, rowEls }, op, {
      view,
      hullPts,
      queries: labels.queries,
      fullyMasked: result.fullyMasked,
      selected,
      i18n,
    });
    drawSpokes(spokes, h.weights, selected, { op, vp }, view);
    setText(legendQuery, labels.queries[selected]);
    setSentence(legend, i18n, 'lessons.hull.legend', { last: `v${subscript(m)}` }, { query: legendQuery });
    setText(
      verdict,
      outside
        ? t('lessons.hull.outside', { count: outside })
        : t('lessons.hull.inside', { count: n - result.fullyMasked.size, values: m }),
    );
    root.dataset.outside = String(outside);
    plot.setAttribute('aria-label', t('lessons.hull.plotLabel', { corners: hullPts.length, count: n }));
  }

  return {
    el: root,
    render(state, result) {
      last = { ...last, state, result };
      draw();
    },
  };
}
