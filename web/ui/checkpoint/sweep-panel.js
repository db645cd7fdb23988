// The head sweep: every head of the open checkpoint scored on repeated random tokens (a start
// token, 24 random tokens, the same 24 again; 8 such sequences), as previous-token, duplicate-token
// and induction heads (attn.headScores, pooled over the queries), drawn as a layers × heads grid
// (12 × 12 for GPT-2 small). It runs in the checkpoint's Worker, one sequence at a time, with
// progress and Cancel. For a GPT-2-small-shaped model the heads the literature reports are
// outlined, as what to expect, not as something this page checked.
// Test hooks: [data-sweep] (data-state: idle | running | done | error; data-sequences);
// [data-action="checkpoint-sweep"], [data-action="sweep-cancel"], progress[data-sweep-progress];
// select[data-sweep-score]; table[data-heatmap="checkpoint-sweep"] (rows: layers, columns: heads).
import { el } from '../dom/dom.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { createExplainBox, explanation } from '../explain/explain.js';
import { english, formatNumber } from '../model/model.js';
import { checkpointHost } from './host.js';

// The three scores; each one's menu entry is checkpoint.sweep.score.<key>, its explanation's lines
// checkpoint.sweep.explain.score.<key> and .title.<key>.
const SCORES = ['induction', 'previousToken', 'duplicateToken'];
const REPEAT = 24;
const COUNT = 8;
// Reported for GPT-2 small (layer.head, both from 0): induction heads (Olsson et al. 2022, Wang et
// al. 2022's IOI circuit) and a previous-token head (Wang et al. 2022).
export const REPORTED = Object.freeze({
  induction: [
    [5, 1],
    [5, 5],
    [6, 9],
    [7, 2],
    [7, 10],
  ],
  previousToken: [[4, 11]],
});

function explainCell(result, score, l, h, { t, decimal }) {
  const { line, done } = explanation();
  const value = result.scores[score][l][h];
  line(t(`checkpoint.sweep.explain.score.${score}`, { value: decimal(formatNumber(value, 4)) }), 'result');
  line(
    t('checkpoint.sweep.explain.why', { layer: l + 1, head: h + 1, paper: `${l}.${h}`, count: result.sequences }),
    'text',
  );
  const reported = (REPORTED[score] ?? []).some(([a, b]) => a === l && b === h);
  if (reported && result.small) line(t('checkpoint.sweep.explain.reported'), 'text');
  return done(t(`checkpoint.sweep.explain.title.${score}`, { layer: l + 1, head: h + 1 }));
}

function sweepControls(headingId, { t }) {
  const run = el('button', 'primary-button', t('checkpoint.sweep.run'));
  run.type = 'button';
  run.dataset.action = 'checkpoint-sweep';
  const cancel = el('button', 'small-button', t('checkpoint.cancel'));
  cancel.type = 'button';
  cancel.dataset.action = 'sweep-cancel';
  cancel.hidden = true;
  const progress = el('progress');
  progress.dataset.sweepProgress = '';
  progress.hidden = true;
  progress.setAttribute('aria-label', t('checkpoint.sweep.progress'));
  const score = el('select');
  score.dataset.sweepScore = '';
  score.id = `${headingId}-score`;
  for (const value of SCORES) {
    const o = el('option', '', t(`checkpoint.sweep.score.${value}`));
    o.value = value;
    score.append(o);
  }
  const scoreLabel = el('label', '', t('checkpoint.sweep.shown'));
  scoreLabel.htmlFor = score.id;
  return { run, cancel, progress, score, scoreLabel };
}

export function createSweepPanel({ display, i18n = english }) {
  const { t } = i18n;
  const root = el('section', 'card checkpoint-sweep');
  root.dataset.sweep = '';
  root.dataset.state = 'idle';
  const heading = el('h2', 'card-title', t('checkpoint.sweep.title'));
  heading.id = `sweep-heading-${Math.random().toString(36).slice(2, 8)}`;
  root.setAttribute('aria-labelledby', heading.id);
  const { run, cancel, progress, score, scoreLabel } = sweepControls(heading.id, i18n);
  const status = el('p', 'run-status');
  status.setAttribute('role', 'status');
  const explain = createExplainBox(t('checkpoint.sweep.idle'), { heading: 'h3', i18n });
  explain.el.querySelector('.explain-title').textContent = t('checkpoint.explainTitle');
  let result = null;
  const map = createHeatmap({
    name: 'checkpoint-sweep',
    label: t('checkpoint.sweep.map'),
    kind: 'weights',
    i18n,
    onInspect: (l, h) => result && explain.show(explainCell(result, score.value, l, h, i18n)),
  });
  const controls = el('div', 'run-buttons');
  controls.append(run, cancel, progress);
  const field = el('div', 'field');
  field.append(scoreLabel, score);
  const grid = el('div', 'sweep-grid');
  grid.append(map.el);
  grid.hidden = true;
  root.append(
    heading,
    el('p', 'hint', t('checkpoint.sweep.intro', { count: COUNT, repeat: REPEAT })),
    controls,
    status,
    field,
    grid,
    el('p', 'hint sweep-reported', t('checkpoint.sweep.reported')),
    explain.el,
  );

  function draw() {
    if (!result) return;
    grid.hidden = false;
    const data = Float32Array.from(result.scores[score.value].flat());
    const [L, H] = [result.scores[score.value].length, result.scores[score.value][0].length];
    const cells = new Set(result.small ? (REPORTED[score.value] ?? []).map(([l, h]) => l * H + h) : []);
    // Outlined once the grid is drawn (a map out of view is drawn when it scrolls in).
    map.update({
      tensor: { data, shape: [L, H] },
      rowLabels: Array.from({ length: L }, (_, l) => t('checkpoint.sweep.layerRow', { layer: l + 1 })),
      colLabels: Array.from({ length: H }, (_, h) => String(h + 1)),
      ...display(),
      alongside: () => map.setHighlight({ cells }),
    });
  }
  score.addEventListener('change', draw);
  cancel.addEventListener('click', () => checkpointHost()?.cancelSweep());
  run.addEventListener('click', async () => {
    const host = checkpointHost();
    if (!host) {
      status.textContent = t('checkpoint.sweep.none');
      return;
    }
    root.dataset.state = 'running';
    run.disabled = true;
    cancel.hidden = false;
    progress.hidden = false;
    progress.max = COUNT;
    progress.value = 0;
    try {
      const out = await host.sweep(
        { repeat: REPEAT, count: COUNT, seed: 0 },
        {
          onProgress: ({ done, total }) => {
            progress.value = done;
            status.textContent = t('checkpoint.sweep.running', { done, count: total });
          },
        },
      );
      const c = host.config;
      result = { ...out, small: c.numLayers === 12 && c.numHeads === 12 && c.dModel === 768 };
      root.dataset.sequences = String(out.sequences);
      root.dataset.state = 'done';
      status.textContent = t('checkpoint.sweep.done', { count: out.sequences });
      draw();
    } catch (err) {
      root.dataset.state = 'error';
      status.textContent =
        err.name === 'AbortError' || err.message === 'cancelled'
          ? t('checkpoint.sweep.cancelled')
          : t('checkpoint.sweep.failed', { message: err.message });
    } finally {
      run.disabled = false;
      cancel.hidden = true;
      progress.hidden = true;
    }
  });
  return {
    el: root,
    /** A new checkpoint: the old scores no longer apply. */
    reset(open) {
      result = null;
      grid.hidden = true;
      root.hidden = !open;
      root.dataset.state = 'idle';
      status.textContent = '';
    },
  };
}
