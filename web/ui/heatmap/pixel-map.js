// A weights map too large for a table (an imported head at 512 tokens has 262 144 cells, and a
// table of them took seconds to build): drawn as an image on one canvas, a pixel per cell, or,
// past MAX_SIDE cells a side, each pixel the largest weight of the cells it covers (so a thin
// diagonal, the pattern that matters, never vanishes when the map is shrunk). No per-cell DOM.
// Access: the map is one tab stop, an image named with its size and what it shows; pointing at it,
// or moving a cursor with the arrow keys (Home/End, PageUp/PageDown as in the tables), reads out one
// cell: its query, its key and its weight (a polite live region).
// Test hook: figure[data-heatmap="<name>"][data-canvas-only] with data-rows, data-cols, and
// data-drawn once the picture is drawn; the readout is [data-readout] with data-row and data-col.
import { english, makeScale } from '../model/model.js';
import { el } from '../dom/dom.js';

const MAX_SIDE = 256;
const LEVELS = 255;

// A 256-colour table of the sequential palette over 0..1, as packed RGBA pixels.
const luts = new Map();
function lutOf(palette, theme) {
  const key = `${palette}|${theme}`;
  if (!luts.has(key)) {
    const scale = makeScale({ kind: 'sequential', palette, theme, min: 0, max: 1 });
    const lut = new Uint32Array(LEVELS + 1);
    const bytes = new Uint8Array(lut.buffer);
    for (let k = 0; k <= LEVELS; k++) {
      const [r, g, b] = scale.map(k / LEVELS).rgb;
      bytes.set([r, g, b, 255], 4 * k);
    }
    luts.set(key, lut);
  }
  return luts.get(key);
}

/**
 * Pixels of a rows × cols map of values in 0..1 on a `side`-pixel-wide canvas: the largest value
 * of the cells each pixel covers, through `lut`. Returns { pixels (Uint32Array), width, height }.
 */
function pixelsOf(data, rows, cols, lut, maxSide = MAX_SIDE) {
  const width = Math.min(cols, maxSide);
  const height = Math.min(rows, maxSide);
  const top = new Float32Array(width * height);
  for (let i = 0; i < rows; i++) {
    const line = Math.floor((i * height) / rows) * width;
    for (let j = 0; j < cols; j++) {
      const v = data[i * cols + j];
      const p = line + Math.floor((j * width) / cols);
      if (v > top[p]) top[p] = v;
    }
  }
  const pixels = new Uint32Array(width * height);
  for (let p = 0; p < pixels.length; p++) {
    const t = top[p];
    pixels[p] = lut[t >= 1 ? LEVELS : t > 0 ? Math.round(t * LEVELS) : 0];
  }
  return { pixels, width, height };
}

const KEYS = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/**
 * A canvas-only map (see above): `label` names it; update({ tensor, rowLabels, colLabels, palette,
 * theme }); i18n: the translator of its words and numbers.
 */
export function createPixelMap({ name, label, i18n = english }) {
  const { t, decimal } = i18n;
  const root = el('figure', 'heatmap-block pixel-map');
  root.dataset.heatmap = name;
  root.dataset.canvasOnly = '';
  const frame = el('div', 'pixel-map-frame');
  frame.tabIndex = 0;
  frame.setAttribute('role', 'img');
  const canvas = el('canvas', 'pixel-map-canvas');
  canvas.setAttribute('aria-hidden', 'true');
  const cursor = el('div', 'pixel-map-cursor');
  cursor.hidden = true;
  frame.append(canvas, cursor);
  const readout = el('figcaption', 'pixel-map-readout');
  readout.dataset.readout = '';
  readout.setAttribute('aria-live', 'polite');
  root.append(frame, readout);
  let shown = null; // { data, rows, cols, rowLabels, colLabels }
  let at = null; // [i, j] of the cell read out

  function read(i, j, move) {
    if (!shown) return;
    const { data, rows, cols, rowLabels, colLabels } = shown;
    at = [Math.min(rows - 1, Math.max(0, i)), Math.min(cols - 1, Math.max(0, j))];
    const [r, c] = at;
    readout.dataset.row = String(r);
    readout.dataset.col = String(c);
    readout.textContent = t('explorer.pixelMap.cell', {
      row: r + 1,
      query: rowLabels[r] ?? '',
      col: c + 1,
      key: colLabels[c] ?? '',
      value: decimal(data[r * cols + c].toFixed(3)),
    });
    if (!move) return;
    cursor.hidden = false;
    Object.assign(cursor.style, {
      left: `${(100 * c) / cols}%`,
      top: `${(100 * r) / rows}%`,
      width: `max(2px, ${100 / cols}%)`,
      height: `max(2px, ${100 / rows}%)`,
    });
  }

  frame.addEventListener('pointermove', (e) => {
    if (!shown) return;
    const box = frame.getBoundingClientRect();
    read(
      Math.floor(((e.clientY - box.top) / box.height) * shown.rows),
      Math.floor(((e.clientX - box.left) / box.width) * shown.cols),
      false,
    );
  });
  frame.addEventListener('keydown', (e) => {
    if (!shown) return;
    const [i, j] = at ?? [0, 0];
    const step = KEYS[e.key];
    let next = step ? [i + step[0], j + step[1]] : null;
    if (e.key === 'Home') next = [e.ctrlKey ? 0 : i, 0];
    if (e.key === 'End') next = [e.ctrlKey ? shown.rows - 1 : i, shown.cols - 1];
    if (e.key === 'PageUp') next = [0, j];
    if (e.key === 'PageDown') next = [shown.rows - 1, j];
    if (!next) return;
    e.preventDefault();
    read(next[0], next[1], true);
  });
  frame.addEventListener('focus', () => {
    if (shown) read(...(at ?? [0, 0]), true);
  });
  frame.addEventListener('blur', () => {
    cursor.hidden = true;
  });

  return {
    el: root,
    /** Draws the map (one canvas write). */
    update({ tensor, rowLabels, colLabels, palette = 'viridis', theme = 'light' }) {
      const [rows, cols] = tensor.shape;
      shown = { data: tensor.data, rows, cols, rowLabels, colLabels };
      root.dataset.rows = String(rows);
      root.dataset.cols = String(cols);
      const { pixels, width, height } = pixelsOf(tensor.data, rows, cols, lutOf(palette, theme));
      canvas.width = width;
      canvas.height = height;
      canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(pixels.buffer), width, height), 0, 0);
      const pooled = width < cols || height < rows;
      frame.setAttribute(
        'aria-label',
        pooled
          ? t('explorer.pixelMap.labelPooled', {
              label,
              rows,
              cols,
              across: Math.ceil(cols / width),
              down: Math.ceil(rows / height),
            })
          : t('explorer.pixelMap.label', { label, rows, cols }),
      );
      readout.textContent = at ? readout.textContent : t('explorer.pixelMap.idle');
      root.dataset.drawn = 'true';
    },
  };
}
