// "Where positions come from": sinusoidal, learned, RoPE and ALiBi side by side on the explorer's
// vectors. One query row q and one key row k of the explorer's head are placed at every position m
// and n; each map is the score of the pair, q_m·k_n. Absolute encodings (a vector added per position)
// give a map that changes along its diagonals; RoPE (attn.rope turns q and k by angles
// proportional to their positions) gives one that is constant along them, since the score depends
// on m − n only; ALiBi adds −slope·(m − n) to the scaled score, a different slope per head. RoPE's
// frequencies are drawn as clock hands, one per dimension pair, at a position the learner picks.
// Test hooks: heatmaps pos-sinusoidal, pos-learned, pos-rope, pos-alibi, alibi-h<h>;
// data-stat="diagonal-spread-<kind>" (data-value); [data-rope-clock] with data-pair, data-cos, data-sin.
import { el, failureLine, field, lessonExplainBox, lessonPanel, numberInput, setIfIdle, setText, svg } from './dom.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { INFERENCE_LIMITS, english, formatNumber, setLesson } from '../model/model.js';
import { positionScores, ropeHands } from './positions-math.js';
import { explainAlibi, explainClock, explainPosition, explainSpread } from './positions-explain.js';
import { explainedStat, setStat } from '../explain/explain.js';

// The four maps; each one's title, formula and map label are inference.positions.<kind>.title, .formula, .label.
const KINDS = ['sinusoidal', 'learned', 'rope', 'alibi'];

function positionControls(update, { t }) {
  const query = el('select');
  query.dataset.control = 'pos-query';
  const key = el('select');
  key.dataset.control = 'pos-key';
  const count = numberInput(INFERENCE_LIMITS.positions);
  const base = numberInput(INFERENCE_LIMITS.base);
  const heads = numberInput(INFERENCE_LIMITS.alibiHeads);
  const head = el('select');
  head.dataset.control = 'pos-alibi-head';
  const position = el('input');
  position.type = 'range';
  position.min = '0';
  position.step = '1';
  position.setAttribute('aria-label', t('inference.positions.clockPosition'));
  const controls = el('div', 'lesson-controls');
  controls.append(
    field(t('inference.positions.query'), query),
    field(t('inference.positions.key'), key),
    field(t('inference.positions.count'), count),
    field(t('inference.positions.base'), base),
    field(t('inference.positions.alibiHeads'), heads),
    field(t('inference.positions.alibiHead'), head),
    field(t('inference.positions.clock'), position, 'lesson-field wide'),
  );
  const set = (value) => update((s) => setLesson(s, 'positions', value));
  query.addEventListener('change', () => set({ query: Number(query.value) }));
  key.addEventListener('change', () => set({ key: Number(key.value) }));
  count.addEventListener('change', () => set({ count: Number(count.value) }));
  base.addEventListener('change', () => set({ base: Number(base.value) }));
  heads.addEventListener('change', () => set({ alibiHeads: Number(heads.value) }));
  head.addEventListener('change', () => set({ alibiHead: Number(head.value) }));
  position.addEventListener('input', () => set({ position: Number(position.value) }));
  return { controls, query, key, count, base, heads, head, position };
}

// `userText`: the options are the reader's tokens, not the page's words.
function options(select, labels, value, userText = false) {
  const key = labels.join('\u0000');
  if (select.dataset.options !== key) {
    select.dataset.options = key;
    select.translate = !userText;
    select.replaceChildren(
      ...labels.map((text, i) => {
        const o = el('option', '', text);
        o.value = String(i);
        return o;
      }),
    );
  }
  select.value = String(value);
}

function createClocks(explain, current, i18n) {
  const box = el('div', 'rope-clocks');
  const note = el('p', 'lesson-note');
  const list = el('div', 'rope-clock-list');
  box.append(note, list);
  return {
    el: box,
    draw(hands, p) {
      setText(note, i18n.t('inference.positions.clocks', { p }));
      while (list.children.length > hands.length) list.lastChild.remove();
      while (list.children.length < hands.length) list.append(clock(list.children.length, explain, current, i18n));
      hands.forEach((h, i) => drawClock(list.children[i], h, i, p, i18n));
    },
  };
}

