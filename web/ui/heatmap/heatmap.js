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
// A map under a predict question's cover (dom/cover.js) keeps its shape (data-rows, data-cols) but
// writes none of its values: no data-values, cell names, statistics, legend range or pixels, until
// the cover comes off.
import { createLegend } from './legend.js';
import { afterFrame, el, isCovered, onCoverChange, setAttr } from '../dom/dom.js';
import { createHeatmapPainter } from './paint.js';
import {
  clearStats,
  createHeatmapTable,
  markFullyMasked,
  markGroups,
  markMasked,
  setLabels,
  writeStats,
} from './table.js';
import { createHeatmapGrid } from './grid.js';
import { emptyFrame, frameOf, sameHidden, sameValues, scaleFor, valueRange } from './frame.js';
import { english } from '../model/model.js';

const COMPACT_COLS = 16;

// The values attribute is for readers, not for the picture: formatting a few thousand numbers at
// d_model = 64 is a tenth of a frame, so it is written after the frame (see dom/frames.js).

// Out of view, a map's whole update (labels, statistics, legend, canvas) waits until after the
// frame, or until the map scrolls into view (the painter's onShow). Returns update(args);
// writing() says whether data-values is still to be written after the frame.
function deferWhileOutOfView(painter, table, render, writing) {
  let deferred = null; // the latest update() arguments while out of view
  function runDeferred() {
    if (!deferred) return;
    const args = deferred;
    deferred = null;
    render(args);
    if (!writing()) delete table.dataset.pending; // nothing new to write: the wait is over
  }
  painter.onShow = () => runDeferred();
  return (args) => {
    if (!painter.inView) {
      deferred = args;
      if (table.dataset.pending === undefined) table.dataset.pending = '';
      afterFrame(runDeferred);
      return;
    }
    deferred = null;
    render(args);
  };
}

// The map's elements: the canvas under the table in a scroller, the legend below them.
function heatmapElements({ name, label, small, showLegend, onInspect, onActivate, i18n }) {
  const root = el('div', small ? 'heatmap-block small' : 'heatmap-block');
  const scroller = el('div', 'heatmap-scroll');
  const stage = el('div', 'heatmap-stage');
  const { table, thead, tbody } = createHeatmapTable(name, label);
  const grid = createHeatmapGrid(table, thead, tbody, { onInspect, onActivate, i18n });
  const painter = createHeatmapPainter(table, (i, j) => grid.cells[i][j]);
  stage.append(painter.canvas, table);
  scroller.append(stage);
  const legend = createLegend(i18n);
  root.append(scroller);
  if (showLegend) root.append(legend.el);
  // Labels, fonts, zoom and being shown after display: none all move the cells: measure again.
  new ResizeObserver(() => painter.repaint()).observe(table);
  return { root, table, grid, painter, legend };
}

// update(args) draws the matrix (see render() for the arguments) and remembers its shape, so that
// has(i, j) tells whether the latest matrix given, drawn or waiting to be, has the cell (i, j); and
// its arguments, to draw it again when a cover over `table` came or went (syncCover() says whether).
function remembersShape(draw, table, syncCover) {
  let shape = [0, 0];
  let last = null;
  onCoverChange(table, () => {
    if (syncCover() && last) draw(last);
  });
  return {
    update(args) {
      shape = args.tensor.shape;
      last = args;
      draw(args);
    },
    has: (i, j) => i < shape[0] && j < shape[1],
  };
}

// Whether a cover over the map came or went since the last look (grid.covered follows it); when one
// came, what the map has written of its values goes at once. (Its values are written again when
// the cover goes, after the frame, as any new values: data-pending until then.)
function coverChanged({ table, grid, legend }) {
  if (isCovered(table) === grid.covered) return false;
  grid.covered = !grid.covered;
  if (grid.covered) {
    table.removeAttribute('data-values');
    grid.nameAll(false);
    clearStats(grid.statCells);
    legend.clear();
    delete table.dataset.scaleMax;
  }
  return true;
}

/**
 * kind: 'weights' (sequential, fixed 0..1) or 'diverging' (centred on 0, symmetric range).
 * onInspect(i, j) on hover/focus; onActivate(i, j) on click, Enter or Space (optional).
 */
