// An editable matrix: a table of editable text cells, tinted by value. Typing a valid number
// updates the state at once (every later step follows live); an invalid entry is flagged and
// ignored until fixed.
//
// Keyboard (the grid pattern): the matrix is one tab stop, its cells a roving tabindex (Tab enters
// at the cell last focused and leaves the matrix). A focused cell has its text selected: arrows
// move between cells, Home/End to the row's ends, Ctrl+Home/End to the corners, PageUp/PageDown
// to the column's ends; typing replaces the number, Enter or F2 edits it (caret at the end). While
// editing, Left/Right/Home/End move the caret (Left/Right leave the cell at the text's edge),
// Up/Down move on, Enter commits and moves down (Shift+Enter up), and Escape restores the value
// the cell had when it was focused (in full precision, not the rounded text).
//
// The cells are plain-text contenteditable boxes, not <input>s: every <input> is a clip of its own,
// and with 1 536 of them on screen Chromium spent 8-9 ms per frame layerizing them. Pasted markup
// stays text (contenteditable="plaintext-only").
// The tints are painted on a canvas under the table (ui/matrix-tint.js), so a new colour range
// restyles no cell. Wide matrices scroll sideways through ui/matrix-scroll.js (the cell area
// itself is not user-scrollable, which keeps each frame cheap with a thousand cells).
// `parse(text)` reads a cell's text: a number, or NaN for an invalid entry (default: finite
// numbers as parseNumber reads them).
// Test hooks: the wrapper carries data-matrix="<name>" and data-tint-bound (the colour range's
// bound), and every cell is a `.cell-input` element (role textbox) with data-row and data-col.
import { formatInput, formatNumber, parseNumber } from './format.js';
import { caretToEnd, selectAll, selectionOffsets } from './cell-caret.js';
import { moveFor } from './grid-nav.js';
import { makeScale, niceBound } from './palettes.js';
import { cornerRow, el } from './dom.js';
import { attachMatrixScroll } from './matrix-scroll.js';
import { createMatrixTint } from './matrix-tint.js';

const parseFinite = (text) => parseNumber(text) ?? NaN;

