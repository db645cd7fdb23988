// An editable matrix's table as DOM: column numbers, row labels and one plain-text
// contenteditable cell per entry (see matrix-editor.js for why not <input>s). Test hooks: every
// cell is a `.cell-input` element (role textbox) with data-row and data-col.
import { cornerRow, el } from '../dom/dom.js';

// Whether a cell takes typing (an embedding's read-only matrices show values only).
export function setEditable(input, readOnly) {
  input.contentEditable = readOnly ? 'false' : 'plaintext-only';
  if (readOnly) input.setAttribute('aria-readonly', 'true');
  else input.removeAttribute('aria-readonly');
}

function cellInput(i, j, readOnly) {
  const input = el('div', 'cell-input');
  input.setAttribute('role', 'textbox');
  setEditable(input, readOnly);
  input.spellcheck = false;
  input.enterKeyHint = 'next';
  input.setAttribute('autocorrect', 'off');
  input.setAttribute('autocapitalize', 'off');
  input.dataset.row = String(i);
  input.dataset.col = String(j);
  input.tabIndex = i === 0 && j === 0 ? 0 : -1;
  return input;
}

/**
 * Fills thead and tbody with a rows x cols grid of cells, the first cell the tab stop. Returns
 * { inputs (row-major), rowHeads, colHeads }.
 */
export function buildMatrixTable(thead, tbody, rows, cols, readOnly) {
  thead.replaceChildren();
  tbody.replaceChildren();
  const head = cornerRow();
  const colHeads = [];
  for (let j = 0; j < cols; j++) {
    const th = el('th', 'col-label', String(j + 1));
    th.scope = 'col';
    colHeads.push(th);
    head.append(th);
  }
  thead.append(head);
  const inputs = [];
  const rowHeads = [];
  for (let i = 0; i < rows; i++) {
    const tr = el('tr');
    const th = el('th', 'row-label');
    th.scope = 'row';
    th.translate = false; // a token, or a row's number
    rowHeads.push(th);
    tr.append(th);
    for (let j = 0; j < cols; j++) {
      const td = el('td');
      const input = cellInput(i, j, readOnly);
      td.append(input);
      tr.append(td);
      inputs.push(input);
    }
    tbody.append(tr);
  }
  return { inputs, rowHeads, colHeads };
}
