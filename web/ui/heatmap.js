// A read-only matrix drawn as a coloured grid: token labels on both axes, the value in each cell,
// hidden (masked) cells hatched, optional per-row statistics, and a legend with the true range.
// The colours and digits are painted on a canvas under the table (see heatmap-paint.js); the
// table's cells are transparent and carry the semantics: they are focusable with a roving
// tabindex, so arrow keys walk the matrix, and each focused or hovered cell can be explained; a
// focused cell's accessible name is its value.
// Test hook: the table carries data-heatmap="<name>", data-rows, data-cols and data-values (the
// full-precision values, row-major, space-separated); each value cell carries data-row and
// data-col. data-values is written just after the frame that shows the new colours, and maps out
// of view are painted then too; until both are done the table carries data-pending, so a reader
// waits for `[data-heatmap]:not([data-pending])`.
import { formatCell } from './format.js';
import { moveFor } from './grid-nav.js';
import { makeScale, niceBound } from './palettes.js';
import { createLegend } from './legend.js';
import { cornerRow, el } from './dom.js';
import { createHeatmapPainter } from './heatmap-paint.js';
import { afterFrame } from './after-frame.js';

const COMPACT_COLS = 16;

// The values attribute is for readers, not for the picture: formatting a few thousand numbers at
// d_model = 64 is a tenth of a frame, so it is written after the frame (see after-frame.js).

/**
 * kind: 'weights' (sequential, fixed 0..1) or 'diverging' (centred on 0, symmetric range).
 * onInspect(i, j) on hover/focus; onActivate(i, j) on click, Enter or Space (optional).
 */
