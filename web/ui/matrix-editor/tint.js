// Tints an editable matrix's cells by value with one small canvas under its table: one canvas
// pixel per cell, stretched over the cell grid (image-rendering: pixelated), while the cells
// themselves stay transparent.
//
// Why: one edit can change the matrix's colour range, and then every cell's tint changes. Written
// as inline styles, that restyled all 1 536 cells of X at the page's largest size (20-25 ms of
// style recalc in a frame of 16); as pixels it is a putImageData of rows x cols pixels, and no
// element is restyled at all.
//
// The cells of an editable matrix are fixed-size boxes, so the grid is regular: it is measured
// from the first and the last cell only, after layout (when the table is built, and whenever it
// resizes: labels, fonts, the window), never while a value changes.
//
// A matrix scrolled out of view (X, while the reader watches the pipeline) is tinted just after
// the frame instead of inside it, or when it comes into view, whichever is first.
import { afterFrame, el, hideWhenFar, setCanvasSize, setHidden } from '../dom/dom.js';

/** stage: the positioned box around `table`; cellAt(i, j): the element drawn over cell (i, j). */
export function createMatrixTint(stage, table, cellAt) {
  const canvas = el('canvas', 'matrix-tint');
  canvas.setAttribute('aria-hidden', 'true');
  canvas.hidden = true;
  stage.prepend(canvas);
  const ctx = canvas.getContext('2d');
  hideWhenFar(stage, canvas);
  let rows = 0;
  let cols = 0;
  let image = null; // rows x cols pixels, the tints last painted

  // Places the canvas over the cells, each cell's pixel centred on it: the canvas reaches half
  // the gap between cells beyond the outer ones, so neighbouring tints meet in the middle.
  function measure() {
    if (!rows || !cols || !table.isConnected) return;
    const box = stage.getBoundingClientRect();
    const first = cellAt(0, 0).getBoundingClientRect();
    const last = cellAt(rows - 1, cols - 1).getBoundingClientRect();
    if (first.width === 0) return; // not rendered (a folded section): the observer calls again
    const pitchX = cols > 1 ? (last.left - first.left) / (cols - 1) : first.width;
    const pitchY = rows > 1 ? (last.top - first.top) / (rows - 1) : first.height;
    const gapX = Math.max(0, pitchX - first.width);
    const gapY = Math.max(0, pitchY - first.height);
    Object.assign(canvas.style, {
      left: `${first.left - box.left - gapX / 2}px`,
      top: `${first.top - box.top - gapY / 2}px`,
      width: `${pitchX * cols}px`,
      height: `${pitchY * rows}px`,
    });
    setHidden(canvas, false);
  }
  const sizes = new ResizeObserver(measure);
  sizes.observe(table);
  let pending = null; // the latest tints asked for, until painted
  let inView = true;
  new IntersectionObserver((entries) => {
    inView = entries[entries.length - 1].isIntersecting;
    if (inView) flush();
  }).observe(stage);

  return {
    /** A new grid of cells (before its first paint). */
    resize(r, c) {
      rows = r;
      cols = c;
      setHidden(canvas, true);
      setCanvasSize(canvas, Math.max(1, c), Math.max(1, r));
      image = r && c ? ctx.createImageData(c, r) : null;
      // Observing anew reports the current size once laid out, even if the table kept its size.
      sizes.unobserve(table);
      sizes.observe(table);
    },
    /** rgbAt(k) -> [r, g, b] of flat cell k (row-major). */
    paint(rgbAt) {
      pending = rgbAt;
      if (inView) flush();
      else afterFrame(flush);
    },
  };

  function flush() {
    const rgbAt = pending;
    pending = null;
    if (!rgbAt || !image) return;
    const px = image.data;
    for (let k = 0; k < rows * cols; k++) {
      const [r, g, b] = rgbAt(k);
      px[4 * k] = r;
      px[4 * k + 1] = g;
      px[4 * k + 2] = b;
      px[4 * k + 3] = 255;
    }
    ctx.putImageData(image, 0, 0);
  }
}
