// "Where positions come from": sinusoidal, learned, RoPE and ALiBi side by side on the explorer's
// vectors. One query row q and one key row k of the head above are placed at every position m and
// n; each map is the score of the pair, q_m·k_n. Absolute encodings (a vector added per position)
// give a map that changes along its diagonals; RoPE (attn.rope turns q and k by angles
// proportional to their positions) gives one that is constant along them, since the score depends
// on m − n only; ALiBi adds −slope·(m − n) to the scaled score, a different slope per head. RoPE's
// frequencies are drawn as clock hands, one per dimension pair, at a position the learner picks.
// Test hooks: heatmaps pos-sinusoidal, pos-learned, pos-rope, pos-alibi, alibi-h<h>;
// data-stat="diagonal-spread-<kind>" (data-value); [data-rope-clock] with data-pair, data-cos, data-sin.
import { el, failureLine, field, lessonPanel, numberInput, setIfIdle, setText, svg } from './dom.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { INFERENCE_LIMITS, formatNumber, setLesson } from '../model/model.js';
import { positionScores, ropeHands } from './positions-math.js';
import { explainAlibi, explainClock, explainPosition, explainSpread } from './positions-explain.js';
import { createExplainBox, explainedStat, setStat } from '../explain/explain.js';

const KINDS = [
  ['sinusoidal', 'Sinusoidal (added)', '(q + p\u2098)\u00b7(k + p\u2099), p the sine/cosine vector of Vaswani et al.'],
  ['learned', 'Learned (added)', '(q + p\u2098)\u00b7(k + p\u2099), p a random vector per position, as a trained table would be before training'],
  ['rope', 'RoPE (rotated)', 'rope(q, m)\u00b7rope(k, n): q and k turned by angles proportional to their positions'],
  ['alibi', 'ALiBi (bias)', 'scale\u00b7q\u00b7k \u2212 slope\u00b7(m \u2212 n) for the chosen head; later keys hidden'],
];

const TEXT = {
  intro: 'Attention alone is blind to order. Here one query vector q and one key vector k of the head above are placed at every pair of positions (m, n); each map is their score. An absolute encoding adds a position vector to each, so the score depends on m and n separately and changes along the diagonals. RoPE turns q and k instead, by angles proportional to their positions: the score depends only on the distance m \u2212 n, so each diagonal is constant. ALiBi adds a penalty that grows with the distance.',
  odd: (dk) => `RoPE turns pairs of features, so it needs an even dimension: d\u2096 = ${dk}, and the lesson uses its first ${dk - 1} features.`,
  spread: 'Largest spread along a diagonal:',
  clocks: (p) => `RoPE\u2019s frequencies at position ${p}: pair i turns by ${p}\u00b7\u03b8\u1d62 with \u03b8\u1d62 = base^(\u22122i/d). The first pairs spin fast (they tell nearby positions apart), the last ones slowly (they still change over long distances).`,
  alibi: 'ALiBi\u2019s bias matrices, one per head: \u2212slope\u2095\u00b7(m \u2212 n). Steep heads look only at the last few tokens, shallow ones far back.',
};

