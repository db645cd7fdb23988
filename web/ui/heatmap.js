// A read-only matrix drawn as a coloured table: token labels on both axes, the value in each cell,
// hidden (masked) cells hatched, optional per-row statistics, and a legend with the true range.
// Cells are focusable with a roving tabindex, so arrow keys walk the matrix and each focused or
// hovered cell can be explained. Test hook: the table carries data-heatmap="<name>"; each value
// cell carries data-row, data-col and its full-precision data-value. The data-value attributes are
// written just after the frame that shows the new colours (see flushSoon); until then the table
// carries data-pending, so a reader waits for `[data-heatmap]:not([data-pending])`.
import { formatCell } from './format.js';
import { moveFor } from './grid-nav.js';
import { makeScale, niceBound } from './palettes.js';
import { createLegend } from './legend.js';
import { el } from './dom.js';

const COMPACT_COLS = 16;

// Writing an attribute costs about 1.5 µs in Blink (every attribute value is an atomic string), and
// an edit at d_model = 64 changes a few thousand cells: a third of a frame for values nobody sees.
// So they are written in a task of their own, queued behind the redraw (a message runs after the
// current task, and a redraw inside requestAnimationFrame is followed by style, layout and paint
// in that same task), and the frame is drawn first.
const dirtyMaps = new Set();
let flushPosted = false;
const flushChannel = new MessageChannel();
flushChannel.port1.onmessage = () => {
  flushPosted = false;
  const maps = [...dirtyMaps];
  dirtyMaps.clear();
  for (const flush of maps) flush();
};
function flushSoon(flush) {
  dirtyMaps.add(flush);
  if (!flushPosted) {
    flushPosted = true;
    flushChannel.port2.postMessage(0);
  }
}

/**
 * kind: 'weights' (sequential, fixed 0..1) or 'diverging' (centred on 0, symmetric range).
 * onInspect(i, j) on hover/focus; onActivate(i, j) on click, Enter or Space (optional).
 */
