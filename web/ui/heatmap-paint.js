// Draws a heatmap's colours, digits and hatched (masked) cells on one canvas lying under its
// table. The table keeps what the DOM is good at: labels, focus, hover and highlight outlines,
// roles for screen readers, test hooks. What changes on every keystroke (a colour and a number per
// cell, thousands of cells at d_model = 64) is a single canvas redraw instead of thousands of
// style and text writes, each of which Blink would restyle, lay out, paint and layerize.
//
// The canvas copies the table's geometry: the cell rectangles are measured after layout (when the
// table is built, when its labels change, and whenever it resizes) and each cell is filled at its
// measured place, snapped to device pixels so neighbouring cells neither overlap nor leave seams.
//
// Cost per redraw, which matters at 7,680 cells: everything is written as pixels into one
// ImageData (backgrounds one scanline per row of cells, copied down the row; digits from a glyph
// cache, see glyphs.js) and put on the canvas in one call, because each canvas call (a fillStyle
// parses a CSS colour, a fillText shapes and records) costs about a microsecond or more. And a map
// scrolled out of view is redrawn just after the frame instead of inside it.
import { el } from './dom.js';
import { afterFrame } from './after-frame.js';
import { printerFor, rgbOf } from './glyphs.js';

const HATCH_CSS_PX = 8;  // the period of the masked-cell stripes
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

// [r, g, b] -> an opaque pixel in the platform's byte order.
const pixel = LITTLE_ENDIAN
  ? ([r, g, b]) => ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0
  : ([r, g, b]) => ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0;

// Zooming the page changes the device pixel ratio but no CSS size (so no ResizeObserver fires):
// every live painter measures and repaints at the new ratio. Browsers report it as a change of
// the resolution media query, and zoom also resizes the window in CSS pixels.
const painters = new Set();  // WeakRefs to each painter's repaint()
let ratio = typeof window === 'object' ? window.devicePixelRatio || 1 : 1;
function ratioChanged() {
  if ((window.devicePixelRatio || 1) === ratio) return;
  ratio = window.devicePixelRatio || 1;
  for (const ref of painters) {
    const repaint = ref.deref();
    if (repaint) repaint();
    else painters.delete(ref);
  }
  watchRatio();
}
function watchRatio() {
  matchMedia(`(resolution: ${ratio}dppx)`).addEventListener('change', ratioChanged, { once: true });
}
if (typeof matchMedia === 'function') {
  watchRatio();
  window.addEventListener('resize', ratioChanged);
}

// The pixels of a map drawn while out of view: one buffer for all of them, grown as needed.
let scratch = null;
function scratchFor(W, H) {
  if (!scratch || scratch.width < W || scratch.height < H) {
    scratch = new ImageData(Math.max(W, scratch?.width ?? 0), Math.max(H, scratch?.height ?? 0));
  }
  return scratch;
}

