// A checkpoint of GPT-2 small's real size (124 M parameters; 548 105 232 bytes in F32 with the
// twelve h.N.attn.bias buffers, exactly the published gpt2 model.safetensors; 274 MB in F16),
// written at test time by tests/js/support/gpt2-checkpoint.mjs and deleted afterwards: opened
// from bytes, from a file Blob and from a URL, every parameter compared with the written bits;
// a forward runs; training it beyond the 1.5 GiB training may take gives a clear Error and leaves
// the model usable. Takes about a minute: it runs with `npm run test:long` (ATTN_LONG=1), and is skipped
// otherwise (checkpoint.test.mjs covers the same paths at a small size).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { GPT2_SMALL, expectedValue, firstMismatch, writeGpt2Checkpoint } from './support/gpt2-checkpoint.mjs';

const { createAttention } = await import('../../web/lib/attention.js');

const skip = process.env.ATTN_LONG ? false : 'GPT-2-small-size checkpoints run with npm run test:long (ATTN_LONG=1)';
const dir = skip ? null : mkdtempSync(join(tmpdir(), 'attn-gpt2-'));
after(() => dir && rmSync(dir, { recursive: true, force: true }));
const HF_CONFIG = {
  model_type: 'gpt2',
  vocab_size: 50257,
  n_positions: 1024,
  n_ctx: 1024,
  n_embd: 768,
  n_layer: 12,
  n_head: 12,
  activation_function: 'gelu_new',
  layer_norm_epsilon: 1e-5,
};

test(
  'an F32 GPT-2-small checkpoint with its mask buffers (548 105 232 bytes) opens with every parameter exact, and runs',
  { skip },
  async () => {
    const path = join(dir, 'f32.safetensors');
    const { size } = writeGpt2Checkpoint(path, GPT2_SMALL, { dtype: 'F32' });
    assert.equal(size, 548105232, 'the size of the published gpt2 model.safetensors');
    assert.equal(statSync(path).size, size);
    const attn = await createAttention();
    const model = attn.transformerFromSafetensors(readFileSync(path), HF_CONFIG);
    try {
      assert.equal(model.parameterCount(), 124439808);
      assert.equal(firstMismatch(model.getState(), GPT2_SMALL, 'F32'), null);
      const { logits } = model.forward([464, 3290, 318, 257], { needWeights: false });
      assert.deepEqual(logits.shape, [4, 50257]);
      assert.ok(logits.data.every(Number.isFinite));
      // Gradients (one more parameter-sized block) fit; Adam's two moments on top pass the 1.5 GiB
      // training may take (the module's 4 GiB would hold them, a tab's memory not comfortably).
      assert.equal(typeof model.gradients([1, 2, 3], [2, 3, 4]).loss, 'number');
      assert.throws(
        () => model.trainStep([1, 2, 3], [2, 3, 4]),
        /training needs 1899 MiB for the parameters \(475 MiB\) and their gradients and Adam's two moments, more than the 1536 MiB WebAssembly memory allows for them/,
      );
      assert.deepEqual(
        model.forward([464, 3290, 318, 257], { needWeights: false }).logits.data,
        logits.data,
        'the model still works',
      );
    } finally {
      model.dispose();
      rmSync(path);
    }
  },
);

test(
  'an F16 GPT-2-small checkpoint with the "transformer." prefix opens from a file Blob, every parameter exact',
  { skip },
  async () => {
    const path = join(dir, 'f16.safetensors');
    writeGpt2Checkpoint(path, GPT2_SMALL, { dtype: 'F16', prefix: 'transformer.' });
    const attn = await createAttention();
    let calls = 0;
    const model = await attn.loadTransformer(await openAsBlob(path), HF_CONFIG, { onProgress: () => calls++ });
    try {
      assert.ok(calls > 10, 'progress in many slices');
      assert.equal(firstMismatch(model.getState(), GPT2_SMALL, 'F16'), null);
    } finally {
      model.dispose();
      rmSync(path);
    }
  },
);

