// What the Export menu writes: the catalogue of the matrices the page shows, CSV and JSON of their
// numbers, and images of them. The numbers are the ones the page shows (the state's inputs and the
// core's results), never re-derived here. Images are drawn from one scene description: SVG through
// DOM APIs (createElementNS, textContent), PNG on a canvas, so neither needs inline markup or a
// blob: image (both would break under a strict CSP). Files leave through a Blob and an object URL
// on a download link. Loaded by export.js when the menu is first opened (or the page is idle), not
// with the code the first heatmap waits for.
import { activeMatrices, dims, formatCell, makeScale, niceBound, subscript } from '../model/model.js';
import { el } from '../dom/dom.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

const TITLES = {
  Q: 'Queries Q',
  K: 'Keys K',
  V: 'Values V',
  X: 'Token vectors X',
  WQ: 'W_Q',
  WK: 'W_K',
  WV: 'W_V',
  WO: 'W_O',
  XM: 'Memory vectors X_mem',
  B: 'Bias matrix B',
  BQ: 'b_Q',
  BK: 'b_K',
  BV: 'b_V',
  BO: 'b_O',
  scores: 'Scores S = Q·Kᵀ',
  scaled: 'Scaled scores S′',
  masked: 'Masked scores M',
  weights: 'Attention weights A = softmax(M)',
  output: 'Output O = A·V',
  average: 'Head average',
  concat: 'Concatenated heads',
  'mha-output': 'Multi-head output concat·W_O',
};

const numbered = (count) => Array.from({ length: count }, (_, c) => String(c + 1));
const asMatrix = (t) => ({ rows: t.shape[0], cols: t.shape[1], data: t.data });

// Appends to `matrices` an entry of group `group`: the matrix `m` (rows, cols, data), titled from
// TITLES and drawn on a diverging scale unless `extra` says otherwise.
const adder = (matrices) => (id, group, m, extra) =>
  matrices.push({ id, group, title: TITLES[id] ?? id, kind: 'diverging', hidden: null, ...m, ...extra });

// The rows of input matrix `name` are labelled by what they stand for: a query, a key, a value.
function inputRowLabels(name, rows, { queries, keys }) {
  if (name === 'X' || name === 'Q' || name === 'B') return queries;
  if (name === 'K' || name === 'XM') return keys;
  if (name === 'V') return keys.map((_, j) => `v${subscript(j + 1)}`);
  if (/^B[QKVO]$/.test(name)) return [TITLES[name]];
  return numbered(rows);
}

// The matrices of the Inputs panel that the state holds at their active sizes.
function addInputs(add, state, { queries, keys }) {
  for (const [name, rows, cols] of activeMatrices(state)) {
    const m = state.matrices[name];
    if (!m || m.rows !== rows || m.cols !== cols) continue;
    const rowLabels = inputRowLabels(name, rows, { queries, keys });
    // B is a step of the pipeline on the page, between the scaled scores and the softmax.
    if (name === 'B') continue;
    add(name, 'inputs', m, { rowLabels, colLabels: numbered(cols) });
  }
}

// A sentence's Q, K and V, projected from its token vectors.
function addProjections(add, result, d, { queries, keys }) {
  for (const name of ['Q', 'K', 'V']) {
    const t = result.proj[name];
    const x = name !== 'Q' && d.cross ? 'X_mem' : 'X';
    add(name, 'inputs', asMatrix(t), {
      title: `${name} = ${x}·W_${name}${d.biases ? ` + b_${name}` : ''}`,
      rowLabels: name === 'Q' ? queries : keys,
      colLabels: numbered(t.shape[1]),
    });
  }
}

// The steps of the shown head, scores to output (the bias matrix before the masked scores).
function addPipeline(add, state, result, d, { queries, keys }) {
  const head = result.head;
  const hn = d.multi ? ` (head ${head.index + 1})` : '';
  // As on the page: scores are hatched where hidden only while a custom mask is being edited.
  const custom = state.mask.kind === 'custom';
  for (const step of ['scores', 'scaled', 'masked']) {
    if (step === 'masked' && d.biasMatrix)
      add('B', 'pipeline', state.matrices.B, { rowLabels: queries, colLabels: keys });
    add(step, 'pipeline', asMatrix(head[step]), {
      title: TITLES[step] + hn,
      rowLabels: queries,
      colLabels: keys,
      hidden: step === 'masked' || custom ? result.hidden : null,
    });
  }
  add('weights', 'pipeline', asMatrix(head.weights), {
    title: TITLES.weights + hn,
    kind: 'weights',
    rowLabels: queries,
    colLabels: keys,
    hidden: result.hidden,
  });
  add('output', 'pipeline', asMatrix(head.output), {
    title: TITLES.output + hn,
    rowLabels: queries,
    colLabels: numbered(head.output.shape[1]),
  });
}

