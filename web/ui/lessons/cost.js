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
import { dims, english, LESSON_LIMITS, setLesson } from '../model/model.js';
import { parameterSentence, singleHeadSentence } from '../parameter-count.js';

// [key, format]; each row's label and formulas (for a layer, for the explorer's single head) are
// lessons.cost.ROW.label, .layer and .head in the catalogues.
const ROWS = [
  ['parameters', (v) => grouped(v)],
  ['projectionFlops', (v) => si(v, 'FLOP')],
  ['scoreFlops', (v) => si(v, 'FLOP')],
  ['softmaxFlops', (v) => si(v, 'FLOP')],
  ['totalFlops', (v) => si(v, 'FLOP')],
  ['attentionMatrixBytes', (v) => bytes(v)],
];

/**
 * What the explorer's single head costs (no W_O): z = { dModel (0: Q, K, V typed, no
 * projections), dk, dv, biases }, with the same fields as attentionCost.
 */
function singleHeadCost(n, m, { dModel, dk, dv, biases }) {
  const parameters = dModel * (2 * dk + dv) + (dModel && biases ? 2 * dk + dv : 0);
  const projectionFlops = 2 * dModel * (n * dk + m * dk + m * dv);
  const scoreFlops = 2 * n * m * (dk + dv);
  const softmaxFlops = 5 * n * m;
  return {
    parameters,
    projectionFlops,
    scoreFlops,
    softmaxFlops,
    totalFlops: projectionFlops + scoreFlops + softmaxFlops,
    attentionMatrixBytes: 4 * n * m,
  };
}

// The sizes the panel shows: its own, or the explorer's while it follows them; `single` when the
// explorer shows one head (then dk, dv and biases are that head's, and dModel 0 without projections).
function sizesOf(s) {
  const c = s.lessons.cost;
  if (!c.follow) return { n: c.n, m: c.m, dModel: c.dModel, heads: c.heads };
  const d = dims(s);
  if (!d.multi)
    return {
      n: d.n,
      m: d.m,
      dModel: d.sentence ? s.dModel : 0,
      heads: 1,
      single: true,
      dk: d.dk,
      dv: d.dv,
      biases: d.biases,
    };
  return { n: d.n, m: d.m, dModel: s.dModel, heads: s.heads };
}

// The "follow the explorer" box and the four size fields.
function costControls(update, { t }) {
  const follow = el('input');
  follow.type = 'checkbox';
  const followLabel = el('label', 'check');
  followLabel.append(follow, el('span', '', t('lessons.cost.follow')));
  const inputs = {
    n: numberInput(LESSON_LIMITS.n),
    m: numberInput(LESSON_LIMITS.n),
    dModel: numberInput(LESSON_LIMITS.dModel),
    heads: numberInput(LESSON_LIMITS.heads),
  };
  const controls = el('div', 'lesson-controls');
  controls.append(followLabel);
  for (const key of ['n', 'm', 'dModel', 'heads']) {
    const label = el('label', 'lesson-field');
    const text = el('span', 'lesson-field-label', key === 'dModel' ? 'd_model' : t(`lessons.cost.field.${key}`));
    text.translate = key !== 'dModel'; // a variable's name
    label.append(text, inputs[key]);
    controls.append(label);
    inputs[key].addEventListener('change', () => {
      const v = Number(inputs[key].value);
      if (!Number.isFinite(v)) return;
      // Typing a size means "these sizes": take the shown ones and stop following the explorer.
      update((s) => setLesson(s, 'cost', { ...sizesOf(s), follow: false, [key]: v }));
    });
  }
  follow.addEventListener('change', () =>
    update((s) => setLesson(s, 'cost', follow.checked ? { follow: true } : { ...sizesOf(s), follow: false })),
  );
  return { controls, follow, inputs };
}

