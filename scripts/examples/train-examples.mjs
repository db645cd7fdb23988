// Trains the training view's examples with the project's own trainer (the Worker's session, in
// this thread) and writes them to web/trained/: <id>.safetensors (float32, the model's getState
// names; settings, step and the run's history in the metadata) and <id>.json (settings, steps,
// when the heads formed, the final head scores, the history). Deterministic: the settings fix
// every seed. `npm run train-examples` (both), or `… -- induction` for one.
//
// The history is what the view's charts show for an example: every HISTORY_EVERY steps from step
// 0, the training loss (the mean over those steps), the probe's loss (the repeated half, or the
// text), its loss over the whole sequence, and every head's previous-token, induction and
// duplicate-token scores, so the plateau and the cliff of the run are drawn as they happened.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createAttention } from '../../web/lib/attention.js';
import { encodeSafetensors } from '../../web/lib/safetensors.js';
import { TrainingSession } from '../../web/lib/trainer-session.js';
import { DEFAULTS, THRESHOLDS, trainerConfig } from '../../web/ui/training/config.js';

const OUT = fileURLToPath(new URL('../../web/trained/', import.meta.url));
const MAX_BYTES = 100 * 1024;
export const HISTORY_EVERY = 10;
const SCORES = ['previousToken', 'induction', 'duplicateToken'];

export const EXAMPLES = [
  { id: 'induction', settings: { ...DEFAULTS }, steps: 800 },
  { id: 'text', settings: { ...DEFAULTS, task: 'text', heads: 2 }, steps: 1500 },
];

// Rounded for the file: losses to 4 decimals, scores to 3 (the charts draw far coarser).
const r4 = (x) => (Number.isFinite(x) ? Math.round(x * 1e4) / 1e4 : null);
const r3 = (x) => Math.round(x * 1e3) / 1e3;

// The run's record: one entry per HISTORY_EVERY steps (see the top of this file).
function createHistory(layers, heads) {
  const scores = Object.fromEntries(
    SCORES.map((k) => [k, Array.from({ length: layers }, () => Array.from({ length: heads }, () => []))]),
  );
  const history = { every: HISTORY_EVERY, step: [], train: [], repeated: [], all: [], scores };
  return {
    history,
    add(step, losses, probe) {
      history.step.push(step);
      history.train.push(r4(losses.length ? losses.reduce((a, b) => a + b, 0) / losses.length : NaN));
      history.repeated.push(r4(probe.loss));
      history.all.push(r4(probe.allTokensLoss));
      probe.headScores.forEach((layer, l) => {
        for (const k of SCORES) layer[k].forEach((v, h) => scores[k][l][h].push(r3(v)));
      });
    },
  };
}

function train(attn, { id, settings, steps }) {
  const messages = [];
  const session = new TrainingSession(attn, trainerConfig(settings), (m) => messages.push(m));
  const ask = (m) => {
    session.handle(m);
    const reply = messages.at(-1);
    if (reply.type === 'error') throw new Error(`${id}: ${reply.message}`);
    return reply;
  };
  const record = createHistory(settings.layers, settings.heads);
  record.add(0, [], ask({ type: 'probe' }).probe);
  let formedAt = null;
  const t0 = Date.now();
  for (let done = 0; done < steps; done += HISTORY_EVERY) {
    const { step, loss, losses, probe } = ask({ type: 'step', count: HISTORY_EVERY });
    record.add(step, losses, probe);
    const best = Math.max(...probe.headScores.flatMap((s) => s.induction));
    if (formedAt === null && best >= THRESHOLDS.induction && settings.task === 'repeated') formedAt = step;
    if (step % 100 === 0)
      console.log(
        `${id}: step ${step}, loss ${loss.toFixed(3)}, best induction ${best.toFixed(2)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
      );
  }
  const { probe } = ask({ type: 'probe' });
  const { state } = ask({ type: 'getState' });
  session.dispose();
  return { state, probe, formedAt, history: record.history };
}

const round = (xs) => xs.map((x) => Math.round(x * 1000) / 1000);

async function main() {
  const only = process.argv[2];
  const attn = await createAttention();
  mkdirSync(OUT, { recursive: true });
  for (const example of EXAMPLES.filter((e) => !only || e.id === only)) {
    const { state, probe, formedAt, history } = train(attn, example);
    // The page opens an example from this file alone (a bundler may inline the small .json as a
    // data: URL that a strict connect-src refuses), so everything it shows is in the metadata too.
    const bytes = encodeSafetensors(state, {
      settings: JSON.stringify(example.settings),
      step: String(example.steps),
      ...(formedAt === null ? {} : { formedAt: String(formedAt) }),
      history: JSON.stringify(history),
    });
    if (bytes.length > MAX_BYTES) throw new Error(`${example.id}: ${bytes.length} bytes, more than ${MAX_BYTES}`);
    writeFileSync(`${OUT}${example.id}.safetensors`, bytes);
    const meta = {
      id: example.id,
      settings: example.settings,
      steps: example.steps,
      formedAt,
      probeLoss: Math.round(probe.loss * 1e4) / 1e4,
      headScores: probe.headScores.map((s) => ({
        previousToken: round(s.previousToken),
        induction: round(s.induction),
        duplicateToken: round(s.duplicateToken),
      })),
      generatedBy: 'npm run train-examples (scripts/examples/train-examples.mjs)',
      history,
    };
    // One line per series: the history is long and read by programs.
    const text = JSON.stringify({ ...meta, history: '@history@' }, null, 2).replace(
      '"@history@"',
      JSON.stringify(history),
    );
    writeFileSync(`${OUT}${example.id}.json`, `${text}\n`);
    console.log(`${example.id}: ${bytes.length} bytes, probe loss ${meta.probeLoss}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
