// "Cost and size": what a multi-head attention layer costs for n queries, m keys, width d_model
// and h heads, from attn.lessons.attentionCost: parameters (4·d² + 4·d, whatever h is), FLOPs of
// the projections (linear in n) and of the scores and weighted sums (quadratic), and the bytes of
// the h attention matrices. The plot sweeps n (self-attention, m = n) on log–log axes and marks
// where the quadratic term overtakes the projections, found by bisection over the numbers.
// Following the explorer while it shows a single head (no W_O; its own d_k and d_v; or Q, K, V
// typed with no projections at all), the table counts that head instead (singleHeadCost): a
// layer's 4·d² would count a W_O the explorer does not have.
import { bytes, el, grouped, lessonPanel, numberInput, setIfIdle, setText, si } from './dom.js';
import { createLogLogPlot } from './plots.js';
import { dims, LESSON_LIMITS, setLesson } from '../model/model.js';
import { parameterSentence, singleHeadSentence } from '../parameter-count.js';

// [key, label, formula for a layer, formula for the explorer's single head, format].
const ROWS = [
  ['parameters', 'Parameters: W_Q, W_K, W_V, W_O and their biases', '4\u00b7d\u00b2 + 4\u00b7d, whatever h is', 'd\u00b7(2d\u2096 + d\u1d65), no W_O (+ 2d\u2096 + d\u1d65 with biases)', (v) => grouped(v)],
  ['projectionFlops', 'Projections Q, K, V and the output', '2\u00b7d\u00b2\u00b7(2n + 2m): linear in n', '2\u00b7d\u00b7(n\u00b7d\u2096 + m\u00b7d\u2096 + m\u00b7d\u1d65), no output projection', (v) => si(v, 'FLOP')],
  ['scoreFlops', 'Scores Q\u00b7K\u1d40 and weights\u00b7V', '4\u00b7n\u00b7m\u00b7d: quadratic in n', '2\u00b7n\u00b7m\u00b7(d\u2096 + d\u1d65): quadratic in n', (v) => si(v, 'FLOP')],
  ['softmaxFlops', 'Softmax', 'about 5 per weight: 5\u00b7h\u00b7n\u00b7m', 'about 5 per weight: 5\u00b7n\u00b7m', (v) => si(v, 'FLOP')],
  ['totalFlops', 'Total', '', '', (v) => si(v, 'FLOP')],
  ['attentionMatrixBytes', 'Attention matrices (h of n \u00d7 m, float32)', '4\u00b7h\u00b7n\u00b7m bytes', '4\u00b7n\u00b7m bytes (one matrix)', (v) => bytes(v)],
];

/**
 * What the explorer's single head costs (no W_O): z = { dModel (0: Q, K, V typed, no
 * projections), dk, dv, biases }, with the same fields as attentionCost.
 */
export function singleHeadCost(n, m, { dModel, dk, dv, biases }) {
  const parameters = dModel * (2 * dk + dv) + (dModel && biases ? 2 * dk + dv : 0);
  const projectionFlops = 2 * dModel * (n * dk + m * dk + m * dv);
  const scoreFlops = 2 * n * m * (dk + dv);
  const softmaxFlops = 5 * n * m;
  return { parameters, projectionFlops, scoreFlops, softmaxFlops, totalFlops: projectionFlops + scoreFlops + softmaxFlops, attentionMatrixBytes: 4 * n * m };
}

// The sizes the panel shows: its own, or the explorer's while it follows them; `single` when the
// explorer shows one head (then dk, dv and biases are that head's, and dModel 0 without projections).
function sizesOf(s) {
  const c = s.lessons.cost;
  if (!c.follow) return { n: c.n, m: c.m, dModel: c.dModel, heads: c.heads };
  const d = dims(s);
  if (!d.multi) return { n: d.n, m: d.m, dModel: d.sentence ? s.dModel : 0, heads: 1, single: true, dk: d.dk, dv: d.dv, biases: d.biases };
  return { n: d.n, m: d.m, dModel: s.dModel, heads: s.heads };
}

// The "follow the explorer" box and the four size fields.
function costControls(update) {
  const follow = el('input');
  follow.type = 'checkbox';
  const followLabel = el('label', 'check');
  followLabel.append(follow, el('span', '', 'Use the explorer\u2019s sizes'));
  const inputs = {
    n: numberInput(LESSON_LIMITS.n), m: numberInput(LESSON_LIMITS.n),
    dModel: numberInput(LESSON_LIMITS.dModel), heads: numberInput(LESSON_LIMITS.heads),
  };
  const controls = el('div', 'lesson-controls');
  controls.append(followLabel);
  for (const [key, text] of [['n', 'n (queries)'], ['m', 'm (keys)'], ['dModel', 'd_model'], ['heads', 'heads h']]) {
    const label = el('label', 'lesson-field');
    label.append(el('span', 'lesson-field-label', text), inputs[key]);
    controls.append(label);
    inputs[key].addEventListener('change', () => {
      const v = Number(inputs[key].value);
      if (!Number.isFinite(v)) return;
      // Typing a size means "these sizes": take the shown ones and stop following the explorer.
      update((s) => setLesson(s, 'cost', { ...sizesOf(s), follow: false, [key]: v }));
    });
  }
  follow.addEventListener('change', () => update((s) => setLesson(s, 'cost', follow.checked ? { follow: true } : { ...sizesOf(s), follow: false })));
  return { controls, follow, inputs };
}

