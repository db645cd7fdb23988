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
import { formatNumber } from '../model/model.js';
import { checkpointHost } from './host.js';

const SCORES = [['induction', 'Induction'], ['previousToken', 'Previous token'], ['duplicateToken', 'Duplicate token']];
const REPEAT = 24;
const COUNT = 8;
// Reported for GPT-2 small (layer.head, both from 0): induction heads (Olsson et al. 2022, Wang et
// al. 2022's IOI circuit) and a previous-token head (Wang et al. 2022).
export const REPORTED = Object.freeze({
  induction: [[5, 1], [5, 5], [6, 9], [7, 2], [7, 10]],
  previousToken: [[4, 11]],
});

const TEXT = {
  intro: `Which heads copy? Each head is scored on ${COUNT} sequences of a start token, ${REPEAT} random tokens and the same ${REPEAT} tokens again: a previous-token head attends to the token just before, a duplicate-token head to earlier copies of the current token, an induction head to the token that followed an earlier copy (what lets a model continue a repeat).`,
  reported: 'Reported elsewhere for GPT-2 small (layer.head counted from 0, as those papers count): induction heads 5.1, 5.5, 6.9, 7.2 and 7.10 (Olsson et al., 2022; Wang et al., 2022), a previous-token head 4.11 (Wang et al., 2022). The page counts from 1, so 5.1 is layer 6 \u00b7 head 2; those cells are outlined when the model has GPT-2 small\u2019s shape. They are what a learner should expect to find in the published weights, not something this page has checked; a checkpoint of random weights shows none of them.',
  running: (done, total) => `Sequence ${done} of ${total}\u2026`,
  done: (n) => `Scored on ${n} sequences.`,
  cancelled: 'The sweep was cancelled.',
  none: 'Open a checkpoint first.',
};

function explainCell(result, score, l, h) {
  const { line, done } = explanation();
  const value = result.scores[score][l][h];
  const name = SCORES.find(([k]) => k === score)[1].toLowerCase();
  line(`${name} score = ${formatNumber(value, 4)}`, 'result');
  line(`Layer ${l + 1} \u00b7 head ${h + 1} (${l}.${h} as the papers count from 0): its mean attention, pooled over every qualifying query of ${result.sequences} sequences, computed by the core (attn.headScores) on the model\u2019s own attention.`, 'text');
  const reported = (REPORTED[score] ?? []).some(([a, b]) => a === l && b === h);
  if (reported && result.small) line('Reported elsewhere as a head of this kind in GPT-2 small.', 'text');
  return done(`Layer ${l + 1} \u00b7 head ${h + 1}: ${name}`);
}

export function createSweepPanel({ display }) {
  const root = el('section', 'card checkpoint-sweep');
  root.dataset.sweep = '';
  root.dataset.state = 'idle';
  const heading = el('h2', 'card-title', 'Sweep every head');
  heading.id = `sweep-heading-${Math.random().toString(36).slice(2, 8)}`;
  root.setAttribute('aria-labelledby', heading.id);
  const run = el('button', 'primary-button', 'Score every head');
  run.type = 'button';
  run.dataset.action = 'checkpoint-sweep';
  const cancel = el('button', 'small-button', 'Cancel');
  cancel.type = 'button';
  cancel.dataset.action = 'sweep-cancel';
  cancel.hidden = true;
  const progress = el('progress');
  progress.dataset.sweepProgress = '';
  progress.hidden = true;
  progress.setAttribute('aria-label', 'Sweep progress');
  const score = el('select');
  score.dataset.sweepScore = '';
  score.id = `${heading.id}-score`;
  for (const [value, text] of SCORES) {
    const o = el('option', '', text);
    o.value = value;
    score.append(o);
  }
  const scoreLabel = el('label', '', 'Score shown');
  scoreLabel.htmlFor = score.id;
  const status = el('p', 'run-status');
  status.setAttribute('role', 'status');
  const explain = createExplainBox('Point at, tap or focus a head of the grid to see its score.', { heading: 'h3' });
  let result = null;
  const map = createHeatmap({ name: 'checkpoint-sweep', label: 'Each head\u2019s score: rows are layers, columns heads', kind: 'weights', onInspect: (l, h) => result && explain.show(explainCell(result, score.value, l, h)) });
  const controls = el('div', 'run-buttons');
  controls.append(run, cancel, progress);
  const field = el('div', 'field');
  field.append(scoreLabel, score);
  const grid = el('div', 'sweep-grid');
  grid.append(map.el);
  grid.hidden = true;
  root.append(heading, el('p', 'hint', TEXT.intro), controls, status, field, grid, el('p', 'hint sweep-reported', TEXT.reported), explain.el);

  function draw() {
    if (!result) return;
    grid.hidden = false;
    const data = Float32Array.from(result.scores[score.value].flat());
    const [L, H] = [result.scores[score.value].length, result.scores[score.value][0].length];
    const cells = new Set(result.small ? (REPORTED[score.value] ?? []).map(([l, h]) => l * H + h) : []);
    // Outlined once the grid is drawn (a map out of view is drawn when it scrolls in).
    map.update({ tensor: { data, shape: [L, H] }, rowLabels: Array.from({ length: L }, (_, l) => `layer ${l + 1}`), colLabels: Array.from({ length: H }, (_, h) => String(h + 1)), ...display(), alongside: () => map.setHighlight({ cells }) });
  }
  score.addEventListener('change', draw);
  cancel.addEventListener('click', () => checkpointHost()?.cancelSweep());
  run.addEventListener('click', async () => {
    const host = checkpointHost();
    if (!host) { status.textContent = TEXT.none; return; }
    root.dataset.state = 'running';
    run.disabled = true;
    cancel.hidden = false;
    progress.hidden = false;
    progress.max = COUNT;
    progress.value = 0;
    try {
      const out = await host.sweep({ repeat: REPEAT, count: COUNT, seed: 0 }, { onProgress: ({ done, total }) => {
        progress.value = done;
        status.textContent = TEXT.running(done, total);
      } });
      const c = host.config;
      result = { ...out, small: c.numLayers === 12 && c.numHeads === 12 && c.dModel === 768 };
      root.dataset.sequences = String(out.sequences);
      root.dataset.state = 'done';
      status.textContent = TEXT.done(out.sequences);
      draw();
    } catch (err) {
      root.dataset.state = 'error';
      status.textContent = err.name === 'AbortError' || err.message === 'cancelled' ? TEXT.cancelled : err.message;
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
