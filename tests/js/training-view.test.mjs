// The training view's logic without a browser: the trainer's evaluate (ablation, other repeat
// lengths) and load messages with the real model, the probe's filler-free scores and losses
// against hand computations, the view's settings and address round trip, the attention JSON
// parser's messages, and the float64 recomputation behind "open in the explorer".
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/lib/attention.js';
import { TrainingSession } from '../../web/lib/trainer-session.js';
import {
  normalizeSettings,
  settingsFromParams,
  settingsToParams,
  trainerConfig,
  DEFAULTS,
  LIMITS,
} from '../../web/ui/training/config.js';
import { parseAttentionJson, tokenIds } from '../../web/ui/training/attention-json.js';
import { describeAblation } from '../../web/ui/training/ablation.js';
import { residualBefore } from '../../web/ui/model/open-head.js';
import { loadEnglishParts } from '../../web/ui/model/i18n.js';

// The training view's English text loads with the view (web/ui/i18n/index.js); its modules are used alone here.
await loadEnglishParts('training');

let attn;
before(async () => {
  attn = await createAttention();
});

const CONFIG = {
  model: { vocabSize: 12, contextLength: 12, dModel: 16, numLayers: 2, numHeads: 2, mlp: false, seed: 3 },
  data: { kind: 'repeated', repeatLengths: [3, 4, 5] },
  batchSize: 8,
  reportEvery: 5,
  seed: 1,
  optimizer: { learningRate: 3e-3 },
  probe: { batchSize: 4, seed: 7, excludeFiller: true },
};

function session(config = CONFIG) {
  const messages = [];
  const s = new TrainingSession(attn, config, (m) => messages.push(m));
  const ask = (message) => {
    s.handle(message);
    const reply = messages.at(-1);
    if (reply.type === 'error') throw new Error(reply.message);
    return reply;
  };
  return { s, ask, messages };
}

test('probe: the repeated-half loss is the training targets’ loss; filler-free previous-token score by hand', () => {
  const { ask } = session();
  ask({ type: 'step', count: 20 });
  const { probe } = ask({ type: 'probe' });
  // The default targets are exactly the second copy, so the two losses are one computation apart.
  assert.ok(Math.abs(probe.repeatedLoss - probe.loss) < 1e-12, `${probe.repeatedLoss} vs ${probe.loss}`);
  assert.ok(probe.allTokensLoss > 0 && Number.isFinite(probe.allTokensLoss));
  // One sequence, by hand: the mean of A[i, i−1] over the queries 1 … 2r of BOS and the two copies.
  const one = session({ ...CONFIG, probe: { ...CONFIG.probe, batchSize: 1 } });
  one.ask({ type: 'step', count: 20 });
  const p = one.ask({ type: 'probe' }).probe;
  const T = p.tokens.length;
  const n = p.tokens.indexOf(1) > 0 ? p.tokens.indexOf(1) : T;
  for (let h = 0; h < 2; h++) {
    let sum = 0;
    for (let i = 1; i < n; i++) sum += p.attentions[1].data[(h * T + i) * T + i - 1];
    assert.ok(Math.abs(p.headScores[1].previousToken[h] - sum / (n - 1)) < 1e-6, `head ${h}`);
  }
});

test('evaluate: ablating a last-layer head keeps every pattern and changes the loss; a first-layer head changes the next layer', () => {
  const { ask } = session();
  ask({ type: 'step', count: 30 });
  const base = ask({ type: 'probe' }).probe;
  const last = ask({ type: 'evaluate', ablate: [{ layer: 1, head: 0 }] }).probe;
  for (let l = 0; l < 2; l++)
    assert.deepEqual(Array.from(last.attentions[l].data), Array.from(base.attentions[l].data), `layer ${l}`);
  assert.notEqual(last.loss, base.loss);
  const first = ask({ type: 'evaluate', ablate: [{ layer: 0, head: 1 }] }).probe;
  assert.deepEqual(Array.from(first.attentions[0].data), Array.from(base.attentions[0].data));
  assert.notDeepEqual(Array.from(first.attentions[1].data), Array.from(base.attentions[1].data));
  // The trained model is untouched, and training continues from it.
  assert.deepEqual(ask({ type: 'probe' }).probe, base);
  assert.throws(
    () => ask({ type: 'evaluate', ablate: [{ layer: 2, head: 0 }] }),
    /layer must be an integer from 0 to 1/,
  );
  assert.throws(
    () => ask({ type: 'evaluate', ablate: [{ layer: 0, head: -1 }] }),
    /head must be an integer from 0 to 1/,
  );
  assert.equal(ask({ type: 'step', count: 1 }).step, 31);
});

