// Hostile JavaScript objects against the API: typed-array subclasses whose `length` lies, Proxies
// whose length grows between reads, getters that throw or change their value, keys planted on
// Object.prototype, and writes to the layers' read-only sizes. No call may write outside its own
// buffers: a second layer's weights and results, and a reference call's results, stay identical
// before and after every hostile call. The fuzz part drives random API calls with such objects
// (fast-check; ATTN_ADVERSARIAL_RUNS changes the number of runs).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createAttention } from '../../web/lib/attention.js';

const RUNS = Number(process.env.ATTN_ADVERSARIAL_RUNS) || 300;
const ramp = (count, seed = 1) => Float32Array.from({ length: count }, (_, i) => Math.sin(i * 0.37 + seed));
const tensor = (shape, seed) => ({
  data: ramp(
    shape.reduce((a, b) => a * b, 1),
    seed,
  ),
  shape,
});

// Everything a hostile call could corrupt, read through the API.
function snapshot(world) {
  const { attn, victim } = world;
  return {
    weights: victim.getWeights(),
    forward: victim.forward(world.x, undefined, undefined, { attnMask: world.bias }),
    sdpa: attn.scaledDotProductAttention(world.q, world.k, world.v),
    matmul: attn.matmul(world.q, { data: ramp(16, 9), shape: [4, 4] }),
  };
}

async function makeWorld(simd) {
  const attn = await createAttention({ simd });
  const world = {
    attn,
    victim: attn.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 3 }),
    target: attn.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 4, bias: false }),
    x: tensor([3, 4], 1),
    q: tensor([3, 4], 2),
    k: tensor([5, 4], 3),
    v: tensor([5, 2], 4),
    bias: tensor([3, 3], 5),
  };
  world.reference = snapshot(world);
  return world;
}

function assertUntouched(world, what) {
  assert.deepEqual(snapshot(world), world.reference, `${what} changed another object's results`);
}

// Runs a hostile call: it may return or throw an Error (its own, or one a hostile getter threw),
// but never anything else, and never a NaN in a result.
function survive(call) {
  let result;
  try {
    result = call();
  } catch (err) {
    assert.ok(err instanceof Error, `threw a non-Error: ${String(err)}`);
    return { error: err };
  }
  const scan = (value) => {
    if (value instanceof Float32Array) assert.ok(!value.some(Number.isNaN), 'NaN in a result');
    else if (value && typeof value === 'object') for (const v of Object.values(value)) scan(v);
  };
  scan(result);
  return { result };
}

class LyingLength extends Float32Array {
  get length() {
    return 16;
  }
}

// An array Proxy whose `length` reads `first` once, then `later` forever after.
function growingArray(values, first, later) {
  let reads = 0;
  return new Proxy(values, {
    get(target, key, receiver) {
      if (key === 'length') return reads++ === 0 ? first : later;
      return Reflect.get(target, key, receiver);
    },
  });
}

// An array whose element `index` reads `first` once, then `later`.
function changingElement(values, index, first, later) {
  const out = values.slice();
  let reads = 0;
  Object.defineProperty(out, index, { get: () => (reads++ === 0 ? first : later), enumerable: true });
  return out;
}

