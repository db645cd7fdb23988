// attn.transformer's contract beyond the numbers (transformer-torch.test.mjs checks those against
// PyTorch): config defaults and errors, input forms, bad tokens and targets, loadState/getState by
// name (a bad state leaves the model unchanged), the optimizer, disposal, and a WebAssembly heap
// that stays flat over many training steps. Both builds.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

// The heap size is read through support/module-spy.mjs (the API keeps the module private).
import { modules } from './support/module-spy.mjs';

const { createAttention } = await import('../../web/lib/attention.js');
const { encodeSafetensors } = await import('../../web/lib/safetensors.js');

const SMALL = { vocabSize: 7, contextLength: 6, dModel: 8, numLayers: 2, numHeads: 2 };
const TOKENS = [
  [0, 3, 1, 6, 2],
  [2, 6, 1, 0, 3],
];
const TARGETS = [
  [3, 1, -1, 2, 2],
  [6, 1, -1, 3, 0],
];

const snapshot = (state) => Object.fromEntries(Object.entries(state).map(([k, v]) => [k, Array.from(v.data)]));

// The Hugging Face config.json of SMALL with untied embeddings, with fields the model ignores.
const HF_CONFIG = {
  model_type: 'gpt2',
  vocab_size: 7,
  n_positions: 6,
  n_embd: 8,
  n_layer: 2,
  n_head: 2,
  n_inner: null,
  activation_function: 'gelu_new',
  layer_norm_epsilon: 1e-5,
  tie_word_embeddings: false,
  attn_pdrop: 0.1,
  architectures: ['GPT2LMHeadModel'],
};

// The untied `model` saved as `bytes` loads back with the same state and the same logits.
function checkRoundTrip(attn, model, bytes) {
  const copy = attn.transformerFromSafetensors(bytes, { ...SMALL, tieEmbeddings: false });
  assert.deepEqual(snapshot(copy.getState()), snapshot(model.getState()));
  assert.deepEqual(copy.forward(TOKENS).logits.data, model.forward(TOKENS).logits.data);
  copy.dispose();
}

// HF_CONFIG reads as SMALL, untied, with every other option at its default.
function checkHuggingFaceConfig(attn, bytes) {
  const fromHf = attn.transformerFromSafetensors(bytes, HF_CONFIG);
  assert.deepEqual(
    { ...fromHf.config },
    {
      ...SMALL,
      mlp: true,
      layerNorm: true,
      positions: 'learned',
      tieEmbeddings: false,
      init: 'pytorch',
      seed: 0,
      ropeBase: 10000,
      numKVHeads: SMALL.numHeads,
      attentionWindow: null,
    },
  );
  fromHf.dispose();
}

// Configs the model cannot be, a config that disagrees with the file, a truncated file, no config.
function checkRefusedConfigsAndFiles(attn, bytes) {
  const hf = HF_CONFIG;
  assert.throws(
    () => attn.transformerFromSafetensors(bytes, { ...hf, n_inner: 64 }),
    /n_inner must be null or 4·n_embd \(32\)/,
  );
  assert.throws(
    () => attn.transformerFromSafetensors(bytes, { ...hf, activation_function: 'relu' }),
    /activation_function must be 'gelu_new'/,
  );
  assert.throws(() => attn.transformerFromSafetensors(bytes, { ...hf, n_head: undefined }), /has no n_head/);
  assert.throws(
    () => attn.transformerFromSafetensors(bytes, { ...hf, vocab_size: 9 }),
    /"(wte|lm_head)\.weight" must have shape \[9, 8\], got \[7, 8\]/,
  );
  assert.throws(
    () => attn.transformerFromSafetensors(bytes, { ...hf, tie_word_embeddings: true }),
    /"lm_head\.weight" differs from wte\.weight/,
  );
  assert.throws(() => attn.transformerFromSafetensors(bytes.subarray(0, bytes.length - 4), hf), /safetensors/);
  assert.throws(() => attn.transformerFromSafetensors(bytes), /needs a config/);
}

