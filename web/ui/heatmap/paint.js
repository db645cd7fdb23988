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
// Writing the pixels is heatmap-pixels.js's job; this module decides when and where: a map
// scrolled out of view is redrawn just after the frame instead of inside it.
import { afterFrame, el, hideWhenFar, setCanvasSize } from '../dom/dom.js';
import { createHeatmapPixels } from './pixels.js';

// Zooming the page changes the device pixel ratio but no CSS size (so no ResizeObserver fires):
// every live painter measures and repaints at the new ratio. Browsers report it as a change of
// the resolution media query, and zoom also resizes the window in CSS pixels.
const painters = new Set(); // WeakRefs to each painter's repaint()
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

// Chromium hands the compositor a copy of a changed canvas in each frame, reusing the copies the
// compositor has given back. A canvas just sized or shown has a single copy, the one on screen, so
// the first change after that (a keystroke) had to allocate another inside its frame: ~2.5 ms for
// a large map, with two such maps on screen. A change that changes nothing seen, a frame after the
// map is drawn, makes that allocation while nobody types. Measured again A/B on 2026-12-03
// (bench:page, X view at the largest sizes, the first edit of a fresh page, 9 pages each): to the
// frame 7.4–11.0 ms of CPU (median 9.2) with it, 7.1–13.0 (median 10.5) without. Returns
// primeLater(): schedules that change (once however often called before it is made) if the map is
// still shown then.
function createPrimer(pixels, shown) {
  let priming = false;
  return function primeLater() {
    if (priming) return;
    priming = true;
    requestAnimationFrame(() =>
      afterFrame(() => {
        priming = false;
        if (shown()) pixels.touch();
      }),
    );
  };
}

// Cell edges along one axis, [lo, hi] = rectOf(k) in CSS px, as device px from the first edge.
// `base` (the stage's edge on this axis) makes them the stage's own: measured against the window,
// a map whose page moved by a fraction of a pixel since (a section above it folded, the page
// scrolled to a fraction) would round its edges to other pixels than the same map drawn afresh.
function deviceEdges(n, rectOf, start, end, dpr, base = 0) {
  const lo = new Float64Array(n);
  const hi = new Float64Array(n);
  for (let k = 0; k < n; k++) [lo[k], hi[k]] = rectOf(k).map((v) => v - base);
  const origin = Math.round(Math.min(...lo) * dpr);
  const device = (v) => Math.round(v * dpr) - origin;
  return { origin, [start]: Int32Array.from(lo, device), [end]: Int32Array.from(hi, device) };
}

// The colours and font the canvas takes from the page's CSS (cell: a cell's computed style, page:
// the table's).
function readLooks(cell, page) {
  const prop = (name, fallback) => page.getPropertyValue(name).trim() || fallback;
  return {
    font: `${cell.fontStyle} ${cell.fontWeight} ${cell.fontSize} ${cell.fontFamily}`,
    muted: prop('--muted', '#58606b'),
    text: prop('--text', '#1b1f24'),
    hatchA: prop('--mask-a', '#e3e6ea'),
    hatchB: prop('--mask-b', '#f4f5f7'),
  };
}

// The canvas under `table` and the pixels written to it; far out of view it is not kept drawn.
function paintCanvas(table) {
  const canvas = el('canvas', 'heatmap-paint');
  canvas.setAttribute('aria-hidden', 'true');
  const pixels = createHeatmapPixels(canvas, canvas.getContext('2d'));
  hideWhenFar(table, canvas);
  return { canvas, pixels };
}