for (const simd of [true, false]) {
  describe(`${simd ? 'SIMD' : 'scalar'} build: hostile objects`, () => {
    let world;
    before(async () => {
      world = await makeWorld(simd);
    });

    test('a Float32Array subclass whose length lies is measured by its real length and refused', () => {
      const data = new LyingLength(4096).fill(7);
      assert.equal(data.length, 16);
      assert.throws(
        () => world.target.setWeights({ wq: { data, shape: [4, 4] } }),
        /wq\.data has 4096 values but shape \[4, 4\] needs 16/,
      );
      assert.throws(
        () => world.attn.scaledDotProductAttention({ data, shape: [4, 4] }, world.k, world.v),
        /q\.data has 4096 values/,
      );
      assertUntouched(world, 'a lying length');
      // The same subclass with an honest size is fine.
      world.target.setWeights({ wq: { data: new LyingLength(16).fill(0.5), shape: [4, 4] } });
      assert.deepEqual([...world.target.getWeights().wq.data], new Array(16).fill(0.5));
    });

    test('a Proxy array whose length grows after the check writes nothing past its block', () => {
      const values = Array.from({ length: 4096 }, (_, i) => (i % 7) / 7);
      survive(() => world.target.setWeights({ wk: { data: growingArray(values, 16, 4096), shape: [4, 4] } }));
      assert.deepEqual([...world.target.getWeights().wk.data], values.slice(0, 16).map(Math.fround));
      survive(() =>
        world.target.setWeights({
          wv: growingArray(
            [
              [1, 2, 3, 4],
              [1, 2, 3, 4],
              [1, 2, 3, 4],
              [1, 2, 3, 4],
            ],
            4,
            400,
          ),
        }),
      );
      assertUntouched(world, 'a growing Proxy');
    });

    test('a value that reads 1, then NaN, is read once: the call sees 1', () => {
      const data = changingElement(Array.from(ramp(12, 2)), 0, 1, NaN);
      const got = world.attn.scaledDotProductAttention({ data, shape: [3, 4] }, world.k, world.v);
      const plain = Array.from(ramp(12, 2));
      plain[0] = 1;
      assert.deepEqual(got, world.attn.scaledDotProductAttention({ data: plain, shape: [3, 4] }, world.k, world.v));
      const nested = [changingElement([1, 2, 3, 4], 1, 0.5, NaN), [1, 0, 0, 1], [0, 1, 1, 0]];
      const r = world.attn.scaledDotProductAttention(nested, world.k, world.v);
      assert.deepEqual(
        r,
        world.attn.scaledDotProductAttention(
          [
            [1, 0.5, 3, 4],
            [1, 0, 0, 1],
            [0, 1, 1, 0],
          ],
          world.k,
          world.v,
        ),
      );
    });

    test('options, tensors and state dicts are read from own properties only', () => {
      const plain = world.attn.scaledDotProductAttention(world.q, world.k, world.v);
      const layerPlain = world.victim.forward(world.x);
      const planted = {
        causal: true,
        needWeights: false,
        trace: true,
        mask: { data: [1], shape: [1] },
        attnMask: 'x',
        scale: 99,
        data: [1],
        shape: [1],
      };
      try {
        Object.assign(Object.prototype, planted);
        assert.deepEqual(world.attn.scaledDotProductAttention(world.q, world.k, world.v, {}), plain);
        assert.deepEqual(world.attn.scaledDotProductAttention(world.q, world.k, world.v), plain);
        assert.deepEqual(world.victim.forward(world.x, undefined, undefined, {}), layerPlain);
        // A tensor whose data and shape are inherited is no tensor.
        assert.throws(
          () => world.attn.scaledDotProductAttention(Object.create(world.q), world.k, world.v),
          /q\.shape must be/,
        );
      } finally {
        for (const key of Object.keys(planted)) delete Object.prototype[key];
      }
      const state = Object.create({ 'out_proj.bias': { data: new Float32Array(4), shape: [4] } });
      Object.assign(state, { in_proj_weight: tensor([12, 4], 1), 'out_proj.weight': tensor([4, 4], 2) });
      assert.throws(() => world.victim.loadTorchState(state), /missing "in_proj_bias"/);
      assertUntouched(world, 'prototype keys');
    });

    test('a getter that calls the API from inside a call leaves the outer call its own inputs', () => {
      const plain = world.attn.scaledDotProductAttention(world.q, world.k, world.v);
      const big = tensor([200, 40], 3); // needs more staging space than the first calls used
      for (const inner of [
        () => world.attn.scaledDotProductAttention(tensor([3, 4], 7), world.k, world.v),
        () => world.victim.forward(world.x),
        () => world.attn.matmul(big, tensor([40, 8], 4)),
      ]) {
        const sneaky = {
          shape: [5, 2],
          get data() {
            inner();
            return world.v.data;
          },
        };
        assert.deepEqual(world.attn.scaledDotProductAttention(world.q, world.k, sneaky), plain);
      }
      assertUntouched(world, 'calls from inside a call');
    });

    test("a layer's sizes are read-only: writing them changes nothing the core sees", () => {
      const layer = world.attn.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 8 });
      const before = layer.forward(world.x);
      for (const key of ['embedDim', 'kdim', 'vdim', 'headDim', 'numHeads', 'hasBias'])
        assert.throws(
          () => {
            layer[key] = 8;
          },
          TypeError,
          key,
        ); // strict mode: no setter
      assert.throws(() => Object.defineProperty(layer, 'embedDim', { value: 8 }), TypeError);
      assert.equal(layer.embedDim, 4);
      assert.deepEqual(layer.forward(world.x), before);
      assert.deepEqual(before.output.shape, [3, 4]);
      layer.dispose();
      assertUntouched(world, 'writes to read-only sizes');
    });

    test('attnMask follows PyTorch: boolean hides, floating point adds, other element types are refused', () => {
      const L = world.attn.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 5 });
      const hideLast = [0, 0, 1, 0, 0, 1, 0, 0, 1];
      const hidden = L.forward(world.x, undefined, undefined, {
        attnMask: { data: Uint8Array.from(hideLast), shape: [3, 3] },
      });
      for (let i = 0; i < 3; i++) assert.equal(hidden.weights.data[i * 3 + 2], 0);
      const booleans = [
        [false, false, true],
        [false, false, true],
        [false, false, true],
      ];
      assert.deepEqual(L.forward(world.x, undefined, undefined, { attnMask: booleans }), hidden);
      const added = L.forward(world.x, undefined, undefined, {
        attnMask: { data: Float32Array.from(hideLast), shape: [3, 3] },
      });
      assert.notEqual(added.weights.data[2], 0);
      assert.deepEqual(
        L.forward(world.x, undefined, undefined, { attnMask: { data: Float64Array.from(hideLast), shape: [3, 3] } }),
        added,
      );
      assert.deepEqual(
        L.forward(world.x, undefined, undefined, { attnMask: { data: hideLast, shape: [3, 3] } }),
        added,
      );
      for (const Type of [Int32Array, Uint8ClampedArray, Int8Array, Uint16Array])
        assert.throws(
          () => L.forward(world.x, undefined, undefined, { attnMask: { data: Type.from(hideLast), shape: [3, 3] } }),
          new RegExp(
            `options\\.attnMask must be boolean \\(a Uint8Array or booleans.*floating point \\(a Float32Array, Float64Array or numbers.*got a ${Type.name}`,
          ),
        );
      L.dispose();
      assertUntouched(world, 'attnMask kinds');
    });

    test('fuzz: random calls with hostile objects never corrupt another object', () => {
      const calls = hostileCalls(world);
      fc.assert(
        fc.property(fc.constantFrom(...Object.keys(calls)), hostileArgument(), (call, twist) => {
          survive(() => calls[call](twist));
          assert.deepEqual(snapshot(world), world.reference, `${call} with ${twist.name}`);
        }),
        { numRuns: RUNS },
      );
    });

    after(() => {
      world.target.dispose();
      world.victim.dispose();
    });
  });
}

