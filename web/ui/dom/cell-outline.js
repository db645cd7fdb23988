// Outlines ('hl') cells of a grid and their row and column labels: whole rows, whole columns and
// single flat indices. Only the cells whose outline changes are touched.

/**
 * lit: the cells outlined now (a Set); cellAt(i, j) -> the element to outline; size: { rows, cols };
 * heads: { rows, cols }, the label cells; the last argument: { rows, cols, cells } of Sets (or
 * null). Returns the Set of cells outlined afterwards.
 */
export function outlineCells(
  lit,
  cellAt,
  size,
  heads,
  { rows: hlRows = null, cols: hlCols = null, cells: hlCells = null } = {},
) {
  const { rows, cols } = size;
  const next = new Set();
  hlRows?.forEach((i) => {
    if (i < rows) for (let j = 0; j < cols; j++) next.add(cellAt(i, j));
  });
  hlCols?.forEach((j) => {
    if (j < cols) for (let i = 0; i < rows; i++) next.add(cellAt(i, j));
  });
  hlCells?.forEach((k) => {
    if (k < rows * cols) next.add(cellAt(Math.floor(k / cols), k % cols));
  });
  for (const cell of lit) if (!next.has(cell)) cell.classList.remove('hl');
  for (const cell of next) if (!lit.has(cell)) cell.classList.add('hl');
  heads.rows.forEach((th, i) => th.classList.toggle('hl', !!hlRows?.has(i)));
  heads.cols.forEach((th, j) => th.classList.toggle('hl', !!hlCols?.has(j)));
  return next;
}
