// Arrow-key movement shared by the heatmaps and the matrix editors: arrows move one cell,
// Home/End go to the row's ends, Ctrl+Home/End to the corners, PageUp/PageDown to the column's ends.

/** The cell a key moves to from (i, j) in a rows × cols grid, or null if the key is not a move. */
export function moveFor(key, ctrl, i, j, rows, cols) {
  switch (key) {
    case 'ArrowUp':
      return [Math.max(0, i - 1), j];
    case 'ArrowDown':
      return [Math.min(rows - 1, i + 1), j];
    case 'ArrowLeft':
      return [i, Math.max(0, j - 1)];
    case 'ArrowRight':
      return [i, Math.min(cols - 1, j + 1)];
    case 'Home':
      return ctrl ? [0, 0] : [i, 0];
    case 'End':
      return ctrl ? [rows - 1, cols - 1] : [i, cols - 1];
    case 'PageUp':
      return [0, j];
    case 'PageDown':
      return [rows - 1, j];
    default:
      return null;
  }
}
