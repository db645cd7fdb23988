// Typing and moving in an editable matrix's cells.
//
// Keyboard (the grid pattern): the matrix is one tab stop, its cells a roving tabindex (Tab enters
// at the cell last focused and leaves the matrix). A focused cell has its text selected: arrows
// move between cells, Home/End to the row's ends, Ctrl+Home/End to the corners, PageUp/PageDown
// to the column's ends; typing replaces the number, Enter or F2 edits it (caret at the end). While
// editing, Left/Right/Home/End move the caret (Left/Right leave the cell at the text's edge),
// Up/Down move on, Enter commits and moves down (Shift+Enter up), and Escape restores the value
// the cell had when it was focused (in full precision, not the rounded text).
import { formatInput, formatNumber } from '../model/model.js';
import { caretToEnd, selectAll, selectionOffsets } from './caret.js';
import { moveFor, setAttr, setText } from '../dom/dom.js';

function clearInvalid(input) {
  input.classList.toggle('invalid', false); // (unlike remove(), writes only on change)
  input.removeAttribute('aria-invalid');
}

/** A cell shows value v: rounded in its text, in full in its title (`decimal`: the locale's separator). */
export function showValue(input, v, decimal = String) {
  setText(input, decimal(formatInput(v)));
  setAttr(input, 'title', decimal(formatNumber(v, 8)));
  clearInvalid(input);
}

function at(input) {
  return [Number(input.dataset.row), Number(input.dataset.col)];
}

// While editing, keys that move the caret inside the number keep doing so; Left/Right leave
// the cell once the caret is at that edge of the text.
function caretLeaves(e, input) {
  const len = input.textContent.length;
  const offsets = selectionOffsets(input);
  if (!offsets) return true;
  const [start, end] = offsets;
  if (e.key === 'ArrowLeft') return start === 0 && end === 0;
  if (e.key === 'ArrowRight') return start === len && end === len;
  return e.key !== 'Home' && e.key !== 'End';
}

/**
 * grid: { rows, cols, inputs, shown, matrix, readOnly }, kept current by the editor (shown[k]: the
 * value input k stands for; matrix: the one last rendered). onEdit(name, i, j, v) for each valid
 * entry, onInspect(name, i, j) on hover and focus. Returns { focusCell(i, j), reset() } (reset:
 * the cells were rebuilt).
 */
export function attachMatrixEditing(table, grid, { name, parse, onEdit, onInspect }) {
  let roving = 0; // flat index of the cell that is the matrix's tab stop
  let editing = false; // the focused cell's text is being edited (arrows move the caret)
  // The cell being edited and its value when it got the focus (edits apply live, so the state
  // no longer holds it once typing has started).
  let before = null;

  function restore(input) {
    const [i, j] = at(input);
    const k = i * grid.cols + j;
    if (!before || before.k !== k) return revert(input);
    const v = before.value;
    grid.shown[k] = v;
    showValue(input, v, grid.decimal);
    if (grid.matrix && !Object.is(grid.matrix.data[k], v)) onEdit(name, i, j, v);
    return undefined;
  }

  // Shows the value the cell stands for (the last valid entry sent, or the value last rendered).
  function revert(input) {
    const [i, j] = at(input);
    const k = i * grid.cols + j;
    const { shown, matrix } = grid;
    const v = Number.isNaN(shown[k]) ? (matrix ? matrix.data[k] : 0) : shown[k];
    setText(input, (grid.decimal ?? String)(formatInput(v)));
    clearInvalid(input);
  }

  function focusCell(i, j) {
    const input = grid.inputs[i * grid.cols + j];
    if (!input) return;
    input.focus();
    selectAll(input);
  }

  // The focused cell becomes the matrix's tab stop.
  function rove(k) {
    const { inputs } = grid;
    if (k === roving || !inputs[k]) return;
    if (inputs[roving]) inputs[roving].tabIndex = -1;
    inputs[k].tabIndex = 0;
    roving = k;
  }

  function onInput(input) {
    editing = true;
    // A paste of several lines leaves line breaks in the text: they make the entry invalid.
    const v = parse(input.textContent);
    const [i, j] = at(input);
    if (Number.isNaN(v)) {
      input.classList.add('invalid');
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    clearInvalid(input);
    grid.shown[i * grid.cols + j] = v;
    setAttr(input, 'title', (grid.decimal ?? String)(formatNumber(v, 8)));
    onEdit(name, i, j, v);
  }

  function onFocus(input) {
    editing = false;
    selectAll(input);
    const [i, j] = at(input);
    const k = i * grid.cols + j;
    rove(k);
    before = { k, value: grid.matrix ? grid.matrix.data[k] : 0 };
    onInspect?.(name, i, j);
  }

  function onKey(e, input) {
    const [i, j] = at(input);
    if (e.key === 'Escape') {
      if (!grid.readOnly) restore(input);
      editing = false;
      selectAll(input);
      return;
    }
    if ((e.key === 'Enter' && !editing) || e.key === 'F2') {
      e.preventDefault();
      if (grid.readOnly) return;
      editing = true;
      caretToEnd(input);
      return;
    }
    if (e.key === 'Enter') {
      e.preventDefault();
      if (input.classList.contains('invalid')) revert(input);
      focusCell(e.shiftKey ? Math.max(0, i - 1) : Math.min(grid.rows - 1, i + 1), j);
      return;
    }
    if (editing && !caretLeaves(e, input)) return;
    const next = moveFor(e.key, e.ctrlKey || e.metaKey, i, j, grid.rows, grid.cols);
    if (!next) return;
    e.preventDefault();
    if (input.classList.contains('invalid')) revert(input);
    focusCell(next[0], next[1]);
  }

  const cellOf = (target) =>
    target instanceof Element && target.classList.contains('cell-input') && table.contains(target) ? target : null;
  const on = (type, handle) =>
    table.addEventListener(type, (e) => {
      const input = cellOf(e.target);
      if (input) handle(input, e);
    });
  on('input', onInput);
  on('focusin', onFocus);
  table.addEventListener('pointerover', (e) => {
    const input = e.target instanceof Element ? e.target.closest('.cell-input') : null;
    if (input && table.contains(input)) onInspect?.(name, ...at(input));
  });
  // Leaving a cell shows its value as every other cell does (a typed "0.123456789" in full would
  // not fit the cell); an invalid entry goes back to the value in use.
  on('focusout', revert);
  on('keydown', (input, e) => onKey(e, input));

  return {
    focusCell,
    reset() {
      before = null;
      roving = 0;
    },
  };
}