// Reads the layout: the only place that forces one (so an edit that changes values alone never
// does). The canvas covers the cells only (not the labels) and starts on a device pixel, so
// that cell edges, snapped to device pixels, meet the table's own outlines exactly. Places and
// sizes the canvas; returns { geometry, resized } (resized: the canvas took a new size), or null
// when the table is not rendered.
function measureCells(table, canvas, cellAt, rows, cols) {
  if (!rows || !cols || !table.isConnected) return null;
  const t = table.getBoundingClientRect();
  if (t.width === 0 || t.height === 0) return null; // not rendered (hidden tab, folded section)
  // Every rectangle is read before the canvas is touched: resizing it dirties the layout.
  const stage = canvas.parentElement.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const across = deviceEdges(
    cols,
    (j) => {
      const td = cellAt(0, j);
      const r = td.getBoundingClientRect();
      return [r.left + td.clientLeft, r.right]; // inside the group rule's left border
    },
    'X0',
    'X1',
    dpr,
    stage.left,
  );
  const down = deviceEdges(
    rows,
    (i) => {
      const r = cellAt(i, 0).getBoundingClientRect();
      return [r.top, r.bottom];
    },
    'Y0',
    'Y1',
    dpr,
    stage.top,
  );
  const W = Math.max(1, ...across.X1);
  const H = Math.max(1, ...down.Y1);
  // The offset inside the canvas's positioned parent, the stage around the table.
  canvas.style.left = `${across.origin / dpr}px`;
  canvas.style.top = `${down.origin / dpr}px`;
  const resized = setCanvasSize(canvas, W, H);
  if (resized) {
    canvas.style.width = `${W / dpr}px`;
    canvas.style.height = `${H / dpr}px`;
  }
  return { resized, geometry: { rows, cols, dpr, W, H, X0: across.X0, X1: across.X1, Y0: down.Y0, Y1: down.Y1 } };
}

// Calls onChange(near) whenever `table` comes near the viewport or leaves it.
function watchVisibility(table, onChange) {
  new IntersectionObserver((entries) => onChange(entries[entries.length - 1].isIntersecting), {
    rootMargin: '0px',
  }).observe(table);
}

/**
 * The painter of the canvas under `table` (cellAt(i, j): the cell's td). Its paint(next,
 * { relayout, recolour }) paints one frame, built by next() when it is drawn: { rows, cols, fills,
 * inks, texts, hidden } with fills[k] the background of cell k as [r, g, b] and inks[k] its text
 * colour (CSS; null: none), texts the digits to print (null: a compact map without digits), and
 * hidden[k] a masked cell. relayout: the table's labels or structure changed since the last
 * frame, so measure again; recolour: the colour scale changed, so (nearly) every cell changes.
 */
export function createHeatmapPainter(table, cellAt) {
  const { canvas, pixels } = paintCanvas(table);
  let geometry = null; // cell edges in device px from the table's corner, or null
  let looks = null; // colours and font read from the page's CSS (they follow the theme)
  let frame = null; // the last frame built, kept for repaints after a resize
  let make = null; // builds the frame asked for last, until it is drawn
  let stale = false; // `frame` is not on the canvas yet
  let whole = false; // `frame` has new colours: draw it whole, without comparing cells
  let inView = true; // near the viewport (until the IntersectionObserver says otherwise)
  let onShow = null;
  const primeLater = createPrimer(pixels, () => inView);

  // The cells' geometry measured again (or null while the table is not laid out).
  function measure(rows, cols) {
    geometry = null;
    const measured = measureCells(table, canvas, cellAt, rows, cols);
    if (!measured) return;
    if (measured.resized) pixels.release();
    if (!pixels.keeping && inView) primeLater();
    looks ??= readLooks(getComputedStyle(cellAt(0, 0)), getComputedStyle(table));
    geometry = measured.geometry;
    measuredOutOfView = !inView;
  }

  function draw() {
    stale = false;
    pixels.draw(frame, geometry, looks, inView, whole);
    whole = false;
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
  watchVisibility(table, (near) => {
    inView = near;
    if (!inView) {
      // The pixel copy kept for repainting changed cells only is as large as the canvas (megabytes
      // at d_model = 64 on a high-density screen): maps out of view give it back and are drawn
      // whole when they change.
      pixels.release();
      return;
    }
    onShow?.();
    if (measuredOutOfView && (frame || make)) {
      stale = true;
      geometry = null;
    }
    drawIfStale();
    // A map last drawn out of view (into the shared buffer) keeps no pixels of its own: it takes
    // them now, after the frame, so that the next edit repaints only the cells it changes instead
    // of allocating and drawing the whole map inside that edit's frame.
    if (!pixels.keeping) {
      afterFrame(() => {
        if (inView && !stale && frame && geometry && !pixels.keeping) draw();
      });
    }
    primeLater();
  });

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
    get inView() {
      return inView;
    },
    /** Called when the map comes near the viewport, before it is redrawn. */
    set onShow(fn) {
      onShow = fn;
    },
    /** Paints one frame (see above). */
    paint(next, { relayout = false, recolour = false } = {}) {
      make = next;
      whole ||= recolour;
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
