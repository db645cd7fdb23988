// An editable matrix: a table of editable text cells, tinted by value. Typing a valid number
// updates the state at once (every later step follows live); an invalid entry is flagged and
// ignored until fixed.
//
// Keyboard and typing: see ui/matrix-editor/editing.js.
//
// The cells are plain-text contenteditable boxes, not <input>s: every <input> is a clip of its own,
// and with 1 536 of them on screen Chromium spent 8-9 ms per frame layerizing them. Pasted markup
// stays text (contenteditable="plaintext-only").
// The tints are painted on a canvas under the table (ui/matrix-editor/tint.js), so a new colour range
// restyles no cell. Wide matrices scroll sideways in a native scroller.
// `parse(text)` reads a cell's text: a number, or NaN for an invalid entry (default: finite
// numbers as parseNumber reads them).
// Test hooks: the wrapper carries data-matrix="<name>" and data-tint-bound (the colour range's
// bound), and every cell is a `.cell-input` element (role textbox) with data-row and data-col.
import { english, makeScale, niceBound, parseNumber } from '../model/model.js';
import { el, outlineCells, setText } from '../dom/dom.js';
import { createMatrixTint } from './tint.js';
import { buildMatrixTable, setEditable } from './table.js';
import { attachMatrixEditing, showValue } from './editing.js';

const parseFinite = (text) => parseNumber(text) ?? NaN;

// The wrapper (data-matrix), its sideways scroller and the table with its role and name.
function createMatrixShell(name, label) {
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
  root.append(scroller);
  return { root, stage, table, thead, tbody };
}

export function createMatrixEditor({ name, label, onEdit, onInspect, parse = parseFinite, i18n = english }) {
  const { root, stage, table, thead, tbody } = createMatrixShell(name, label);
  // The cells as last built and the values they show, shared with the typing (matrix-editing.js).
  // shown[k]: the value input k currently stands for; matrix: the last matrix object rendered
  // (state replaces, never mutates, matrices).
  const grid = { rows: 0, cols: 0, inputs: [], shown: [], matrix: null, readOnly: false, decimal: i18n.decimal };
  const painter = createMatrixTint(stage, table, (i, j) => grid.inputs[i * grid.cols + j]);
  const editing = attachMatrixEditing(table, grid, { name, parse, onEdit, onInspect });

  let rowHeads = [];
  let colHeads = [];
  let ink = ''; // the table's text colour as last written
  let lit = new Set(); // highlighted cells
  let pending = null; // latest update() arguments while inactive
  let active = true;
  let theme = 'light';
  let rowLabels = [];

  function build(r, c) {
    editing.reset();
    grid.rows = r;
    grid.cols = c;
    grid.shown = new Array(r * c).fill(NaN);
    painter.resize(r, c);
    lit = new Set();
    table.classList.toggle('compact', c > 12);
    const built = buildMatrixTable(thead, tbody, r, c, grid.readOnly);
    grid.inputs = built.inputs;
    ({ rowHeads, colHeads } = built);
    grid.matrix = null;
  }

  function labelInputs() {
    const { rows, cols, inputs } = grid;
    for (let i = 0; i < rows; i++) {
      const rl = rowLabels[i] ?? String(i + 1);
      setText(rowHeads[i], rl);
      rowHeads[i].title = rl;
      for (let j = 0; j < cols; j++) {
        const aria = rowLabels[i]
          ? i18n.t('explorer.matrix.cellNamed', { matrix: label, row: i + 1, label: rowLabels[i], col: j + 1 })
          : i18n.t('explorer.matrix.cell', { matrix: label, row: i + 1, col: j + 1 });
        const input = inputs[i * cols + j];
        if (input.getAttribute('aria-label') !== aria) input.setAttribute('aria-label', aria);
      }
    }
  }

  function tint() {
    const { matrix } = grid;
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
    if (next.rows !== grid.rows || next.cols !== grid.cols) build(next.rows, next.cols);
    const relabel = rl.join('\u0000') !== rowLabels.join('\u0000') || !grid.matrix;
    rowLabels = rl.slice();
    if (relabel) labelInputs();
    if (next === grid.matrix && th === theme) return;
    theme = th;
    grid.matrix = next;
    const { inputs, shown } = grid;
    for (let k = 0; k < inputs.length; k++) {
      const v = next.data[k];
      if (Object.is(shown[k], v)) continue;
      shown[k] = v;
      showValue(inputs[k], v, i18n.decimal);
    }
    tint();
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
    setHighlight(spec) {
      const { inputs, cols } = grid;
      if (!active || !inputs.length) return;
      const td = (i, j) => inputs[i * cols + j].parentElement;
      lit = outlineCells(lit, td, grid, { rows: rowHeads, cols: colHeads }, spec);
    },
    focusCell: editing.focusCell,
    /** Cells that show their values but take no typing (an embedding's read-only matrices). */
    setReadOnly(on) {
      grid.readOnly = Boolean(on);
      for (const input of grid.inputs) setEditable(input, grid.readOnly);
    },
    get name() {
      return name;
    },
  };
}
