// Trains the training view's examples with the project's own trainer (the Worker's session, in
// this thread) and writes them to web/trained/: <id>.safetensors (float32, the model's getState
// names; settings and step in the metadata) and <id>.json (settings, steps, when the heads
// formed, the final head scores). Deterministic: the settings fix every seed. `npm run train-examples`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createAttention } from '../../web/lib/attention.js';
import { encodeSafetensors } from '../../web/lib/safetensors.js';
import { TrainingSession } from '../../web/lib/trainer-session.js';
import { DEFAULTS, THRESHOLDS, trainerConfig } from '../../web/ui/training/config.js';

const OUT = fileURLToPath(new URL('../../web/trained/', import.meta.url));
const MAX_BYTES = 100 * 1024;

export const EXAMPLES = [
  { id: 'induction', settings: { ...DEFAULTS }, steps: 800 },
  { id: 'text', settings: { ...DEFAULTS, task: 'text', heads: 2 }, steps: 1500 },
];

function train(attn, { id, settings, steps }) {
  const messages = [];
  const session = new TrainingSession(attn, trainerConfig(settings), (m) => messages.push(m));
  const ask = (m) => {
    session.handle(m);
    const reply = messages.at(-1);
    if (reply.type === 'error') throw new Error(`${id}: ${reply.message}`);
    return reply;
  };
  let formedAt = null;
  const t0 = Date.now();
  for (let done = 0; done < steps; done += 20) {
    const { step, loss, probe } = ask({ type: 'step', count: 20 });
    const best = Math.max(...probe.headScores.flatMap((s) => s.induction));
    if (formedAt === null && best >= THRESHOLDS.induction && settings.task === 'repeated') formedAt = step;
    if (step % 100 === 0) console.log(`${id}: step ${step}, loss ${loss.toFixed(3)}, best induction ${best.toFixed(2)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  const { probe } = ask({ type: 'probe' });
  const { state } = ask({ type: 'getState' });
  session.dispose();
  return { state, probe, formedAt };
}

const round = (xs) => xs.map((x) => Math.round(x * 1000) / 1000);

async function main() {
  const only = process.argv[2];
  const attn = await createAttention();
  mkdirSync(OUT, { recursive: true });
  for (const example of EXAMPLES.filter((e) => !only || e.id === only)) {
    const { state, probe, formedAt } = train(attn, example);
    // The page opens an example from this file alone (a bundler may inline the small .json as a
    // data: URL that a strict connect-src refuses), so everything it shows is in the metadata too.
    const bytes = encodeSafetensors(state, {
      settings: JSON.stringify(example.settings), step: String(example.steps),
      ...(formedAt === null ? {} : { formedAt: String(formedAt) }),
    });
    if (bytes.length > MAX_BYTES) throw new Error(`${example.id}: ${bytes.length} bytes, more than ${MAX_BYTES}`);
    writeFileSync(`${OUT}${example.id}.safetensors`, bytes);
    const meta = {
      id: example.id, settings: example.settings, steps: example.steps, formedAt,
      probeLoss: Math.round(probe.loss * 1e4) / 1e4,
      headScores: probe.headScores.map((s) => ({ previousToken: round(s.previousToken), induction: round(s.induction), duplicateToken: round(s.duplicateToken) })),
      generatedBy: 'npm run train-examples (scripts/examples/train-examples.mjs)',
    };
    writeFileSync(`${OUT}${example.id}.json`, `${JSON.stringify(meta, null, 2)}\n`);
    console.log(`${example.id}: ${bytes.length} bytes, probe loss ${meta.probeLoss}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
