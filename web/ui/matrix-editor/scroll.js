// Horizontal scrolling for an editable matrix, without a user-scrollable box around its inputs.
//
// Why: Chromium gives every <input> an inner scroller of its own, and a user-scrollable ancestor
// (overflow: auto) around a thousand of them costs ~13 ms of Layerize on every frame, so an edit
// could not fit in one. A box with overflow: hidden can still be scrolled from script and by
// focus, but not by the user, and costs nothing there. This module gives back what the native
// scroller offered: a thin native scrollbar under the matrix (an overflow: auto box holding only an
// empty spacer, so no inputs), horizontal wheel and trackpad (and Shift+wheel), touch panning with
// a fling, and cells brought into view when focused (the browser does that; the bar follows).
// The area's CSS (styles.css) gives it overflow: hidden and touch-action: pan-y.

import { setHidden } from '../dom/dom.js';

const LINE_PX = 40;        // a wheel "line" (deltaMode 1, Firefox) in pixels, ~ Chromium's notch / 3
const SLOP_PX = 8;         // a touch must travel this far sideways before it pans (below: a tap)
const FLING_TAU_MS = 325;  // decay time constant of a fling's speed
const FLING_MIN = 0.05;    // px/ms: slower releases stop at once

// The proxy scrollbar: an overflow: auto box (styles.css) holding only an empty spacer as wide as
// the area's content.
function createProxyBar() {
  const bar = document.createElement('div');
  bar.className = 'matrix-hbar';
  bar.hidden = true;
  // A visual affordance only: keyboard users scroll by moving focus between cells. Out of the tab
  // order too (browsers make a scroller without focusable content a tab stop of its own), or Tab
  // would land on an element hidden from screen readers.
  bar.setAttribute('aria-hidden', 'true');
  bar.tabIndex = -1;
  const spacer = document.createElement('div');
  spacer.className = 'matrix-hbar-spacer';
  bar.append(spacer);
  return { bar, spacer };
}

// A wheel or trackpad event's sideways distance in pixels, or null for a pinch zoom or a mostly
// vertical gesture (those are the page's). A page (deltaMode 2) is the area's width.
function sidewaysDelta(e, area) {
  if (e.ctrlKey) return null;  // pinch zoom
  let dx = e.deltaX;
  // Shift+wheel: some platforms swap the axes themselves, others leave it to the page.
  if (e.shiftKey && dx === 0) dx = e.deltaY;
  else if (Math.abs(dx) <= Math.abs(e.deltaY)) return null;  // mostly vertical
  if (e.deltaMode === 1) dx *= LINE_PX;
  else if (e.deltaMode === 2) dx *= area.clientWidth;
  return dx;
}

/**
 * Makes `area` (overflow: hidden, holding `content`) scrollable sideways by the user. Returns the
 * proxy scrollbar for the caller to place just under the area.
 */