export function createMatrixEditor({ name, label, onEdit, onInspect, parse = parseFinite }) {
  const root = el('div', 'matrix-block');
  root.dataset.matrix = name;
  const scroller = el('div', 'matrix-scroll');
  const stage = el('div', 'matrix-stage');
  const table = el('table', 'matrix');
  table.setAttribute('role', 'grid');
  table.setAttribute('aria-label', label);
  const thead = el('thead');
  const tbody = el('tbody');
  table.append(thead, tbody);
  stage.append(table);
  scroller.append(stage);
  const { bar } = attachMatrixScroll(scroller, stage);
  root.append(scroller, bar);
  const painter = createMatrixTint(stage, table, (i, j) => inputs[i * cols + j]);

  let rows = 0;
  let cols = 0;
  let inputs = [];
  let rowHeads = [];
  let colHeads = [];
  let shown = [];        // the value each input currently stands for
  let ink = '';          // the table's text colour as last written
  let roving = 0;        // flat index of the cell that is the matrix's tab stop
  let editing = false;   // the focused cell's text is being edited (arrows move the caret)
  let lit = new Set();   // highlighted cells
  let matrix = null;     // last matrix object rendered (state replaces, never mutates, matrices)
  let pending = null;    // latest update() arguments while inactive
  let active = true;
  let readOnly = false;
  let theme = 'light';
  let rowLabels = [];

  // The cell being edited and its value when it got the focus (edits apply live, so the state
  // no longer holds it once typing has started).
  let before = null;

  function build(r, c) {
    before = null;
    rows = r;
    cols = c;
    thead.replaceChildren();
    tbody.replaceChildren();
    const head = cornerRow();
    colHeads = [];
    for (let j = 0; j < c; j++) {
      const th = el('th', 'col-label', String(j + 1));
      th.scope = 'col';
      colHeads.push(th);
      head.append(th);
    }
    thead.append(head);
    inputs = [];
    rowHeads = [];
    shown = new Array(r * c).fill(NaN);
    roving = 0;
    painter.resize(r, c);
    lit = new Set();
    table.classList.toggle('compact', c > 12);
    for (let i = 0; i < r; i++) {
      const tr = el('tr');
      const th = el('th', 'row-label');
      th.scope = 'row';
      rowHeads.push(th);
      tr.append(th);
      for (let j = 0; j < c; j++) {
        const td = el('td');
        const input = el('div', 'cell-input');
        input.setAttribute('role', 'textbox');
        input.contentEditable = readOnly ? 'false' : 'plaintext-only';
        if (readOnly) input.setAttribute('aria-readonly', 'true');
        input.spellcheck = false;
        input.enterKeyHint = 'next';
        input.setAttribute('autocorrect', 'off');
        input.setAttribute('autocapitalize', 'off');
        input.dataset.row = String(i);
        input.dataset.col = String(j);
        input.tabIndex = i === 0 && j === 0 ? 0 : -1;
        td.append(input);
        tr.append(td);
        inputs.push(input);
      }
      tbody.append(tr);
    }
    matrix = null;
  }

  function labelInputs() {
    for (let i = 0; i < rows; i++) {
      const rl = rowLabels[i] ?? String(i + 1);
      if (rowHeads[i].textContent !== rl) rowHeads[i].textContent = rl;
      rowHeads[i].title = rl;
      for (let j = 0; j < cols; j++) {
        const aria = `${label}, row ${i + 1}${rowLabels[i] ? ` (${rowLabels[i]})` : ''}, column ${j + 1}`;
        const input = inputs[i * cols + j];
        if (input.getAttribute('aria-label') !== aria) input.setAttribute('aria-label', aria);
      }
    }
  }

  function tint() {
    let M = 0;
    for (const v of matrix.data) M = Math.max(M, Math.abs(v));
    // A range twice the data's keeps tints gentle enough to read typed digits on: the whole table
    // takes one text colour (the scale's for its middle), right for every tint within half range.
    const bound = 2 * niceBound(M);
    const scale = makeScale({ kind: 'diverging', theme, min: -bound, max: bound });
    if (ink !== scale.map(0).text) {
      ink = scale.map(0).text;
      table.style.color = ink;
    }
    if (root.dataset.tintBound !== String(bound)) root.dataset.tintBound = String(bound);
    painter.paint((k) => scale.map(matrix.data[k]).rgb);
  }

  function render({ matrix: next, rowLabels: rl, theme: th }) {
    if (next.rows !== rows || next.cols !== cols) build(next.rows, next.cols);
    const relabel = rl.join('\u0000') !== rowLabels.join('\u0000') || !matrix;
    rowLabels = rl.slice();
    if (relabel) labelInputs();
    if (next === matrix && th === theme) return;
    theme = th;
    matrix = next;
    for (let k = 0; k < inputs.length; k++) {
      const v = next.data[k];
      if (Object.is(shown[k], v)) continue;
      shown[k] = v;
      const input = inputs[k];
      setText(input, formatInput(v));
      input.title = formatNumber(v, 8);
      input.classList.remove('invalid');
      input.removeAttribute('aria-invalid');
    }
    tint();
  }

  // Replaces a cell's text (one text node, or none for the empty string).
  function setText(input, text) {
    if (input.textContent !== text) input.textContent = text;
  }

  function at(input) {
    return [Number(input.dataset.row), Number(input.dataset.col)];
  }

  function restore(input) {
    const [i, j] = at(input);
    const k = i * cols + j;
    if (!before || before.k !== k) return revert(input);
    const v = before.value;
    shown[k] = v;
    setText(input, formatInput(v));
    input.title = formatNumber(v, 8);
    input.classList.remove('invalid');
    input.removeAttribute('aria-invalid');
    if (matrix && !Object.is(matrix.data[k], v)) onEdit(name, i, j, v);
    return undefined;
  }

  // Shows the value the cell stands for (the last valid entry sent, or the value last rendered).
  function revert(input) {
    const [i, j] = at(input);
    const k = i * cols + j;
    const v = Number.isNaN(shown[k]) ? (matrix ? matrix.data[k] : 0) : shown[k];
    setText(input, formatInput(v));
    input.classList.remove('invalid');
    input.removeAttribute('aria-invalid');
  }

  function focusCell(i, j) {
    const input = inputs[i * cols + j];
    if (!input) return;
    input.focus();
    selectAll(input);
  }

  // The focused cell becomes the matrix's tab stop.
  function rove(k) {
    if (k === roving || !inputs[k]) return;
    if (inputs[roving]) inputs[roving].tabIndex = -1;
    inputs[k].tabIndex = 0;
    roving = k;
  }

  const cellOf = (target) => (target instanceof Element && target.classList.contains('cell-input')
    && table.contains(target) ? target : null);

  table.addEventListener('input', (e) => {
    const input = cellOf(e.target);
    if (!input) return;
    editing = true;
    // A paste of several lines leaves line breaks in the text: they make the entry invalid.
    const v = parse(input.textContent);
    const [i, j] = at(input);
    if (Number.isNaN(v)) {
      input.classList.add('invalid');
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    input.classList.remove('invalid');
    input.removeAttribute('aria-invalid');
    shown[i * cols + j] = v;
    input.title = formatNumber(v, 8);
    onEdit(name, i, j, v);
  });
  table.addEventListener('focusin', (e) => {
    const input = cellOf(e.target);
    if (!input) return;
    editing = false;
    selectAll(input);
    const [i, j] = at(input);
    rove(i * cols + j);
    before = { k: i * cols + j, value: matrix ? matrix.data[i * cols + j] : 0 };
    onInspect?.(name, i, j);
  });
  table.addEventListener('pointerover', (e) => {
    const input = e.target instanceof Element ? e.target.closest('.cell-input') : null;
    if (input && table.contains(input)) onInspect?.(name, ...at(input));
  });
  // Leaving a cell shows its value as every other cell does (a typed "0.123456789" in full would
  // not fit the cell); an invalid entry goes back to the value in use.
  table.addEventListener('focusout', (e) => {
    const input = cellOf(e.target);
    if (input) revert(input);
  });
  table.addEventListener('keydown', (e) => {
    const input = cellOf(e.target);
    if (input) onKey(e, input);
  });

  function onKey(e, input) {
    const [i, j] = at(input);
    if (e.key === 'Escape') {
      if (!readOnly) restore(input);
      editing = false;
      selectAll(input);
      return;
    }
    if ((e.key === 'Enter' && !editing) || e.key === 'F2') {
      e.preventDefault();
      if (readOnly) return;
      editing = true;
      caretToEnd(input);
      return;
    }
    if (e.key === 'Enter') {
      e.preventDefault();
      if (input.classList.contains('invalid')) revert(input);
      focusCell(e.shiftKey ? Math.max(0, i - 1) : Math.min(rows - 1, i + 1), j);
      return;
    }
    if (editing && !caretLeaves(e, input)) return;
    const next = moveFor(e.key, e.ctrlKey || e.metaKey, i, j, rows, cols);
    if (!next) return;
    e.preventDefault();
    if (input.classList.contains('invalid')) revert(input);
    focusCell(next[0], next[1]);
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

  return {
    el: root,
    /** matrix: { rows, cols, data }; rowLabels: one per row. Deferred while inactive. */
    update(args) {
      if (!active) {
        pending = args;
        return;
      }
      pending = null;
      render(args);
    },
    /** Large matrices are built only when shown. */
    setActive(on) {
      active = on;
      if (on && pending) this.update(pending);
    },
    /** Outlines cells: whole rows, whole columns and single flat indices (Sets, or null). */
    setHighlight({ rows: hlRows = null, cols: hlCols = null, cells: hlCells = null } = {}) {
      if (!active || !inputs.length) return;
      const td = (i, j) => inputs[i * cols + j].parentElement;
      const next = new Set();
      hlRows?.forEach((i) => { if (i < rows) for (let j = 0; j < cols; j++) next.add(td(i, j)); });
      hlCols?.forEach((j) => { if (j < cols) for (let i = 0; i < rows; i++) next.add(td(i, j)); });
      hlCells?.forEach((k) => { if (k < rows * cols) next.add(td(Math.floor(k / cols), k % cols)); });
      for (const cell of lit) if (!next.has(cell)) cell.classList.remove('hl');
      for (const cell of next) if (!lit.has(cell)) cell.classList.add('hl');
      lit = next;
      rowHeads.forEach((th, i) => th.classList.toggle('hl', !!hlRows?.has(i)));
      colHeads.forEach((th, j) => th.classList.toggle('hl', !!hlCols?.has(j)));
    },
    focusCell,
    /** Cells that show their values but take no typing (an embedding's read-only matrices). */
    setReadOnly(on) {
      readOnly = Boolean(on);
      for (const input of inputs) {
        input.contentEditable = readOnly ? 'false' : 'plaintext-only';
        if (readOnly) input.setAttribute('aria-readonly', 'true');
        else input.removeAttribute('aria-readonly');
      }
    },
    get name() { return name; },
  };
}
