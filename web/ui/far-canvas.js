// Canvases far from the viewport are made invisible. Chromium hands every painted canvas to the
// compositor as a layer of its own, and when a frame rebuilds the layers (every keystroke into an
// editable cell does) each visible canvas produces a new copy of its pixels, changed or not:
// ~0.25 ms per map on a software-composited screen. Content-visibility keeps cards painted up to
// a viewport and a half away, so at the largest sizes eight maps and tints paid that on every
// edit; hidden ones are not painted and cost nothing. Their pixels stay on the canvas, kept up to
// date after the frame by their painters, and show again half a viewport before they scroll in.

// Half a viewport above and below: scrolling by the wheel or a line never reaches a hidden map
// before it is shown; a jump of a page may show a map's cells without colour for one frame.
const MARGIN = '50% 0px';
let observer = null;
const canvases = new WeakMap();  // observed element -> the canvas it decides for

function observe(entries) {
  for (const entry of entries) {
    const canvas = canvases.get(entry.target);
    if (canvas) canvas.style.visibility = entry.isIntersecting ? '' : 'hidden';
  }
}

/** Hides `canvas` while `near` (the element it is drawn over) is far from the viewport. */
export function hideWhenFar(near, canvas) {
  if (typeof IntersectionObserver !== 'function') return;
  observer ??= new IntersectionObserver(observe, { rootMargin: MARGIN });
  canvases.set(near, canvas);
  observer.observe(near);
}