// A way to make a valid tensor { data, shape } hostile; `apply(t)` returns the hostile version.
function hostileArgument() {
  const lie = fc.integer({ min: 0, max: 5000 });
  const index = fc.nat(15);
  return fc.oneof(
    lie.map((n) => ({ name: `length lies (${n})`, apply: (t) => ({ data: lyingCopy(t.data, n), shape: t.shape }) })),
    fc.tuple(lie, lie).map(([a, b]) => ({
      name: `length grows ${a} → ${b}`,
      apply: (t) => ({ data: growingArray(padded(t.data, Math.max(a, b)), a, b), shape: t.shape }),
    })),
    index.map((i) => ({
      name: `element ${i} throws`,
      apply: (t) => ({ data: throwingElement(Array.from(t.data), i), shape: t.shape }),
    })),
    fc.tuple(index, fc.constantFrom(NaN, Infinity, -Infinity, 1e39, '1', null, {})).map(([i, later]) => ({
      name: `element ${i} changes to ${String(later)}`,
      apply: (t) => ({ data: changingElement(Array.from(t.data), i % t.data.length, 0.25, later), shape: t.shape }),
    })),
    fc.constant({
      name: 'shape grows',
      apply: (t) => ({ data: t.data, shape: growingArray(t.shape.slice(), t.shape.length, t.shape.length + 3) }),
    }),
    fc.constant({ name: 'inherited data and shape', apply: (t) => Object.create(t) }),
    fc.constant({ name: 'data getter changes', apply: (t) => changingGetter(t) }),
    fc.constant({
      name: 'shape getter throws',
      apply: (t) => ({
        data: t.data,
        get shape() {
          throw new Error('boom');
        },
      }),
    }),
    fc.constant({ name: 'Proxy tensor', apply: (t) => new Proxy(t, {}) }),
    fc.constant({ name: 'plain', apply: (t) => t }),
  );
}

