// model.decoder and model.generate against PyTorch float64 (scripts/reference/
// generate_positions_reference.py): any chunking of appends gives the logits and attentions of the
// full forward for every positions / key-value heads / window case; a windowed model decodes past
// its contextLength with a cache that stops growing; greedy generation equals PyTorch's argmax loop
// and sampling NumPy's draws; and bad input, disposal and maxLength give clear Errors.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createAttention } from '../../web/lib/attention.js';
import { assertClose, loadModel } from './support/transformer-reference.mjs';

const reference = JSON.parse(readFileSync(new URL('../data/positions-reference.json', import.meta.url), 'utf8'));
const { generation, long } = reference.decoding;
const CHUNKINGS = [[1], [3, 1, 2], [100]];

// Row b of a [B, ...] reference tensor, as { data, shape } without the B.
function row(t, b) {
  const per = t.data.length / t.shape[0];
  return { data: t.data.slice(b * per, (b + 1) * per), shape: t.shape.slice(1) };
}

// Appends `tokens` in chunks; the logits [T, V] and per layer the attentions [H, T, T] (each chunk's
// rows placed at their positions, zero beyond the keys the chunk saw).
function decodeAll(decoder, tokens, chunks, H) {
  const T = tokens.length;
  let logits = null;
  let attentions = null;
  for (let at = 0, c = 0; at < T; c++) {
    const t = Math.min(chunks[c % chunks.length], T - at);
    const out = decoder.append(tokens.slice(at, at + t));
    assert.deepEqual(out.logits.shape.slice(0, 1), [t]);
    const V = out.logits.shape[1];
    logits ??= new Float32Array(T * V);
    logits.set(out.logits.data, at * V);
    attentions ??= out.attentions.map(() => new Float32Array(H * T * T));
    out.attentions.forEach((a, l) => {
      assert.deepEqual(a.shape, [H, t, at + t]);
      for (let h = 0; h < H; h++)
        for (let i = 0; i < t; i++)
          attentions[l].set(a.data.subarray((h * t + i) * (at + t), (h * t + i + 1) * (at + t)), (h * T + at + i) * T);
    });
    at += t;
  }
  const V = logits.length / T;
  return {
    logits: { data: logits, shape: [T, V] },
    attentions: attentions.map((data) => ({ data, shape: [H, T, T] })),
  };
}

