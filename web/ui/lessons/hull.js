// "Attention mixes, never invents": with 2-dimensional values, every value vector is a point in
// the plane, and every output row A[i]·V is a weighted average of them (weights ≥ 0, sum 1), so
// it lies inside their convex hull. The values and outputs are the core's; the hull is geometry.
// In Q, K, V mode a value point can be dragged (pointer or arrow keys): that edits V, and every
// panel of the explorer follows.
import { button, el, lessonPanel, linear, setAttrs, setText, svg } from './dom.js';
import { convexHull, insideHull, stackLabels } from './geometry.js';
import { formatNumber, subscript } from '../format.js';
import { dims, setCell } from '../state.js';

const SIZE = { w: 360, h: 300 };
const PAD = 28;
const round2 = (x) => Math.round(x * 100) / 100;

// Grid lines at a "nice" step covering [lo, hi].
function niceTicks(lo, hi, target = 5) {
  const raw = (hi - lo) / target || 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * p).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

export function createHullPanel({ update }) {
  const { root, intro } = lessonPanel('hull', 'Each output row is a weighted average of the value vectors: the weights are never negative and sum to 1. With two numbers per value (d\u1d65 = 2) the values are points in the plane, and every output lands inside the shape they span, their convex hull. Attention can only mix what the values offer.');
  const how = el('p', 'lesson-note');
  const convert = button('Use this example with d\u1d65 = 2');
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
  const table = el('table', 'lesson-table');
  table.dataset.table = 'hull-outputs';
  const caption = el('caption', '', 'Outputs, computed by the core');
  const thead = el('thead');
  const headRow = el('tr');
  for (const t of ['query', 'output (x, y)', 'inside the hull']) {
    const th = el('th', '', t);
    th.scope = 'col';
    headRow.append(th);
  }
  thead.append(headRow);
  const tbody = el('tbody');
  table.append(caption, thead, tbody);
  const verdict = el('p', 'lesson-summary');
  verdict.dataset.stat = 'hull-verdict';
  const figure = el('div', 'lesson-hull');
  const side = el('div', 'lesson-hull-side');
  side.append(verdict, table);
  figure.append(plot, side);
  root.append(intro, setup, legend, figure);

  let last = null;        // { state, result }
  let valueEls = [];      // { g, circle, label }
  let outputEls = [];
  let rowEls = [];
  let selected = 0;       // the query whose weights are drawn as spokes
  let frozen = null;      // the view while a point is dragged, so it does not move under the pointer
  let drag = null;        // { index, pointerId }

  const editable = () => last && last.state.mode === 'qkv' && dims(last.state).dv === 2;

  // A drag lands on the 0.01 grid; a key press moves by its step from the exact value (12
  // significant digits drop the noise of the float sum, so 0.1 + 0.2 reads 0.3).
  function moveValue(j, x, y, { byStep = false } = {}) {
    const r = byStep ? (v) => Number(v.toPrecision(12)) : round2;
    update((s) => setCell(setCell(s, 'V', j, 0, r(x)), 'V', j, 1, r(y)));
  }

  convert.addEventListener('click', () => {
    if (!last || last.result.error) return;
    const { result } = last;
    const h = result.head;
    const d = result.dims;
    // The exact values (not rounded), so the weights stay what they were.
    const take = (t, cols) => {
      const [rows, c] = t.shape;
      const data = [];
      for (let i = 0; i < rows; i++) for (let k = 0; k < cols; k++) data.push(k < c ? t.data[i * c + k] : 0);
      return { rows, cols, data };
    };
    const dk = h.q.shape[1];
    update((s) => ({
      ...s, mode: 'qkv', n: d.n, m: d.m, dk, dv: 2, headNames: [],
      matrices: { ...s.matrices, Q: take(h.q, dk), K: take(h.k, dk), V: take(h.v, 2) },
    }));
  });

  function toData(evt) {
    const ctm = plot.getScreenCTM();
    if (!ctm || !frozen) return null;
    const p = new DOMPoint(evt.clientX, evt.clientY).matrixTransform(ctm.inverse());
    return [frozen.xInv(p.x), frozen.yInv(p.y)];
  }

  function buildValues(m) {
    valueEls = Array.from({ length: m }, (_, j) => {
      const g = svg('g', { tabindex: 0, role: 'button', 'aria-roledescription': 'draggable point' }, 'value-point');
      g.dataset.index = String(j);
      const circle = svg('circle', { r: 9 });
      const label = svg('text', { 'text-anchor': 'middle' });
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
      const label = svg('text', { 'text-anchor': 'start' });
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
      const xy = el('td', 'mono');
      const inside = el('td');
      tr.append(th, xy, inside);
      return { tr, th, xy, inside };
    });
    tbody.replaceChildren(...rowEls.map((r) => r.tr));
  }

  function draw() {
    if (!last) return;
    const { state, result } = last;
    const fail = (text) => {
      setText(how, text);
      figure.hidden = true;
      legend.hidden = true;
    };
    if (result.error) return fail(`Cannot compute: ${result.error}`);
    const h = result.head;
    const dv = h.v.shape[1];
    convert.hidden = dv === 2 && state.mode === 'qkv';
    if (dv !== 2) {
      return fail(result.dims.multi
        ? `Each head here has ${dv} value dimensions. Set d_model = 2 \u00d7 heads (for example d_model 8 with 4 heads), or copy this head into Q, K, V mode with two value dimensions:`
        : `The values here have ${dv} dimensions. Set d\u1d65 = 2, or copy this example's Q and K (and the first two columns of V) into Q, K, V mode:`);
    }
    figure.hidden = false;
    legend.hidden = false;
    setText(how, state.mode === 'qkv'
      ? 'Drag a value point (or focus it and use the arrow keys; Shift for small steps): V changes, and every output moves with it, never leaving the hull.'
      : 'Here the values come from X\u00b7W_V. To drag them, copy this example into Q, K, V mode:');
    const V = h.v;
    const O = h.output;
    const m = V.shape[0];
    const n = O.shape[0];
    if (valueEls.length !== m) buildValues(m);
    if (outputEls.length !== n) buildOutputs(n);
    if (selected >= n) selected = 0;
    const vp = Array.from({ length: m }, (_, j) => [V.data[2 * j], V.data[2 * j + 1]]);
    const op = Array.from({ length: n }, (_, i) => [O.data[2 * i], O.data[2 * i + 1]]);

    // One scale for both axes, so the hull keeps its shape; frozen while dragging.
    if (!frozen) {
      const all = vp.concat(op);
      const xs = all.map((p) => p[0]);
      const ys = all.map((p) => p[1]);
      let [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      const span = Math.max(x1 - x0, y1 - y0, 0.5) * 1.3;
      const cx = (x0 + x1) / 2;
      const cy = (y0 + y1) / 2;
      const k = Math.min((SIZE.w - 2 * PAD) / span, (SIZE.h - 2 * PAD) / span);
      x0 = cx - (SIZE.w / 2) / k;
      x1 = cx + (SIZE.w / 2) / k;
      y0 = cy - (SIZE.h / 2) / k;
      y1 = cy + (SIZE.h / 2) / k;
      const view = {
        x: linear([x0, x1], [0, SIZE.w]), y: linear([y0, y1], [SIZE.h, 0]),
        xInv: linear([0, SIZE.w], [x0, x1]), yInv: linear([SIZE.h, 0], [y0, y1]), box: [x0, x1, y0, y1],
      };
      last.view = view;
    }
    const view = frozen ?? last.view;
    const { x, y } = view;
    const [x0, x1, y0, y1] = view.box;
    grid.replaceChildren(
      ...niceTicks(x0, x1).map((v) => svg('line', { x1: x(v), x2: x(v), y1: 0, y2: SIZE.h }, v === 0 ? 'axis' : 'gridline')),
      ...niceTicks(y0, y1).map((v) => svg('line', { x1: 0, x2: SIZE.w, y1: y(v), y2: y(v) }, v === 0 ? 'axis' : 'gridline')),
      ...niceTicks(x0, x1).filter((v) => v !== 0).map((v) => {
        const t = svg('text', { x: x(v), y: SIZE.h - 4, 'text-anchor': 'middle' });
        t.textContent = formatNumber(v, 3);
        return t;
      }),
      ...niceTicks(y0, y1).filter((v) => v !== 0).map((v) => {
        const t = svg('text', { x: 4, y: y(v) - 3 });
        t.textContent = formatNumber(v, 3);
        return t;
      }),
    );

    const hullPts = convexHull(vp);
    setAttrs(hull, { points: hullPts.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ') });
    hull.dataset.vertices = String(hullPts.length);

    const labels = result.labels;
    const canDrag = editable();
    vp.forEach((p, j) => {
      const v = valueEls[j];
      setAttrs(v.g, { transform: `translate(${x(p[0]).toFixed(1)} ${y(p[1]).toFixed(1)})` });
      setAttrs(v.label, { y: -13 });
      v.g.dataset.x = String(p[0]);
      v.g.dataset.y = String(p[1]);
      v.g.classList.toggle('fixed', !canDrag);
      v.g.setAttribute('aria-label', `v${subscript(j + 1)}: the value of ${labels.keys[j]}, at (${formatNumber(p[0], 3)}, ${formatNumber(p[1], 3)})${canDrag ? '. Arrow keys move it; Shift+arrow moves it a little.' : ''}`);
      if (!canDrag) v.g.setAttribute('aria-disabled', 'true');
      else v.g.removeAttribute('aria-disabled');
    });

    const span = Math.max(x1 - x0, y1 - y0);
    let outside = 0;
    // Outputs often land close together (the Mixing example): their names stack instead of overlapping.
    const LABEL_H = 12;
    const dys = stackLabels(op.map((p) => [x(p[0]), y(p[1])]), op.map((_, i) => 7 * labels.queries[i].length + 4), LABEL_H);
    op.forEach((p, i) => {
      const o = outputEls[i];
      const masked = result.fullyMasked.has(i);
      const inside = !masked && insideHull(hullPts, p, 1e-5 * span + 1e-6);
      if (!masked && !inside) outside++;
      setAttrs(o.g, { transform: `translate(${x(p[0]).toFixed(1)} ${y(p[1]).toFixed(1)})` });
      setAttrs(o.label, { x: 8, y: 4 + dys[i] });
      setText(o.label, labels.queries[i]);
      o.g.dataset.x = String(p[0]);
      o.g.dataset.y = String(p[1]);
      o.g.classList.toggle('selected', i === selected);
      o.g.classList.toggle('masked', masked);
      o.g.setAttribute('aria-label', `${labels.queries[i]}: its output, at (${formatNumber(p[0], 3)}, ${formatNumber(p[1], 3)}); show its weights`);
      o.g.setAttribute('aria-pressed', String(i === selected));
      const r = rowEls[i];
      setText(r.th, labels.queries[i]);
      setText(r.xy, `(${formatNumber(p[0], 4)}, ${formatNumber(p[1], 4)})`);
      setText(r.inside, masked ? 'no visible key: output 0' : inside ? 'yes' : 'no');
      r.inside.dataset.inside = String(inside);
      r.tr.classList.toggle('selected', i === selected);
    });

    // Spokes: how much of each value the selected output takes.
    const W = h.weights;
    const mCols = W.shape[1];
    const o = op[selected];
    spokes.replaceChildren(...vp.map((p, j) => {
      const w = W.data[selected * mCols + j];
      const line = svg('line', { x1: x(o[0]), y1: y(o[1]), x2: x(p[0]), y2: y(p[1]), 'stroke-width': (0.5 + 6 * w).toFixed(2), 'stroke-opacity': (0.15 + 0.85 * w).toFixed(2) }, 'spoke');
      line.dataset.weight = String(w);
      return line;
    }));
    setText(legend, `Circles: the values v\u2081\u2026v${subscript(m)}; diamonds: the outputs. Lines: the weights of \u201c${labels.queries[selected]}\u201d (thicker = more weight); pick another output to see its weights.`);
    setText(verdict, outside
      ? `${outside} output${outside > 1 ? 's lie' : ' lies'} outside the hull.`
      : `All ${n - result.fullyMasked.size} outputs lie inside the hull of the ${m} values.`);
    root.dataset.outside = String(outside);
    plot.setAttribute('aria-label', `Value vectors as points, their convex hull with ${hullPts.length} corners, and the ${n} outputs inside it`);
    return undefined;
  }

  return {
    el: root,
    render(state, result) {
      last = { ...last, state, result };
      draw();
    },
  };
}
