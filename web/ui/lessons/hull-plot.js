// The drawing of the "mixes, never invents" plot: its view (one scale for both axes), grid, hull
// polygon, value and output points with their table rows, and the weight spokes. Each function
// updates elements the panel built; none reads or changes the explorer's state.
import { linear, point, setAttrs, setText, svg } from './dom.js';
import { insideHull, stackLabels } from './geometry.js';
import { english, formatNumber, subscript } from '../model/model.js';

export const SIZE = { w: 360, h: 300 };
const PAD = 28;

// Grid lines at a "nice" step covering [lo, hi].
function niceTicks(lo, hi, target = 5) {
  const raw = (hi - lo) / target || 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * p).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

const at = ({ x, y }, p) => `translate(${x(p[0]).toFixed(1)} ${y(p[1]).toFixed(1)})`;

/**
 * The view of the points: one scale for both axes, so the hull keeps its shape, centred on the
 * points with a margin. { x, y } map data to the plot, { xInv, yInv } back; box is the data range.
 */
export function fitView(points) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  let [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const span = Math.max(x1 - x0, y1 - y0, 0.5) * 1.3;
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const k = Math.min((SIZE.w - 2 * PAD) / span, (SIZE.h - 2 * PAD) / span);
  x0 = cx - SIZE.w / 2 / k;
  x1 = cx + SIZE.w / 2 / k;
  y0 = cy - SIZE.h / 2 / k;
  y1 = cy + SIZE.h / 2 / k;
  return {
    x: linear([x0, x1], [0, SIZE.w]),
    y: linear([y0, y1], [SIZE.h, 0]),
    xInv: linear([0, SIZE.w], [x0, x1]),
    yInv: linear([SIZE.h, 0], [y0, y1]),
    box: [x0, x1, y0, y1],
  };
}

/** Grid lines (the axes drawn as such) and their numbers. */
export function drawGrid(grid, { x, y, box: [x0, x1, y0, y1] }, i18n = english) {
  grid.replaceChildren(
    ...niceTicks(x0, x1).map((v) =>
      svg('line', { x1: x(v), x2: x(v), y1: 0, y2: SIZE.h }, v === 0 ? 'axis' : 'gridline'),
    ),
    ...niceTicks(y0, y1).map((v) =>
      svg('line', { x1: 0, x2: SIZE.w, y1: y(v), y2: y(v) }, v === 0 ? 'axis' : 'gridline'),
    ),
    ...niceTicks(x0, x1)
      .filter((v) => v !== 0)
      .map((v) => {
        const t = svg('text', { x: x(v), y: SIZE.h - 4, 'text-anchor': 'middle' });
        t.textContent = i18n.decimal(formatNumber(v, 3));
        return t;
      }),
    ...niceTicks(y0, y1)
      .filter((v) => v !== 0)
      .map((v) => {
        const t = svg('text', { x: 4, y: y(v) - 3 });
        t.textContent = i18n.decimal(formatNumber(v, 3));
        return t;
      }),
  );
}

/** The hull polygon through `hullPts` (data-vertices = their count). */
export function drawHull(hull, hullPts, { x, y }) {
  setAttrs(hull, { points: hullPts.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ') });
  hull.dataset.vertices = String(hullPts.length);
}

/** Moves the value points to `vp`; when they cannot be dragged they say so (class, aria). */
export function placeValues(valueEls, vp, view, keys, canDrag, i18n = english) {
  vp.forEach((p, j) => {
    const v = valueEls[j];
    setAttrs(v.g, { transform: at(view, p) });
    setAttrs(v.label, { y: -13 });
    v.g.dataset.x = String(p[0]);
    v.g.dataset.y = String(p[1]);
    v.g.classList.toggle('fixed', !canDrag);
    const say = canDrag ? 'lessons.hull.valuePointDrag' : 'lessons.hull.valuePoint';
    v.g.setAttribute(
      'aria-label',
      i18n.t(say, {
        name: `v${subscript(j + 1)}`,
        key: keys[j],
        point: point(i18n, formatNumber(p[0], 3), formatNumber(p[1], 3)),
      }),
    );
    if (!canDrag) v.g.setAttribute('aria-disabled', 'true');
    else v.g.removeAttribute('aria-disabled');
  });
}

/**
 * Moves the output points to `op` and fills their table rows, marking the selected one and
 * those with no visible key. Returns how many outputs lie outside the hull.
 */
export function placeOutputs(
  { outputEls, rowEls },
  op,
  { view, hullPts, queries, fullyMasked, selected, i18n = english },
) {
  const {
    x,
    y,
    box: [x0, x1, y0, y1],
  } = view;
  const span = Math.max(x1 - x0, y1 - y0);
  let outside = 0;
  // Outputs often land close together (the Mixing example): their names stack instead of overlapping.
  const LABEL_H = 12;
  const dys = stackLabels(
    op.map((p) => [x(p[0]), y(p[1])]),
    op.map((_, i) => 7 * queries[i].length + 4),
    LABEL_H,
  );
  op.forEach((p, i) => {
    const o = outputEls[i];
    const masked = fullyMasked.has(i);
    const inside = !masked && insideHull(hullPts, p, 1e-5 * span + 1e-6);
    if (!masked && !inside) outside++;
    setAttrs(o.g, { transform: at(view, p) });
    setAttrs(o.label, { x: 8, y: 4 + dys[i] });
    setText(o.label, queries[i]);
    o.g.dataset.x = String(p[0]);
    o.g.dataset.y = String(p[1]);
    o.g.classList.toggle('selected', i === selected);
    o.g.classList.toggle('masked', masked);
    o.g.setAttribute(
      'aria-label',
      i18n.t('lessons.hull.outputPoint', {
        query: queries[i],
        point: point(i18n, formatNumber(p[0], 3), formatNumber(p[1], 3)),
      }),
    );
    o.g.setAttribute('aria-pressed', String(i === selected));
    fillRow(rowEls[i], queries[i], p, { masked, inside, selected: i === selected }, i18n);
  });
  return outside;
}

function fillRow(r, query, p, { masked, inside, selected }, i18n) {
  setText(r.th, query);
  setText(r.xy, point(i18n, formatNumber(p[0], 4), formatNumber(p[1], 4)));
  setText(r.inside, i18n.t(masked ? 'lessons.hull.noKey' : inside ? 'lessons.hull.yes' : 'lessons.hull.no'));
  r.inside.dataset.inside = String(inside);
  r.tr.classList.toggle('selected', selected);
}

/** Spokes: how much of each value (weights W) the selected output takes. */
export function drawSpokes(spokes, W, selected, { op, vp }, { x, y }) {
  const mCols = W.shape[1];
  const o = op[selected];
  spokes.replaceChildren(
    ...vp.map((p, j) => {
      const w = W.data[selected * mCols + j];
      const line = svg(
        'line',
        {
          x1: x(o[0]),
          y1: y(o[1]),
          x2: x(p[0]),
          y2: y(p[1]),
          'stroke-width': (0.5 + 6 * w).toFixed(2),
          'stroke-opacity': (0.15 + 0.85 * w).toFixed(2),
        },
        'spoke',
      );
      line.dataset.weight = String(w);
      return line;
    }),
  );
}
