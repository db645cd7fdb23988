// Writes a heatmap frame as pixels onto its canvas, keeping what each cell shows so that a redraw
// repaints only the cells that change (an edit of one token's vector changes one row and one
// column of the scores, not all of them).
//
// Cost per redraw, which matters at 7,680 cells: everything is written as pixels into one
// ImageData (backgrounds one scanline per row of cells, copied down the row; digits from a glyph
// cache, see glyphs.js) and put on the canvas in one call, because each canvas call (a fillStyle
// parses a CSS colour, a fillText shapes and records) costs about a microsecond or more.
import { printerFor, rgbOf } from './glyphs.js';

const HATCH_CSS_PX = 8; // the period of the masked-cell stripes
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

// [r, g, b] -> an opaque pixel in the platform's byte order.
const pixel = LITTLE_ENDIAN
  ? ([r, g, b]) => ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0
  : ([r, g, b]) => ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0;

// The pixels of a map drawn while out of view: one buffer for all of them, grown as needed.
let scratch = null;
function scratchFor(W, H) {
  if (!scratch || scratch.width < W || scratch.height < H) {
    scratch = new ImageData(Math.max(W, scratch?.width ?? 0), Math.max(H, scratch?.height ?? 0));
  }
  return scratch;
}

// Diagonal stripes like the CSS hatch of the legend's "hidden" swatch, written as pixels.
function hatchCell(px, W, xa, xb, ya, yb, dpr, looks) {
  const a = pixel(rgbOf(looks.hatchA));
  const b = pixel(rgbOf(looks.hatchB)); // (rgbOf caches: these are two map lookups)
  const period = HATCH_CSS_PX * Math.SQRT2 * dpr;
  for (let y = ya; y < yb; y++) {
    const line = y * W;
    for (let x = xa; x < xb; x++) {
      const t = (x - y) % period;
      px[line + x] = (t < 0 ? t + period : t) < period / 2 ? a : b;
    }
  }
}

// Backgrounds one scanline per row of cells, copied down the row, then hatches; records each
// cell's fill in `fill` (px: S pixels per row).
function fillAll(px, S, geometry, rows, cols, want, fill, looks) {
  const { X0, X1, Y0, Y1, W, dpr } = geometry;
  for (let i = 0; i < rows; i++) {
    if (Y1[i] <= Y0[i]) continue;
    const line = Y0[i] * S;
    for (let j = 0; j < cols; j++) {
      const k = i * cols + j;
      const f = want(k);
      fill[k] = f;
      if (f > 1) px.fill(f, line + X0[j], line + X1[j]);
    }
    for (let y = Y0[i] + 1; y < Y1[i]; y++) px.copyWithin(y * S, line, line + W);
    for (let j = 0; j < cols; j++)
      if (fill[i * cols + j] === 1) hatchCell(px, S, X0[j], X1[j], Y0[i], Y1[i], dpr, looks);
  }
}

// Every cell's digits, centred in the cell; records each cell's text and ink in `kept`.
function printAll(data, S, geometry, rows, cols, texts, inkOf, printer, kept) {
  const { X0, X1, Y0, Y1 } = geometry;
  const box = [0, 0, 0, 0];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const k = i * cols + j;
      box[0] = X0[j];
      box[1] = Y0[i];
      box[2] = X1[j];
      box[3] = Y1[i];
      const ink = inkOf(k);
      kept.text[k] = texts[k];
      kept.ink[k] = ink;
      printer.print(data, S, texts[k], rgbOf(ink), (X0[j] + X1[j]) / 2, (Y0[i] + Y1[i]) / 2, box);
    }
  }
}

/**
 * draw(frame, geometry, looks, inView, whole) puts `frame` (see createHeatmapPainter's paint())
 * on the canvas at the measured `geometry` (whole: without comparing cells with what it shows);
 * release() gives back the kept pixels (the next draw is whole); touch() puts one kept pixel
 * back as it is (a change of the canvas that changes nothing seen).
 */
