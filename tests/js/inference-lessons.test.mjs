// The inference lessons' arithmetic (web/ui/model/inference-lessons.js and the lessons'
// inference-math.js and *-math.js): the KV-cache memory table's figures, ALiBi's slopes against what the core
// applies, the tiny decoder that replays the explorer's heads against scaledDotProductAttention,
// RoPE's diagonals and clock hands, the FlashAttention run and the lessons' settings in the state
// and in links.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/lib/attention.js';
import {
  KV_CONFIGS,
  LESSON_PANELS,
  createStore,
  decodeState,
  encodeState,
  makeEmbedder,
  makeFiller,
  presetById,
} from '../../web/ui/model/model.js';
import { alibiSlopes, divisors, kvCacheBytes, kvLessonView } from '../../web/ui/lessons/inference-math.js';
import { decodeSteps } from '../../web/ui/lessons/kv-math.js';
import { diagonalSpread, positionScores, ropeHands } from '../../web/ui/lessons/positions-math.js';
import { flashRun, stepState, tileMemory } from '../../web/ui/lessons/flash-math.js';

let attn;
before(async () => {
  attn = await createAttention();
});

const random = (rng, rows, cols) => ({ data: Float32Array.from(rng.randn(rows * cols).data), shape: [rows, cols] });
const maxDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

describe('the KV-cache memory table', () => {
  const row = (id) => KV_CONFIGS.find((c) => c.id === id);
  test('GPT-2 small keeps 73 728 bytes per token in float32 (2 · 12 layers · 12 heads · 64 · 4 B)', () => {
    assert.deepEqual(kvCacheBytes(row('gpt2')), { kept: 1, bytes: 73728 });
  });
  test('Llama-2-7B at 2 048 tokens in fp16 needs 1 073 741 824 bytes (≈ 1.07 GB)', () => {
    assert.equal(kvCacheBytes(row('llama-2-7b')).bytes, 1073741824);
  });
  test('Llama-2-70B with 8 key/value heads at 4 096 tokens needs 1 342 177 280 bytes', () => {
    assert.equal(kvCacheBytes(row('llama-2-70b')).bytes, 1342177280);
  });
  test('Mistral-7B’s 4 096-token window caps its cache however many tokens are read', () => {
    const m = row('mistral-7b');
    assert.equal(m.windowSize, 4096);
    assert.deepEqual(kvCacheBytes({ ...m, tokens: 100000 }), { kept: 4096, bytes: 2 * 32 * 8 * 128 * 4096 * 2 });
    assert.deepEqual(kvCacheBytes({ ...m, tokens: 1000 }), { kept: 1000, bytes: 2 * 32 * 8 * 128 * 1000 * 2 });
  });
});

describe('ALiBi slopes', () => {
  test('are BLOOM’s for powers of two and not (2^(−8(h+1)/H); else P heads then every other slope of 2P)', () => {
    assert.deepEqual(alibiSlopes(4), [0.25, 0.0625, 0.015625, 0.00390625]);
    const six = alibiSlopes(6);
    assert.deepEqual(six.slice(0, 4), alibiSlopes(4));
    assert.deepEqual(six.slice(4), [2 ** -1, 2 ** -3]); // 2^(−4(2k+1)/4): every other slope of eight heads
  });

  test('are the slopes the core applies: a model with zero q and k attends as softmax(−slope·(i − j))', () => {
    for (const H of [4, 6]) {
      const model = attn.transformer({
        vocabSize: 5,
        contextLength: 6,
        dModel: 2 * H,
        numLayers: 1,
        numHeads: H,
        mlp: false,
        layerNorm: false,
        positions: 'alibi',
        seed: 3,
      });
      const state = model.getState();
      state['h.0.attn.c_attn.weight'].data.fill(0);
      state['h.0.attn.c_attn.bias'].data.fill(0);
      model.loadState(state);
      const { attentions } = model.forward([1, 2, 3, 4, 0, 1]);
      const T = 6;
      alibiSlopes(H).forEach((slope, h) => {
        const w = attentions[0].data.subarray(h * T * T + (T - 1) * T, h * T * T + T * T);
        for (let j = 0; j < T; j++)
          assert.ok(Math.abs(Math.log(w[j] / w[T - 1]) + slope * (T - 1 - j)) < 1e-4, `H=${H} head ${h} key ${j}`);
      });
      model.dispose();
    }
  });
});

