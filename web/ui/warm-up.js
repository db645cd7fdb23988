// Typing's first keystroke, made as quick as the ones after it. A redraw after an edit runs code
// that building the page never ran (the cells that changed, a new colour range, the maps drawn
// again), and the browser's JavaScript engine runs such code slowly until it has seen it run: the
// first edit at the largest sizes took 7-12 ms of JavaScript instead of ~3, and so more than a
// frame. So the first drawing of each kind and size of page is followed, in the same task, by the
// drawing of an edit and of its undoing: no frame comes between them, so nothing of the edit is
// ever shown, and the queued work after the frame reads the state drawn last, the real one.
// Measured again A/B on 2026-12-03 (bench:page, X view, the first edit of 4 fresh pages each):
// 2.2–3.2 ms of JavaScript and 7.6–10.2 ms to its frame with the warm-up; 7.0–10.8 ms and
// 18–68 ms without.
import { activeMatrices, dims, setCell } from './model/model.js';

/**
 * `state` with the first number of its first editable matrix changed to one that widens that
 * matrix's colour range, as the largest typed edits do; null when there is no number to change.
 */
export function nudged(state) {
  const found = activeMatrices(state).find(([name, rows, cols]) => rows > 0 && cols > 0 && state.matrices[name]);
  if (!found) return null;
  const [name] = found;
  let largest = 0;
  for (const v of state.matrices[name].data) if (Number.isFinite(v)) largest = Math.max(largest, Math.abs(v));
  return setCell(state, name, 0, 0, 2 * largest + 1);
}

/**
 * What makes a page a different kind of page: which code a redraw of it runs (Q/K/V or a
 * sentence, several heads, cross-attention, biases, a bias matrix), and its sizes: the engine
 * compiles the WebAssembly kernels' fast code only once they have run long enough, which at a
 * small example's sizes takes many more edits than at the largest.
 */
export function kindOf(state) {
  const d = dims(state);
  const flags = ['sentence', 'multi', 'cross', 'biases', 'biasMatrix'].filter((k) => d[k]);
  return [...flags, `n${d.n} m${d.m} e${d.dModel} h${d.heads} k${d.dk} v${d.dv}`].join(' ');
}

/**
 * Returns warm(state, kind), to call right after `state` was drawn by drawState(state): for a
 * kind of page (kindOf(state)) not drawn before, it draws an edit of `state` (made whole by the
 * store's reconcile(), as a typed edit is) and then `state` again.
 */
export function createWarmUp(drawState, reconcile) {
  const warmed = new Set();
  return function warm(state, kind = kindOf(state)) {
    if (warmed.has(kind)) return;
    warmed.add(kind);
    const edited = nudged(state);
    if (!edited) return;
    try {
      drawState(reconcile(edited));
    } catch (err) {
      // Only speed is lost: the page shows the real state, drawn next.
      console.warn('attention-explorer: drawing the warm-up edit failed:', err);
    }
    drawState(state);
  };
}
