// A heatmap's table as a grid a person walks and reads: its cells (heatmap-table.js), one of them
// the tab stop (a roving tabindex), each cell's accessible name its value, highlight outlines, and
// pointer and keyboard handling (heatmap-events.js).
import { formatCell } from '../model/model.js';
import { buildHeatmapTable } from './table.js';
import { attachHeatmapEvents } from './events.js';
import { outlineCells, setAttr } from '../dom/dom.js';

/**
 * onInspect(i, j) on hover/focus; onActivate(i, j) on click, Enter or Space while
 * `grid.activatable`. The grid's rows, cols, cells, statCells, rowHeads and colHeads are those of
 * the last build(); its values (Float32Array) and hidden flags are the ones painted, set by the
 * caller (null until painted). While `grid.covered` (a predict question's answer) no cell is named
 * by its value and none is inspected.
 */
export function createHeatmapGrid(table, thead, tbody, { onInspect, onActivate, i18n }) {
  let focus = [0, 0];
  let lit = new Set(); // highlighted cells
  let namedAll = false; // every cell has an accessible name (not just the focused one)
  const grid = {
    rows: 0,
    cols: 0,
    cells: [],
    statCells: [],
    rowHeads: [],
    colHeads: [],
    values: null,
    hidden: null,
    activatable: false,
    covered: false,
    build(r, c, stats) {
      grid.rows = r;
      grid.cols = c;
      setAttr(table, 'data-rows', String(r));
      setAttr(table, 'data-cols', String(c));
      Object.assign(grid, buildHeatmapTable(thead, tbody, r, c, stats));
      focus = [Math.min(focus[0], r - 1), Math.min(focus[1], c - 1)];
      if (r && c) grid.cells[focus[0]][focus[1]].tabIndex = 0;
      grid.values = null;
      grid.hidden = null;
      namedAll = false;
      lit = new Set();
    },
    nameFocused: () => nameCell(focus[0], focus[1]),
    // Maps that print their digits name every cell, so a screen reader reading the table (not
    // only moving focus through it) hears the numbers a sighted reader sees.
    nameAll(digits) {
      const every = digits && !grid.covered;
      if (every) for (let i = 0; i < grid.rows; i++) for (let j = 0; j < grid.cols; j++) nameCell(i, j);
      else if (namedAll || grid.covered)
        for (const row of grid.cells) for (const td of row) td.removeAttribute('aria-label');
      namedAll = every;
      if (!every) nameCell(focus[0], focus[1]);
    },
    focusCell: moveFocus,
    /** Outlines cells: whole rows, whole columns and single flat indices (Sets, or null). */
    setHighlight(spec) {
      const { cells, rowHeads, colHeads } = grid;
      lit = outlineCells(lit, (i, j) => cells[i][j], grid, { rows: rowHeads, cols: colHeads }, spec);
    },
  };

  // The accessible name of a cell is its value. Compact maps (no digits) name only the focused
  // cell (a screen reader announces the cell that has focus), so a redraw names one cell, not
  // thousands.
  function nameCell(i, j) {
    const td = grid.cells[i]?.[j];
    const { values, hidden } = grid;
    if (td && grid.covered) td.removeAttribute('aria-label');
    if (!td || !values || grid.covered) return;
    const k = i * grid.cols + j;
    const value = i18n.decimal(formatCell(values[k]));
    const text = hidden?.[k] ? i18n.t('explorer.heatmap.hiddenCell', { value }) : value;
    if (td.getAttribute('aria-label') !== text) td.setAttribute('aria-label', text);
  }

  function moveFocus(i, j, { focusIt = true } = {}) {
    const { cells } = grid;
    if (!cells.length) return;
    cells[focus[0]]?.[focus[1]] && (cells[focus[0]][focus[1]].tabIndex = -1);
    focus = [i, j];
    const td = cells[i][j];
    td.tabIndex = 0;
    nameCell(i, j);
    if (focusIt) td.focus();
  }

  attachHeatmapEvents(table, {
    size: () => [grid.rows, grid.cols],
    hover: (i, j) => !grid.covered && onInspect?.(i, j),
    focused(i, j) {
      focus = [i, j];
      nameCell(i, j);
      if (!grid.covered) onInspect?.(i, j);
    },
    moveFocus,
    activatable: () => grid.activatable,
    activate: (i, j) => onActivate?.(i, j),
  });
  return grid;
}