function clock(i, explain, current, i18n) {
  const fig = el('figure', 'rope-clock');
  fig.dataset.ropeClock = '';
  fig.dataset.pair = String(i);
  fig.tabIndex = 0;
  const face = svg('svg', { viewBox: '-22 -22 44 44', width: 44, height: 44, 'aria-hidden': 'true' });
  face.append(
    svg('circle', { cx: 0, cy: 0, r: 20 }, 'rope-face'),
    svg('line', { x1: 0, y1: 0, x2: 18, y2: 0 }, 'rope-hand'),
  );
  const caption = el('figcaption', '', i18n.t('inference.positions.pair', { pair: i + 1 }));
  fig.append(face, caption);
  const show = () =>
    explain.show(() => {
      const c = current();
      return c && i < c.hands.length ? explainClock(c, i, i18n) : null;
    });
  fig.addEventListener('focus', show);
  fig.addEventListener('pointerenter', show);
  return fig;
}

function drawClock(fig, hand, i, p, { t, decimal }) {
  fig.dataset.cos = String(hand.cos);
  fig.dataset.sin = String(hand.sin);
  // SVG's y axis points down: the hand turns anticlockwise as the angle grows.
  const line = fig.querySelector('line');
  line.setAttribute('x2', String(18 * hand.cos));
  line.setAttribute('y2', String(-18 * hand.sin));
  fig.setAttribute(
    'aria-label',
    t('inference.positions.clockLabel', { pair: i + 1, angle: decimal(formatNumber(p * hand.theta)), p }),
  );
}

// The four maps, each with its title, formula and spread along the diagonals.
function positionMaps(grid, inspect, explainSpreadOf, i18n) {
  const { t } = i18n;
  const maps = {};
  const spreads = {};
  for (const kind of KINDS) {
    const title = t(`inference.positions.${kind}.title`);
    maps[kind] = createHeatmap({
      name: `pos-${kind}`,
      label: t(`inference.positions.${kind}.label`),
      kind: 'diverging',
      legend: false,
      onInspect: inspect(kind),
      i18n,
    });
    spreads[kind] = explainedStat(`diagonal-spread-${kind}`, () => explainSpreadOf(kind));
    const box = el('div', 'positions-map');
    const line = el('p', 'lesson-note');
    line.append(t('inference.positions.spread'), ' ', spreads[kind]);
    box.append(
      el('h4', '', title),
      el('p', 'lesson-note', t(`inference.positions.${kind}.formula`)),
      maps[kind].el,
      line,
    );
    grid.append(box);
  }
  return { maps, spreads };
}

export function createPositionsPanel({ attn, update, i18n = english }) {
  const { t } = i18n;
  const { root, intro } = lessonPanel('positions', t('inference.positions.intro'));
  const ui = positionControls(update, i18n);
  const explain = lessonExplainBox(i18n);
  let ctx = null;
  // Each explanation is written from the numbers drawn now, and again after each drawing.
  const inspect = (kind) => (m, n) =>
    explain.show(() => (ctx && maps[kind].has(m, n) ? explainPosition(ctx, kind, m, n, i18n) : null));
  const grid = el('div', 'positions-maps');
  const { maps, spreads } = positionMaps(
    grid,
    inspect,
    (kind) => explain.show(() => ctx && explainSpread(ctx, kind, i18n)),
    i18n,
  );
  const note = el('p', 'lesson-note');
  const alibiBox = el('div', 'alibi-maps');
  const alibiMaps = [];
  const inspectAlibi = (h) => (m, n) =>
    explain.show(() =>
      ctx && h < ctx.slopes.length && alibiMaps[h].map.has(m, n) ? explainAlibi(ctx, h, m, n, i18n) : null,
    );
  const clockExplain = lessonExplainBox(i18n, 'inference.positions.clockIdle');
  const clocks = createClocks(clockExplain, () => ctx, i18n);
  const body = el('div');
  body.append(note, grid, explain.el);
  // Further sections, each a .lesson-gap opening with its title (folded when the lesson is shown alone).
  const alibiPart = el('div', 'lesson-gap');
  alibiPart.append(
    el('h4', '', t('inference.positions.alibiTitle')),
    el('p', 'lesson-note', t('inference.positions.alibi')),
    alibiBox,
  );
  const clockPart = el('div', 'lesson-gap');
  clockPart.append(el('h4', '', t('inference.positions.clocksTitle')), clocks.el, clockExplain.el);
  const failure = failureLine(body, alibiPart, clockPart);
  root.append(intro, ui.controls, failure.el, body, alibiPart, clockPart);

  return {
    el: root,
    render(state, result, display) {
      if (result.error) return failure.fail(t('inference.cannotCompute', { message: result.error }));
      const p = state.lessons.positions;
      const { q, k, scale } = result.head;
      const dk = q.shape[1];
      const d = dk % 2 === 0 ? dk : dk - 1;
      if (d < 2) return failure.fail(t('inference.positions.tooNarrow'));
      const row = (x, i) => Array.from(x.data.subarray(i * dk, i * dk + d));
      try {
        const scores = positionScores(attn, {
          q: row(q, p.query),
          k: row(k, p.key),
          P: p.count,
          base: p.base,
          heads: p.alibiHeads,
          head: p.alibiHead,
          scale,
          seed: state.seed,
        });
        ctx = { ...scores, p, scale, d, hands: ropeHands(attn, d, p.position, p.base), labels: result.labels };
      } catch (err) {
        return failure.fail(t('inference.coreRefused', { message: err.message }));
      }
      failure.ok();
      drawPositionControls(ui, p, result.labels, i18n);
      setText(note, dk % 2 ? t('inference.positions.odd', { dk, used: dk - 1 }) : '');
      note.hidden = dk % 2 === 0;
      drawPositionMaps(maps, spreads, ctx, display, i18n);
      drawAlibiMaps(alibiBox, alibiMaps, ctx, display, inspectAlibi, i18n);
      clocks.draw(ctx.hands, p.position);
      explain.refresh();
      clockExplain.refresh();
      return undefined;
    },
  };
}