test('evaluate on other repeat lengths, and load: parameters in, Adam restarted, the step set', () => {
  const a = session();
  a.ask({ type: 'step', count: 10 });
  const other = a.ask({ type: 'evaluate', repeatLengths: [2] }).probe;
  assert.equal(
    other.tokens.slice(0, 6).join(' '),
    [0, other.tokens[1], other.tokens[2], other.tokens[1], other.tokens[2], 1].join(' '),
  );
  const { state } = a.ask({ type: 'getState' });
  const b = session();
  assert.deepEqual(b.ask({ type: 'load', state, step: 10 }), { type: 'state-loaded', id: undefined, step: 10 });
  assert.deepEqual(b.ask({ type: 'probe' }).probe.loss, a.ask({ type: 'probe' }).probe.loss);
  assert.throws(() => b.ask({ type: 'load', state: { 'wte.weight': state['wte.weight'] } }), /missing|wpe|h\.0/);
  assert.throws(() => b.ask({ type: 'load', state, step: -1 }), /step must be a whole number/);
});

test('settings: clamped, heads divide d_model, and they survive the address', () => {
  assert.deepEqual(normalizeSettings({}), DEFAULTS);
  const s = normalizeSettings({ layers: 9, heads: 3, dModel: 20, lr: 5, task: 'nope', mlp: 'true', seed: -4 });
  assert.deepEqual([s.layers, s.heads, s.dModel, s.lr, s.task, s.mlp, s.seed], [4, 3, 21, 0.03, 'repeated', true, 0]);
  const back = settingsFromParams(`#${settingsToParams(s)}`);
  assert.deepEqual(back, s);
  assert.equal(settingsToParams(DEFAULTS).toString(), 'view=train');
  const c = trainerConfig({ ...DEFAULTS, task: 'text' });
  assert.equal(c.data.kind, 'text');
  assert.equal(c.model.vocabSize, undefined, 'the text decides its vocabulary');
});

test('a learning rate of 0 or below, typed or in the address, is clamped to the smallest, as the other settings are', () => {
  const [smallest] = LIMITS.lr;
  for (const lr of [0, '0', -1, '-0.5', 1e-9]) assert.equal(normalizeSettings({ lr }).lr, smallest, `lr ${lr}`);
  assert.equal(settingsFromParams('#view=train&lr=0').lr, smallest);
  assert.equal(settingsFromParams('#view=train&lr=-3&layers=-3').layers, LIMITS.layers[0], 'as layers');
  // Nothing readable: the default, as for the other settings.
  for (const lr of ['', 'abc', undefined]) assert.equal(normalizeSettings({ lr }).lr, DEFAULTS.lr, `lr ${lr}`);
  assert.equal(normalizeSettings({ layers: '' }).layers, DEFAULTS.layers, 'as layers');
});

