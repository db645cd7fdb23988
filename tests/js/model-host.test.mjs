// The checkpoint host (web/lib/model-host*.js) and the two calls it adds to the model: a layer's
// input (model.layerInput, against a float64 forward written independently in open-head.js) and
// getState(names). The host opens a small GPT-2-shaped checkpoint written at test time (the same
// writer as the 548 MB one of the long tests), reports progress, is cancelled, refuses files that
// are not GPT-2 or too large with their reason, and its answers (attention, a head's inputs, the
// sweep's scores, generation) equal the model's own calls.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAttention } from '../../web/lib/attention.js';
import { ModelHostSession, sweepTokens } from '../../web/lib/model-host-session.js';
import { createModelHost } from '../../web/lib/model-host.js';
import { residualBefore } from '../../web/ui/model/open-head.js';
import { writeGpt2Checkpoint } from './support/gpt2-checkpoint.mjs';

let attn;
let dir;
let bytes;
const SMALL = { vocabSize: 50257, contextLength: 64, dModel: 32, numLayers: 3, numHeads: 4 };
const HF = { model_type: 'gpt2', vocab_size: 50257, n_positions: 64, n_embd: 32, n_layer: 3, n_head: 4 };

before(async () => {
  attn = await createAttention();
  dir = mkdtempSync(path.join(tmpdir(), 'model-host-'));
  writeGpt2Checkpoint(path.join(dir, 'model.safetensors'), SMALL);
  bytes = new Uint8Array(readFileSync(path.join(dir, 'model.safetensors')));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const maxDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

function layerNorm64(x, T, E, w, b) {
  const out = new Float64Array(T * E);
  for (let t = 0; t < T; t++) {
    let mean = 0;
    let variance = 0;
    for (let e = 0; e < E; e++) mean += x[t * E + e] / E;
    for (let e = 0; e < E; e++) variance += (x[t * E + e] - mean) ** 2 / E;
    for (let e = 0; e < E; e++)
      out[t * E + e] = ((x[t * E + e] - mean) / Math.sqrt(variance + 1e-5)) * w.data[e] + b.data[e];
  }
  return out;
}

describe('model.layerInput and getState(names)', () => {
  test('every layer’s input is LN₁ of the residual stream that a float64 forward computes', () => {
    for (const parts of [
      { mlp: true },
      { mlp: false },
      { mlp: true, layerNorm: false },
      { mlp: false, positions: 'none' },
    ]) {
      const config = {
        vocabSize: 11,
        contextLength: 9,
        dModel: 12,
        numLayers: 3,
        numHeads: 3,
        seed: 2,
        init: 'gpt2',
        ...parts,
      };
      const model = attn.transformer(config);
      const state = model.getState();
      const tokens = [3, 1, 4, 1, 5, 9, 2];
      for (let layer = 0; layer < 3; layer++) {
        const x = residualBefore(state, model.config, tokens, layer);
        const want =
          config.layerNorm === false
            ? x
            : layerNorm64(x, 7, 12, state[`h.${layer}.ln_1.weight`], state[`h.${layer}.ln_1.bias`]);
        const got = model.layerInput(tokens, layer);
        assert.deepEqual(got.shape, [7, 12]);
        assert.ok(
          maxDiff(got.data, want) < 2e-5,
          `${JSON.stringify(parts)} layer ${layer}: ${maxDiff(got.data, want)}`,
        );
      }
      assert.throws(() => model.layerInput(tokens, 3), /layer must be an integer from 0 to 2, got 3/);
      assert.throws(() => model.layerInput([[1, 2]], 0), /one sequence/);
      assert.throws(() => model.layerInput([1, 11], 0), /outside \[0, vocabSize = 11\)/);
      model.dispose();
    }
  });

  test('GPT-2 large (774 M parameters) is refused before anything is allocated, with the limit; medium is counted within it', () => {
    const large = { vocabSize: 50257, contextLength: 1024, dModel: 1280, numLayers: 36, numHeads: 20 };
    assert.throws(
      () => attn.transformer(large),
      /774027520 parameters, more than the 400000000 that fit in WebAssembly memory \(4 bytes each: 1\.6 GB of its 4 GiB\)/,
    );
  });

  test('getState(names) copies those parameters only; an unknown name throws', () => {
    const model = attn.transformer({ vocabSize: 11, contextLength: 9, dModel: 12, numLayers: 2, numHeads: 3 });
    const all = model.getState();
    const some = model.getState(['h.1.attn.c_attn.bias', 'wte.weight']);
    assert.deepEqual(Object.keys(some), ['h.1.attn.c_attn.bias', 'wte.weight']);
    assert.deepEqual(some['wte.weight'], all['wte.weight']);
    assert.throws(() => model.getState(['h.2.attn.c_attn.bias']), /unknown parameter "h.2.attn.c_attn.bias"/);
    assert.throws(() => model.getState('wte.weight'), /names must be an array/);
    model.dispose();
  });
});

// A session in this thread, its messages collected; ask() waits for the reply to a request.
function session() {
  const messages = [];
  const s = new ModelHostSession(attn, (m) => messages.push(m));
  let next = 0;
  const ask = (message) => {
    const id = ++next;
    s.handle({ ...message, id });
    return new Promise((resolve) => {
      const poll = () => {
        const m = messages.find((x) => x.id === id && !/progress|^generation$/.test(x.type));
        if (m) resolve(m);
        else setTimeout(poll, 2);
      };
      poll();
    });
  };
  return { s, messages, ask, progress: (type) => messages.filter((m) => m.type === type) };
}

describe('the checkpoint host', () => {
  test('opens a GPT-2-shaped checkpoint with progress up to its size, and answers as the model does', async () => {
    const { ask, progress, s } = session();
    const opened = await ask({ type: 'open', source: new Blob([bytes]), config: HF });
    assert.equal(opened.type, 'opened');
    assert.equal(opened.parameterCount, 50257 * 32 + 64 * 32 + 3 * (12 * 32 * 32 + 13 * 32) + 2 * 32);
    const steps = progress('open-progress');
    assert.ok(steps.length >= 2);
    assert.equal(steps.at(-1).loaded, bytes.length);
    for (let i = 1; i < steps.length; i++) assert.ok(steps[i].loaded >= steps[i - 1].loaded);
    const model = attn.transformerFromSafetensors(bytes, HF);
    const tokens = [464, 3290, 318, 257, 3290];
    const a = await ask({ type: 'attend', tokens });
    const direct = model.forward(tokens);
    a.attentions.forEach((t, l) => assert.deepEqual(t.data, direct.attentions[l].data));
    // The head's inputs give that head's attention: softmax((X·Wq + bq)(X·Wk + bk)ᵀ/√d).
    const h = await ask({ type: 'head', tokens, layer: 2, head: 3 });
    assert.deepEqual(h.x.data, model.layerInput(tokens, 2).data);
    const project = (p) => attn.matmul(h.x, p.weight).data.map((v, i) => v + p.bias.data[i % 8]);
    const q = { data: Float32Array.from(project(h.q)), shape: [5, 8] };
    const k = { data: Float32Array.from(project(h.k)), shape: [5, 8] };
    const w = attn.scaledDotProductAttention(q, k, k, { causal: true }).weights.data;
    assert.ok(maxDiff(w, direct.attentions[2].data.subarray(3 * 25, 4 * 25)) < 1e-5);
    const g = await ask({ type: 'generate', prompt: [464, 3290], maxNewTokens: 4, temperature: 0.9, seed: 5 });
    assert.deepEqual(
      g.tokens,
      Array.from(model.generate([464, 3290], { maxNewTokens: 4, temperature: 0.9, seed: 5 }).tokens),
    );
    model.dispose();
    s.dispose();
  });

  test('the sweep pools each head’s scores over its sequences, with progress, and can be cancelled', async () => {
    const { ask, progress, s } = session();
    await ask({ type: 'open', source: bytes, config: HF });
    const swept = await ask({ type: 'sweep', repeat: 6, count: 3, seed: 4 });
    assert.deepEqual(
      progress('sweep-progress').map((m) => m.done),
      [1, 2, 3],
    );
    const model = attn.transformerFromSafetensors(bytes, HF);
    const sequences = sweepTokens(attn, 50257, { repeat: 6, count: 3, seed: 4 });
    assert.deepEqual(swept.example, sequences[0]);
    assert.equal(sequences[0][0], 50256);
    assert.deepEqual(sequences[0].slice(1, 7), sequences[0].slice(7));
    let sum = 0;
    let count = 0;
    for (const tokens of sequences) {
      const scores = attn.headScores(tokens, model.forward(tokens).attentions[1]);
      sum += scores.induction[2] * scores.queries.induction[2];
      count += scores.queries.induction[2];
    }
    assert.ok(Math.abs(swept.scores.induction[1][2] - sum / count) < 1e-12);
    assert.equal(swept.scores.previousToken.length, 3);
    assert.equal(swept.scores.previousToken[0].length, 4);
    const long = ask({ type: 'sweep', repeat: 20, count: 200 });
    await ask({ type: 'cancel-sweep' });
    const cancelled = await long;
    assert.equal(cancelled.type, 'error');
    assert.equal(cancelled.aborted, true);
    assert.ok(progress('sweep-progress').length < 3 + 200);
    model.dispose();
    s.dispose();
  });

  test('a cancelled open, a file that is not GPT-2 and one too large give their reasons, and the host keeps working', async () => {
    const { ask, s } = session();
    const slow = ask({ type: 'open', source: new Blob([bytes]), config: HF });
    await ask({ type: 'cancel-open' });
    const cancelled = await slow;
    assert.equal(cancelled.aborted, true);
    const notGpt2 = await ask({ type: 'open', source: bytes, config: { ...HF, model_type: 'llama' } });
    assert.match(notGpt2.message, /model_type must be 'gpt2'/);
    const wrongShape = await ask({ type: 'open', source: bytes, config: { ...HF, n_layer: 2 } });
    assert.match(wrongShape.message, /h\.2\./);
    const huge = await ask({ type: 'open', source: bytes, config: { ...HF, n_embd: 4096, n_layer: 48, n_head: 32 } });
    assert.match(huge.message, /parameters, more than the \d+ that fit in WebAssembly memory/);
    assert.match((await ask({ type: 'attend', tokens: [1] })).message, /no model is open/);
    assert.equal((await ask({ type: 'open', source: bytes, config: HF })).type, 'opened');
    s.dispose();
  });

  test('runs in a Worker: open, attend and generate through createModelHost', async () => {
    const host = await createModelHost();
    try {
      const seen = [];
      await host.open(bytes.slice(), HF, { onProgress: (p) => seen.push(p.loaded) });
      assert.equal(seen.at(-1), bytes.length);
      const { attentions } = await host.attend([464, 3290, 318]);
      assert.deepEqual(attentions[0].shape, [4, 3, 3]);
      const end = await host.generate({ prompt: [464], maxNewTokens: 3, temperature: 0 }, () => {});
      assert.equal(end.tokens.length, 4);
      assert.equal(end.reason, 'done');
    } finally {
      await host.terminate();
    }
  });
});