function positionControls(update) {
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
  position.setAttribute('aria-label', 'Position of the clocks');
  const controls = el('div', 'lesson-controls');
  controls.append(field('Query row q', query), field('Key row k', key), field('Positions', count), field('RoPE base', base),
    field('ALiBi heads', heads), field('ALiBi head shown', head), field('Clock position p', position, 'lesson-field wide'));
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

function options(select, labels, value) {
  const key = labels.join('\u0000');
  if (select.dataset.options !== key) {
    select.dataset.options = key;
    select.replaceChildren(...labels.map((text, i) => {
      const o = el('option', '', text);
      o.value = String(i);
      return o;
    }));
  }
  select.value = String(value);
}

function createClocks(explain, current) {
  const box = el('div', 'rope-clocks');
  const note = el('p', 'lesson-note');
  const list = el('div', 'rope-clock-list');
  box.append(note, list);
  return {
    el: box,
    draw(hands, p) {
      setText(note, TEXT.clocks(p));
      while (list.children.length > hands.length) list.lastChild.remove();
      while (list.children.length < hands.length) list.append(clock(list.children.length, explain, current));
      hands.forEach((h, i) => drawClock(list.children[i], h, i, p));
    },
  };
}

function clock(i, explain, current) {
  const fig = el('figure', 'rope-clock');
  fig.dataset.ropeClock = '';
  fig.dataset.pair = String(i);
  fig.tabIndex = 0;
  const face = svg('svg', { viewBox: '-22 -22 44 44', width: 44, height: 44, 'aria-hidden': 'true' });
  face.append(svg('circle', { cx: 0, cy: 0, r: 20 }, 'rope-face'), svg('line', { x1: 0, y1: 0, x2: 18, y2: 0 }, 'rope-hand'));
  const caption = el('figcaption', '', `pair ${i + 1}`);
  fig.append(face, caption);
  const show = () => { const c = current(); if (c) explain.show(explainClock(c, i)); };
  fig.addEventListener('focus', show);
  fig.addEventListener('pointerenter', show);
  return fig;
}

function drawClock(fig, hand, i, p) {
  fig.dataset.cos = String(hand.cos);
  fig.dataset.sin = String(hand.sin);
  // SVG's y axis points down: the hand turns anticlockwise as the angle grows.
  const line = fig.querySelector('line');
  line.setAttribute('x2', String(18 * hand.cos));
  line.setAttribute('y2', String(-18 * hand.sin));
  fig.setAttribute('aria-label', `pair ${i + 1}: turned by ${formatNumber(p * hand.theta)} radians at position ${p}`);
}

export function createPositionsPanel({ attn, update }) {
  const { root, intro } = lessonPanel('positions', TEXT.intro);
  const ui = positionControls(update);
  const explain = createExplainBox();
  let ctx = null;
  const inspect = (kind) => (m, n) => { if (ctx) explain.show(explainPosition(ctx, kind, m, n)); };
  const grid = el('div', 'positions-maps');
  const maps = {};
  const spreads = {};
  for (const [kind, title, formula] of KINDS) {
    maps[kind] = createHeatmap({ name: `pos-${kind}`, label: `${title}: score of q at m and k at n`, kind: 'diverging', legend: false, onInspect: inspect(kind) });
    spreads[kind] = explainedStat(`diagonal-spread-${kind}`, () => ctx && explain.show(explainSpread(ctx, kind)));
    const box = el('div', 'positions-map');
    const line = el('p', 'lesson-note');
    line.append(TEXT.spread, ' ', spreads[kind]);
    box.append(el('h4', '', title), el('p', 'lesson-note', formula), maps[kind].el, line);
    grid.append(box);
  }
  const note = el('p', 'lesson-note');
  const alibiBox = el('div', 'alibi-maps');
  const alibiMaps = [];
  const clockExplain = createExplainBox('Point at, tap or focus a clock to see its frequency and angle.');
  const clocks = createClocks(clockExplain, () => ctx);
  const body = el('div');
  const failure = failureLine(body);
  body.append(note, grid, explain.el, el('h4', 'lesson-gap', 'ALiBi, head by head'), el('p', 'lesson-note', TEXT.alibi), alibiBox,
    el('h4', 'lesson-gap', 'RoPE\u2019s frequencies as clock hands'), clocks.el, clockExplain.el);
  root.append(intro, ui.controls, failure.el, body);

  return {
    el: root,
    render(state, result, display) {
      if (result.error) return failure.fail(`Cannot compute: ${result.error}`);
      const p = state.lessons.positions;
      const { q, k, scale } = result.head;
      const dk = q.shape[1];
      const d = dk % 2 === 0 ? dk : dk - 1;
      if (d < 2) return failure.fail('RoPE needs at least two features per head: raise d\u2096 above.');
      const row = (t, i) => Array.from(t.data.subarray(i * dk, i * dk + d));
      try {
        const scores = positionScores(attn, { q: row(q, p.query), k: row(k, p.key), P: p.count, base: p.base, heads: p.alibiHeads, head: p.alibiHead, scale, seed: state.seed });
        ctx = { ...scores, p, scale, d, hands: ropeHands(attn, d, p.position, p.base), labels: result.labels };
      } catch (err) {
        return failure.fail(`The core refused: ${err.message}`);
      }
      failure.ok();
      drawPositionControls(ui, p, result.labels);
      setText(note, dk % 2 ? TEXT.odd(dk) : '');
      note.hidden = dk % 2 === 0;
      drawPositionMaps(maps, spreads, ctx, display);
      drawAlibiMaps(alibiBox, alibiMaps, ctx, display, (h) => (m, n) => explain.show(explainAlibi(ctx, h, m, n)));
      clocks.draw(ctx.hands, p.position);
      return undefined;
    },
  };
}

function drawPositionControls(ui, p, labels) {
  options(ui.query, labels.queries.map((t, i) => `${i + 1}: ${t}`), p.query);
  options(ui.key, labels.keys.map((t, j) => `${j + 1}: ${t}`), p.key);
  options(ui.head, Array.from({ length: p.alibiHeads }, (_, h) => `head ${h + 1}`), p.alibiHead);
  setIfIdle(ui.count, p.count);
  setIfIdle(ui.base, p.base);
  setIfIdle(ui.heads, p.alibiHeads);
  ui.position.max = String(p.count - 1);
  setIfIdle(ui.position, p.position);
  ui.position.setAttribute('aria-valuetext', `position ${p.position}`);
}

function drawPositionMaps(maps, spreads, ctx, display) {
  const P = ctx.p.count;
  const labels = Array.from({ length: P }, (_, i) => String(i));
  for (const [kind] of KINDS) {
    const hidden = kind === 'alibi' ? ctx.alibiHidden : null;
    maps[kind].update({ tensor: ctx.maps[kind], rowLabels: labels, colLabels: labels, hidden, ...display });
    setStat(spreads[kind], ctx.spread[kind], formatNumber(ctx.spread[kind], 3));
  }
}

function drawAlibiMaps(box, list, ctx, display, inspect) {
  const H = ctx.slopes.length;
  while (list.length < H) {
    const h = list.length;
    const map = createHeatmap({ name: `alibi-h${h}`, label: `ALiBi bias of head ${h + 1}`, kind: 'diverging', small: true, onInspect: (m, n) => inspect(h)(m, n) });
    const fig = el('div', 'alibi-map');
    const caption = el('p', 'lesson-map-title');
    fig.append(caption, map.el);
    list.push({ map, fig, caption });
  }
  box.replaceChildren(...list.slice(0, H).map((x) => x.fig));
  const P = ctx.p.count;
  const labels = Array.from({ length: P }, (_, i) => String(i));
  for (let h = 0; h < H; h++) {
    setText(list[h].caption, `head ${h + 1}: slope ${formatNumber(ctx.slopes[h], 3)}`);
    list[h].map.update({ tensor: ctx.bias[h], rowLabels: labels, colLabels: labels, hidden: ctx.alibiHidden, ...display });
  }
}