// Every head's weights, their average, the heads side by side and the layer's output.
function addHeads(add, state, result, { queries, keys }) {
  const mh = result.multi;
  mh.heads.forEach((t, k) => {
    const name = state.headNames[k];
    add(`head-${k + 1}`, 'heads', asMatrix(t), {
      title: `Head ${k + 1} weights${name ? `: ${name}` : ''}`,
      kind: 'weights',
      rowLabels: queries,
      colLabels: keys,
    });
  });
  add('average', 'heads', asMatrix(mh.average), { kind: 'weights', rowLabels: queries, colLabels: keys });
  add('concat', 'heads', asMatrix(mh.concat), { rowLabels: queries, colLabels: numbered(mh.concat.shape[1]) });
  add('mha-output', 'heads', asMatrix(mh.output), { rowLabels: queries, colLabels: numbered(mh.output.shape[1]) });
}

/**
 * Every matrix the page shows for (state, result), in page order, and the panels that group them:
 * { matrices: [{ id, title, kind, rows, cols, data, rowLabels, colLabels, hidden }], panels }.
 */
export function catalogue(state, result) {
  const d = dims(state);
  const labels = result.labels;
  const matrices = [];
  const add = adder(matrices);
  addInputs(add, state, labels);
  if (result.error) return { matrices, panels: panelsOf(matrices) };
  if (d.sentence) addProjections(add, result, d, labels);
  addPipeline(add, state, result, d, labels);
  if (d.multi) addHeads(add, state, result, labels);
  return { matrices, panels: panelsOf(matrices) };
}

function panelsOf(matrices) {
  const panels = [];
  for (const [id, title] of [
    ['inputs', 'Inputs panel'],
    ['pipeline', 'Attention steps panel'],
    ['heads', 'Multi-head panel'],
  ]) {
    const items = matrices.filter((m) => m.group === id);
    if (items.length) panels.push({ id: `panel-${id}`, title, items });
  }
  return panels;
}

// ---- CSV and JSON -----------------------------------------------------------------------------