// The table of costs, one row per entry of ROWS; cells[key] is the row's <output>.
function costTable() {
  const table = el('table', 'lesson-table cost-table');
  table.dataset.table = 'cost';
  const caption = el('caption');
  const tbody = el('tbody');
  table.append(caption, tbody);
  const cells = {};
  const formulas = {};
  const labels = {};
  for (const [key, label, formula] of ROWS) {
    const tr = el('tr');
    const th = el('th', '', label);
    th.scope = 'row';
    labels[key] = th;
    const f = el('td', 'formula-cell', formula);
    formulas[key] = f;
    const value = el('td', 'value-cell');
    const out = el('output');
    out.dataset.stat = key;
    value.append(out);
    tr.append(th, f, value);
    if (key === 'totalFlops') tr.className = 'total';
    tbody.append(tr);
    cells[key] = out;
  }
  return { table, caption, cells, formulas, labels };
}

// The plot's legend: a key per series and the chosen n.
function plotLegend() {
  const legend = el('p', 'lesson-note plot-legend');
  const key = (cls, text) => {
    const span = el('span', `legend-key ${cls}`);
    span.setAttribute('aria-hidden', 'true');
    return [span, ` ${text}  `];
  };
  legend.append(...key('proj', 'projections (\u221d n\u00b7d\u00b2)'), ...key('quad', 'scores, weights\u00b7V and softmax (\u221d n\u00b2\u00b7d)'), ...key('now', 'the chosen n'));
  return legend;
}