test('attention JSON: a good file parses; bad files name the problem', () => {
  const good = parseAttentionJson(
    JSON.stringify({
      tokens: ['a', 'b'],
      attentions: [
        [
          [
            [1, 0],
            [0.5, 0.5],
          ],
        ],
      ],
    }),
  );
  assert.deepEqual(good.tokens, ['a', 'b']);
  assert.deepEqual(good.layers[0].shape, [1, 2, 2]);
  assert.deepEqual(tokenIds(['x', 'y', 'x']), [0, 1, 0]);
  const bad = (value) => () => parseAttentionJson(typeof value === 'string' ? value : JSON.stringify(value));
  assert.throws(bad('{'), /not JSON/);
  assert.throws(bad([1]), /must hold an object/);
  assert.throws(bad({ tokens: [], attentions: [] }), /"tokens" must be a non-empty array/);
  assert.throws(bad({ tokens: ['a'], attentions: 3 }), /"attentions" must be a non-empty array/);
  assert.throws(bad({ tokens: ['a', 'b'], attentions: [[[[1, 0]]]] }), /attentions\[0\]\[0\] must have 2 rows/);
  assert.throws(
    bad({ tokens: ['a', 'b'], attentions: [[[[1, 0], [0.5]]]] }),
    /attentions\[0\]\[0\]\[1\] must have 2 numbers/,
  );
  assert.throws(
    bad({
      tokens: ['a', 'b'],
      attentions: [
        [
          [
            [1, 0],
            [0.5, 'x'],
          ],
        ],
      ],
    }),
    /attentions\[0\]\[0\]\[1\]\[1\] must be a number/,
  );
  assert.throws(
    bad({
      tokens: ['a', 'b'],
      attentions: [
        [
          [
            [1, 0],
            [0.5, 0.2],
          ],
        ],
      ],
    }),
    /sums to 0\.7/,
  );
});

test('open in the explorer: the float64 recomputation of the residual stream gives the model’s attention', () => {
  const { ask } = session({ ...CONFIG, model: { ...CONFIG.model, mlp: true } });
  ask({ type: 'step', count: 10 });
  const { state } = ask({ type: 'getState' });
  const { probe } = ask({ type: 'probe' });
  const config = { ...CONFIG.model, mlp: true };
  const tokens = probe.tokens;
  const T = tokens.length;
  const E = config.dModel;
  const d = E / config.numHeads;
  // Layer 1's input, ln_1, then head 1's scores and softmax, all in float64.
  const x = residualBefore(state, config, tokens, 1);
  const w = state['h.1.ln_1.weight'].data;
  const b = state['h.1.ln_1.bias'].data;
  const a = [];
  for (let t = 0; t < T; t++) {
    const row = Array.from(x.subarray(t * E, (t + 1) * E));
    const mean = row.reduce((p, q) => p + q, 0) / E;
    const v = row.reduce((p, q) => p + (q - mean) ** 2, 0) / E;
    a.push(row.map((q, e) => ((q - mean) / Math.sqrt(v + 1e-5)) * w[e] + b[e]));
  }
  const W = state['h.1.attn.c_attn.weight'].data;
  const B = state['h.1.attn.c_attn.bias'].data;
  const proj = (t, col) =>
    Array.from({ length: d }, (_, c) => a[t].reduce((s, v, e) => s + v * W[e * 3 * E + col + c], B[col + c]));
  const h = 1;
  for (let i = 0; i < T; i++) {
    const q = proj(i, h * d);
    const s = [];
    for (let j = 0; j <= i; j++) s.push(proj(j, E + h * d).reduce((acc, k, c) => acc + k * q[c], 0) / Math.sqrt(d));
    const m = Math.max(...s);
    const z = s.reduce((acc, v) => acc + Math.exp(v - m), 0);
    for (let j = 0; j <= i; j++) {
      const got = probe.attentions[1].data[(h * T + i) * T + j];
      assert.ok(
        Math.abs(got - Math.exp(s[j] - m) / z) < 2e-4,
        `A[${i}, ${j}]: model ${got}, float64 ${Math.exp(s[j] - m) / z}`,
      );
    }
  }
});