export function createHeatmap({
  name,
  label,
  kind = 'diverging',
  onInspect,
  onActivate,
  small = false,
  legend: showLegend = !small,
  i18n = english,
}) {
  const parts = { name, label, small, showLegend, onInspect, onActivate, i18n };
  const { root, table, grid, painter, legend } = heatmapElements(parts);

  let valuesDirty = false; // data-values is behind the values painted
  let statKeys = '';
  let layoutKey = ''; // labels and classes that move cells; a change means measuring again
  let paintKey = '';
  let themeNow = '';
  let groupedBy = 0;
  let digits = false; // the cells print their values
  // A cover came or went: the values are written again, or withheld (coverChanged).
  const syncCover = () => coverChanged({ table, grid, legend }) && (valuesDirty = true);

  function build(r, c, stats) {
    grid.build(r, c, stats);
    groupedBy = 0;
    layoutKey = '';
    paintKey = '';
  }

  // data-values for readers, once the frame with the new colours is drawn (and, for maps that
  // print their digits, every cell's accessible name: see heatmap-grid.js).
  function writeValues() {
    if (valuesDirty && grid.values) {
      if (grid.covered) table.removeAttribute('data-values');
      else setAttr(table, 'data-values', Array.prototype.join.call(grid.values, ' '));
      grid.nameAll(digits);
    }
    valuesDirty = false;
    delete table.dataset.pending;
  }

  /**
   * tensor: { data, shape: [rows, cols] }; hidden: Uint8Array marking masked cells (or null);
   * fullyMasked: Set of row indices; stats: [{ key, label, title, values, format }]; span (diverging
   * maps): the largest |value| the colour scale must reach, so maps shown side by side can share
   * one scale (each map's own values widen it if needed). alongside(): writes text that goes with
   * the map (a summary), when the map is drawn: out of view, after the frame, not inside it.
   */
  function render({
    tensor,
    rowLabels,
    colLabels,
    hidden = null,
    fullyMasked = null,
    stats = [],
    palette = 'viridis',
    theme = 'light',
    padCols = null,
    padRows = null,
    clickable = false,
    groupCols = 0,
    span: sharedSpan = 0,
    alongside = null,
  }) {
    syncCover();
    const [r, c] = tensor.shape;
    const keys = stats.map((s) => s.key).join(',');
    if (r !== grid.rows || c !== grid.cols || keys !== statKeys) {
      statKeys = keys;
      build(r, c, stats);
    }
    const compact = c > COMPACT_COLS;
    const nextLayout = relabel({ rowLabels, colLabels, fullyMasked, padCols, padRows, clickable, groupCols, compact });
    const data = tensor.data;
    const { lo, hi, anyHidden } = valueRange(data, hidden);
    const scale = scaleFor(kind, { palette, theme, lo, hi, sharedSpan });
    if (grid.covered) delete table.dataset.scaleMax;
    else if (table.dataset.scaleMax !== String(scale.max)) table.dataset.scaleMax = String(scale.max);
    const showText = !small && !compact;
    if (showText !== digits) {
      digits = showText;
      valuesDirty = true; // name (or leave unnamed) every cell again
    }
    if (theme !== themeNow) {
      themeNow = theme;
      painter.restyle();
    }
    repaint(
      data,
      hidden,
      scale,
      nextLayout,
      `${theme}|${scale.gradient}|${scale.min}|${scale.max}|${showText}|${grid.covered}`,
    );
    if (valuesDirty) {
      if (table.dataset.pending === undefined) table.dataset.pending = '';
      afterFrame(writeValues); // queued once however many redraws come before it runs
    }
    if (grid.covered) clearStats(grid.statCells);
    else writeStats(stats, grid.statCells);
    if (showLegend && grid.covered) legend.clear();
    else if (showLegend) legend.update(scale, lo, hi, anyHidden);
    alongside?.();
  }

  // Labels, column groups and the classes that move cells; returns the layout key they make.
  function relabel({ rowLabels, colLabels, fullyMasked, padCols, padRows, clickable, groupCols, compact }) {
    if (groupCols !== groupedBy) {
      groupedBy = groupCols;
      markGroups(grid.colHeads, grid.cells, groupCols);
    }
    grid.activatable = clickable && !!onActivate;
    table.classList.toggle('clickable', grid.activatable);
    table.classList.toggle('compact', compact);
    const longLabels = colLabels.some((t) => t.length > 3);
    table.classList.toggle('vertical-labels', longLabels && grid.cols > 1);
    const labels = `${setLabels(grid.colHeads, colLabels, padCols)}|${setLabels(grid.rowHeads, rowLabels, padRows)}`;
    return `${compact}|${longLabels}|${groupCols}|${labels}${markFullyMasked(grid.rowHeads, fullyMasked, i18n.t('explorer.heatmap.allHidden'))}`;
  }

  // Nothing to repaint when the values, the hidden cells, the colours and the layout are as
  // last painted (an edit elsewhere, a highlight, a theme-neutral setting).
  function repaint(data, hidden, scale, nextLayout, nextPaint) {
    const valuesSame = sameValues(grid.values, data);
    const hiddenSame = sameHidden(grid.hidden, hidden, data.length);
    const same = valuesSame && hiddenSame;
    const relayout = nextLayout !== layoutKey;
    const recolour = nextPaint !== paintKey;
    if (same && !relayout && !recolour) return;
    layoutKey = nextLayout;
    paintKey = nextPaint;
    if (!same) {
      grid.values = Float32Array.from(data);
      grid.hidden = hidden ? Uint8Array.from(hidden) : new Uint8Array(data.length);
      valuesDirty = true;
    }
    const frame = grid.covered
      ? emptyFrame(grid.rows, grid.cols)
      : frameOf(grid.values, grid.hidden, scale, digits, grid.rows, grid.cols, i18n.decimal);
    painter.paint(frame, { relayout, recolour });
    if (!hiddenSame) markMasked(grid.cells, grid.hidden, grid.cols);
    if (!same) grid.nameFocused();
  }

  const update = deferWhileOutOfView(painter, table, render, () => valuesDirty);
  return {
    el: root,
    table,
    ...remembersShape(update, table, syncCover),
    /** Outlines cells: whole rows, whole columns and single flat indices (Sets, or null). */
    setHighlight: grid.setHighlight,
    focusCell: (i, j) => grid.focusCell(i, j),
  };
}

export { createPixelMap } from './pixel-map.js';