export function createHeatmap({ name, label, kind = 'diverging', onInspect, onActivate, small = false, legend: showLegend = !small }) {
  const root = el('div', small ? 'heatmap-block small' : 'heatmap-block');
  const scroller = el('div', 'heatmap-scroll');
  const table = el('table', 'heatmap');
  table.dataset.heatmap = name;
  table.setAttribute('role', 'grid');
  table.setAttribute('aria-label', label);
  table.setAttribute('aria-readonly', 'true');
  const thead = el('thead');
  const tbody = el('tbody');
  table.append(thead, tbody);
  scroller.append(table);
  const legend = createLegend();
  root.append(scroller);
  if (showLegend) root.append(legend.el);

  let rows = 0;
  let cols = 0;
  let cells = [];        // cells[i][j] -> td
  let statCells = [];    // statCells[i][s] -> td
  let rowHeads = [];
  let colHeads = [];
  let prevValues = null;
  let prevHidden = null;
  let valueDirty = null;  // cells whose data-value is behind prevValues
  let anyDirty = false;
  let prevColour = [];   // background per cell as last written (skips identical style writes)
  let prevScaleKey = '';
  let statKeys = '';
  let focus = [0, 0];
  let lit = new Set();  // highlighted cells
  let textShown = true;
  let groupedBy = 0;
  let activatable = false;

  function build(r, c, stats) {
    rows = r;
    cols = c;
    thead.replaceChildren();
    tbody.replaceChildren();
    const head = el('tr');
    const corner = el('th', 'corner');
    corner.setAttribute('aria-hidden', 'true');
    head.append(corner);
    colHeads = [];
    for (let j = 0; j < c; j++) {
      const th = el('th', 'col-label');
      th.scope = 'col';
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
    thead.append(head);
    cells = [];
    statCells = [];
    rowHeads = [];
    for (let i = 0; i < r; i++) {
      const tr = el('tr');
      const th = el('th', 'row-label');
      th.scope = 'row';
      const span = el('span', 'label-text');
      const badge = el('span', 'badge', 'all hidden');
      badge.hidden = true;
      th.append(span, badge);
      rowHeads.push(th);
      tr.append(th);
      const rowCells = [];
      for (let j = 0; j < c; j++) {
        const td = el('td', 'cell');
        td.setAttribute('role', 'gridcell');
        td.dataset.row = String(i);
        td.dataset.col = String(j);
        td.tabIndex = -1;
        rowCells.push(td);
        tr.append(td);
      }
      const rowStats = [];
      for (const s of stats) {
        const td = el('td', 'stat');
        td.dataset.stat = s.key;
        rowStats.push(td);
        tr.append(td);
      }
      cells.push(rowCells);
      statCells.push(rowStats);
      tbody.append(tr);
    }
    focus = [Math.min(focus[0], r - 1), Math.min(focus[1], c - 1)];
    if (r && c) cells[focus[0]][focus[1]].tabIndex = 0;
    prevValues = null;
    prevHidden = null;
    valueDirty = new Uint8Array(r * c);
    prevColour = new Array(r * c).fill(null);
    groupedBy = 0;
    prevScaleKey = '';
    lit = new Set();
  }

  // The data-value attributes of the cells changed since the last flush (see flushSoon).
  function writeValues() {
    if (anyDirty && prevValues) {
      for (let k = 0; k < valueDirty.length; k++) {
        if (!valueDirty[k]) continue;
        valueDirty[k] = 0;
        cells[Math.floor(k / cols)][k % cols].dataset.value = String(prevValues[k]);
      }
    }
    anyDirty = false;
    delete table.dataset.pending;
  }

  function cellFrom(target) {
    const td = target instanceof Element ? target.closest('td.cell') : null;
    if (!td || !table.contains(td)) return null;
    return [Number(td.dataset.row), Number(td.dataset.col)];
  }

  function moveFocus(i, j, { focusIt = true } = {}) {
    if (!cells.length) return;
    cells[focus[0]]?.[focus[1]] && (cells[focus[0]][focus[1]].tabIndex = -1);
    focus = [i, j];
    const td = cells[i][j];
    td.tabIndex = 0;
    if (focusIt) td.focus();
  }

  table.addEventListener('pointerover', (e) => {
    const at = cellFrom(e.target);
    if (at) onInspect?.(at[0], at[1]);
  });
  table.addEventListener('focusin', (e) => {
    const at = cellFrom(e.target);
    if (!at) return;
    focus = at;
    onInspect?.(at[0], at[1]);
  });
  table.addEventListener('click', (e) => {
    const at = cellFrom(e.target);
    if (!at) return;
    moveFocus(at[0], at[1]);
    if (activatable) onActivate?.(at[0], at[1]);
  });
  table.addEventListener('keydown', (e) => {
    const at = cellFrom(e.target);
    if (!at) return;
    const next = moveFor(e.key, e.ctrlKey || e.metaKey, at[0], at[1], rows, cols);
    if (next) {
      e.preventDefault();
      moveFocus(next[0], next[1]);
    } else if ((e.key === 'Enter' || e.key === ' ') && activatable) {
      e.preventDefault();
      onActivate?.(at[0], at[1]);
    }
  });

  return {
    el: root,
    table,
    /**
     * tensor: { data, shape: [rows, cols] }; hidden: Uint8Array marking masked cells (or null);
     * fullyMasked: Set of row indices; stats: [{ key, label, title, values, format }].
     */
    update({ tensor, rowLabels, colLabels, hidden = null, fullyMasked = null, stats = [],
      palette = 'viridis', theme = 'light', padCols = null, padRows = null, clickable = false, groupCols = 0 }) {
      const [r, c] = tensor.shape;
      const keys = stats.map((s) => s.key).join(',');
      if (r !== rows || c !== cols || keys !== statKeys) {
        statKeys = keys;
        build(r, c, stats);
      }
      if (groupCols !== groupedBy) {
        // A rule between column groups (the heads inside a projection or the concatenation).
        groupedBy = groupCols;
        for (let j = 0; j < c; j++) {
          const start = groupCols > 0 && j > 0 && j % groupCols === 0;
          colHeads[j].classList.toggle('group-start', start);
          for (let i = 0; i < r; i++) cells[i][j].classList.toggle('group-start', start);
        }
      }
      activatable = clickable && !!onActivate;
      table.classList.toggle('clickable', activatable);
      table.classList.toggle('compact', c > COMPACT_COLS);
      const longLabels = colLabels.some((t) => t.length > 3);
      table.classList.toggle('vertical-labels', longLabels && c > 1);

      for (let j = 0; j < c; j++) {
        const text = colLabels[j] ?? '';
        const span = colHeads[j].firstChild;
        if (span.textContent !== text) {
          span.textContent = text;
          colHeads[j].title = text;
        }
        colHeads[j].classList.toggle('pad', !!padCols?.[j]);
      }
      for (let i = 0; i < r; i++) {
        const text = rowLabels[i] ?? '';
        const span = rowHeads[i].firstChild;
        if (span.textContent !== text) {
          span.textContent = text;
          rowHeads[i].title = text;
        }
        rowHeads[i].classList.toggle('pad', !!padRows?.[i]);
        const all = !!fullyMasked?.has(i);
        if (rowHeads[i].lastChild.hidden === all) rowHeads[i].lastChild.hidden = !all;
        rowHeads[i].parentElement.classList.toggle('fully-masked', all);
      }

      const data = tensor.data;
      let lo = Infinity;
      let hi = -Infinity;
      let anyHidden = false;
      for (let k = 0; k < data.length; k++) {
        const v = data[k];
        if (hidden?.[k]) anyHidden = true;
        if (Number.isFinite(v) && !hidden?.[k]) {
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
      }
      let scale;
      if (kind === 'weights') {
        scale = makeScale({ kind: 'sequential', palette, theme, min: 0, max: 1 });
      } else {
        const span = niceBound(Math.max(Math.abs(lo), Math.abs(hi)));
        scale = makeScale({ kind: 'diverging', theme, min: -span, max: span });
      }
      const showText = !small && c <= COMPACT_COLS;
      if (showText !== textShown) {
        textShown = showText;
        prevValues = null;
        if (!showText) for (const row of cells) for (const td of row) td.textContent = '';
      }
      const scaleKey = `${scale.gradient}|${scale.min}|${scale.max}`;
      const recolour = scaleKey !== prevScaleKey;
      prevScaleKey = scaleKey;

      for (let i = 0; i < r; i++) {
        const rowCells = cells[i];
        for (let j = 0; j < c; j++) {
          const k = i * c + j;
          const v = data[k];
          const h = hidden ? hidden[k] : 0;
          const changedValue = !prevValues || !Object.is(prevValues[k], v);
          const changedHidden = !prevHidden || prevHidden[k] !== h;
          if (!changedValue && !changedHidden && !recolour) continue;
          const td = rowCells[j];
          if (changedValue) {
            // Compact and thumbnail maps hide their digits (hover explains), so skip writing them.
            if (showText) {
              const text = formatCell(v);
              const node = td.firstChild;
              if (!node) td.textContent = text;
              else if (node.data !== text) node.data = text;  // a third of the cost of textContent
            }
            valueDirty[k] = 1;
            anyDirty = true;
          }
          if (changedHidden) td.classList.toggle('masked', !!h);
          const colour = h || !Number.isFinite(v) ? null : scale.map(v);
          const bg = colour ? colour.background : '';
          if (bg !== prevColour[k]) {
            prevColour[k] = bg;
            td.style.backgroundColor = colour ? colour.background : '';
            td.style.color = colour ? colour.text : '';
          }
        }
      }
      prevValues = Float32Array.from(data);
      prevHidden = hidden ? Uint8Array.from(hidden) : new Uint8Array(data.length);
      if (anyDirty && !table.hasAttribute('data-pending')) {
        table.dataset.pending = '';
        flushSoon(writeValues);
      }

      stats.forEach((s, si) => {
        for (let i = 0; i < r; i++) {
          const td = statCells[i][si];
          const text = s.format(s.values[i], i);
          if (td.textContent !== text) td.textContent = text;
          td.dataset.value = String(s.values[i]);
        }
      });
      if (showLegend) legend.update(scale, lo, hi, anyHidden);
    },
    /** Outlines cells: whole rows, whole columns and single flat indices (Sets, or null). */
    setHighlight({ rows: hlRows = null, cols: hlCols = null, cells: hlCells = null } = {}) {
      const next = new Set();
      hlRows?.forEach((i) => { if (i < rows) for (let j = 0; j < cols; j++) next.add(cells[i][j]); });
      hlCols?.forEach((j) => { if (j < cols) for (let i = 0; i < rows; i++) next.add(cells[i][j]); });
      hlCells?.forEach((k) => { if (k < rows * cols) next.add(cells[Math.floor(k / cols)][k % cols]); });
      for (const td of lit) if (!next.has(td)) td.classList.remove('hl');
      for (const td of next) if (!lit.has(td)) td.classList.add('hl');
      lit = next;
      rowHeads.forEach((th, i) => th.classList.toggle('hl', !!hlRows?.has(i)));
      colHeads.forEach((th, j) => th.classList.toggle('hl', !!hlCols?.has(j)));
    },
    focusCell(i, j) {
      moveFocus(i, j);
    },
  };
}
