// Canvases far from the viewport are made invisible. Chromium hands every painted canvas to the
// compositor as a layer of its own, and when a frame rebuilds the layers (every keystroke into an
// editable cell does) each visible canvas produces a new copy of its pixels, changed or not:
// ~0.25 ms per map on a software-composited screen. Content-visibility keeps cards painted up to
// a viewport and a half away, so at the largest sizes eight maps and tints paid that on every
// edit; hidden ones are not painted and cost nothing. Their pixels stay on the canvas, kept up to
// date after the frame by their painters, and show again half a viewport before they scroll in.
// Measured again A/B on 2026-12-03 (bench:page, each edit's best of 3 rounds, median CPU time to
// the frame, two runs each): Q/K/V mode 6.3 and 5.4 ms with it, 7.9 and 6.3 without; the X view,
// whose far maps are fewer, 9.5 and 7.9 with it, 9.5 and 7.4 without (within the noise).

// Half a viewport above and below: scrolling by the wheel or a line never reaches a hidden map.
const NEAR = 0.5;
let observer = null;
const canvases = new WeakMap(); // observed element -> the canvases it decides for (a Set)
const far = new Set(); // observed elements whose canvas is hidden now

function setFar(near, isFar) {
  const set = canvases.get(near);
  if (!set) return;
  const visibility = isFar ? 'hidden' : '';
  for (const canvas of set) if (canvas.style.visibility !== visibility) canvas.style.visibility = visibility; // (a write restyles)
  if (isFar) far.add(near);
  else far.delete(near);
}

// The observer reports after the frame, so a jump (Page Down, a link to a step) would show a map
// without its colours for a frame or two: scroll events come before the frame is painted, so the
// maps a scroll brought near are shown in that same frame. A box that scrolls moves only what it
// holds: a wide matrix scrolled sideways (by an arrow key) holds no card, and measuring the cards
// then would lay the page out inside the key's frame (~4 ms at the largest sizes).
function showNearOnScroll(event) {
  const box = event.target instanceof Element ? event.target : null; // (else the document)
  const margin = NEAR * window.innerHeight;
  for (const near of far) {
    if (!near.isConnected) {
      // (still observed: a card put back is decided for again)
      far.delete(near);
      continue;
    }
    if (box && !box.contains(near)) continue;
    const r = near.getBoundingClientRect();
    if (r.height && r.bottom > -margin && r.top < window.innerHeight + margin) setFar(near, false);
  }
}

// What is measured for `element`: the nearest box that content-visibility: auto may skip (a
// card), whose size is known even while skipped. The element itself has no box then, so a jump to
// a skipped card could not find the map near, and the map would show a frame after the card did.
function unitOf(element) {
  for (let e = element; e instanceof Element; e = e.parentElement) {
    if (getComputedStyle(e).contentVisibility === 'auto') return e;
  }
  return element;
}

/**
 * Hides `canvas` while `near` (the element it is drawn over) is far from the viewport. Called as
 * the map is built: `near` is looked at once the task that builds the page has put it in place.
 */
export function hideWhenFar(near, canvas) {
  if (typeof IntersectionObserver !== 'function') return;
  if (!observer) {
    observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) setFar(e.target, !e.isIntersecting);
      },
      { rootMargin: `${100 * NEAR}% 0px` },
    );
    window.addEventListener('scroll', showNearOnScroll, { capture: true, passive: true });
  }
  queueMicrotask(() => {
    const unit = unitOf(near);
    if (!canvases.has(unit)) canvases.set(unit, new Set());
    canvases.get(unit).add(canvas);
    observer.observe(unit);
  });
}