// Spreadsheets run cells that start with = + - @ as formulas; a label is text, so it is quoted
// with a leading apostrophe. Numbers are written in full (shortest round-trip digits).
function csvField(text) {
  let t = String(text);
  if (/^[=+\-@\t\r]/.test(t)) t = `'${t}`;
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/** CSV: a header row of column labels, then one row per matrix row (label, values). −∞ is -Infinity. */
export function toCsv(m) {
  const lines = [['', ...m.colLabels.slice(0, m.cols)].map(csvField).join(',')];
  for (let i = 0; i < m.rows; i++) {
    const row = [csvField(m.rowLabels[i] ?? String(i + 1))];
    for (let j = 0; j < m.cols; j++) row.push(String(m.data[i * m.cols + j] + 0));
    lines.push(row.join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** JSON-ready object: shape, labels and nested rows; a hidden (−∞) score is null. */
export function toJsonObject(m) {
  const data = [];
  for (let i = 0; i < m.rows; i++) {
    const row = [];
    for (let j = 0; j < m.cols; j++) {
      const v = m.data[i * m.cols + j];
      row.push(Number.isFinite(v) ? v + 0 : null);
    }
    data.push(row);
  }
  const out = {
    name: m.id,
    title: m.title,
    shape: [m.rows, m.cols],
    rowLabels: m.rowLabels.slice(0, m.rows),
    colLabels: m.colLabels.slice(0, m.cols),
    data,
  };
  if (m.data.some((v) => v === -Infinity))
    out.note =
      m.id === 'B'
        ? 'null marks -Infinity: an entry of B that hides its query-key pair'
        : 'null marks -Infinity: a query-key pair hidden by the mask';
  return out;
}

// Indented JSON with each innermost array (a matrix row, a label list) on one line. Whitespace
// inside JSON strings is always escaped, so only the layout between tokens changes.
export function prettyJson(value) {
  return JSON.stringify(value, null, 2).replace(
    /\[\s+([^[\]{}]*?)\s+\]/g,
    (_, inner) => `[${inner.replace(/\s*\n\s*/g, ' ')}]`,
  );
}

// ---- images -----------------------------------------------------------------------------------

const THEME_COLOURS = {
  light: { bg: '#ffffff', text: '#1b1f24', muted: '#58606b', maskA: '#e3e6ea', maskB: '#f4f5f7' },
  dark: { bg: '#1a1e24', text: '#e6e9ee', muted: '#a0a8b4', maskA: '#2a2f37', maskB: '#1f232a' },
};
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif';
const MONO = 'ui-monospace, Menlo, Consolas, "Liberation Mono", monospace';
const textWidth = (text, size) => String(text).length * size * 0.6;
const clip = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function scaleFor(m, display) {
  if (m.kind === 'weights')
    return makeScale({ kind: 'sequential', palette: display.palette, theme: display.theme, min: 0, max: 1 });
  let M = 0;
  for (let k = 0; k < m.data.length; k++)
    if (!m.hidden?.[k] && Number.isFinite(m.data[k])) M = Math.max(M, Math.abs(m.data[k]));
  const span = niceBound(M);
  return makeScale({ kind: 'diverging', theme: display.theme, min: -span, max: span });
}

const PAD = 16; // the drawing's margin, px

/**
 * The drawing of one or more matrices as primitives: { width, height, background, items }, items
 * being { type: 'rect', x, y, w, h, fill | hatch } and { type: 'text', x, y, text, size, fill,
 * anchor, bold, mono, rotate }. SVG and PNG are both drawn from it.
 */
export function scene(matrices, display, heading = '') {
  const colours = THEME_COLOURS[display.theme === 'dark' ? 'dark' : 'light'];
  const items = [];
  let y = PAD;
  let width = 0;
  if (heading) {
    items.push({ type: 'text', x: PAD, y: y + 16, text: heading, size: 18, fill: colours.text, bold: true });
    y += 30;
  }
  for (const m of matrices) {
    const drawn = matrixItems(items, m, { display, colours }, y);
    width = Math.max(width, drawn.width);
    y = drawn.y;
  }
  return { width: Math.ceil(width), height: Math.ceil(y - 8), background: colours.bg, items };
}

// The grid of one matrix: cells small and unlabelled past 16 columns, labels clipped, column
// labels turned upright when one is wider than its cell, and the room both sets of labels take.
function gridOf(m) {
  const compact = m.cols > 16;
  const cw = compact ? 14 : 48;
  const rowLabels = m.rowLabels.slice(0, m.rows).map((t) => clip(String(t), 14));
  const colLabels = m.colLabels.slice(0, m.cols).map((t) => clip(String(t), 10));
  const vertical = colLabels.some((t) => textWidth(t, 11) > cw - 4);
  return {
    compact,
    cw,
    ch: compact ? 14 : 24,
    rowLabels,
    colLabels,
    vertical,
    labelW: Math.min(110, Math.max(16, ...rowLabels.map((t) => textWidth(t, 11)))) + 8,
    headH: vertical ? Math.max(...colLabels.map((t) => textWidth(t, 11))) + 8 : 18,
  };
}

// One matrix at height `top`: its title and size, its grid and its legend. Returns the width it
// needs and the y below it.
function matrixItems(items, m, { display, colours }, top) {
  const grid = gridOf(m);
  items.push({ type: 'text', x: PAD, y: top + 14, text: m.title, size: 14, fill: colours.text, bold: true });
  items.push({
    type: 'text',
    x: PAD + textWidth(m.title, 14) * 1.05 + 10,
    y: top + 14,
    text: `${m.rows} × ${m.cols}`,
    size: 12,
    fill: colours.muted,
    mono: true,
  });
  const x0 = PAD + grid.labelW;
  const y0 = top + 24 + grid.headH;
  columnLabelItems(items, grid, x0, y0, colours);
  const scale = scaleFor(m, display);
  for (let i = 0; i < m.rows; i++) rowItems(items, m, grid, { scale, colours, x0, y0 }, i);
  return {
    width: Math.max(x0 + m.cols * grid.cw + PAD, PAD + textWidth(m.title, 14) + 80),
    y: legendItems(items, scale, x0, y0 + m.rows * grid.ch + 8, colours) + 24,
  };
}

// The column labels above a grid whose top left cell is at (x0, y0).
function columnLabelItems(items, { colLabels, cw, vertical }, x0, y0, colours) {
  colLabels.forEach((t, j) => {
    const cx = x0 + j * cw + cw / 2;
    if (vertical)
      items.push({ type: 'text', x: cx + 4, y: y0 - 4, text: t, size: 11, fill: colours.muted, rotate: -90 });
    else items.push({ type: 'text', x: cx, y: y0 - 5, text: t, size: 11, fill: colours.muted, anchor: 'middle' });
  });
}

// Row i of a grid at (x0, y0): its label, then each cell in its colour (hatched where hidden) with
// its number unless the grid is compact.
function rowItems(items, m, grid, { scale, colours, x0, y0 }, i) {
  const { cw, ch } = grid;
  items.push({
    type: 'text',
    x: x0 - 6,
    y: y0 + i * ch + ch / 2 + 4,
    text: grid.rowLabels[i],
    size: 11,
    fill: colours.muted,
    anchor: 'end',
  });
  for (let j = 0; j < m.cols; j++) {
    const k = i * m.cols + j;
    const v = m.data[k];
    const x = x0 + j * cw;
    const cy = y0 + i * ch;
    const hidden = m.hidden?.[k] || v === -Infinity;
    const colour = hidden || !Number.isFinite(v) ? null : scale.map(v);
    if (colour) items.push({ type: 'rect', x, y: cy, w: cw - 1, h: ch - 1, fill: colour.background });
    else items.push({ type: 'rect', x, y: cy, w: cw - 1, h: ch - 1, hatch: [colours.maskA, colours.maskB] });
    if (!grid.compact)
      items.push({
        type: 'text',
        x: x + cw / 2,
        y: cy + ch / 2 + 4,
        text: formatCell(v),
        size: 11,
        fill: colour ? colour.text : colours.muted,
        anchor: 'middle',
        mono: true,
      });
  }
}

// The colour scale under a map (as on the page): a strip from its lowest to its highest value,
// with both ends (and 0 on a diverging scale) written under it. Items carry group 'legend'. Returns
// the y below it.
const LEGEND_STEPS = 40;
function legendItems(items, scale, x, y, colours) {
  const w = 4;
  for (let k = 0; k < LEGEND_STEPS; k++) {
    const v = scale.min + ((k + 0.5) / LEGEND_STEPS) * (scale.max - scale.min);
    items.push({ type: 'rect', group: 'legend', x: x + k * w, y, w, h: 8, fill: scale.map(v).background });
  }
  const ticks = [
    [scale.min, 'start', x],
    [scale.max, 'end', x + LEGEND_STEPS * w],
  ];
  if (scale.min < 0) ticks.push([0, 'middle', x + (LEGEND_STEPS * w) / 2]);
  for (const [v, anchor, tx] of ticks)
    items.push({
      type: 'text',
      group: 'legend',
      x: tx,
      y: y + 20,
      text: formatCell(v),
      size: 10,
      fill: colours.muted,
      anchor,
      mono: true,
    });
  return y + 20;
}

/** An <svg> element for a scene, built with DOM APIs (all text through textContent). */
export function sceneToSvg(sc, title) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('xmlns', SVG_NS);
  svg.setAttribute('width', String(sc.width));
  svg.setAttribute('height', String(sc.height));
  svg.setAttribute('viewBox', `0 0 ${sc.width} ${sc.height}`);
  svg.setAttribute('role', 'img');
  const t = document.createElementNS(SVG_NS, 'title');
  t.textContent = title;
  svg.append(t);
  const defs = document.createElementNS(SVG_NS, 'defs');
  svg.append(defs);
  const patterns = new Map();
  const hatchId = ([a, b]) => {
    const key = `${a}${b}`;
    if (!patterns.has(key)) {
      const id = `hatch-${patterns.size + 1}`;
      const p = document.createElementNS(SVG_NS, 'pattern');
      p.setAttribute('id', id);
      p.setAttribute('patternUnits', 'userSpaceOnUse');
      p.setAttribute('width', '8');
      p.setAttribute('height', '8');
      p.setAttribute('patternTransform', 'rotate(45)');
      for (const [x, fill] of [
        [0, a],
        [4, b],
      ]) {
        const r = document.createElementNS(SVG_NS, 'rect');
        r.setAttribute('x', String(x));
        r.setAttribute('width', '4');
        r.setAttribute('height', '8');
        r.setAttribute('fill', fill);
        p.append(r);
      }
      defs.append(p);
      patterns.set(key, id);
    }
    return patterns.get(key);
  };
  const bg = document.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', sc.background);
  svg.append(bg);
  // Legends go in <g class="legend"> elements, so the cells stay the <svg>'s own rects and texts.
  let legend = null; // the <g> of the legend being drawn
  for (const it of sc.items) {
    if (it.group !== 'legend') legend = null;
    else if (!legend) {
      legend = document.createElementNS(SVG_NS, 'g');
      legend.setAttribute('class', 'legend');
      svg.append(legend);
    }
    const parent = legend ?? svg;
    if (it.type === 'rect') {
      const r = document.createElementNS(SVG_NS, 'rect');
      for (const [k, v] of [
        ['x', it.x],
        ['y', it.y],
        ['width', it.w],
        ['height', it.h],
      ])
        r.setAttribute(k, String(+v.toFixed(2)));
      r.setAttribute('fill', it.hatch ? `url(#${hatchId(it.hatch)})` : it.fill);
      parent.append(r);
    } else {
      const e = document.createElementNS(SVG_NS, 'text');
      e.setAttribute('x', String(+it.x.toFixed(2)));
      e.setAttribute('y', String(+it.y.toFixed(2)));
      e.setAttribute('font-size', String(it.size));
      e.setAttribute('font-family', it.mono ? MONO : FONT);
      e.setAttribute('fill', it.fill);
      if (it.bold) e.setAttribute('font-weight', '700');
      if (it.anchor) e.setAttribute('text-anchor', it.anchor);
      if (it.rotate) e.setAttribute('transform', `rotate(${it.rotate} ${+it.x.toFixed(2)} ${+it.y.toFixed(2)})`);
      e.textContent = it.text;
      parent.append(e);
    }
  }
  return svg;
}

/** Draws a scene on a canvas at `ratio` device pixels per unit and resolves to a PNG Blob. */
export function sceneToPng(sc, ratio = 2) {
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(sc.width * ratio);
  canvas.height = Math.ceil(sc.height * ratio);
  const ctx = canvas.getContext('2d');
  ctx.scale(ratio, ratio);
  ctx.fillStyle = sc.background;
  ctx.fillRect(0, 0, sc.width, sc.height);
  for (const it of sc.items) {
    if (it.type === 'rect') {
      if (it.hatch) {
        ctx.save();
        ctx.beginPath();
        ctx.rect(it.x, it.y, it.w, it.h);
        ctx.clip();
        ctx.fillStyle = it.hatch[1];
        ctx.fillRect(it.x, it.y, it.w, it.h);
        ctx.strokeStyle = it.hatch[0];
        ctx.lineWidth = (4 / Math.SQRT2) * 1.4;
        ctx.beginPath();
        for (let s = -it.h; s < it.w + it.h; s += 8) {
          ctx.moveTo(it.x + s, it.y + it.h);
          ctx.lineTo(it.x + s + it.h, it.y);
        }
        ctx.stroke();
        ctx.restore();
      } else {
        ctx.fillStyle = it.fill;
        ctx.fillRect(it.x, it.y, it.w, it.h);
      }
    } else {
      ctx.save();
      ctx.font = `${it.bold ? '700 ' : ''}${it.size}px ${it.mono ? MONO : FONT}`;
      ctx.fillStyle = it.fill;
      ctx.textAlign = it.anchor === 'middle' ? 'center' : it.anchor === 'end' ? 'right' : 'left';
      ctx.translate(it.x, it.y);
      if (it.rotate) ctx.rotate((it.rotate * Math.PI) / 180);
      ctx.fillText(it.text, 0, 0);
      ctx.restore();
    }
  }
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the image could not be made'))), 'image/png'),
  );
}

/** Saves a Blob as a file through a temporary object URL. */
export function download(blob, filename, host = document.body) {
  const url = URL.createObjectURL(blob);
  const a = el('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  host.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