export function createHeatmapPainter(table, cellAt) {
  const canvas = el('canvas', 'heatmap-paint');
  canvas.setAttribute('aria-hidden', 'true');
  const ctx = canvas.getContext('2d');
  let geometry = null;  // cell edges in device px from the table's corner, or null
  let looks = null;     // colours and font read from the page's CSS (they follow the theme)
  let frame = null;     // the last frame built, kept for repaints after a resize
  let make = null;      // builds the frame asked for last, until it is drawn
  let image = null;     // ImageData the size of the canvas, reused between redraws
  let stale = false;    // `frame` is not on the canvas yet
  let inView = true;    // near the viewport (until the IntersectionObserver says otherwise)
  let onShow = null;

  // Reads the layout: the only place that forces one (so an edit that changes values alone never
  // does). The canvas covers the cells only (not the labels) and starts on a device pixel, so
  // that cell edges, snapped to device pixels, meet the table's own outlines exactly.
  function measure(rows, cols) {
    geometry = null;
    if (!rows || !cols || !table.isConnected) return;
    const t = table.getBoundingClientRect();
    if (t.width === 0 || t.height === 0) return;  // not rendered (hidden tab, folded section)
    // Every rectangle is read before the canvas is touched: resizing it dirties the layout.
    const stage = canvas.parentElement.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const edges = (n, rectOf, start, end) => {
      const lo = new Float64Array(n);
      const hi = new Float64Array(n);
      for (let k = 0; k < n; k++) [lo[k], hi[k]] = rectOf(k);
      const origin = Math.round(Math.min(...lo) * dpr);
      const device = (v) => Math.round(v * dpr) - origin;
      return { origin, [start]: Int32Array.from(lo, device), [end]: Int32Array.from(hi, device) };
    };
    const across = edges(cols, (j) => {
      const td = cellAt(0, j);
      const r = td.getBoundingClientRect();
      return [r.left + td.clientLeft, r.right];  // inside the group rule's left border
    }, 'X0', 'X1');
    const down = edges(rows, (i) => {
      const r = cellAt(i, 0).getBoundingClientRect();
      return [r.top, r.bottom];
    }, 'Y0', 'Y1');
    const W = Math.max(1, ...across.X1);
    const H = Math.max(1, ...down.Y1);
    // The offset inside the canvas's positioned parent, the stage around the table.
    canvas.style.left = `${across.origin / dpr - stage.left}px`;
    canvas.style.top = `${down.origin / dpr - stage.top}px`;
    if (canvas.width !== W || canvas.height !== H) {
      canvas.width = W;
      canvas.height = H;
      canvas.style.width = `${W / dpr}px`;
      canvas.style.height = `${H / dpr}px`;
      image = null;
    }
    if (!looks) {
      const cell = getComputedStyle(cellAt(0, 0));
      const page = getComputedStyle(table);
      const prop = (name, fallback) => page.getPropertyValue(name).trim() || fallback;
      looks = {
        font: `${cell.fontStyle} ${cell.fontWeight} ${cell.fontSize} ${cell.fontFamily}`,
        muted: prop('--muted', '#58606b'),
        text: prop('--text', '#1b1f24'),
        hatchA: prop('--mask-a', '#e3e6ea'),
        hatchB: prop('--mask-b', '#f4f5f7'),
      };
    }
    geometry = { rows, cols, dpr, W, H, X0: across.X0, X1: across.X1, Y0: down.Y0, Y1: down.Y1 };
    measuredOutOfView = !inView;
  }

  // Diagonal stripes like the CSS hatch of the legend's "hidden" swatch, written as pixels.
  function hatchCell(px, W, xa, xb, ya, yb, dpr) {
    const a = pixel(rgbOf(looks.hatchA));
    const b = pixel(rgbOf(looks.hatchB));  // (rgbOf caches: these are two map lookups)
    const period = HATCH_CSS_PX * Math.SQRT2 * dpr;
    for (let y = ya; y < yb; y++) {
      const line = y * W;
      for (let x = xa; x < xb; x++) {
        const t = (x - y) % period;
        px[line + x] = (t < 0 ? t + period : t) < period / 2 ? a : b;
      }
    }
  }

  // What each cell shows on the canvas now, so a redraw repaints only the cells that change (an
  // edit of one token's vector changes one row and one column of the scores, not all of them).
  let shown = null;  // { geometry, fill: Uint32Array (pixel; 0: none; 1: hatch), text: [], ink: [] }

  // Repaints one cell in place (px: the kept image's pixels, one Uint32 each).
  function paintCell(px, k, fill, text, ink, printer) {
    const { cols, X0, X1, Y0, Y1, W, dpr } = geometry;
    const i = Math.floor(k / cols);
    const j = k % cols;
    if (fill === 1) hatchCell(px, W, X0[j], X1[j], Y0[i], Y1[i], dpr);
    else for (let y = Y0[i]; y < Y1[i]; y++) px.fill(fill, y * W + X0[j], y * W + X1[j]);
    if (text) printer.print(image.data, W, text, rgbOf(ink), (X0[j] + X1[j]) / 2, (Y0[i] + Y1[i]) / 2, [X0[j], Y0[i], X1[j], Y1[i]]);
  }

  // The cells whose fill, text or ink differ from what the canvas shows.
  function changedCells(n, want, texts, inkOf) {
    const dirty = [];
    for (let k = 0; k < n; k++) {
      const text = texts ? texts[k] : null;
      if (want(k) !== shown.fill[k] || text !== shown.text[k] || (text ? inkOf(k) : null) !== shown.ink[k]) dirty.push(k);
    }
    return dirty;
  }

  // Few changed cells (one token's row and column): each is repainted and put back alone. Past a
  // quarter of the map the whole redraw is cheaper (it fills a scanline once per row of cells).
  function drawChanged(dirty, want, texts, inkOf, printer) {
    const { cols, X0, X1, Y0, Y1 } = geometry;
    const px = new Uint32Array(image.data.buffer);
    for (const k of dirty) {
      const fill = want(k);
      const text = texts ? texts[k] : null;
      const ink = text ? inkOf(k) : null;
      paintCell(px, k, fill, text, ink, printer);
      shown.fill[k] = fill;
      shown.text[k] = text;
      shown.ink[k] = ink;
      const i = Math.floor(k / cols);
      const j = k % cols;
      ctx.putImageData(image, 0, 0, X0[j], Y0[i], X1[j] - X0[j], Y1[i] - Y0[i]);
    }
  }

  function draw() {
    stale = false;
    if (!frame || !geometry || geometry.rows !== frame.rows || geometry.cols !== frame.cols) {
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      shown = null;
      return;
    }
    const { rows, cols, fills, texts, inks, hidden } = frame;
    const n = rows * cols;
    const printer = texts ? printerFor(looks.font, geometry.dpr) : null;
    const want = (k) => (hidden?.[k] ? 1 : fills[k] ? pixel(fills[k]) : 0);
    const inkOf = (k) => (hidden?.[k] ? looks.muted : inks[k] ?? looks.text);
    if (image && shown?.geometry === geometry) {
      const dirty = changedCells(n, want, texts, inkOf);
      if (dirty.length <= n / 4) {
        drawChanged(dirty, want, texts, inkOf, printer);
        return;
      }
    }
    drawAll(want, texts, inkOf, printer);
  }

  // Everything: backgrounds one scanline per row of cells, copied down the row, then digits.
  // A map in view keeps its pixels for the next redraw; one out of view borrows a shared buffer.
  function drawAll(want, texts, inkOf, printer) {
    const { rows, cols } = frame;
    const { X0, X1, Y0, Y1, W, H, dpr } = geometry;
    const n = rows * cols;
    const buffer = inView ? (image ??= new ImageData(W, H)) : scratchFor(W, H);
    const S = buffer.width;  // pixels per row of the buffer
    const px = new Uint32Array(buffer.data.buffer);
    px.fill(0, 0, S * H);
    const kept = { geometry, fill: new Uint32Array(n), text: new Array(n).fill(null), ink: new Array(n).fill(null) };
    for (let i = 0; i < rows; i++) {
      if (Y1[i] <= Y0[i]) continue;
      const line = Y0[i] * S;
      for (let j = 0; j < cols; j++) {
        const k = i * cols + j;
        const fill = want(k);
        kept.fill[k] = fill;
        if (fill > 1) px.fill(fill, line + X0[j], line + X1[j]);
      }
      for (let y = Y0[i] + 1; y < Y1[i]; y++) px.copyWithin(y * S, line, line + W);
      for (let j = 0; j < cols; j++) if (kept.fill[i * cols + j] === 1) hatchCell(px, S, X0[j], X1[j], Y0[i], Y1[i], dpr);
    }
    if (texts) {
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
          printer.print(buffer.data, S, texts[k], rgbOf(ink), (X0[j] + X1[j]) / 2, (Y0[i] + Y1[i]) / 2, box);
        }
      }
    }
    ctx.putImageData(buffer, 0, 0, 0, 0, W, H);
    shown = buffer === image ? kept : null;
  }

  function current() {
    if (make) {
      frame = make();
      make = null;
    }
    return frame;
  }

  function drawIfStale() {
    if (!stale) return;
    const f = current();
    if (!geometry || (window.devicePixelRatio || 1) !== geometry.dpr) measure(f.rows, f.cols);
    draw();
  }

  // A map out of view is drawn after the frame, or at once when it scrolls into view. Out of view
  // it may also sit in a card whose layout the browser skips (content-visibility: auto), where
  // the rectangles read are not to be trusted: so coming into view measures again.
  let measuredOutOfView = false;
  new IntersectionObserver((entries) => {
    inView = entries[entries.length - 1].isIntersecting;
    if (!inView) {
      // The pixel copy kept for repainting changed cells only is as large as the canvas (megabytes
      // at d_model = 64 on a high-density screen): maps out of view give it back and are drawn
      // whole when they change.
      image = null;
      shown = null;
      return;
    }
    onShow?.();
    if (measuredOutOfView && (frame || make)) {
      stale = true;
      geometry = null;
    }
    drawIfStale();
  }, { rootMargin: '0px' }).observe(table);

  function repaint() {
    const f = current();
    if (!f) return;
    measure(f.rows, f.cols);
    stale = true;
    drawIfStale();
  }
  painters.add(typeof WeakRef === 'function' ? new WeakRef(repaint) : { deref: () => repaint });

  return {
    canvas,
    /** Whether the map is near the viewport (drawing it now is drawing what a person sees). */
    get inView() { return inView; },
    /** Called when the map comes near the viewport, before it is redrawn. */
    set onShow(fn) { onShow = fn; },
    /**
     * Paints one frame, built by next() when it is drawn: { rows, cols, fills, inks, texts,
     * hidden } with fills[k] the background of cell k as [r, g, b] and inks[k] its text colour
     * (CSS; null: none), texts the digits to print (null: a compact map without digits), and
     * hidden[k] a masked cell.
     * relayout: the table's labels or structure changed since the last frame, so measure again.
     */
    paint(next, { relayout = false } = {}) {
      make = next;
      stale = true;
      if (relayout) geometry = null;
      if (inView) drawIfStale();
      else afterFrame(drawIfStale);
    },
    /** The table was resized (fonts, zoom, labels, shown after being hidden): measure, repaint. */
    repaint,
    /** The theme changed: colours read from CSS are stale. */
    restyle() {
      looks = null;
      geometry = null;
    },
  };
}