describe('the KV-cache lesson’s decoder', () => {
  const heads = (rng, H, T, dk, dv) =>
    Array.from({ length: H }, () => ({ q: random(rng, T, dk), k: random(rng, T, dk), v: random(rng, T, dv) }));

  test('replays each explorer head: every step’s weights are causal scaledDotProductAttention’s row, with and without a window', () => {
    const rng = attn.randomState(5);
    const hs = heads(rng, 2, 7, 3, 5);
    for (const windowSize of [0, 3]) {
      for (let step = 0; step < 7; step++) {
        const run = decodeSteps(attn, hs, { scale: 0.4, kvHeads: 2, windowSize, step });
        assert.ok(run.difference < 1e-6, `decoder against its own full pass: ${run.difference}`);
        hs.forEach((h, k) => {
          const ref = attn.scaledDotProductAttention(h.q, h.k, h.v, {
            causal: true,
            scale: 0.4,
            ...(windowSize ? { window: windowSize } : {}),
          });
          const want = ref.weights.data.subarray(step * 7, step * 7 + step + 1);
          const got = run.weights.data.subarray(k * (step + 1), (k + 1) * (step + 1));
          assert.ok(maxDiff(got, want) < 1e-6, `head ${k} step ${step} window ${windowSize}`);
        });
        const kept = windowSize ? Math.min(windowSize, step + 1) : step + 1;
        assert.equal(run.cacheBytes, 2 * 1 * 2 * run.headDim * kept * 4);
        assert.equal(run.cache.positions.length, kept);
        if (windowSize) for (const [slot, p] of run.cache.positions.entries()) assert.equal(slot, p % windowSize);
      }
    }
  });

  test('with grouped key/value heads each group attends with the mean of its heads’ keys and values', () => {
    const rng = attn.randomState(6);
    const hs = heads(rng, 4, 5, 4, 4);
    const run = decodeSteps(attn, hs, { scale: 0.5, kvHeads: 2, windowSize: 0, step: 4 });
    const mean = (a, b) => ({ data: a.data.map((x, i) => (x + b.data[i]) / 2), shape: a.shape });
    hs.forEach((h, k) => {
      const g = Math.floor(k / 2);
      const K = mean(hs[2 * g].k, hs[2 * g + 1].k);
      const V = mean(hs[2 * g].v, hs[2 * g + 1].v);
      const ref = attn.scaledDotProductAttention(h.q, K, V, { causal: true, scale: 0.5 });
      assert.ok(
        maxDiff(run.weights.data.subarray(k * 5, k * 5 + 5), ref.weights.data.subarray(20, 25)) < 1e-6,
        `head ${k}`,
      );
    });
    assert.equal(run.cacheBytes, 2 * 2 * run.headDim * 5 * 4);
    assert.deepEqual(run.cache.keys.shape, [2, 5, run.headDim]);
  });

  test('shares among the divisors of the heads only, following the explorer until the learner picks', () => {
    assert.deepEqual(divisors(12), [1, 2, 3, 4, 6, 12]);
    assert.deepEqual(kvLessonView({ kvHeads: null, step: null }, 8, 10), { kvHeads: 8, step: 9 });
    assert.deepEqual(kvLessonView({ kvHeads: 3, step: 20 }, 8, 10), { kvHeads: 2, step: 9 });
  });
});