// The table of costs, one row per entry of ROWS; cells[key] is the row's <output>.
function costTable({ t }) {
  const table = el('table', 'lesson-table cost-table');
  table.dataset.table = 'cost';
  const caption = el('caption');
  const tbody = el('tbody');
  table.append(caption, tbody);
  const cells = {};
  const formulas = {};
  const labels = {};
  for (const [key] of ROWS) {
    const tr = el('tr');
    const th = el('th', '', t(`lessons.cost.${key}.label`));
    th.scope = 'row';
    labels[key] = th;
    const f = el('td', 'formula-cell');
    formulas[key] = f;
    const value = el('td', 'value-cell');
    value.translate = false; // numbers and unit symbols (FLOP, MiB)
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

// The plot's legend: a key per series and the chosen n, each key and its words one item, so a
// legend that wraps keeps every key beside its own words.
function plotLegend({ t }) {
  const legend = el('p', 'lesson-note plot-legend');
  const key = (cls, text) => {
    const item = el('span', 'legend-item');
    const span = el('span', `legend-key ${cls}`);
    span.setAttribute('aria-hidden', 'true');
    item.append(span, ` ${text} `);
    return item;
  };
  legend.append(
    key('proj', t('lessons.cost.legend.proj')),
    key('quad', t('lessons.cost.legend.quad')),
    key('now', t('lessons.cost.legend.now')),
  );
  return legend;
}

export function createCostPanel({ attn, update, i18n = english }) {
  const { t } = i18n;
  const { root, intro } = lessonPanel('cost', t('lessons.cost.intro'));
  const { controls, follow, inputs } = costControls(update, i18n);
  const error = el('p', 'error');
  error.hidden = true;
  const { table, caption, cells, formulas, labels } = costTable(i18n);
  const params = el('p', 'lesson-note');
  const verdict = el('p', 'lesson-summary');
  verdict.dataset.stat = 'crossover';
  const plot = createLogLogPlot({ xLabel: t('lessons.cost.xLabel'), yLabel: t('lessons.cost.yLabel'), i18n });
  const legend = plotLegend(i18n);
  const figure = el('figure', 'lesson-figure wide');
  figure.append(plot.el, legend);
  root.append(intro, controls, error, table, params, verdict, figure);

  let drawn = '';

  const cost = (n, m, z) =>
    z.single
      ? singleHeadCost(n, m, z)
      : attn.lessons.attentionCost({ n, m, dModel: z.dModel, numHeads: z.heads, bias: true });
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
        error.textContent = t('lessons.cost.failed', { error: err.message });
        error.hidden = false;
        table.hidden = true;
        figure.hidden = true;
        setText(verdict, '');
        return;
      }
      error.hidden = true;
      table.hidden = false;
      figure.hidden = z.single && !z.dModel; // no projections: nothing to cross
      describe(z, c);
      const star = crossover(z);
      verdict.dataset.value = String(star);
      setText(verdict, verdictText(z, c, star));
      if (!figure.hidden) drawPlot(z, star);
    },
  };

  // The caption, row labels and formulas, the cells and the parameter sentence for sizes z.
  function describe(z, c) {
    const sizes = { n: grouped(z.n), m: grouped(z.m), dModel: grouped(z.dModel), heads: z.heads, dk: z.dk, dv: z.dv };
    setText(
      caption,
      t(
        z.single ? (z.dModel ? 'lessons.cost.captionHead' : 'lessons.cost.captionTyped') : 'lessons.cost.captionLayer',
        { ...sizes, width: z.dModel / z.heads },
      ),
    );
    for (const [name, format] of ROWS) {
      setText(cells[name], i18n.decimal(format(c[name])));
      cells[name].dataset.value = String(c[name]);
      cells[name].title = grouped(c[name]);
      setText(formulas[name], name === 'totalFlops' ? '' : t(`lessons.cost.${name}.${z.single ? 'head' : 'layer'}`));
    }
    for (const name of ['parameters', 'projectionFlops', 'attentionMatrixBytes']) {
      setText(labels[name], t(`lessons.cost.${name}.${z.single ? 'headLabel' : 'label'}`));
    }
    if (z.single && !z.dModel) {
      params.replaceChildren(t('lessons.cost.typed'));
    } else if (z.single) {
      const layerCount = attn.lessons.attentionCost({
        n: z.n,
        m: z.m,
        dModel: z.dModel,
        numHeads: 1,
        bias: z.biases,
      }).parameters;
      params.replaceChildren(
        singleHeadSentence(
          { dModel: z.dModel, dk: z.dk, dv: z.dv, biases: z.biases, count: c.parameters, layerCount },
          i18n,
        ),
      );
    } else {
      const weights = attn.lessons.attentionCost({
        n: z.n,
        m: z.m,
        dModel: z.dModel,
        numHeads: z.heads,
        bias: false,
      }).parameters;
      params.replaceChildren(
        parameterSentence({ weights, withBiases: c.parameters, dModel: z.dModel, heads: z.heads }, i18n),
      );
    }
  }

  function verdictText(z, c, star) {
    const params = {
      n: grouped(z.n),
      m: grouped(z.m),
      dModel: grouped(z.dModel),
      dk: z.dk,
      dv: z.dv,
      count: z.heads,
      star: grouped(star),
      bytes: i18n.decimal(bytes(c.attentionMatrixBytes)),
    };
    if (z.single && !z.dModel) return t('lessons.cost.verdictTyped', params);
    if (z.single) return t('lessons.cost.verdictHead', params);
    return t('lessons.cost.verdictLayer', params);
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
      series: [
        { key: 'proj', points: proj },
        { key: 'quad', points: quad },
      ],
      xDomain: [1, top],
      yDomain,
      vertical: [
        { key: 'now', x: Math.min(Math.max(z.n, 1), top), label: `n = ${grouped(z.n)}`, row: 0 },
        { key: 'cross', x: star, label: t('lessons.cost.equalAt', { n: grouped(star) }), row: 1 },
      ],
      points: [{ key: 'cross', x: star, y: cs.projectionFlops }],
      description: t('lessons.cost.plotDescription', { n: String(star) }),
    });
  }
}
