// From a heatmap's values to what its canvas shows: the range of the visible values, the colour
// scale, whether anything changed since the last paint, and the frame handed to the painter.
import { formatCell, makeScale, niceBound } from '../model/model.js';

// The smallest and largest finite value among the cells not hidden, and whether any is hidden.
export function valueRange(data, hidden) {
  let lo = Infinity;
  let hi = -Infinity;
  let anyHidden = false;
  for (let k = 0; k < data.length; k++) {
    const v = data[k];
    if (hidden?.[k]) anyHidden = true;
    if (Number.isFinite(v) && !hidden?.[k]) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return { lo, hi, anyHidden };
}

/**
 * kind 'weights': sequential over 0..1 in `palette`; otherwise diverging, symmetric, reaching at
 * least sharedSpan (so maps shown side by side can share one scale).
 */
export function scaleFor(kind, { palette, theme, lo, hi, sharedSpan }) {
  if (kind === 'weights') return makeScale({ kind: 'sequential', palette, theme, min: 0, max: 1 });
  const span = niceBound(Math.max(Math.abs(lo), Math.abs(hi), sharedSpan));
  return makeScale({ kind: 'diverging', theme, min: -span, max: span });
}

// Whether `values` (Float32Array or null) holds `data` as float32.
export function sameValues(values, data) {
  let same = values !== null && values.length === data.length;
  for (let k = 0; same && k < data.length; k++) same = Object.is(values[k], Math.fround(data[k]));
  return same;
}

// Whether `flags` (Uint8Array or null) holds `hidden` (null: nothing hidden) for n cells.
export function sameHidden(flags, hidden, n) {
  let same = flags !== null && flags.length === n;
  for (let k = 0; same && k < n; k++) same = flags[k] === (hidden ? hidden[k] : 0);
  return same;
}

// The painter's frame builder (see heatmap-paint.js): colours and digits are worked out when the
// canvas is drawn, which for a map out of view is after the frame.
export function frameOf(values, hidden, scale, showText, rows, cols, decimal = String) {
  return () => {
    const n = values.length;
    const fills = new Array(n);
    const inks = new Array(n);
    const texts = showText ? new Array(n) : null;
    for (let k = 0; k < n; k++) {
      const v = values[k];
      const colour = hidden[k] || !Number.isFinite(v) ? null : scale.map(v);
      fills[k] = colour ? colour.rgb : null;
      inks[k] = colour ? colour.text : null;
      if (texts) texts[k] = decimal(formatCell(v));
    }
    return { rows, cols, fills, inks, texts, hidden };
  };
}

// A covered map's frame (predict, then reveal): nothing painted, so no colour or digit of the
// answer is on the canvas either.
export function emptyFrame(rows, cols) {
  const n = rows * cols;
  return () => ({
    rows,
    cols,
    fills: new Array(n).fill(null),
    inks: new Array(n).fill(null),
    texts: null,
    hidden: new Uint8Array(n),
  });
}
