// Inline SVG plots for the lesson panels, built with DOM APIs and styled from styles.css (classes
// and theme colours), so they follow the light and dark themes and need no inline style attributes.
// Each plot is created once and updated in place. Every plot's <svg> carries data-plot, so a
// check for injected markup can tell the page's own drawings from anything else.
import { linear, setAttrs, setText, svg } from './dom.js';
import { english, formatNumber } from '../model/model.js';

/**
 * A histogram: bars of `counts` over [lo, hi], ticks at lo, 0 and hi, and dashed markers at
 * mean ± std; update's `description` is the accessible description. Numbers are written with the
 * decimal separator of `i18n`.
 */
export function createHistogram({ width = 320, height = 150, className = '', i18n = english } = {}) {
  const pad = { l: 8, r: 8, t: 18, b: 26 };
  const root = svg(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': i18n.t('lessons.plot.computing'), 'data-plot': '' },
    `plot histogram ${className}`.trim(),
  );
  const bars = svg('g', {}, 'bars');
  const axis = svg('line', { x1: pad.l, x2: width - pad.r, y1: height - pad.b, y2: height - pad.b }, 'axis');
  const ticks = svg('g', {}, 'ticks');
  const markers = svg('g', {}, 'markers');
  const sigmaLabel = svg('text', { y: 12, 'text-anchor': 'middle' }, 'marker-label');
  root.append(bars, axis, markers, ticks, sigmaLabel);
  let rects = [];

  return {
    el: root,
    update({ counts, lo, hi, mean, std, description }) {
      const x = linear([lo, hi], [pad.l, width - pad.r]);
      const max = Math.max(1, ...counts);
      const y = linear([0, max], [height - pad.b, pad.t]);
      if (rects.length !== counts.length) {
        rects = Array.from(counts, () => svg('rect', {}, 'bar'));
        bars.replaceChildren(...rects);
      }
      const w = (width - pad.l - pad.r) / counts.length;
      counts.forEach((c, i) => {
        setAttrs(rects[i], {
          x: (pad.l + i * w).toFixed(2),
          width: Math.max(0.5, w - 0.6).toFixed(2),
          y: y(c).toFixed(2),
          height: (y(0) - y(c)).toFixed(2),
          'data-count': c,
        });
      });
      const tickAt = (v, anchor) => {
        const g = svg('g', {}, 'tick');
        g.append(svg('line', { x1: x(v), x2: x(v), y1: height - pad.b, y2: height - pad.b + 4 }));
        const t = svg('text', { x: x(v), y: height - 8, 'text-anchor': anchor });
        t.textContent = i18n.decimal(formatNumber(v, 3));
        g.append(t);
        return g;
      };
      ticks.replaceChildren(tickAt(lo, 'start'), tickAt(0, 'middle'), tickAt(hi, 'end'));
      const line = (v) => svg('line', { x1: x(v), x2: x(v), y1: pad.t - 4, y2: height - pad.b }, 'marker');
      markers.replaceChildren(line(mean - std), line(mean + std));
      setAttrs(sigmaLabel, { x: x(mean).toFixed(2) });
      setText(sigmaLabel, i18n.t('lessons.plot.sigma', { std: i18n.decimal(formatNumber(std, 4)) }));
      root.setAttribute('aria-label', description);
    },
  };
}

/** Vertical bars of values in [0, 1] (softmax weights), one per key, with a 0..1 axis; names are math (k₁…). */
export function createBars({ width = 320, height = 120, className = '', i18n = english } = {}) {
  const pad = { l: 24, r: 6, t: 8, b: 18 };
  const root = svg(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': i18n.t('lessons.plot.computing'), 'data-plot': '' },
    `plot bars ${className}`.trim(),
  );
  const grid = svg('g', {}, 'ticks');
  const y = linear([0, 1], [height - pad.b, pad.t]);
  for (const v of [0, 0.5, 1]) {
    const g = svg('g', {}, 'tick');
    g.append(svg('line', { x1: pad.l - 3, x2: width - pad.r, y1: y(v), y2: y(v) }, v === 0 ? 'axis' : 'gridline'));
    const t = svg('text', { x: pad.l - 5, y: y(v) + 3.5, 'text-anchor': 'end' });
    t.textContent = i18n.decimal(String(v));
    g.append(t);
    grid.append(g);
  }
  const bars = svg('g', {}, 'bars');
  const labels = svg('g', { translate: 'no' }, 'ticks');
  root.append(grid, bars, labels);
  let rects = [];
  return {
    el: root,
    update({ values, names, description }) {
      const n = values.length;
      if (rects.length !== n) {
        rects = Array.from(values, () => svg('rect', {}, 'bar'));
        bars.replaceChildren(...rects);
        const w = (width - pad.l - pad.r) / n;
        // Every bar named while the names fit (about 40 units each), else every k-th one.
        const every = Math.max(1, Math.ceil(40 / w));
        const shown = Array.from(values.keys()).filter((i) => i % every === 0);
        labels.replaceChildren(
          ...shown.map((i) => {
            const t = svg('text', { x: pad.l + (i + 0.5) * w, y: height - 5, 'text-anchor': 'middle' });
            t.textContent = names[i];
            return t;
          }),
        );
      }
      const w = (width - pad.l - pad.r) / n;
      values.forEach((v, i) => {
        setAttrs(rects[i], {
          x: (pad.l + i * w + 1).toFixed(2),
          width: Math.max(0.5, w - 2).toFixed(2),
          y: y(v).toFixed(2),
          height: Math.max(0, y(0) - y(v)).toFixed(2),
          'data-value': v,
        });
      });
      root.setAttribute('aria-label', description);
    },
    /** No bars and no description (a covered answer: their heights are its numbers). */
    clear() {
      rects = [];
      bars.replaceChildren();
      root.removeAttribute('aria-label');
    },
  };
}