function lyingCopy(data, n) {
  const Lie = class extends Float32Array {
    get length() {
      return n;
    }
  };
  return Lie.from(data);
}

const padded = (data, count) => Array.from({ length: Math.max(count, data.length) }, (_, i) => data[i % data.length]);

function throwingElement(values, index) {
  Object.defineProperty(values, index % values.length, {
    get: () => {
      throw new Error('hostile getter');
    },
    enumerable: true,
  });
  return values;
}

function changingGetter(t) {
  let reads = 0;
  return {
    get data() {
      return reads++ === 0 ? t.data : new Float32Array(4096);
    },
    shape: t.shape,
  };
}

// API calls taking one hostile tensor in place of a valid one of the same shape.
function hostileCalls(world) {
  const { attn, target } = world;
  const h = (shape, seed) => (twist) => twist.apply(tensor(shape, seed));
  return {
    'sdpa q': (twist) => attn.scaledDotProductAttention(h([3, 4], 2)(twist), world.k, world.v),
    'sdpa v': (twist) => attn.scaledDotProductAttention(world.q, world.k, h([5, 2], 4)(twist), { needWeights: false }),
    'sdpa mask': (twist) =>
      attn.scaledDotProductAttention(world.q, world.k, world.v, {
        mask: twist.apply({ data: new Uint8Array(15), shape: [3, 5] }),
      }),
    'sdpa bias': (twist) =>
      attn.scaledDotProductAttention(world.q, world.k, world.v, { bias: h([3, 5], 6)(twist), trace: true }),
    'setWeights wq': (twist) => target.setWeights({ wq: h([4, 4], 7)(twist) }),
    'setWeights wo': (twist) => target.setWeights({ wo: h([4, 4], 8)(twist) }),
    'forward query': (twist) => target.forward(h([3, 4], 9)(twist)),
    'forward attnMask': (twist) => target.forward(world.x, undefined, undefined, { attnMask: h([3, 3], 10)(twist) }),
    'forward keyPaddingMask': (twist) =>
      target.forward(world.x, undefined, undefined, {
        keyPaddingMask: twist.apply({ data: new Uint8Array(3), shape: [3] }),
      }),
    loadTorchState: (twist) =>
      target.loadTorchState({ in_proj_weight: h([12, 4], 11)(twist), 'out_proj.weight': tensor([4, 4], 12) }),
    matmul: (twist) => attn.matmul(h([2, 4], 13)(twist), tensor([4, 3], 14)),
    softmax: (twist) => attn.lessons.softmax(h([2, 5], 15)(twist)),
    rowStats: (twist) => attn.lessons.rowStats(h([2, 5], 16)(twist)),
  };
}