test('a BF16 GPT-2-small checkpoint streams from a URL with its config.json beside it', { skip }, async () => {
  const path = join(dir, 'bf16.safetensors');
  const { size } = writeGpt2Checkpoint(path, GPT2_SMALL, { dtype: 'BF16' });
  const server = createServer((req, res) => {
    if (req.url === '/gpt2/config.json') return res.end(JSON.stringify(HF_CONFIG));
    if (req.url !== '/gpt2/model.safetensors') return res.writeHead(404).end();
    res.writeHead(200, { 'content-length': size });
    return createReadStream(path).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const attn = await createAttention();
    const model = await attn.loadTransformer(`http://127.0.0.1:${server.address().port}/gpt2/model.safetensors`);
    try {
      assert.equal(firstMismatch(model.getState(), GPT2_SMALL, 'BF16', { sample: true }), null);
    } finally {
      model.dispose();
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    rmSync(path);
  }
});

// GPT-2 medium (355 M parameters: 1.42 GB of float32) no longer fits WebAssembly's 2 GiB with its
// activations; the build's 4 GiB holds it. The file is written in F16 (0.76 GB with the masks), read
// from a file Blob in slices, and its parameters land in float32 past the 2 GiB mark.
const GPT2_MEDIUM = { vocabSize: 50257, contextLength: 1024, dModel: 1024, numLayers: 24, numHeads: 16 };
const HF_MEDIUM = { model_type: 'gpt2', vocab_size: 50257, n_positions: 1024, n_embd: 1024, n_layer: 24, n_head: 16 };

test(
  'a GPT-2-medium-shaped checkpoint (355 M parameters) opens within the 4 GiB, every parameter exact, and runs',
  { skip },
  async () => {
    const path = join(dir, 'medium-f16.safetensors');
    writeGpt2Checkpoint(path, GPT2_MEDIUM, { dtype: 'F16' });
    const attn = await createAttention();
    // A model ahead of it, so that medium's parameters sit past 2 GiB (addresses read as unsigned).
    const small = attn.transformer({
      vocabSize: 50257,
      contextLength: 1024,
      dModel: 768,
      numLayers: 24,
      numHeads: 12,
      init: 'gpt2',
      seed: 1,
    });
    const model = await attn.loadTransformer(await openAsBlob(path), HF_MEDIUM);
    try {
      assert.equal(model.parameterCount(), 354823168);
      for (let l = 0; l < 24; l += 23) {
        const names = [`h.${l}.attn.c_attn.weight`, `h.${l}.mlp.c_proj.weight`, `h.${l}.ln_2.bias`];
        const state = model.getState(names);
        for (const name of names) {
          const t = state[name];
          const indices = [0, 1, t.data.length >> 1, t.data.length - 1];
          for (const i of indices) assert.ok(Object.is(t.data[i], expectedValue('F16', name, i)), `${name}[${i}]`);
        }
      }
      const tokens = [464, 3290, 318, 257, 3290];
      const { logits } = model.forward(tokens, { logits: 'last', needWeights: false });
      assert.ok(logits.data.every(Number.isFinite));
      const dec = model.decoder({ maxLength: 16 });
      const step = dec.sample(tokens, { temperature: 0 });
      // F16 weights drawn from random bits reach ±65504: the logits are huge, so the check is relative.
      let diff = 0;
      let top = 0;
      for (let i = 0; i < 50257; i++) {
        diff = Math.max(diff, Math.abs(step.logits.data[4 * 50257 + i] - logits.data[i]));
        top = Math.max(top, Math.abs(logits.data[i]));
      }
      assert.ok(diff <= 1e-4 * top, `cached logits against the full pass: ${diff} of ${top}`);
      assert.equal(dec.cacheBytes, 2 * 24 * 16 * 64 * 5 * 4);
      assert.deepEqual(model.layerInput(tokens, 23).shape, [5, 1024]);
      dec.dispose();
      assert.deepEqual(small.forward([1, 2]).logits.shape, [2, 50257], 'the model ahead of it still works');
    } finally {
      model.dispose();
      small.dispose();
      rmSync(path);
    }
  },
);