export function attachMatrixScroll(area, content) {
  const { bar, spacer } = createProxyBar();

  const maxScroll = () => Math.max(0, area.scrollWidth - area.clientWidth);
  // Each box's 'scroll' copies its position to the other. The copy fires a 'scroll' of its own a
  // frame later, which must not be copied back: by then the user may have dragged the bar on, and
  // copying would pull it back to where the cells were. So a box whose position is still the one
  // copied into it is not followed.
  const echoes = new Map();
  function copy(from, to) {
    if (to.hidden || Math.abs(to.scrollLeft - from.scrollLeft) < 1) return;
    const before = to.scrollLeft;
    to.scrollLeft = from.scrollLeft;
    if (to.scrollLeft !== before) echoes.set(to, to.scrollLeft);
  }
  function follow(from, to) {
    const echo = echoes.get(from);
    echoes.delete(from);
    if (echo !== from.scrollLeft) copy(from, to);
  }

  function measure() {
    const overflow = maxScroll();
    setHidden(bar, overflow < 1);
    if (bar.hidden) return;
    // The bar's range equals the area's, so one scrollLeft means the same in both.
    spacer.style.width = `${overflow + bar.clientWidth}px`;
    copy(area, bar);
  }

  area.addEventListener('scroll', () => follow(area, bar), { passive: true });
  bar.addEventListener('scroll', () => follow(bar, area), { passive: true });
  // The box (window, sidebar, card) and the table (columns rebuilt, fonts) both change the range.
  const resizes = new ResizeObserver(measure);
  resizes.observe(area);
  resizes.observe(content);

  // scrollLeft rounds to whole pixels, so small trackpad and fling steps are summed in `pos`, the
  // position last asked for, as long as nothing else (focus, the bar) has moved the area since.
  let pos = 0;
  const current = () => (Math.abs(pos - area.scrollLeft) < 1 ? pos : area.scrollLeft);
  // Says whether there was room to move (at an edge the page gets the gesture).
  function scrollTo(x) {
    const from = current();
    const to = Math.min(maxScroll(), Math.max(0, x));
    if (to === from) return false;
    pos = to;
    area.scrollLeft = to;
    return true;
  }
  const scrollBy = (dx) => scrollTo(current() + dx);

  // Wheel and trackpad. Not passive, so that a sideways gesture does not also swipe the page (or
  // go back in history); vertical gestures are left alone and scroll the page as usual.
  area.addEventListener('wheel', (e) => {
    const dx = sidewaysDelta(e, area);
    if (dx === null) return;
    stopFling();
    if (scrollBy(dx)) e.preventDefault();
  }, { passive: false });

  // Touch: touch-action: pan-y leaves vertical pans to the browser and sends sideways moves here.
  // A touch that stays within SLOP_PX is a tap and does what a tap does (focus a cell).
  let touch = null;  // { id, x, y, from, panning, samples: [[t, x], ...] }
  let fling = 0;     // requestAnimationFrame id
  function stopFling() {
    cancelAnimationFrame(fling);
    fling = 0;
  }
  area.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'touch' || !e.isPrimary) return;
    stopFling();
    touch = { id: e.pointerId, x: e.clientX, y: e.clientY, from: 0, panning: false, samples: [] };
  });
  area.addEventListener('pointermove', (e) => {
    if (!touch || e.pointerId !== touch.id) return;
    if (!touch.panning) {
      const dx = e.clientX - touch.x;
      if (Math.abs(dx) < SLOP_PX || Math.abs(dx) < Math.abs(e.clientY - touch.y)) return;
      touch.panning = true;
      touch.x = e.clientX;
      touch.from = current();
      // Keeps the moves coming once the finger leaves the area.
      area.setPointerCapture(e.pointerId);
    }
    // The content stays under the finger.
    scrollTo(touch.from + touch.x - e.clientX);
    touch.samples.push([e.timeStamp, e.clientX]);
    if (touch.samples.length > 5) touch.samples.shift();
  });
  const release = (e) => {
    if (!touch || e.pointerId !== touch.id) return;
    const { panning, samples } = touch;
    touch = null;
    if (!panning || e.type === 'pointercancel' || samples.length < 2) return;
    const [t0, x0] = samples[0];
    const [t1, x1] = samples[samples.length - 1];
    // A finger that stopped before lifting does not fling.
    if (e.timeStamp - t1 > 80 || t1 <= t0) return;
    let v = (x0 - x1) / (t1 - t0);  // px/ms, in scrollLeft's direction
    if (Math.abs(v) < FLING_MIN) return;
    let last = performance.now();
    const step = (now) => {
      const dt = now - last;
      if (dt > 0) {
        last = now;
        if (!scrollBy(v * dt)) {
          fling = 0;
          return;
        }
        v *= Math.exp(-dt / FLING_TAU_MS);
        if (Math.abs(v) < FLING_MIN) {
          fling = 0;
          return;
        }
      }
      fling = requestAnimationFrame(step);
    };
    fling = requestAnimationFrame(step);
  };
  area.addEventListener('pointerup', release);
  area.addEventListener('pointercancel', release);

  return { bar };
}
