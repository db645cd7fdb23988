// The caret and selection inside an editable matrix cell (a contenteditable element holding one
// line of plain text), in the terms an <input> offers: select all, caret at the end, and the
// selection's start and end as character offsets.

// Inside a shadow root (the embeddable element) Chromium's document selection is retargeted to the
// host; the root's own getSelection (Chromium only) sees the cell.
const selectionOf = (cell) => {
  const root = cell.getRootNode();
  return typeof root.getSelection === 'function' ? root.getSelection() : cell.ownerDocument.getSelection();
};

/** Selects the cell's whole text (typing then replaces it). */
export function selectAll(cell) {
  const sel = selectionOf(cell);
  if (sel) sel.selectAllChildren(cell);
}

/** Puts the caret after the cell's last character. */
export function caretToEnd(cell) {
  const sel = selectionOf(cell);
  if (!sel) return;
  sel.selectAllChildren(cell);
  sel.collapseToEnd();
}

/** [start, end] of the selection as offsets into the cell's text, or null if it is elsewhere. */
export function selectionOffsets(cell) {
  const sel = selectionOf(cell);
  if (!sel || !sel.rangeCount) return null;
  const range = sel.getRangeAt(0);
  if (!cell.contains(range.startContainer) || !cell.contains(range.endContainer)) return null;
  const upTo = (node, offset) => {
    const r = cell.ownerDocument.createRange();
    r.selectNodeContents(cell);
    r.setEnd(node, offset);
    return r.toString().length;
  };
  return [upTo(range.startContainer, range.startOffset), upTo(range.endContainer, range.endOffset)];
}
