// Pointer and keyboard on a heatmap's cells: hovering or focusing a cell inspects it, arrow keys
// walk the matrix (grid-nav.js), and a click, Enter or Space activates a cell when the map is
// clickable.
import { moveFor } from '../dom/dom.js';

/**
 * on: { size() -> [rows, cols], hover(i, j), focused(i, j), moveFocus(i, j), activatable() ->
 * boolean, activate(i, j) }.
 */
export function attachHeatmapEvents(table, on) {
  function cellFrom(target) {
    const td = target instanceof Element ? target.closest('td.cell') : null;
    if (!td || !table.contains(td)) return null;
    return [Number(td.dataset.row), Number(td.dataset.col)];
  }

  table.addEventListener('pointerover', (e) => {
    const at = cellFrom(e.target);
    if (at) on.hover(at[0], at[1]);
  });
  table.addEventListener('focusin', (e) => {
    const at = cellFrom(e.target);
    if (at) on.focused(at[0], at[1]);
  });
  table.addEventListener('click', (e) => {
    const at = cellFrom(e.target);
    if (!at) return;
    on.moveFocus(at[0], at[1]);
    if (on.activatable()) on.activate(at[0], at[1]);
  });
  table.addEventListener('keydown', (e) => {
    const at = cellFrom(e.target);
    if (!at) return;
    const [rows, cols] = on.size();
    const next = moveFor(e.key, e.ctrlKey || e.metaKey, at[0], at[1], rows, cols);
    if (next) {
      e.preventDefault();
      on.moveFocus(next[0], next[1]);
    } else if ((e.key === 'Enter' || e.key === ' ') && on.activatable()) {
      e.preventDefault();
      on.activate(at[0], at[1]);
    }
  });
}