export function createCostPanel({ attn, update }) {
  const { root, intro } = lessonPanel('cost', 'The projections cost the same per token however long the text is; the score matrix grows with n \u00d7 m. For short inputs the projections dominate, for long ones the quadratic term does, and the h attention matrices must also fit in memory. Numbers from attn.lessons.attentionCost for a layer; while the explorer shows a single head (which has no W_O), from that head\u2019s own matrices (a multiply\u2013add counts as 2 FLOPs).');
  const { controls, follow, inputs } = costControls(update);
  const error = el('p', 'error');
  error.hidden = true;
  const { table, caption, cells, formulas, labels } = costTable();
  const params = el('p', 'lesson-note');
  const verdict = el('p', 'lesson-summary');
  verdict.dataset.stat = 'crossover';
  const plot = createLogLogPlot({ xLabel: 'tokens n (self-attention, m = n)', yLabel: 'FLOPs' });
  const legend = plotLegend();
  const figure = el('figure', 'lesson-figure wide');
  figure.append(plot.el, legend);
  root.append(intro, controls, error, table, params, verdict, figure);

  let drawn = '';

  const cost = (n, m, z) => (z.single ? singleHeadCost(n, m, z) : attn.lessons.attentionCost({ n, m, dModel: z.dModel, numHeads: z.heads, bias: true }));
  const quadratic = (c) => c.scoreFlops + c.softmaxFlops;

  // The smallest n (with m = n) at which the quadratic terms cost at least as much as the
  // projections; the difference grows with n, so bisection over the core's counts finds it.
  function crossover(z) {
    let lo = 1;
    let hi = 1;
    while (hi < 2 ** 30) {
      const c = cost(hi, hi, z);
      if (quadratic(c) >= c.projectionFlops) break;
      lo = hi;
      hi *= 2;
    }
    if (lo === hi) return 1;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      const c = cost(mid, mid, z);
      if (quadratic(c) >= c.projectionFlops) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  return {
    el: root,
    render(state) {
      const z = sizesOf(state);
      follow.checked = state.lessons.cost.follow;
      for (const k of Object.keys(inputs)) {
        setIfIdle(inputs[k], z[k]);
        inputs[k].classList.toggle('following', state.lessons.cost.follow);
      }
      const k = JSON.stringify(z);
      if (k === drawn) return;
      drawn = k;
      let c;
      try {
        c = cost(z.n, z.m, z);
      } catch (err) {
        error.textContent = `The core cannot cost these sizes: ${err.message}`;
        error.hidden = false;
        table.hidden = true;
        figure.hidden = true;
        setText(verdict, '');
        return;
      }
      error.hidden = true;
      table.hidden = false;
      figure.hidden = z.single && !z.dModel;  // no projections: nothing to cross
      describe(z, c);
      const star = crossover(z);
      verdict.dataset.value = String(star);
      setText(verdict, verdictText(z, c, star));
      if (!figure.hidden) drawPlot(z, star);
    },
  };

  // The caption, row labels and formulas, the cells and the parameter sentence for sizes z.
  function describe(z, c) {
    setText(caption, z.single
      ? `n = ${grouped(z.n)}, m = ${grouped(z.m)}, the explorer\u2019s single head: ${z.dModel ? `d_model = ${grouped(z.dModel)}, ` : 'Q, K, V typed directly, '}d\u2096 = ${z.dk}, d\u1d65 = ${z.dv} (no W_O)`
      : `n = ${grouped(z.n)}, m = ${grouped(z.m)}, d_model = ${grouped(z.dModel)}, h = ${z.heads} (head width ${z.dModel / z.heads})`);
    for (const [name, , layerFormula, headFormula, format] of ROWS) {
      setText(cells[name], format(c[name]));
      cells[name].dataset.value = String(c[name]);
      cells[name].title = grouped(c[name]);
      setText(formulas[name], z.single ? headFormula : layerFormula);
    }
    setText(labels.parameters, z.single ? 'Parameters: W_Q, W_K, W_V and their biases (no W_O)' : ROWS[0][1]);
    setText(labels.projectionFlops, z.single ? 'Projections Q, K, V (no output projection)' : ROWS[1][1]);
    setText(labels.attentionMatrixBytes, z.single ? 'Attention matrix (n \u00d7 m, float32)' : ROWS[5][1]);
    if (z.single && !z.dModel) {
      params.replaceChildren('Q, K and V are typed directly: there are no projection weights to count.');
    } else if (z.single) {
      const layerCount = attn.lessons.attentionCost({ n: z.n, m: z.m, dModel: z.dModel, numHeads: 1, bias: z.biases }).parameters;
      params.replaceChildren(singleHeadSentence({ dModel: z.dModel, dk: z.dk, dv: z.dv, biases: z.biases, count: c.parameters, layerCount }));
    } else {
      const weights = attn.lessons.attentionCost({ n: z.n, m: z.m, dModel: z.dModel, numHeads: z.heads, bias: false }).parameters;
      params.replaceChildren(parameterSentence({ weights, withBiases: c.parameters, dModel: z.dModel, heads: z.heads }));
    }
  }

  function verdictText(z, c, star) {
    const memory = `at n = ${grouped(z.n)}, m = ${grouped(z.m)}.`;
    if (z.single && !z.dModel) return `With Q, K, V typed directly there are no projections: every FLOP is in the scores, the weights\u00b7V and the softmax. The attention matrix needs ${bytes(c.attentionMatrixBytes)} ${memory}`;
    if (z.single) return `For this head (d_model = ${grouped(z.dModel)}, d\u2096 = ${z.dk}, d\u1d65 = ${z.dv}), the quadratic terms cost more than the projections from n = ${grouped(star)} tokens on. Its attention matrix needs ${bytes(c.attentionMatrixBytes)} ${memory}`;
    return `With d_model = ${grouped(z.dModel)} and ${z.heads} head${z.heads > 1 ? 's' : ''}, the quadratic terms cost more than the projections from n = ${grouped(star)} tokens on (about 2\u00b7d_model). The h attention matrices need ${bytes(c.attentionMatrixBytes)} ${memory}`;
  }

  function drawPlot(z, star) {
    // The sweep: powers of √2 from 1 to well past both the crossover and the chosen n.
    const top = 2 ** Math.min(30, Math.max(10, Math.ceil(Math.log2(Math.max(4 * star, 2 * z.n)))));
    const proj = [];
    const quad = [];
    for (let e = 0; 2 ** (e / 2) <= top; e++) {
      const n = Math.round(2 ** (e / 2));
      const cn = cost(n, n, z);
      proj.push([n, cn.projectionFlops]);
      quad.push([n, quadratic(cn)]);
    }
    const ys = proj.concat(quad).map((p) => p[1]);
    const yDomain = [10 ** Math.floor(Math.log10(Math.min(...ys))), 10 ** Math.ceil(Math.log10(Math.max(...ys)))];
    const cs = cost(star, star, z);
    plot.update({
      series: [{ key: 'proj', points: proj }, { key: 'quad', points: quad }],
      xDomain: [1, top], yDomain,
      vertical: [
        { key: 'now', x: Math.min(Math.max(z.n, 1), top), label: `n = ${grouped(z.n)}`, row: 0 },
        { key: 'cross', x: star, label: `equal at n = ${grouped(star)}`, row: 1 },
      ],
      points: [{ key: 'cross', x: star, y: cs.projectionFlops }],
      description: `FLOPs against n on log-log axes: the projections grow linearly, the quadratic terms overtake them at n = ${star}.`,
    });
  }
}
