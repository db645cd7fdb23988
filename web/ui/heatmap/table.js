// A heatmap's table: its cells, labels and per-row statistics as DOM. The cells are transparent
// (the colours and digits are on a canvas under the table, see heatmap-paint.js) and carry the
// semantics: roles, a roving tabindex, and the test hooks data-row, data-col and data-stat.
import { cornerRow, el } from '../dom/dom.js';

function headerRow(cols, stats) {
  const head = cornerRow();
  const colHeads = [];
  for (let j = 0; j < cols; j++) {
    const th = el('th', 'col-label');
    th.scope = 'col';
    th.translate = false; // a token, or a column's number (its title too)
    const span = el('span');
    th.append(span);
    colHeads.push(th);
    head.append(th);
  }
  for (const s of stats) {
    const th = el('th', 'stat-label');
    th.scope = 'col';
    const abbr = el('abbr', '', s.label);
    abbr.title = s.title;
    th.append(abbr);
    head.append(th);
  }
  return { head, colHeads };
}

function rowHead() {
  const th = el('th', 'row-label');
  th.scope = 'row';
  th.translate = false; // a token (its title too); the badge is translated
  const span = el('span', 'label-text');
  const badge = el('span', 'badge');
  badge.translate = true;
  badge.hidden = true;
  th.append(span, badge);
  return th;
}

function valueCell(i, j) {
  const td = el('td', 'cell');
  td.setAttribute('role', 'gridcell');
  td.dataset.row = String(i);
  td.dataset.col = String(j);
  td.tabIndex = -1;
  return td;
}

function statCell(s, width) {
  const td = el('td', 'stat');
  td.dataset.stat = s.key;
  // The number sits in a box of fixed size, so a new number is laid out alone, not with the
  // whole table.
  const box = el('span', 'stat-value');
  box.style.width = `${width}ch`;
  box.append(document.createTextNode(''));
  td.append(box);
  return td;
}

/**
 * Fills thead and tbody with a rows x cols grid and one column per statistic ({ key, label,
 * title, values, format }). Returns { cells, statCells, rowHeads, colHeads }: cells[i][j] -> td,
 * statCells[i][s] -> td.
 */
export function buildHeatmapTable(thead, tbody, rows, cols, stats) {
  thead.replaceChildren();
  tbody.replaceChildren();
  const { head, colHeads } = headerRow(cols, stats);
  thead.append(head);
  // Wide enough for the longest of the first values (one width per statistic, for every row).
  const statWidths = stats.map((s) => Math.max(4, ...Array.from(s.values, (v, i) => s.format(v, i).length)));
  const cells = [];
  const statCells = [];
  const rowHeads = [];
  for (let i = 0; i < rows; i++) {
    const tr = el('tr');
    const th = rowHead();
    rowHeads.push(th);
    tr.append(th);
    const rowCells = [];
    for (let j = 0; j < cols; j++) {
      const td = valueCell(i, j);
      rowCells.push(td);
      tr.append(td);
    }
    const rowStats = [];
    for (const [si, s] of stats.entries()) {
      const td = statCell(s, statWidths[si]);
      rowStats.push(td);
      tr.append(td);
    }
    cells.push(rowCells);
    statCells.push(rowStats);
    tbody.append(tr);
  }
  return { cells, statCells, rowHeads, colHeads };
}

// Writes the labels' text (and title) where it changed and marks padding; returns a key that
// changes when the labels do.
export function setLabels(heads, labels, flags) {
  let key = '';
  heads.forEach((th, k) => {
    const text = labels[k] ?? '';
    const span = th.firstChild;
    if (span.textContent !== text) {
      span.textContent = text;
      th.title = text;
    }
    th.classList.toggle('pad', !!flags?.[k]);
    key += `${text}\u0000`;
  });
  return key;
}

// A rule between column groups (the heads inside a projection or the concatenation).
export function markGroups(colHeads, cells, groupCols) {
  for (let j = 0; j < colHeads.length; j++) {
    const start = groupCols > 0 && j > 0 && j % groupCols === 0;
    colHeads[j].classList.toggle('group-start', start);
    for (const row of cells) row[j].classList.toggle('group-start', start);
  }
}

// Badges the rows whose every cell is hidden; returns a key that changes with them (the badge
// moves cells).
export function markFullyMasked(rowHeads, fullyMasked, badgeText = 'all hidden') {
  let key = '';
  rowHeads.forEach((th, i) => {
    const all = !!fullyMasked?.has(i);
    if (th.lastChild.hidden === all) th.lastChild.hidden = !all;
    if (all && th.lastChild.textContent !== badgeText) th.lastChild.textContent = badgeText;
    th.parentElement.classList.toggle('fully-masked', all);
    if (all) key += `|${i}`;
  });
  return key;
}

export function markMasked(cells, hidden, cols) {
  cells.forEach((row, i) => {
    for (let j = 0; j < cols; j++) row[j].classList.toggle('masked', !!hidden[i * cols + j]);
  });
}

// Each row's statistics, text and data-value written only where they changed.
export function writeStats(stats, statCells) {
  stats.forEach((s, si) => {
    statCells.forEach((row, i) => {
      const td = row[si];
      const text = s.format(s.values[i], i);
      const node = td.firstChild.firstChild;
      if (node.data !== text) node.data = text;
      const value = String(s.values[i]);
      if (td.dataset.value !== value) td.dataset.value = value;
    });
  });
}

// No statistics while the map is covered (a row's maximum is one of its values).
export function clearStats(statCells) {
  for (const row of statCells) {
    for (const td of row) {
      const node = td.firstChild.firstChild;
      if (node.data !== '') node.data = '';
      delete td.dataset.value;
    }
  }
}

// The table with its role and name; thead and tbody are filled by buildHeatmapTable().
export function createHeatmapTable(name, label) {
  const table = el('table', 'heatmap');
  table.dataset.heatmap = name;
  table.setAttribute('role', 'grid');
  table.setAttribute('aria-label', label);
  table.setAttribute('aria-readonly', 'true');
  const thead = el('thead');
  const tbody = el('tbody');
  table.append(thead, tbody);
  return { table, thead, tbody };
}