describe('the positions lesson', () => {
  test('RoPE’s scores are constant along the diagonals and the absolute encodings’ are not', () => {
    const rng = attn.randomState(7);
    const q = Array.from(rng.randn(8).data);
    const k = Array.from(rng.randn(8).data);
    const s = positionScores(attn, { q, k, P: 10, base: 10000, heads: 8, head: 2, scale: 0.35, seed: 1 });
    assert.ok(s.spread.rope < 1e-4, `RoPE spread ${s.spread.rope}`);
    assert.ok(s.spread.alibi < 1e-4, `ALiBi spread ${s.spread.alibi}`);
    assert.ok(s.spread.sinusoidal > 0.1 && s.spread.learned > 0.1, JSON.stringify(s.spread));
    // rope(q, m)·rope(k, n) = q·rope(k, n − m) (the rotation of q undone): a float64 check of one cell.
    const theta = (i) => 10000 ** ((-2 * i) / 8);
    const rot = (x, p) =>
      x.map((_, c) => {
        const i = c % 4;
        const [cos, sin] = [Math.cos(p * theta(i)), Math.sin(p * theta(i))];
        return c < 4 ? x[c] * cos - x[c + 4] * sin : x[c] * cos + x[c - 4] * sin;
      });
    const dot = (a, b) => a.reduce((t, x, c) => t + x * b[c], 0);
    assert.ok(Math.abs(s.maps.rope.data[3 * 10 + 7] - dot(rot(q, 3), rot(k, 7))) < 1e-4);
  });

  test('diagonalSpread measures the largest max − min along a diagonal, hidden cells left out', () => {
    const m = { data: Float32Array.of(1, 9, 2, 1.5), shape: [2, 2] };
    assert.equal(diagonalSpread(m), 0.5);
    assert.equal(diagonalSpread(m, Uint8Array.of(0, 0, 0, 1)), 0);
  });

  test('the clock hands are attn.rope of unit vectors: cos and sin of p·base^(−2i/d)', () => {
    const hands = ropeHands(attn, 6, 5, 100);
    hands.forEach((h, i) => {
      const angle = 5 * 100 ** ((-2 * i) / 6);
      assert.ok(Math.abs(h.cos - Math.cos(angle)) < 1e-6 && Math.abs(h.sin - Math.sin(angle)) < 1e-6, `pair ${i}`);
    });
  });
});

describe('the FlashAttention lesson', () => {
  test('the tiled output equals softmax(S)·V and the steps walk row blocks outer, column blocks inner', () => {
    const rng = attn.randomState(8);
    const head = { q: random(rng, 5, 3), k: random(rng, 7, 3), v: random(rng, 7, 2), scale: 0.6 };
    const run = flashRun(attn, head, { blockRows: 2, blockCols: 3, causal: true });
    assert.ok(run.difference < 1e-6, `difference ${run.difference}`);
    assert.equal(run.trace.steps.length, 3 * 3);
    assert.deepEqual(
      run.trace.steps.map((s) => [s.rowBlock, s.colBlock]),
      [
        [0, 0],
        [0, 1],
        [0, 2],
        [1, 0],
        [1, 1],
        [1, 2],
        [2, 0],
        [2, 1],
        [2, 2],
      ],
    );
    assert.equal(run.trace.steps[1].skipped, true); // rows 0–1 never see keys 3–5
    const st = stepState(run, 5, 2);
    assert.equal(st.first, 2);
    assert.equal(st.before, run.trace.steps[3]);
    assert.equal(stepState(run, 4, 2).before, null);
    assert.deepEqual(tileMemory(run, 2, 3), {
      tile: 2 * 3 + 3 * 5 + 6 + 4 + 4,
      tileBytes: 140,
      full: 35,
      fullBytes: 140,
      rows: 2,
      cols: 3,
    });
  });
});

describe('the lessons in the state', () => {
  test('the three tabs are lesson panels and their settings survive a link', async () => {
    for (const id of ['flash-attention', 'kv-cache', 'positions']) assert.ok(LESSON_PANELS.includes(id), id);
    const store = createStore(
      presetById('lesson').build(attn),
      makeFiller(attn, () => 42),
      makeEmbedder(attn),
    );
    store.update((s) => ({
      ...s,
      lessons: {
        ...s.lessons,
        panel: 'kv-cache',
        flash: { blockRows: 3, blockCols: 1, causal: false, step: 2 },
        kv: { kvHeads: 1, windowSize: 2, step: 1, table: [{ layers: 6 }] },
        positions: { count: 20, base: 500, alibiHeads: 6 },
      },
    }));
    const decoded = await decodeState(await encodeState(store.get()));
    assert.ok(decoded.ok, decoded.error);
    const back = store.reconciled(decoded.state);
    assert.equal(back.lessons.panel, 'kv-cache');
    assert.deepEqual(back.lessons.flash, { blockRows: 3, blockCols: 1, causal: false, step: 2 });
    assert.equal(back.lessons.kv.windowSize, 2);
    assert.equal(back.lessons.kv.table[0].layers, 6);
    assert.equal(back.lessons.kv.table[0].headDim, 64);
    assert.equal(back.lessons.positions.count, 20);
    assert.equal(back.lessons.positions.alibiHeads, 6);
  });
});