// A tied GPT-2 checkpoint as Hugging Face stores it: no prefix, causal-mask buffers, no lm_head.
function checkTiedHuggingFaceCheckpoint(attn) {
  const tied = attn.transformer({ ...SMALL, seed: 9 });
  const state = tied.getState();
  state['h.0.attn.bias'] = { data: new Float32Array(36), shape: [1, 1, 6, 6] };
  state['h.1.attn.bias'] = { data: new Float32Array(36), shape: [1, 1, 6, 6] };
  const loaded = attn.transformerFromSafetensors(encodeSafetensors(state), {
    ...HF_CONFIG,
    tie_word_embeddings: undefined,
  });
  assert.deepEqual(loaded.forward(TOKENS).logits.data, tied.forward(TOKENS).logits.data);
  loaded.dispose();
  tied.dispose();
}

for (const simd of [true, false]) {
  describe(`attn.transformer, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    test('config: defaults filled in, names and shapes of the state, parameter count', () => {
      const model = attn.transformer(SMALL);
      try {
        assert.deepEqual(
          { ...model.config },
          {
            ...SMALL,
            mlp: true,
            layerNorm: true,
            positions: 'learned',
            tieEmbeddings: true,
            init: 'pytorch',
            seed: 0,
            ropeBase: 10000,
            numKVHeads: SMALL.numHeads,
            attentionWindow: null,
          },
        );
        const state = model.getState();
        const names = Object.keys(state);
        assert.deepEqual(names.slice(0, 4), ['wte.weight', 'wpe.weight', 'h.0.ln_1.weight', 'h.0.ln_1.bias']);
        assert.deepEqual(names.slice(-2), ['ln_f.weight', 'ln_f.bias']);
        assert.deepEqual(state['h.1.attn.c_attn.weight'].shape, [8, 24]);
        assert.deepEqual(state['h.1.mlp.c_proj.weight'].shape, [32, 8]);
        assert.ok(state['wte.weight'].data instanceof Float32Array);
        const E = 8,
          block = 4 * E + 3 * E * E + 3 * E + E * E + E + 4 * E * E + 4 * E + 4 * E * E + E;
        assert.equal(model.parameterCount(), 7 * E + 6 * E + 2 * block + 2 * E);
        assert.equal(
          model.parameterCount(),
          Object.values(state).reduce((s, t) => s + t.data.length, 0),
        );
      } finally {
        model.dispose();
      }
      const bare = attn.transformer({
        ...SMALL,
        mlp: false,
        layerNorm: false,
        positions: 'none',
        tieEmbeddings: false,
      });
      try {
        assert.deepEqual(Object.keys(bare.getState()), [
          'wte.weight',
          'h.0.attn.c_attn.weight',
          'h.0.attn.c_attn.bias',
          'h.0.attn.c_proj.weight',
          'h.0.attn.c_proj.bias',
          'h.1.attn.c_attn.weight',
          'h.1.attn.c_attn.bias',
          'h.1.attn.c_proj.weight',
          'h.1.attn.c_proj.bias',
          'lm_head.weight',
        ]);
      } finally {
        bare.dispose();
      }
    });

    test('a seed always gives the same model; another seed another; gpt2 init is small', () => {
      const a = attn.transformer({ ...SMALL, seed: 5 }),
        b = attn.transformer({ ...SMALL, seed: 5 });
      const c = attn.transformer({ ...SMALL, seed: 6 }),
        g = attn.transformer({ ...SMALL, init: 'gpt2' });
      try {
        assert.deepEqual(snapshot(a.getState()), snapshot(b.getState()));
        assert.notDeepEqual(snapshot(a.getState())['wte.weight'], snapshot(c.getState())['wte.weight']);
        const wte = g.getState()['wte.weight'].data;
        assert.ok(Math.max(...wte.map(Math.abs)) < 0.1, 'N(0, 0.02) embeddings');
      } finally {
        for (const m of [a, b, c, g]) m.dispose();
      }
    });

    test('bad config values give Errors naming the option', () => {
      const cases = [
        [undefined, /vocabSize, contextLength/],
        [{ ...SMALL, vocabSize: undefined }, /vocabSize must be a positive integer/],
        [{ ...SMALL, dModel: 8.5 }, /dModel must be a positive integer/],
        [{ ...SMALL, numLayers: 0 }, /numLayers must be a positive integer/],
        [{ ...SMALL, numHeads: 3 }, /numHeads \(3\) must divide dModel \(8\)/],
        [{ ...SMALL, positions: 'sinusoidal' }, /positions must be one of 'learned', 'none'/],
        [{ ...SMALL, init: 'xavier' }, /init must be one of 'pytorch', 'gpt2'/],
        [{ ...SMALL, mlp: 'yes' }, /mlp must be true or false/],
        [{ ...SMALL, seed: -1 }, /seed must be an integer/],
        [{ ...SMALL, dropout: 0.1 }, /unknown option "dropout"/],
        [{ ...SMALL, vocabSize: 2 ** 20, dModel: 1024 }, /parameters/],
      ];
      for (const [config, message] of cases)
        assert.throws(() => attn.transformer(config), message, JSON.stringify(config));
    });

    test('forward: [B, T] and [T] tokens, nested arrays or { data, shape }, needWeights', () => {
      const model = attn.transformer(SMALL);
      try {
        const out = model.forward(TOKENS);
        assert.deepEqual(out.logits.shape, [2, 5, 7]);
        assert.equal(out.attentions.length, 2);
        assert.deepEqual(out.attentions[1].shape, [2, 2, 5, 5]);
        const single = model.forward(TOKENS[1]);
        assert.deepEqual(single.logits.shape, [5, 7]);
        assert.deepEqual(single.attentions[0].shape, [2, 5, 5]);
        for (let i = 0; i < 35; i++) assert.ok(Math.abs(single.logits.data[i] - out.logits.data[35 + i]) < 1e-5);
        const typed = model.forward({ data: Int32Array.from(TOKENS.flat()), shape: [2, 5] }, { needWeights: false });
        assert.equal(typed.attentions, null);
        for (let i = 0; i < 70; i++) assert.ok(Math.abs(typed.logits.data[i] - out.logits.data[i]) < 1e-5);
      } finally {
        model.dispose();
      }
    });

    test('bad tokens and targets give Errors, and the model keeps working', () => {
      const model = attn.transformer(SMALL);
      try {
        const before = model.forward(TOKENS).logits.data;
        assert.throws(() => model.forward([[0, 7]]), /tokens\[0\]\[1\] is 7, outside \[0, vocabSize = 7\)/);
        assert.throws(() => model.forward([-1, 2]), /tokens\[0\] is -1, outside/);
        assert.throws(() => model.forward([0, 1.5]), /tokens\[1\] is 1.5; token ids must be integers/);
        assert.throws(() => model.forward([0, NaN]), /tokens\[1\] is NaN/);
        assert.throws(
          () => model.forward([0, 1, 2, 3, 4, 5, 6]),
          /7 tokens per sequence, more than contextLength \(6\)/,
        );
        assert.throws(() => model.forward([[[0]]]), /tokens must be \[T\] or \[B, T\]/);
        assert.throws(() => model.forward(TOKENS, { needWeigths: true }), /unknown option "needWeigths"/);
        assert.throws(
          () => model.gradients(TOKENS, [[3, 1, -1, 2, 2]]),
          /targets must have the shape of tokens \[2, 5\]/,
        );
        assert.throws(() => model.gradients(TOKENS, [[3, 1, -2, 2, 2], TARGETS[1]]), /targets\[0\]\[2\] is -2/);
        assert.throws(() => model.gradients([0, 1], [-1, -1]), /targets are all −1/);
        assert.throws(
          () => model.trainStep(TOKENS, TARGETS, { learningRate: -1 }),
          /learningRate must be a number in \[0, 10\], got -1/,
        );
        assert.throws(
          () => model.trainStep(TOKENS, TARGETS, { betas: [1, 0.9] }),
          /betas\[0\] must be a number in \[0, 1\)/,
        );
        assert.throws(() => model.trainStep(TOKENS, TARGETS, { betas: 0.9 }), /betas must be an array of two numbers/);
        assert.throws(
          () => model.trainStep(TOKENS, TARGETS, { clipNorm: 0 }),
          /clipNorm must be a positive finite number/,
        );
        assert.throws(() => model.trainStep(TOKENS, TARGETS, { lr: 0.1 }), /unknown option "lr"/);
        assert.deepEqual(model.forward(TOKENS).logits.data, before, 'same logits after the errors');
      } finally {
        model.dispose();
      }
    });

    test('inputs beyond WebAssembly memory are refused up front with the size; the model keeps working', () => {
      const model = attn.transformer({
        vocabSize: 50000,
        contextLength: 4096,
        dModel: 8,
        numLayers: 1,
        numHeads: 1,
        mlp: false,
      });
      try {
        const tokens = { data: new Int32Array(64 * 4096), shape: [64, 4096] };
        assert.throws(
          () => model.forward(tokens),
          /transformer\.forward: the logits \[64, 4096, 50000\] would need 48\.83 GiB/,
        );
        const narrow = attn.transformer({ vocabSize: 5, contextLength: 4096, dModel: 8, numLayers: 4, numHeads: 8 });
        assert.throws(
          () => narrow.forward({ data: new Int32Array(8 * 4096), shape: [8, 4096] }),
          /the attention weights \(4 × \[8, 8, 4096, 4096\]\) would need 16\.00 GiB .*pass needWeights: false/,
        );
        narrow.dispose();
        assert.throws(
          () => model.trainStep(tokens, tokens),
          /transformer\.trainStep: batch × tokens too large: the activations would need about \d+ MiB/,
        );
        assert.deepEqual(model.forward([1, 2, 3]).logits.shape, [3, 50000]);
      } finally {
        model.dispose();
      }
    });

    test('loadState: names, prefix, GPT-2 buffers, nested arrays; a bad state names the key and changes nothing', () => {
      const source = attn.transformer({ ...SMALL, seed: 1 });
      const model = attn.transformer({ ...SMALL, seed: 2 });
      try {
        const state = source.getState();
        const original = snapshot(model.getState());
        const without = { ...state };
        delete without['h.1.ln_2.bias'];
        assert.throws(() => model.loadState(without), /missing "h\.1\.ln_2\.bias"/);
        assert.throws(
          () => model.loadState({ ...state, 'h.2.ln_1.weight': state['h.1.ln_1.weight'] }),
          /unknown key "h\.2\.ln_1\.weight"/,
        );
        assert.throws(
          () => model.loadState({ ...state, 'lm_head.weight': { data: new Float32Array(56), shape: [7, 8] } }),
          /"lm_head\.weight" differs from wte\.weight/,
        );
        const wrong = { ...state, 'h.0.attn.c_attn.weight': { data: new Float32Array(8 * 24), shape: [24, 8] } };
        assert.throws(
          () => model.loadState(wrong),
          /"h\.0\.attn\.c_attn\.weight" must have shape \[8, 24\], got \[24, 8\]/,
        );
        const nan = { ...state, 'ln_f.bias': { data: new Float32Array(8).fill(NaN), shape: [8] } };
        assert.throws(() => model.loadState(nan), /ln_f\.bias\.data\[0\] is NaN/);
        assert.throws(() => model.loadState(null), /loadState needs an object/);
        assert.deepEqual(snapshot(model.getState()), original, 'unchanged after every rejected state');

        // Hugging Face's form: "transformer." prefix, causal-mask buffers, a tied lm_head, nested arrays.
        const hf = {};
        for (const [k, v] of Object.entries(state)) hf[`transformer.${k}`] = v;
        hf['transformer.h.0.attn.bias'] = { data: new Float32Array(36), shape: [1, 1, 6, 6] };
        hf['transformer.h.1.attn.masked_bias'] = [-1e4];
        hf['lm_head.weight'] = state['wte.weight'];
        hf['transformer.ln_f.weight'] = Array.from({ length: 1 }, () => Array.from(state['ln_f.weight'].data))[0];
        model.loadState(hf);
        assert.deepEqual(snapshot(model.getState()), snapshot(state));
        assert.deepEqual(model.forward(TOKENS).logits.data, source.forward(TOKENS).logits.data);
        // getState hands out copies.
        model.getState()['wte.weight'].data.fill(0);
        assert.deepEqual(snapshot(model.getState()), snapshot(state));
      } finally {
        source.dispose();
        model.dispose();
      }
    });

    test('gradients and trainStep: loss falls, resetOptimizer restarts Adam exactly', () => {
      const model = attn.transformer({ ...SMALL, seed: 3 });
      try {
        const start = model.getState();
        const { loss, grads } = model.gradients(TOKENS, TARGETS);
        assert.ok(loss > 0 && Number.isFinite(loss));
        assert.deepEqual(Object.keys(grads), Object.keys(start));
        assert.ok(grads['h.0.attn.c_attn.weight'].data.some((x) => x !== 0));
        const losses = [];
        for (let i = 0; i < 30; i++) losses.push(model.trainStep(TOKENS, TARGETS, { learningRate: 1e-2 }).loss);
        assert.equal(losses[0], loss, 'trainStep reports the loss before its update');
        assert.ok(losses[29] < losses[0] / 2, `loss ${losses[0]} → ${losses[29]}`);
        const after = snapshot(model.getState());

        model.loadState(start);
        model.resetOptimizer();
        for (let i = 0; i < 30; i++) model.trainStep(TOKENS, TARGETS, { learningRate: 1e-2 });
        assert.deepEqual(snapshot(model.getState()), after, 'same 30 steps after resetOptimizer');

        model.loadState(start); // without a reset Adam continues from its moments: different steps
        for (let i = 0; i < 30; i++) model.trainStep(TOKENS, TARGETS, { learningRate: 1e-2 });
        assert.notDeepEqual(snapshot(model.getState()), after);
        const clipped = model.trainStep(TOKENS, TARGETS, {
          learningRate: 1e-3,
          betas: [0.8, 0.99],
          eps: 1e-6,
          weightDecay: 0.1,
          clipNorm: 0.5,
        });
        assert.ok(Number.isFinite(clipped.loss));
      } finally {
        model.dispose();
      }
    });

    test('toSafetensors and transformerFromSafetensors: round trip, Hugging Face configs, bad files', () => {
      const model = attn.transformer({ ...SMALL, tieEmbeddings: false, seed: 4 });
      try {
        const bytes = model.toSafetensors();
        assert.ok(bytes instanceof Uint8Array);
        checkRoundTrip(attn, model, bytes);
        checkHuggingFaceConfig(attn, bytes);
        checkRefusedConfigsAndFiles(attn, bytes);
        checkTiedHuggingFaceCheckpoint(attn);
      } finally {
        model.dispose();
      }
    });

    test('dispose frees the model; a disposed model throws, a second dispose is harmless', () => {
      const model = attn.transformer(SMALL);
      model.dispose();
      model.dispose();
      for (const call of [
        () => model.forward([0]),
        () => model.getState(),
        () => model.parameterCount(),
        () => model.trainStep([0], [1]),
        () => model.loadState({}),
        () => model.resetOptimizer(),
      ])
        assert.throws(call, /this transformer was disposed/);
    });

    test('the WebAssembly heap stays flat over many training steps, forwards and models', () => {
      assert.ok(
        modules.size > 0 && [...modules].every((m) => typeof m._heapBytesInUse === 'function'),
        'found the modules',
      );
      const model = attn.transformer({ ...SMALL, tieEmbeddings: false });
      try {
        model.trainStep(TOKENS, TARGETS);
        model.forward(TOKENS);
        model.gradients(TOKENS, TARGETS);
        const heaps = [...modules].map((m) => m._heapBytesInUse());
        for (let i = 0; i < 500; i++) {
          model.trainStep(TOKENS, TARGETS);
          model.forward(TOKENS);
          if (i % 10 === 0) model.gradients(TOKENS, TARGETS);
          if (i % 50 === 0) assert.throws(() => model.forward([9]));
          if (i % 50 === 0) attn.transformer(SMALL).dispose();
        }
        assert.deepEqual(
          [...modules].map((m) => m._heapBytesInUse()),
          heaps,
        );
      } finally {
        model.dispose();
      }
    });
  });
}