export function createHeatmapPixels(canvas, ctx) {
  let image = null; // ImageData the size of the canvas, reused between redraws
  let shown = null; // { geometry, fill: Uint32Array (pixel; 0: none; 1: hatch), text: [], ink: [] }

  // Repaints one cell in place (px: the kept image's pixels, one Uint32 each).
  function paintCell(px, geometry, looks, k, fill, text, ink, printer) {
    const { cols, X0, X1, Y0, Y1, W, dpr } = geometry;
    const i = Math.floor(k / cols);
    const j = k % cols;
    if (fill === 1) hatchCell(px, W, X0[j], X1[j], Y0[i], Y1[i], dpr, looks);
    else for (let y = Y0[i]; y < Y1[i]; y++) px.fill(fill, y * W + X0[j], y * W + X1[j]);
    if (text)
      printer.print(image.data, W, text, rgbOf(ink), (X0[j] + X1[j]) / 2, (Y0[i] + Y1[i]) / 2, [
        X0[j],
        Y0[i],
        X1[j],
        Y1[i],
      ]);
  }

  // The cells whose fill, text or ink differ from what the canvas shows.
  function changedCells(n, want, texts, inkOf) {
    const dirty = [];
    for (let k = 0; k < n; k++) {
      const text = texts ? texts[k] : null;
      if (want(k) !== shown.fill[k] || text !== shown.text[k] || (text ? inkOf(k) : null) !== shown.ink[k])
        dirty.push(k);
    }
    return dirty;
  }

  // Few changed cells (one token's row and column): each is repainted and put back alone. Past a
  // quarter of the map the whole redraw is cheaper (it fills a scanline once per row of cells).
  function drawChanged(geometry, looks, dirty, want, texts, inkOf, printer) {
    const { cols, X0, X1, Y0, Y1 } = geometry;
    const px = new Uint32Array(image.data.buffer);
    for (const k of dirty) {
      const fill = want(k);
      const text = texts ? texts[k] : null;
      const ink = text ? inkOf(k) : null;
      paintCell(px, geometry, looks, k, fill, text, ink, printer);
      shown.fill[k] = fill;
      shown.text[k] = text;
      shown.ink[k] = ink;
      const i = Math.floor(k / cols);
      const j = k % cols;
      ctx.putImageData(image, 0, 0, X0[j], Y0[i], X1[j] - X0[j], Y1[i] - Y0[i]);
    }
  }

  // whole: the frame has new colours; comparing it cell by cell with the canvas would find nearly
  // every cell changed.
  function draw(frame, geometry, looks, inView, whole = false) {
    if (!frame || !geometry || geometry.rows !== frame.rows || geometry.cols !== frame.cols) {
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      shown = null;
      return;
    }
    const { rows, cols, fills, texts, inks, hidden } = frame;
    const n = rows * cols;
    const printer = texts ? printerFor(looks.font, geometry.dpr) : null;
    const want = (k) => (hidden?.[k] ? 1 : fills[k] ? pixel(fills[k]) : 0);
    const inkOf = (k) => (hidden?.[k] ? looks.muted : (inks[k] ?? looks.text));
    if (image && shown?.geometry === geometry && !whole) {
      const dirty = changedCells(n, want, texts, inkOf);
      if (dirty.length <= n / 4) {
        drawChanged(geometry, looks, dirty, want, texts, inkOf, printer);
        return;
      }
    }
    drawAll(frame, geometry, looks, inView, want, inkOf, printer);
  }

  // Everything: backgrounds, hatches, then digits.
  // A map in view keeps its pixels for the next redraw; one out of view borrows a shared buffer.
  function drawAll({ rows, cols, texts }, geometry, looks, inView, want, inkOf, printer) {
    const { W, H } = geometry;
    const n = rows * cols;
    const buffer = inView ? (image ??= new ImageData(W, H)) : scratchFor(W, H);
    const S = buffer.width; // pixels per row of the buffer
    const px = new Uint32Array(buffer.data.buffer);
    px.fill(0, 0, S * H);
    const kept = { geometry, fill: new Uint32Array(n), text: new Array(n).fill(null), ink: new Array(n).fill(null) };
    fillAll(px, S, geometry, rows, cols, want, kept.fill, looks);
    if (texts) printAll(buffer.data, S, geometry, rows, cols, texts, inkOf, printer, kept);
    ctx.putImageData(buffer, 0, 0, 0, 0, W, H);
    shown = buffer === image ? kept : null;
  }

  return {
    draw,
    /** Whether the canvas's pixels are kept, so that a redraw can repaint changed cells only. */
    get keeping() {
      return shown !== null;
    },
    touch() {
      if (shown) ctx.putImageData(image, 0, 0, 0, 0, 1, 1);
    },
    release() {
      image = null;
      shown = null;
    },
  };
}