test('trained examples: ≤ 100 KB, their metadata says what their .json says, and loaded into the trainer they give the head scores their .json records', async () => {
  const { readFileSync } = await import('node:fs');
  const { decodeSafetensors, decodeSafetensorsMetadata } = await import('../../web/lib/safetensors.js');
  for (const id of ['induction', 'text']) {
    const bytes = readFileSync(new URL(`../../web/trained/${id}.safetensors`, import.meta.url));
    const meta = JSON.parse(readFileSync(new URL(`../../web/trained/${id}.json`, import.meta.url), 'utf8'));
    assert.ok(bytes.length <= 100 * 1024, `${id}: ${bytes.length} bytes`);
    // The page opens an example from the .safetensors alone: its metadata must say what the .json says.
    const metadata = decodeSafetensorsMetadata(bytes);
    assert.deepEqual(JSON.parse(metadata.settings), meta.settings);
    assert.equal(Number(metadata.step), meta.steps);
    assert.equal(metadata.formedAt === undefined ? null : Number(metadata.formedAt), meta.formedAt);
    const { ask } = session(trainerConfig(meta.settings));
    ask({ type: 'load', state: decodeSafetensors(bytes), step: meta.steps });
    const { probe } = ask({ type: 'probe' });
    assert.ok(Math.abs(probe.loss - meta.probeLoss) < 1e-3, `${id}: probe loss ${probe.loss} vs ${meta.probeLoss}`);
    probe.headScores.forEach((layer, l) => {
      for (const key of ['previousToken', 'induction', 'duplicateToken']) {
        layer[key].forEach((v, h) =>
          assert.ok(
            Math.abs(v - meta.headScores[l][key][h]) < 2e-3,
            `${id} L${l}H${h} ${key}: ${v} vs ${meta.headScores[l][key][h]}`,
          ),
        );
      }
    });
  }
});

test('trained examples carry their real histories: every 10 steps from 0, the same numbers a fresh run gives, ending at the trained model’s', async () => {
  const { readFileSync } = await import('node:fs');
  const { decodeSafetensorsMetadata } = await import('../../web/lib/safetensors.js');
  for (const id of ['induction', 'text']) {
    const bytes = readFileSync(new URL(`../../web/trained/${id}.safetensors`, import.meta.url));
    const meta = JSON.parse(readFileSync(new URL(`../../web/trained/${id}.json`, import.meta.url), 'utf8'));
    const history = JSON.parse(decodeSafetensorsMetadata(bytes).history);
    assert.deepEqual(history, meta.history, `${id}: the .json says what the file says`);
    assert.deepEqual(
      history.step,
      Array.from({ length: meta.steps / 10 + 1 }, (_, k) => 10 * k),
    );
    const last = history.step.length - 1;
    assert.ok(
      Math.abs(history.repeated[last] - meta.probeLoss) < 1e-3,
      `${id}: the history ends at the model's probe loss`,
    );
    for (const key of ['previousToken', 'induction', 'duplicateToken']) {
      meta.headScores.forEach((layer, l) =>
        layer[key].forEach((v, h) =>
          assert.ok(Math.abs(history.scores[key][l][h][last] - v) < 2e-3, `${id} layer ${l} head ${h} ${key}`),
        ),
      );
    }
    // The first 50 steps again, from scratch with the same settings: the same record.
    const { ask } = session(trainerConfig(meta.settings));
    const first = ask({ type: 'probe' }).probe;
    assert.equal(history.train[0], null, 'no training loss before the first step');
    assert.ok(
      Math.abs(history.repeated[0] - first.loss) < 1e-4 && Math.abs(history.all[0] - first.allTokensLoss) < 1e-4,
    );
    for (let k = 1; k <= 5; k++) {
      const { losses, probe } = ask({ type: 'step', count: 10 });
      const train = losses.reduce((a, b) => a + b, 0) / losses.length;
      assert.ok(
        Math.abs(history.train[k] - train) < 1e-4,
        `${id} step ${10 * k}: training loss ${history.train[k]} vs ${train}`,
      );
      assert.ok(Math.abs(history.repeated[k] - probe.loss) < 1e-4, `${id} step ${10 * k}: probe loss`);
      assert.ok(Math.abs(history.all[k] - probe.allTokensLoss) < 1e-4, `${id} step ${10 * k}: whole-sequence loss`);
      probe.headScores.forEach((layer, l) =>
        layer.induction.forEach((v, h) =>
          assert.ok(
            Math.abs(history.scores.induction[l][h][k] - v) < 1e-3,
            `${id} step ${10 * k} layer ${l} head ${h}`,
          ),
        ),
      );
    }
  }
  // The induction run's repeated half: a slow slope, then a cliff (not a straight line): its
  // steepest 50 steps drop at least 3 times as much as the run's average 50 steps.
  const h = JSON.parse(readFileSync(new URL('../../web/trained/induction.json', import.meta.url), 'utf8')).history;
  const drops = h.repeated.slice(5).map((v, k) => h.repeated[k] - v);
  const average = ((h.repeated[0] - h.repeated.at(-1)) * 50) / 800;
  assert.ok(
    Math.max(...drops) >= 3 * average,
    `steepest 50 steps: ${Math.max(...drops).toFixed(2)}, average ${average.toFixed(2)}`,
  );
  const best = (k) => Math.max(...h.scores.induction[1].map((s) => s[k]));
  assert.ok(
    best(h.step.indexOf(200)) < 0.3 && best(h.step.indexOf(500)) > 0.6,
    'the induction score rises with the cliff',
  );
});