/**
 * Lines on log–log axes: series [{ key, label, points: [[x, y], …] }], an optional vertical
 * marker at x (with a label) and an optional point marker. Axis ticks at powers of ten.
 */
export function createLogLogPlot({ width = 520, height = 280, xLabel = '', yLabel = '', i18n = english } = {}) {
  // The vertical markers' labels sit in a band of their own above the plot area (one row each),
  // so no gridline, tick label or line runs through them and none starts above the figure.
  const LABEL_ROW = 12;
  const pad = { l: 52, r: 14, t: 8 + 2 * LABEL_ROW, b: 38 };
  const CHAR_W = 6.2; // 10 px monospace, a little generous
  const root = svg(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': i18n.t('lessons.plot.computing'), 'data-plot': '' },
    'plot loglog',
  );
  const grid = svg('g', {}, 'ticks');
  const lines = svg('g', {}, 'series');
  const marks = svg('g', {}, 'markers');
  const xl = svg('text', { x: (pad.l + width - pad.r) / 2, y: height - 4, 'text-anchor': 'middle' }, 'axis-label');
  xl.textContent = xLabel;
  const yl = svg(
    'text',
    {
      x: 12,
      y: (pad.t + height - pad.b) / 2,
      'text-anchor': 'middle',
      transform: `rotate(-90 12 ${(pad.t + height - pad.b) / 2})`,
    },
    'axis-label',
  );
  yl.textContent = yLabel;
  root.append(grid, lines, marks, xl, yl);

  const decades = (lo, hi) => {
    const out = [];
    for (let p = Math.ceil(Math.log10(lo)); p <= Math.floor(Math.log10(hi)); p++) out.push(10 ** p);
    return out;
  };
  const pow = (v) => {
    const p = Math.round(Math.log10(v));
    return p <= 3 && p >= 0
      ? String(10 ** p)
      : `10${String(p).replace(/[-\d]/g, (c) => '⁻⁰¹²³⁴⁵⁶⁷⁸⁹'['-0123456789'.indexOf(c)])}`;
  };

  // A vertical marker: the line reaches up to its label's row in the band above the plot; the
  // label runs right of the line unless that would leave the figure or cross the line of a
  // marker in a row above (those pass through this row).
  function marker(v, all, x) {
    const g = svg('g', {}, `vmark ${v.key}`);
    const row = v.row ?? 0;
    const baseline = 4 + (row + 1) * LABEL_ROW - 2;
    const at = x(v.x);
    g.append(svg('line', { x1: at, x2: at, y1: baseline - 8, y2: height - pad.b }));
    const span = CHAR_W * v.label.length;
    const crosses = (a, b) => all.some((u) => (u.row ?? 0) < row && x(u.x) > a && x(u.x) < b);
    const end = at + 4 + span > width - 2 || (crosses(at, at + 4 + span) && at - 4 - span >= 2);
    const t = svg('text', { x: at + (end ? -4 : 4), y: baseline, 'text-anchor': end ? 'end' : 'start' });
    t.textContent = v.label;
    g.append(t);
    return g;
  }

  return {
    el: root,
    update({ series, xDomain, yDomain, vertical = [], points = [], description }) {
      const x = (v) =>
        pad.l +
        ((Math.log10(v) - Math.log10(xDomain[0])) * (width - pad.l - pad.r)) /
          (Math.log10(xDomain[1]) - Math.log10(xDomain[0]));
      const y = (v) =>
        height -
        pad.b -
        ((Math.log10(v) - Math.log10(yDomain[0])) * (height - pad.t - pad.b)) /
          (Math.log10(yDomain[1]) - Math.log10(yDomain[0]));
      const xs = decades(...xDomain);
      const ys = decades(...yDomain);
      const every = (list, max) => list.filter((_, i) => i % Math.ceil(list.length / max) === 0);
      grid.replaceChildren(
        svg('line', { x1: pad.l, x2: width - pad.r, y1: height - pad.b, y2: height - pad.b }, 'axis'),
        svg('line', { x1: pad.l, x2: pad.l, y1: pad.t, y2: height - pad.b }, 'axis'),
        ...every(xs, 8).map((v) => {
          const g = svg('g', {}, 'tick');
          g.append(svg('line', { x1: x(v), x2: x(v), y1: pad.t, y2: height - pad.b }, 'gridline'));
          const t = svg('text', { x: x(v), y: height - pad.b + 13, 'text-anchor': 'middle' });
          t.textContent = pow(v);
          g.append(t);
          return g;
        }),
        ...every(ys, 6).map((v) => {
          const g = svg('g', {}, 'tick');
          g.append(svg('line', { x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v) }, 'gridline'));
          const t = svg('text', { x: pad.l - 5, y: y(v) + 3.5, 'text-anchor': 'end' });
          t.textContent = pow(v);
          g.append(t);
          return g;
        }),
      );
      lines.replaceChildren(
        ...series.map((s) => {
          const d = s.points.map(([px, py], i) => `${i ? 'L' : 'M'}${x(px).toFixed(1)},${y(py).toFixed(1)}`).join('');
          const path = svg('path', { d }, `line ${s.key}`);
          path.dataset.series = s.key;
          return path;
        }),
      );
      marks.replaceChildren(
        ...vertical.map((v) => marker(v, vertical, x)),
        ...points.map((p) => svg('circle', { cx: x(p.x), cy: y(p.y), r: 4.5 }, `pmark ${p.key}`)),
      );
      root.setAttribute('aria-label', description);
    },
  };
}