function drawPositionControls(ui, p, labels, { t }) {
  options(
    ui.query,
    labels.queries.map((x, i) => `${i + 1}: ${x}`),
    p.query,
    true,
  );
  options(
    ui.key,
    labels.keys.map((x, j) => `${j + 1}: ${x}`),
    p.key,
    true,
  );
  options(
    ui.head,
    Array.from({ length: p.alibiHeads }, (_, h) => t('inference.positions.head', { head: h + 1 })),
    p.alibiHead,
  );
  setIfIdle(ui.count, p.count);
  setIfIdle(ui.base, p.base);
  setIfIdle(ui.heads, p.alibiHeads);
  ui.position.max = String(p.count - 1);
  setIfIdle(ui.position, p.position);
  ui.position.setAttribute('aria-valuetext', t('inference.positions.valueText', { p: p.position }));
}

function drawPositionMaps(maps, spreads, ctx, display, { decimal }) {
  const P = ctx.p.count;
  const labels = Array.from({ length: P }, (_, i) => String(i));
  for (const kind of KINDS) {
    const hidden = kind === 'alibi' ? ctx.alibiHidden : null;
    maps[kind].update({ tensor: ctx.maps[kind], rowLabels: labels, colLabels: labels, hidden, ...display });
    setStat(spreads[kind], ctx.spread[kind], decimal(formatNumber(ctx.spread[kind], 3)));
  }
}

function drawAlibiMaps(box, list, ctx, display, inspect, i18n) {
  const { t, decimal } = i18n;
  const H = ctx.slopes.length;
  while (list.length < H) {
    const h = list.length;
    const map = createHeatmap({
      name: `alibi-h${h}`,
      label: t('inference.positions.alibiMap', { head: h + 1 }),
      kind: 'diverging',
      small: true,
      i18n,
      onInspect: (m, n) => inspect(h)(m, n),
    });
    const fig = el('div', 'alibi-map');
    const caption = el('p', 'lesson-map-title');
    fig.append(caption, map.el);
    list.push({ map, fig, caption });
  }
  box.replaceChildren(...list.slice(0, H).map((x) => x.fig));
  const P = ctx.p.count;
  const labels = Array.from({ length: P }, (_, i) => String(i));
  for (let h = 0; h < H; h++) {
    setText(
      list[h].caption,
      t('inference.positions.slope', { head: h + 1, slope: decimal(formatNumber(ctx.slopes[h], 3)) }),
    );
    list[h].map.update({
      tensor: ctx.bias[h],
      rowLabels: labels,
      colLabels: labels,
      hidden: ctx.alibiHidden,
      ...display,
    });
  }
}