for (const simd of [true, false]) {
  describe(`decoder and generate vs PyTorch, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    for (const c of reference.cases) {
      test(`${c.name}: every chunking decodes to the full forward's logits and attentions`, () => {
        const model = loadModel(attn, c);
        try {
          const H = c.config.numHeads;
          for (const chunks of CHUNKINGS)
            c.tokens.forEach((tokens, b) => {
              const decoder = model.decoder();
              const got = decodeAll(decoder, tokens, chunks, H);
              const what = `sequence ${b}, chunks ${chunks}`;
              assertClose(got.logits, row(c.logits, b), c.float32Deviation.logits, `logits, ${what}`);
              got.attentions.forEach((a, l) =>
                assertClose(a, row(c.attentions[l], b), c.float32Deviation.attentions, `attentions[${l}], ${what}`),
              );
              const W = c.config.attentionWindow;
              assert.equal(decoder.length, tokens.length);
              const kept = W ? Math.min(W, tokens.length) : tokens.length;
              const d = c.config.dModel / H;
              assert.equal(decoder.cacheBytes, 2 * c.config.numLayers * (c.config.numKVHeads ?? H) * d * kept * 4);
              decoder.dispose();
            });
        } finally {
          model.dispose();
        }
      });
    }

    for (const g of generation) {
      test(`generate on "${g.case}": greedy = PyTorch's argmax loop, sampling = NumPy's draws`, () => {
        const model = loadModel(
          attn,
          reference.cases.find((c) => c.name === g.case),
        );
        try {
          const greedy = model.generate(g.prompt, { temperature: 0 });
          assert.deepEqual(Array.from(greedy.tokens), g.greedy);
          assert.ok(greedy.tokens instanceof Int32Array);
          const { seed, temperature, topK } = g.sampled;
          const options = { seed, temperature, ...(topK ? { topK } : {}) };
          const sampled = model.generate(Int32Array.from(g.prompt), options);
          assert.deepEqual(Array.from(sampled.tokens), g.sampled.tokens);
          assert.deepEqual(model.generate(g.prompt, options).tokens, sampled.tokens, 'the same seed, the same tokens');
          const seen = [];
          const short = model.generate(g.prompt, {
            ...options,
            maxNewTokens: 2,
            onToken: (token, i) => seen.push([token, i]),
          });
          assert.deepEqual(Array.from(short.tokens), g.sampled.tokens.slice(0, g.prompt.length + 2));
          assert.deepEqual(seen, [
            [g.sampled.tokens[g.prompt.length], 0],
            [g.sampled.tokens[g.prompt.length + 1], 1],
          ]);
          const stopped = model.generate(g.prompt, { ...options, onToken: () => false });
          assert.equal(stopped.tokens.length, g.prompt.length + 1, 'onToken returning false stops');
        } finally {
          model.dispose();
        }
      });
    }

    for (const c of long) {
      test(`${c.name}: the ring buffer decodes past contextLength`, () => {
        const model = loadModel(attn, { ...c, config: c.config });
        try {
          assert.throws(() => model.forward(c.tokens), /more than contextLength/);
          const decoder = model.decoder({ maxLength: c.tokens.length });
          const H = c.config.numHeads;
          const bytes = [];
          const got = decodeAll(
            {
              append: (t) => {
                const out = decoder.append(t);
                bytes.push(decoder.cacheBytes);
                return out;
              },
            },
            c.tokens,
            [1, 4, 2],
            H,
          );
          assertClose(got.logits, c.logits, 1e-6, 'logits');
          got.attentions.forEach((a, l) => assertClose(a, c.attentions[l], 1e-6, `attentions[${l}]`));
          const W = c.config.attentionWindow;
          const full = 2 * c.config.numLayers * c.config.numKVHeads * (c.config.dModel / H) * W * 4;
          assert.equal(bytes.at(-1), full);
          assert.ok(
            bytes.filter((b) => b === full).length >= bytes.length - 2,
            'the cache stops growing at the window',
          );
          const { keys, values, positions } = decoder.cache(1);
          assert.deepEqual(keys.shape, [c.config.numKVHeads, W, c.config.dModel / H]);
          assert.deepEqual(values.shape, keys.shape);
          const T = c.tokens.length;
          assert.deepEqual(
            Array.from(positions),
            Array.from({ length: W }, (_, s) => s + Math.floor((T - 1 - s) / W) * W),
          );
          assert.throws(() => decoder.append([1]), /appending 1 tokens to the 20|would pass maxLength/);
          const greedy = model.generate(c.greedy.prompt, { temperature: 0, maxLength: c.greedy.tokens.length });
          assert.deepEqual(Array.from(greedy.tokens), c.greedy.tokens);
        } finally {
          model.dispose();
        }
      });
    }
  });
}