export function createHeatmap({ name, label, kind = 'diverging', onInspect, onActivate, small = false, legend: showLegend = !small }) {
  const root = el('div', small ? 'heatmap-block small' : 'heatmap-block');
  const scroller = el('div', 'heatmap-scroll');
  const stage = el('div', 'heatmap-stage');
  const table = el('table', 'heatmap');
  table.dataset.heatmap = name;
  table.setAttribute('role', 'grid');
  table.setAttribute('aria-label', label);
  table.setAttribute('aria-readonly', 'true');
  const thead = el('thead');
  const tbody = el('tbody');
  table.append(thead, tbody);
  const painter = createHeatmapPainter(table, (i, j) => cells[i][j]);
  stage.append(painter.canvas, table);
  scroller.append(stage);
  const legend = createLegend();
  root.append(scroller);
  if (showLegend) root.append(legend.el);
  painter.onShow = () => runDeferred();
  // Labels, fonts, zoom and being shown after display: none all move the cells: measure again.
  new ResizeObserver(() => painter.repaint()).observe(table);

  let rows = 0;
  let cols = 0;
  let cells = [];        // cells[i][j] -> td
  let statCells = [];    // statCells[i][s] -> td
  let rowHeads = [];
  let colHeads = [];
  let values = null;     // the values painted (Float32Array) and their hidden flags
  let hiddenNow = null;
  let valuesDirty = false;  // data-values is behind `values`
  let statKeys = '';
  let layoutKey = '';    // labels and classes that move cells; a change means measuring again
  let paintKey = '';
  let themeNow = '';
  let focus = [0, 0];
  let lit = new Set();  // highlighted cells
  let groupedBy = 0;
  let activatable = false;
  let deferred = null;   // the latest update() arguments while out of view
  let digits = false;    // the cells print their values
  let namedAll = false;  // every cell has an accessible name (not just the focused one)

  function build(r, c, stats) {
    rows = r;
    cols = c;
    table.dataset.rows = String(r);
    table.dataset.cols = String(c);
    thead.replaceChildren();
    tbody.replaceChildren();
    const head = cornerRow();
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
    // Wide enough for the longest of the first values (one width per statistic, for every row).
    const statWidths = stats.map((s) => Math.max(4, ...Array.from(s.values, (v, i) => s.format(v, i).length)));
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
      for (const [si, s] of stats.entries()) {
        const td = el('td', 'stat');
        td.dataset.stat = s.key;
        // The number sits in a box of fixed size, so a new number is laid out alone, not with the
        // whole table.
        const box = el('span', 'stat-value');
        box.style.width = `${statWidths[si]}ch`;
        box.append(document.createTextNode(''));
        td.append(box);
        rowStats.push(td);
        tr.append(td);
      }
      cells.push(rowCells);
      statCells.push(rowStats);
      tbody.append(tr);
    }
    focus = [Math.min(focus[0], r - 1), Math.min(focus[1], c - 1)];
    if (r && c) cells[focus[0]][focus[1]].tabIndex = 0;
    values = null;
    hiddenNow = null;
    namedAll = false;
    groupedBy = 0;
    layoutKey = '';
    paintKey = '';
    lit = new Set();
  }

  // data-values for readers, once the frame with the new colours is drawn.
  // Maps that print their digits also name every cell after the frame, so a screen reader reading
  // the table (not only moving focus through it) hears the numbers a sighted reader sees.
  function writeValues() {
    if (valuesDirty && values) {
      table.dataset.values = Array.prototype.join.call(values, ' ');
      if (digits) for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) nameCell(i, j);
      else if (namedAll) for (const row of cells) for (const td of row) td.removeAttribute('aria-label');
      namedAll = digits;
      if (!digits) nameCell(focus[0], focus[1]);
    }
    valuesDirty = false;
    delete table.dataset.pending;
  }

  // The accessible name of a cell is its value. Compact maps (no digits) name only the focused
  // cell (a screen reader announces the cell that has focus), so a redraw names one cell, not
  // thousands.
  function nameCell(i, j) {
    const td = cells[i]?.[j];
    if (!td || !values) return;
    const k = i * cols + j;
    const text = `${formatCell(values[k])}${hiddenNow?.[k] ? ', hidden' : ''}`;
    if (td.getAttribute('aria-label') !== text) td.setAttribute('aria-label', text);
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
    nameCell(i, j);
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
    nameCell(at[0], at[1]);
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

  function setLabels(heads, labels, flags) {
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

  /**
   * tensor: { data, shape: [rows, cols] }; hidden: Uint8Array marking masked cells (or null);
   * fullyMasked: Set of row indices; stats: [{ key, label, title, values, format }]; span (diverging
   * maps): the largest |value| the colour scale must reach, so maps shown side by side can share
   * one scale (each map's own values widen it if needed).
   */
  function render({ tensor, rowLabels, colLabels, hidden = null, fullyMasked = null, stats = [],
    palette = 'viridis', theme = 'light', padCols = null, padRows = null, clickable = false, groupCols = 0, span: sharedSpan = 0 }) {
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
    const compact = c > COMPACT_COLS;
    table.classList.toggle('compact', compact);
    const longLabels = colLabels.some((t) => t.length > 3);
    table.classList.toggle('vertical-labels', longLabels && c > 1);

    let nextLayout = `${compact}|${longLabels}|${groupCols}|${setLabels(colHeads, colLabels, padCols)}|${setLabels(rowHeads, rowLabels, padRows)}`;
    for (let i = 0; i < r; i++) {
      const all = !!fullyMasked?.has(i);
      if (rowHeads[i].lastChild.hidden === all) rowHeads[i].lastChild.hidden = !all;
      rowHeads[i].parentElement.classList.toggle('fully-masked', all);
      if (all) nextLayout += `|${i}`;
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
      const span = niceBound(Math.max(Math.abs(lo), Math.abs(hi), sharedSpan));
      scale = makeScale({ kind: 'diverging', theme, min: -span, max: span });
    }
    if (table.dataset.scaleMax !== String(scale.max)) table.dataset.scaleMax = String(scale.max);
    const showText = !small && !compact;
    if (showText !== digits) {
      digits = showText;
      valuesDirty = true;  // name (or leave unnamed) every cell again
    }

    // Nothing to repaint when the values, the hidden cells, the colours and the layout are as
    // last painted (an edit elsewhere, a highlight, a theme-neutral setting).
    let sameValues = values !== null && values.length === data.length;
    for (let k = 0; sameValues && k < data.length; k++) sameValues = Object.is(values[k], Math.fround(data[k]));
    let sameHidden = hiddenNow !== null && hiddenNow.length === data.length;
    for (let k = 0; sameHidden && k < data.length; k++) sameHidden = hiddenNow[k] === (hidden ? hidden[k] : 0);
    const same = sameValues && sameHidden;
    const relayout = nextLayout !== layoutKey;
    const nextPaint = `${theme}|${scale.gradient}|${scale.min}|${scale.max}|${showText}`;
    if (theme !== themeNow) {
      themeNow = theme;
      painter.restyle();
    }
    if (!same || relayout || nextPaint !== paintKey) {
      layoutKey = nextLayout;
      paintKey = nextPaint;
      if (!same) {
        values = Float32Array.from(data);
        hiddenNow = hidden ? Uint8Array.from(hidden) : new Uint8Array(data.length);
        valuesDirty = true;
      }
      // Colours and digits are worked out when the canvas is drawn, which for a map out of view
      // is after the frame.
      const shownValues = values;
      const shownHidden = hiddenNow;
      painter.paint(() => {
        const n = shownValues.length;
        const fills = new Array(n);
        const inks = new Array(n);
        const texts = showText ? new Array(n) : null;
        for (let k = 0; k < n; k++) {
          const v = shownValues[k];
          const colour = shownHidden[k] || !Number.isFinite(v) ? null : scale.map(v);
          fills[k] = colour ? colour.rgb : null;
          inks[k] = colour ? colour.text : null;
          if (texts) texts[k] = formatCell(v);
        }
        return { rows: r, cols: c, fills, inks, texts, hidden: shownHidden };
      }, { relayout });
      if (!sameHidden) {
        for (let i = 0; i < r; i++) {
          for (let j = 0; j < c; j++) cells[i][j].classList.toggle('masked', !!hiddenNow[i * c + j]);
        }
      }
      if (!same) nameCell(focus[0], focus[1]);
    }
    if (valuesDirty) {
      if (table.dataset.pending === undefined) table.dataset.pending = '';
      afterFrame(writeValues);  // queued once however many redraws come before it runs
    }

    stats.forEach((s, si) => {
      for (let i = 0; i < r; i++) {
        const td = statCells[i][si];
        const text = s.format(s.values[i], i);
        const node = td.firstChild.firstChild;
        if (node.data !== text) node.data = text;
        const value = String(s.values[i]);
        if (td.dataset.value !== value) td.dataset.value = value;
      }
    });
    if (showLegend) legend.update(scale, lo, hi, anyHidden);
  }

  function runDeferred() {
    if (!deferred) return;
    const args = deferred;
    deferred = null;
    render(args);
    if (!valuesDirty) delete table.dataset.pending;  // nothing new to write: the wait is over
  }

  return {
    el: root,
    table,
    /** Draws the matrix; see render() for the arguments. */
    update(args) {
      // Out of view, the whole update (labels, statistics, legend, canvas) waits until after
      // the frame, or until the map scrolls into view.
      if (!painter.inView) {
        deferred = args;
        if (table.dataset.pending === undefined) table.dataset.pending = '';
        afterFrame(runDeferred);
        return;
      }
      deferred = null;
      render(args);
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
