// Hostile JavaScript objects against the entry points that take token ids, state dicts and
// gradients' inputs: typed-array subclasses whose `length` lies, Proxies whose length changes between
// reads, getters that change their value, and keys planted on prototypes. Each input must be read
// once, own properties only, and a hostile call must not change another object's results.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createAttention } from '../../web/lib/attention.js';

const RUNS = Number(process.env.ATTN_ADVERSARIAL_RUNS) || 100;

const SMALL = { vocabSize: 7, contextLength: 6, dModel: 8, numLayers: 1, numHeads: 2, seed: 3 };

// A typed array whose `length` getter lies (the engine's own length is 3).
class LyingInt32 extends Int32Array {
  get length() {
    return 1000;
  }
}

// A Proxy of an array that counts reads of `length` and of each element.
function countingArray(items) {
  const reads = { length: 0, items: 0 };
  const proxy = new Proxy(items, {
    get(target, key, receiver) {
      if (key === 'length') reads.length++;
      else if (typeof key === 'string' && /^\d+$/.test(key)) reads.items++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { proxy, reads };
}

// A value that is 1 on first read and 9999 afterwards.
function changingRow() {
  let n = 0;
  const row = [0, 1, 2];
  Object.defineProperty(row, 1, { get: () => (n++ === 0 ? 1 : 9999), enumerable: true });
  return row;
}

describe('token ids are read once, own properties only', () => {
  let attn;
  before(async () => {
    attn = await createAttention({ simd: false });
  });

  test('a { data } inherited from a prototype is not a token tensor', () => {
    const fake = Object.create({ data: [0, 1], shape: [2] });
    const a = { data: Float32Array.of(0, 1, 0, 1), shape: [2, 2] };
    assert.throws(() => attn.headScores(fake, a), /tokens\.shape/);
    const model = attn.transformer(SMALL);
    assert.throws(() => model.forward(fake), /tokens\.shape/);
    model.dispose();
  });

  test('a typed array is measured by its real length, not its `length` getter', () => {
    const tokens = new LyingInt32([0, 1, 2]);
    const attention = { data: new Float32Array(9).fill(1 / 3), shape: [3, 3] };
    const r = attn.headScores(tokens, attention);
    assert.deepEqual(r.queries, attn.headScores([0, 1, 2], attention).queries);
    const model = attn.transformer(SMALL);
    assert.deepEqual(model.forward(tokens).logits.shape, [3, 7]);
    assert.deepEqual(model.forward({ data: tokens, shape: [3] }).logits.shape, [3, 7]);
    model.dispose();
  });

  test('each element and length is read once', () => {
    const model = attn.transformer(SMALL);
    for (const call of [
      (p) => model.forward(p),
      (p) => attn.headScores(p, { data: new Float32Array(9), shape: [3, 3] }),
    ]) {
      const { proxy, reads } = countingArray([0, 1, 2]);
      call(proxy);
      assert.equal(reads.length, 1, 'length read once');
      assert.equal(reads.items, 3, 'each element read once');
    }
    model.dispose();
  });

  test('a getter that changes is seen once: checked and used value agree', () => {
    const model = attn.transformer(SMALL);
    const reference = model.forward([[0, 1, 2]]).logits.data;
    assert.deepEqual(model.forward([changingRow()]).logits.data, reference);
    const targets = changingRow();
    assert.doesNotThrow(() => model.gradients([0, 1, 2], targets));
    model.dispose();
  });

  test('existing messages stay', () => {
    const a = { data: Float32Array.of(0, 1, 0, 1), shape: [2, 2] };
    assert.throws(() => attn.headScores([[0, 1], [2]], a), /rows of equal length/);
    assert.throws(() => attn.headScores('ab', a), /tokens must be an array/);
    const model = attn.transformer(SMALL);
    assert.throws(() => model.forward([[[0]]]), /tokens must be \[T\] or \[B, T\]/);
    assert.throws(() => model.forward({ data: [0, 7], shape: [1, 2] }), /tokens\[0\]\[1\] is 7, outside/);
    model.dispose();
  });
});

describe('the transformer reads its config and state once, own keys only', () => {
  let attn;
  before(async () => {
    attn = await createAttention({ simd: false });
  });

  test('keys planted on Object.prototype change nothing', () => {
    const model = attn.transformer(SMALL);
    const reference = model.forward([0, 1, 2]);
    Object.prototype.mlp = false;
    Object.prototype.needWeights = false;
    Object.prototype['h.0.mlp.c_fc.weight'] = { data: new Float32Array(1), shape: [1] };
    try {
      const other = attn.transformer(SMALL);
      assert.equal(other.config.mlp, true);
      assert.deepEqual(other.forward([0, 1, 2]), reference);
      const state = other.getState();
      assert.doesNotThrow(() => other.loadState(state));
      other.dispose();
    } finally {
      delete Object.prototype.mlp;
      delete Object.prototype.needWeights;
      delete Object.prototype['h.0.mlp.c_fc.weight'];
    }
    model.dispose();
  });

  test('a state inherited from a prototype is not a state', () => {
    const model = attn.transformer(SMALL);
    assert.throws(() => model.loadState(Object.create(model.getState())), /loadState: missing/);
    model.dispose();
  });

  test('each state value is read once: the checked tensor is the loaded one', () => {
    const model = attn.transformer(SMALL);
    const good = model.getState();
    const state = {};
    const reads = {};
    for (const [key, value] of Object.entries(good)) {
      reads[key] = 0;
      Object.defineProperty(state, key, {
        enumerable: true,
        get: () => (reads[key]++ === 0 ? value : { data: new Float32Array(1), shape: [1] }),
      });
    }
    model.loadState(state);
    assert.ok(
      Object.values(reads).every((n) => n === 1),
      'each key read once',
    );
    assert.deepEqual(model.getState(), good);
    model.dispose();
  });

  test('config is frozen and cannot be replaced (buffer sizes come from it)', () => {
    const model = attn.transformer(SMALL);
    const victim = attn.transformer({ ...SMALL, seed: 9 });
    const victimState = victim.getState();
    const reference = model.forward([[0, 1, 2]]);
    assert.ok(Object.isFrozen(model.config));
    assert.throws(() => {
      model.config = { ...SMALL, vocabSize: 1, numLayers: 0 };
    }, TypeError);
    assert.throws(() => {
      model.config.vocabSize = 1;
    }, TypeError);
    assert.deepEqual(model.forward([[0, 1, 2]]), reference);
    assert.deepEqual(victim.getState(), victimState);
    model.dispose();
    victim.dispose();
  });

  test('attn.dispose() makes later model calls throw a clear Error', async () => {
    const own = await createAttention({ simd: false });
    const model = own.transformer(SMALL);
    const bytes = model.toSafetensors();
    const loaded = own.transformerFromSafetensors(bytes, model.config);
    own.dispose();
    for (const m of [model, loaded]) {
      assert.throws(() => m.forward([0, 1]), /attention instance was disposed/);
      assert.throws(() => m.gradients([0, 1], [1, 2]), /attention instance was disposed/);
      assert.throws(() => m.trainStep([0, 1], [1, 2]), /attention instance was disposed/);
      assert.throws(() => m.getState(), /attention instance was disposed/);
      assert.doesNotThrow(() => m.dispose());
    }
    assert.throws(() => own.transformer(SMALL), /attention instance was disposed/);
  });
});

// ---- Hostile calls against the gradients, head scores and transformer entry points --------------

const ramp = (count, seed = 1) => Float32Array.from({ length: count }, (_, i) => Math.sin(i * 0.37 + seed));
const tensor = (shape, seed) => ({
  data: ramp(
    shape.reduce((a, b) => a * b, 1),
    seed,
  ),
  shape,
});

class LyingFloat32 extends Float32Array {
  get length() {
    return 1 << 20;
  }
}

// A nested array whose rows a Proxy grows after its length was read once.
function growingRows(rows) {
  let reads = 0;
  return new Proxy(rows, {
    get(target, key, receiver) {
      if (key === 'length') return reads++ === 0 ? target.length : target.length * 100;
      return Reflect.get(target, key, receiver);
    },
  });
}

const throwingGetter = (base) =>
  Object.defineProperty({ shape: base.shape }, 'data', {
    enumerable: true,
    get() {
      throw new Error('hostile getter');
    },
  });

function survive(call) {
  try {
    const result = call();
    const scan = (value) => {
      if (value instanceof Float32Array) assert.ok(!value.some(Number.isNaN), 'NaN in a result');
      else if (value && typeof value === 'object') for (const v of Object.values(value)) scan(v);
    };
    scan(result);
    return { result };
  } catch (err) {
    assert.ok(err instanceof Error, `threw a non-Error: ${String(err)}`);
    return { error: err };
  }
}

describe('hostile inputs to gradients, head scores and the transformer', () => {
  let world;
  const snapshotOf = (w) => ({
    layer: w.layer.getWeights(),
    model: w.model.getState(),
    sdpaGrad: w.attn.scaledDotProductAttentionGrad(w.q, w.k, w.v, w.g),
    backward: w.layer.backward(w.x, undefined, undefined, w.gx),
    logits: w.model.forward([0, 1, 2, 3]),
    scores: w.attn.headScores([0, 1, 0, 1], { data: new Float32Array(16).fill(0.25), shape: [4, 4] }),
  });
  before(async () => {
    const attn = await createAttention({ simd: false });
    world = {
      attn,
      layer: attn.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 3 }),
      model: attn.transformer(SMALL),
      q: tensor([3, 4], 1),
      k: tensor([5, 4], 2),
      v: tensor([5, 2], 3),
      g: tensor([3, 2], 4),
      x: tensor([3, 4], 5),
      gx: tensor([3, 4], 6),
    };
    world.reference = snapshotOf(world);
  });
  const untouched = (what) =>
    assert.deepEqual(snapshotOf(world), world.reference, `${what} changed another object's results`);

  test('lying lengths, growing Proxies and throwing getters', () => {
    const { attn, layer, model } = world;
    const lying = { data: LyingFloat32.from(ramp(12, 1)), shape: [3, 4] };
    const calls = [
      () => attn.scaledDotProductAttentionGrad(lying, world.k, world.v, world.g),
      () =>
        attn.scaledDotProductAttentionGrad(growingRows([[1, 2, 3, 4]]), world.k, world.v, {
          data: ramp(2),
          shape: [1, 2],
        }),
      () => attn.scaledDotProductAttentionGrad(world.q, throwingGetter(world.k), world.v, world.g),
      () =>
        attn.scaledDotProductAttentionGrad(world.q, world.k, world.v, {
          data: LyingFloat32.from(ramp(6)),
          shape: [3, 2],
        }),
      () => layer.backward(lying, undefined, undefined, world.gx),
      () => layer.backward(world.x, undefined, undefined, throwingGetter(world.gx)),
      () =>
        layer.backward(
          growingRows([
            [1, 2, 3, 4],
            [4, 3, 2, 1],
          ]),
          undefined,
          undefined,
          tensor([2, 4], 1),
        ),
      () => attn.headScores(new LyingInt32([0, 1]), { data: LyingFloat32.from(ramp(4)), shape: [2, 2] }),
      () => attn.lossByPosition({ data: LyingFloat32.from(ramp(14)), shape: [2, 7] }, new LyingInt32([0, 1])),
      () =>
        attn.lossByPosition(
          growingRows([
            [0, 1, 2],
            [1, 2, 3],
          ]),
          growingRows([0, 1]),
        ),
      () =>
        model.forward(
          growingRows([
            [0, 1],
            [1, 2],
          ]),
        ),
      () => model.gradients(new LyingInt32([0, 1, 2]), growingRows([1, 2, 3])),
      () => model.trainStep([0, 1], [1, 2], { learningRate: 0, betas: growingRows([0.9, 0.99]) }),
      () =>
        model.loadState(
          new Proxy(
            {},
            {
              ownKeys() {
                throw new Error('hostile ownKeys');
              },
            },
          ),
        ),
      () => model.loadState({ 'wte.weight': { data: LyingFloat32.from(ramp(56)), shape: [7, 8] } }),
    ];
    calls.forEach((call, i) => {
      survive(call);
      untouched(`call ${i}`);
    });
  });

  test('keys planted on Object.prototype change no result', () => {
    const { attn, layer, model } = world;
    const planted = {
      causal: true,
      needWeights: false,
      scale: 100,
      mask: [[true]],
      attnMask: [[true]],
      keyPaddingMask: [true],
      learningRate: 1,
    };
    Object.assign(Object.prototype, planted);
    let results;
    try {
      results = {
        sdpaGrad: attn.scaledDotProductAttentionGrad(world.q, world.k, world.v, world.g, {}),
        backward: layer.backward(world.x, undefined, undefined, world.gx, {}),
        logits: model.forward([0, 1, 2, 3], {}),
      };
      const before = model.getState();
      model.trainStep([0, 1], [1, 2], { learningRate: 0 });
      assert.deepEqual(model.getState(), before, 'learningRate 0 left the weights as they were');
    } finally {
      for (const key of Object.keys(planted)) delete Object.prototype[key];
    }
    assert.deepEqual(results.sdpaGrad, world.reference.sdpaGrad);
    assert.deepEqual(results.backward, world.reference.backward);
    assert.deepEqual(results.logits, world.reference.logits);
    model.resetOptimizer();
    untouched('planted keys');
  });

  test('fuzz: random entry points with hostile tensors never corrupt another object', () => {
    const { attn, layer, model } = world;
    const square = (t) => ({ data: Array.from({ length: t * t }, () => 1 / t), shape: [t, t] });
    // Each call makes one argument hostile with `twist`; the others are valid.
    const calls = {
      sdpaGradQ: (tw) => attn.scaledDotProductAttentionGrad(tw(world.q), world.k, world.v, world.g),
      sdpaGradOut: (tw) => attn.scaledDotProductAttentionGrad(world.q, world.k, world.v, tw(world.g), { causal: true }),
      sdpaGradBias: (tw) =>
        attn.scaledDotProductAttentionGrad(world.q, world.k, world.v, world.g, { bias: tw(tensor([3, 5], 7)) }),
      backwardQuery: (tw) => layer.backward(tw(world.x), undefined, undefined, world.gx),
      backwardMask: (tw) =>
        layer.backward(world.x, undefined, undefined, world.gx, { attnMask: tw(tensor([3, 3], 8)) }),
      headScoresTokens: (tw) => attn.headScores(tw({ data: [0, 1, 0], shape: [3] }), square(3)),
      headScoresAttention: (tw) => attn.headScores([0, 1, 0], tw(square(3))),
      lossLogits: (tw) => attn.lossByPosition(tw(tensor([3, 7], 2)), [0, 1, -1]),
      lossTargets: (tw) => attn.lossByPosition(tensor([3, 7], 2), tw({ data: [0, 1, -1], shape: [3] })),
      forward: (tw) => model.forward(tw({ data: [0, 1, 2], shape: [1, 3] })),
      gradients: (tw) => model.gradients([0, 1, 2], tw({ data: [1, 2, 3], shape: [3] })),
      trainStep: (tw) => model.trainStep(tw({ data: [0, 1, 2], shape: [3] }), [1, 2, 3], { learningRate: 0 }),
      loadState: (tw) =>
        model.loadState({ ...world.reference.model, 'wte.weight': tw(world.reference.model['wte.weight']) }),
    };
    const twists = fc.oneof(
      fc
        .nat(5000)
        .map((n) => ({ name: `length lies (${n})`, tw: (t) => ({ data: lyingFloat32(t.data, n), shape: t.shape }) })),
      fc.nat(5000).map((n) => ({
        name: `length grows to ${n}`,
        tw: (t) => ({ data: growing(Array.from(t.data), n), shape: t.shape }),
      })),
      fc.nat(40).map((i) => ({
        name: `element ${i} throws`,
        tw: (t) => ({ data: throwingAt(Array.from(t.data), i), shape: t.shape }),
      })),
      fc.constant({ name: 'inherited data and shape', tw: (t) => Object.create(t) }),
      fc.constant({ name: 'Proxy tensor', tw: (t) => new Proxy(t, {}) }),
      fc.constant({
        name: 'shape grows',
        tw: (t) => ({ data: t.data, shape: growing(t.shape.slice(), t.shape.length + 2) }),
      }),
      fc.constant({ name: 'plain', tw: (t) => t }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(calls)), twists, (call, twist) => {
        survive(() => calls[call](twist.tw));
        model.resetOptimizer();
        untouched(`${call} with ${twist.name}`);
      }),
      { numRuns: RUNS },
    );
  });

  test('a getter that disposes the object being called gets an Error, not a crash', async () => {
    const attn = await createAttention({ simd: false });
    const layer = attn.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 3 });
    const model = attn.transformer(SMALL);
    const disposing = (target, base) =>
      Object.defineProperty({ shape: base.shape }, 'data', {
        enumerable: true,
        get() {
          target.dispose();
          return base.data;
        },
      });
    assert.throws(() => layer.backward(world.x, undefined, undefined, disposing(layer, world.gx)), /disposed/);
    assert.throws(() => model.forward(disposing(model, { data: [0, 1], shape: [2] })), /disposed/);
    const model2 = attn.transformer(SMALL);
    assert.throws(() => model2.gradients([0, 1], disposing(model2, { data: [1, 2], shape: [2] })), /disposed/);
    const model3 = attn.transformer(SMALL);
    const state = model3.getState();
    Object.defineProperty(state, 'zz', {
      enumerable: true,
      get() {
        model3.dispose();
        return undefined;
      },
    });
    assert.throws(() => model3.loadState(state), Error);
    assert.throws(
      () => attn.scaledDotProductAttentionGrad(world.q, world.k, world.v, disposing(attn, world.g)),
      /disposed/,
    );
    untouched('disposing getters');
  });
});

function lyingFloat32(data, n) {
  const Lie = class extends Float32Array {
    get length() {
      return n;
    }
  };
  return Lie.from(data);
}

// An array whose `length` is its real length on the first read and `later` afterwards.
function growing(items, later) {
  let reads = 0;
  return new Proxy(items, {
    get(target, key, receiver) {
      if (key === 'length') return reads++ === 0 ? target.length : later;
      return Reflect.get(target, key, receiver);
    },
  });
}

function throwingAt(values, index) {
  Object.defineProperty(values, index % values.length, {
    get: () => {
      throw new Error('hostile getter');
    },
    enumerable: true,
  });
  return values;
}
