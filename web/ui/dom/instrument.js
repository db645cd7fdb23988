// Timing and drawing counts for the page's tests and benchmarks (data-render-ms on the explorer's
// root; data-progress-ms, data-progress-max-ms, data-progress-maps and data-maps-drawn on the
// training view's). A page carries them only when it opts in: ?instrument in its address, or
// window.__ATTN_INSTRUMENT__ = true before the page's code runs (tests/e2e/helpers.mjs and the
// benches set it); users' pages carry none of them.
let mapDraws = 0;

let asked = null; // read once, at the first drawing: neither changes without a reload

/** Whether this page asked for the measurements. */
export function instrumented() {
  asked ??=
    globalThis.__ATTN_INSTRUMENT__ === true || new URLSearchParams(globalThis.location?.search ?? '').has('instrument');
  return asked;
}

/** Counts one heatmap drawn by the training view (only on an instrumented page). */
export function countMapDraw() {
  if (instrumented()) mapDraws++;
}

/** Heatmaps the training view has drawn so far (0 on a page that did not opt in). */
export const mapDrawCount = () => mapDraws;