test('heads are named from 1 in what the learner reads (ablation text), as the explorer names them', () => {
  const scores = (prev) => [
    { previousToken: [prev, 0.1], induction: [0.1, 0.1], duplicateToken: [0.1, 0.1] },
    { previousToken: [0.1, 0.1], induction: [0.1, 0.9], duplicateToken: [0.1, 0.1] },
  ];
  const base = { loss: 0.5, headScores: scores(0.8) };
  const without = { loss: 2.5, headScores: [scores(0.8)[0], { ...scores(0.8)[1], induction: [0.1, 0.2] }] };
  assert.equal(
    describeAblation(base, without, [{ layer: 0, head: 0 }]),
    'Without L1H1: probe loss 0.50 → 2.50. Scores lost: L2H2 induction 0.90 → 0.20.',
  );
});

test('the whole-sequence probe loss rises above ln V, as the view explains: on the random first copy the trained model guesses with confidence, and wrongly', async () => {
  const { readFileSync } = await import('node:fs');
  const { decodeSafetensors } = await import('../../web/lib/safetensors.js');
  const meta = JSON.parse(readFileSync(new URL('../../web/trained/induction.json', import.meta.url), 'utf8'));
  const state = decodeSafetensors(readFileSync(new URL('../../web/trained/induction.safetensors', import.meta.url)));
  const config = trainerConfig(meta.settings);
  const V = config.model.vocabSize;
  assert.ok(meta.history.all.at(-1) > Math.log(V), `whole-sequence loss ${meta.history.all.at(-1)} > ln ${V}`);
  const { ask } = session(config);
  const tokens = Array.from(ask({ type: 'probe' }).probe.tokens);
  const model = attn.transformer(config.model);
  model.loadState(state);
  const { logits } = model.forward(tokens);
  // Cross-entropy of position t's prediction of token t + 1, in float64 from the logits.
  const loss = (t) => {
    const row = Array.from(logits.data.subarray(t * V, (t + 1) * V));
    const max = Math.max(...row);
    return Math.log(row.reduce((s, x) => s + Math.exp(x - max), 0)) + max - row[tokens[t + 1]];
  };
  let r = 1;
  while (tokens.slice(1, r + 1).join() !== tokens.slice(r + 1, 2 * r + 1).join()) r++;
  const mean = (ts) => ts.reduce((s, t) => s + loss(t), 0) / ts.length;
  const firstCopy = mean(Array.from({ length: r }, (_, t) => t)); // BOS … predicting the first copy
  const secondCopy = mean(Array.from({ length: r - 1 }, (_, k) => r + 1 + k));
  assert.ok(
    firstCopy > Math.log(V),
    `first copy: ${firstCopy.toFixed(2)} nats per token, above an even guess's ln ${V} = ${Math.log(V).toFixed(2)}`,
  );
  assert.ok(secondCopy < 0.5, `second copy: ${secondCopy.toFixed(3)}, learned`);
  model.dispose?.();
});
