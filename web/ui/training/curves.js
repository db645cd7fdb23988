// Line charts of values over training steps (losses, head scores), drawn as SVG polylines. Each
// series also keeps its line style (solid, dashed, dotted), so the lines differ without colour,
// and the chart's accessible name and caption state the latest values in words. A chart may carry
// one horizontal reference line with its label (the loss of a uniform guess, ln V).
// Test hook: the reference line is line.chart-reference with data-value.
import { el, frameQueue, isCovered, onCoverChange, svg } from '../dom/dom.js';
import { english } from '../model/model.js';

const W = 320;
const H = 120;
const PAD = { left: 34, right: 6, top: 6, bottom: 18 };
// Past this many points a series is thinned to every other point, so a long run draws as fast:
// about one point per pixel of the chart's 320-unit width (a card's sparkline is drawn at about
// half of that; more points only cost paint time).
const MAX_POINTS = 400;
const MAX_POINTS_SMALL = 160;
const DRAW_MS = 250;

// The legend: each series' line style, its label and its latest value. Returns { legend, latest },
// latest being each series' value element by key.
function chartLegend(series) {
  const legend = el('span', 'chart-legend');
  const latest = new Map();
  for (const s of series) {
    const item = el('span', `legend-item line-${s.style}`);
    const swatch = svg('svg', { viewBox: '0 0 24 6', width: 24, height: 6, 'aria-hidden': 'true' });
    swatch.append(svg('line', { x1: 0, y1: 3, x2: 24, y2: 3 }, `chart-line line-${s.style}`));
    const value = el('span', 'legend-value', '–');
    latest.set(s.key, value);
    item.append(swatch, el('span', '', ` ${s.label} `), value);
    legend.append(item);
  }
  return { legend, latest };
}

/**
 * series: [{ key, label, style: 'a' | 'b' | 'c' }]; yMax: a fixed top of the y axis (scores: 1),
 * or null to follow the data; small: a card's sparkline (no axis labels but the range); format: a
 * value as the legend writes it (default 3 decimals); i18n: the view's translator.
 */
export function createLineChart({
  title,
  series,
  yMax = null,
  small = false,
  i18n = english,
  format = (v) => i18n.decimal(v.toFixed(3)),
}) {
  const root = el('figure', small ? 'line-chart small' : 'line-chart');
  const plot = svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': title });
  const grid = svg('g', {}, 'chart-grid');
  const lines = new Map(
    series.map((s) => [s.key, svg('polyline', { points: '', fill: 'none' }, `chart-line line-${s.style}`)]),
  );
  plot.append(grid, ...lines.values());
  const caption = el('figcaption', 'chart-caption');
  const { legend, latest } = chartLegend(series);
  const range = el('span', 'chart-range');
  const referenceKey = el('span', 'legend-item chart-reference-key');
  referenceKey.hidden = true;
  caption.append(el('span', 'chart-title', title), legend, referenceKey, range);
  root.append(plot, caption);
  onCoverChange(root, () => draw());
  let reference = null; // { value, label }

  let data = new Map(series.map((s) => [s.key, []]));
  let stride = 1; // every how many pushes a point is kept (doubles when thinned)
  let pushes = 0;
  let queued = false;
  let drawnAt = -Infinity;

  // At most one redraw per DRAW_MS: while training, points arrive faster than anyone reads them.
  function schedule() {
    if (queued) return;
    queued = true;
    const wait = Math.max(0, drawnAt + DRAW_MS - performance.now());
    // Drawn from the shared frame queue: the cards' charts and maps share frames, a few each.
    setTimeout(() => frameQueue().put(root, draw), wait);
  }

  let last = {}; // each series' latest finite value, shown in the legend

  function draw() {
    queued = false;
    drawnAt = performance.now();
    // A chart under a predict question's cover (a head's scores) draws no value and no line.
    const covered = isCovered(root);
    for (const [key, v] of Object.entries(last))
      if (latest.has(key)) latest.get(key).textContent = covered ? '–' : format(v);
    let maxStep = 1;
    let top = Math.max(yMax ?? 0, reference ? reference.value * 1.1 : 0);
    for (const points of data.values()) {
      for (const [x, y] of points) {
        maxStep = Math.max(maxStep, x);
        if (yMax === null && Number.isFinite(y)) top = Math.max(top, y);
      }
    }
    top = top > 0 ? top : 1;
    const sx = (W - PAD.left - PAD.right) / maxStep;
    const sy = (H - PAD.top - PAD.bottom) / top;
    for (const [key, points] of data) {
      const text = points
        .filter(([, y]) => Number.isFinite(y))
        .map(([x, y]) => `${(PAD.left + x * sx).toFixed(1)},${(H - PAD.bottom - Math.min(y, top) * sy).toFixed(1)}`)
        .join(' ');
      lines.get(key).setAttribute('points', covered ? '' : text);
    }
    grid.replaceChildren(
      svg('line', { x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom }),
      svg('line', { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom }),
    );
    if (reference) {
      const y = (H - PAD.bottom - Math.min(reference.value, top) * sy).toFixed(1);
      const line = svg('line', { x1: PAD.left, y1: y, x2: W - PAD.right, y2: y }, 'chart-reference');
      line.dataset.value = String(reference.value);
      grid.append(line);
    }
    if (!small) {
      const label = (x, y, text, anchor) => {
        const t = svg('text', { x, y, 'text-anchor': anchor });
        t.textContent = text;
        return t;
      };
      grid.append(
        label(PAD.left - 3, PAD.top + 8, i18n.decimal(top.toFixed(top < 2 ? 1 : 0)), 'end'),
        label(PAD.left - 3, H - PAD.bottom, '0', 'end'),
        label(W - PAD.right, H - 4, i18n.t('training.chart.step', { step: maxStep }), 'end'),
      );
    }
    range.textContent = i18n.t('training.chart.range', { last: maxStep });
  }

  return {
    el: root,
    /** A horizontal line at `value` named `label` in the caption (null: none). */
    setReference(value, label = '') {
      reference = value === null ? null : { value, label };
      referenceKey.hidden = !reference;
      if (reference) {
        const swatch = svg('svg', { viewBox: '0 0 24 6', width: 24, height: 6, 'aria-hidden': 'true' });
        swatch.append(svg('line', { x1: 0, y1: 3, x2: 24, y2: 3 }, 'chart-reference'));
        referenceKey.replaceChildren(swatch, el('span', '', ` ${label}`));
      }
      schedule();
    },
    /** Adds one point per series at `step`: values { key: number }. */
    push(step, values) {
      pushes += 1;
      for (const [key, v] of Object.entries(values)) if (Number.isFinite(v)) last[key] = v;
      if (pushes % stride !== 0) return;
      for (const [key, v] of Object.entries(values)) data.get(key)?.push([step, v]);
      if ([...data.values()].some((p) => p.length > (small ? MAX_POINTS_SMALL : MAX_POINTS))) {
        for (const [key, p] of data)
          data.set(
            key,
            p.filter((_, i) => i % 2 === 0),
          );
        stride *= 2;
      }
      schedule();
    },
    reset() {
      data = new Map(series.map((s) => [s.key, []]));
      stride = 1;
      pushes = 0;
      last = {};
      for (const v of latest.values()) v.textContent = '–';
      schedule();
    },
  };
}