describe('decoder and generate: errors and disposal', () => {
  let attn;
  before(async () => {
    attn = await createAttention();
  });
  const CONFIG = { vocabSize: 11, contextLength: 8, dModel: 8, numLayers: 1, numHeads: 2 };

  test('appending past maxLength throws and leaves the decoder usable', () => {
    const model = attn.transformer(CONFIG);
    const decoder = model.decoder({ maxLength: 5 });
    decoder.append([1, 2, 3]);
    assert.throws(
      () => decoder.append([4, 5, 6]),
      /decoder.append: appending 3 tokens to the 3 already seen would pass maxLength \(5\)/,
    );
    assert.throws(() => decoder.append([4, 11]), /tokens\[1\] is 11, outside \[0, vocabSize = 11\)/);
    assert.throws(() => decoder.append([[1, 2]]), /tokens must be one sequence of token ids \[t\], got shape \[1, 2\]/);
    assert.throws(() => decoder.append([1.5]), /tokens\[0\] is 1.5; token ids must be integers/);
    assert.throws(() => decoder.append([1], { needWeight: false }), /unknown option "needWeight"/);
    assert.equal(decoder.length, 3);
    const out = decoder.append([4, 5], { needWeights: false });
    assert.equal(out.attentions, null);
    const full = model.forward([1, 2, 3, 4, 5]).logits;
    for (let i = 0; i < 2 * 11; i++) assert.ok(Math.abs(out.logits.data[i] - full.data[3 * 11 + i]) < 1e-5);
    decoder.reset();
    assert.equal(decoder.length, 0);
    assert.equal(decoder.cacheBytes, 0);
    assert.deepEqual(decoder.cache(0).keys.shape, [2, 0, 4]);
    model.dispose();
  });

  test('bad decoder and generate options give Errors naming the option', () => {
    const model = attn.transformer(CONFIG);
    try {
      assert.throws(
        () => model.decoder({ maxLength: 9 }),
        /maxLength \(9\) must be at most contextLength \(8\) for a model with learned positions/,
      );
      assert.throws(() => model.decoder({ maxLength: 0 }), /maxLength must be a positive integer/);
      assert.throws(() => model.decoder({ length: 3 }), /unknown option "length"/);
      const cases = [
        [{ temperature: -1 }, /temperature must be a finite number ≥ 0 \(0 = greedy\), got -1/],
        [{ temperature: NaN }, /temperature must be a finite number ≥ 0/],
        [{ topK: 0 }, /topK must be a positive integer \(or omitted for every token\), got 0/],
        [{ topK: -2 }, /topK must be a positive integer/],
        [{ topK: 1.5 }, /topK must be a positive integer/],
        [{ seed: -1 }, /seed must be an integer from 0 to 2\*\*32 - 1/],
        [{ maxNewTokens: -1 }, /maxNewTokens must be an integer ≥ 0/],
        [{ onToken: 3 }, /onToken must be a function/],
        [{ maxLength: 9 }, /maxLength \(9\) must be at most contextLength \(8\)/],
        [{ maxLength: 2 }, /prompt has 3 tokens, more than maxLength \(2\)/],
      ];
      for (const [options, message] of cases)
        assert.throws(() => model.generate([1, 2, 3], options), message, JSON.stringify(options));
      assert.throws(() => model.generate([], {}), /prompt must be \[T\] or \[B, T\] token ids, got an empty array/);
      assert.throws(
        () => model.generate([1, 12]),
        /prompt\[1\] is 12; token ids must be integers in \[0, vocabSize = 11\)/,
      );
      assert.equal(model.generate([1, 2, 3], { maxNewTokens: 0 }).tokens.length, 3);
      assert.equal(
        model.generate([1, 2, 3], { topK: 50 }).tokens.length,
        8,
        'topK above vocabSize keeps every token; stops at contextLength',
      );
    } finally {
      model.dispose();
    }
  });

  test('a disposed decoder, or the model disposed under it, throws; so does generate on a disposed model', () => {
    const model = attn.transformer(CONFIG);
    const first = model.decoder();
    const second = model.decoder();
    first.append([1, 2]);
    first.dispose();
    first.dispose(); // harmless
    assert.throws(() => first.append([3]), /this decoder was disposed/);
    assert.throws(() => first.length, /this decoder was disposed/);
    assert.throws(() => first.cache(0), /this decoder was disposed/);
    second.append([1]);
    model.dispose();
    assert.throws(() => second.append([2]), /this transformer was disposed/);
    assert.throws(() => second.cacheBytes, /this transformer was disposed/);
    assert.throws(() => second.reset(), /this transformer was disposed/);
    assert.throws(() => model.decoder(), /this transformer was disposed/);
    assert.throws(() => model.generate([1]), /this transformer was disposed/);
  });

  test('onToken may dispose the model: generation stops with an Error and frees its decoder', () => {
    const model = attn.transformer(CONFIG);
    assert.throws(
      () => model.generate([1], { maxNewTokens: 4, onToken: () => model.dispose() }),
      /this transformer was disposed/,
    );
  });

  test('cache(layer) checks the layer', () => {
    const model = attn.transformer(CONFIG);
    const decoder = model.decoder();
    assert.throws(() => decoder.cache(1), /layer must be an integer from 0 to 0, got 1/);
    assert.throws(() => decoder.cache('0'), /layer must be an integer from 0 to 0, got "0"/);
    model.dispose();
  });
});
