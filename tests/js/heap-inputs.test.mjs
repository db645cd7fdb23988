// Float32Array inputs of the attention calls go straight into WebAssembly memory, once every
// argument has been read, and the core checks that copy (web/lib/read-input.js, readFloatInput;
// wasm-heap.js, writeFloatInput). These tests hold that path to the guarantees of the one it
// replaced: a bad value anywhere (in the SIMD blocks, the single batches and the scalar tail of the
// scan) is named exactly, a buffer that a later argument's getter detaches, shrinks or grows gives
// an Error naming the argument and leaves the module working, a value rewritten by such a getter
// is checked before it is used, and overflow is still caught in the result.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/lib/attention.js';

const ramp = (count, seed = 1) => Float32Array.from({ length: count }, (_, i) => Math.sin(i * 0.37 + seed));
const tensor = (shape, seed) => ({
  data: ramp(
    shape.reduce((a, b) => a * b, 1),
    seed,
  ),
  shape,
});
const hasNaN = (data) => data.some(Number.isNaN);

for (const simd of [true, false]) {
  describe(`${simd ? 'SIMD' : 'scalar'} build: inputs copied straight into WebAssembly memory`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    test('a NaN or ±Infinity at any index of q, k or v is named by its index, whatever the length', () => {
      for (const rows of [1, 3, 4, 5, 16, 17, 33]) {
        const d = 3; // rows × 3 values: every remainder of the scan's blocks of 16 and batches of 4
        const q = tensor([rows, d], 1),
          k = tensor([rows, d], 2),
          v = tensor([rows, d], 3);
        const length = rows * d;
        for (const index of new Set(
          [0, 1, 3, 4, 15, 16, 17, length - 2, length - 1].filter((i) => i >= 0 && i < length),
        )) {
          for (const [name, bad] of [
            ['q', NaN],
            ['k', Infinity],
            ['v', -Infinity],
          ]) {
            const args = { q, k, v };
            const data = args[name].data.slice();
            data[index] = bad;
            if (index + 1 < length) data[length - 1] = NaN; // a later bad value is not the one named
            args[name] = { data, shape: [rows, d] };
            assert.throws(
              () => attn.scaledDotProductAttention(args.q, args.k, args.v),
              new RegExp(`^Error: ${name}\\.data\\[${index}\\] is ${String(bad)}`),
              `${name} length ${length} index ${index}`,
            );
          }
        }
      }
      assert.ok(
        !hasNaN(attn.scaledDotProductAttention(tensor([3, 4], 1), tensor([5, 4], 2), tensor([5, 2], 3)).output.data),
      );
    });

    test('values at the edges of float32 pass: the largest finite, subnormals and −0', () => {
      const edge = Float32Array.of(3.4028234663852886e38, -3.4028234663852886e38, 1e-45, -0, 1, -1, 2, 0.5);
      const r = attn.matmul({ data: edge, shape: [2, 4] }, { data: new Float32Array(8), shape: [4, 2] });
      assert.deepEqual([...r.data], [0, 0, 0, 0]);
      const big = { data: Float32Array.of(3.4028234663852886e38, 1e-45), shape: [1, 2] };
      assert.doesNotThrow(() =>
        attn.scaledDotProductAttention({ data: Float32Array.of(0, 0), shape: [1, 2] }, big, big),
      );
    });

    test('matmul and the multi-head layer name a bad value of a Float32Array input', () => {
      const a = tensor([5, 4], 1);
      a.data[13] = NaN;
      assert.throws(() => attn.matmul(a, tensor([4, 3], 2)), /^Error: a\.data\[13\] is NaN/);
      const b = tensor([4, 3], 2);
      b.data[11] = -Infinity;
      assert.throws(() => attn.matmul(tensor([5, 4], 1), b), /^Error: b\.data\[11\] is -Infinity/);
      const layer = attn.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 1 });
      const x = tensor([3, 4], 4);
      const bad = { data: x.data.slice(), shape: [3, 4] };
      bad.data[6] = Infinity;
      assert.throws(() => layer.forward(bad), /^Error: query\.data\[6\] is Infinity/);
      assert.throws(() => layer.forward(x, bad, x), /^Error: key\.data\[6\] is Infinity/);
      assert.throws(() => layer.forward(x, x, bad), /^Error: value\.data\[6\] is Infinity/);
      layer.dispose();
    });

    test('forward(x, x, x) gives exactly what forward(x) gives', () => {
      const layer = attn.multiHeadAttention({ embedDim: 8, numHeads: 2, seed: 2 });
      const x = tensor([2, 5, 8], 5);
      assert.deepEqual(layer.forward(x, x, x), layer.forward(x));
      assert.deepEqual(
        layer.forward(x, { data: x.data, shape: [2, 5, 8] }, x, { needWeights: false }),
        layer.forward(x, undefined, undefined, { needWeights: false }),
      );
      layer.dispose();
    });

    test('a key and value of the query’s shape but other numbers stay their own, from any kind of array', () => {
      const layer = attn.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 3, bias: true });
      const x = tensor([3, 4], 1);
      const memory = tensor([3, 4], 9);
      const reference = layer.forward(x, memory, memory);
      for (const kind of [(a) => Float64Array.from(a), (a) => Array.from(a)]) {
        const as = (t) => ({ data: kind(t.data), shape: t.shape });
        assert.deepEqual(layer.forward(as(x), as(memory), as(memory)), reference);
        assert.notDeepEqual(layer.forward(as(x), as(memory), as(memory)).output, layer.forward(as(x)).output);
      }
      layer.dispose();
    });

    test("a later argument's getter that detaches, shrinks or grows an earlier Float32Array gives an Error naming it", () => {
      const reference = attn.scaledDotProductAttention(tensor([3, 4], 1), tensor([5, 4], 2), tensor([5, 2], 3));
      const withGetter = (effect) => ({
        shape: [5, 2],
        get data() {
          effect();
          return tensor([5, 2], 3).data;
        },
      });

      const detached = tensor([3, 4], 1);
      assert.throws(
        () =>
          attn.scaledDotProductAttention(
            detached,
            tensor([5, 4], 2),
            withGetter(() => structuredClone(detached.data.buffer, { transfer: [detached.data.buffer] })),
          ),
        /^Error: q\.data is a Float32Array whose ArrayBuffer was detached/,
      );

      const resizable = new ArrayBuffer(20 * 4, { maxByteLength: 64 * 4 });
      const k = new Float32Array(resizable);
      k.set(tensor([5, 4], 2).data);
      assert.throws(
        () =>
          attn.scaledDotProductAttention(
            tensor([3, 4], 1),
            { data: k, shape: [5, 4] },
            withGetter(() => resizable.resize(8 * 4)),
          ),
        /^Error: k\.data has 8 values but shape \[5, 4\] needs 20/,
      );
      resizable.resize(20 * 4);
      k.set(tensor([5, 4], 2).data);
      assert.throws(
        () =>
          attn.scaledDotProductAttention(
            tensor([3, 4], 1),
            { data: k, shape: [5, 4] },
            withGetter(() => resizable.resize(40 * 4)),
          ),
        /^Error: k\.data has 40 values but shape \[5, 4\] needs 20/,
      );

      const growable = new SharedArrayBuffer(12 * 4, { maxByteLength: 64 * 4 });
      const q = new Float32Array(growable);
      q.set(tensor([3, 4], 1).data);
      assert.throws(
        () =>
          attn.scaledDotProductAttention(
            { data: q, shape: [3, 4] },
            tensor([5, 4], 2),
            withGetter(() => growable.grow(16 * 4)),
          ),
        /^Error: q\.data has 16 values but shape \[3, 4\] needs 12/,
      );

      assert.deepEqual(
        attn.scaledDotProductAttention(tensor([3, 4], 1), tensor([5, 4], 2), tensor([5, 2], 3)),
        reference,
      );
    });

    test("a later argument's getter that writes NaN into an earlier Float32Array: the value used is the value checked", () => {
      const q = tensor([3, 4], 1);
      const sneaky = {
        shape: [5, 2],
        get data() {
          q.data[7] = NaN;
          return tensor([5, 2], 3).data;
        },
      };
      assert.throws(() => attn.scaledDotProductAttention(q, tensor([5, 4], 2), sneaky), /^Error: q\.data\[7\] is NaN/);
      const fine = tensor([3, 4], 1);
      const rewrite = {
        shape: [5, 2],
        get data() {
          fine.data.fill(0.5);
          return tensor([5, 2], 3).data;
        },
      };
      const got = attn.scaledDotProductAttention(fine, tensor([5, 4], 2), rewrite);
      const halves = { data: new Float32Array(12).fill(0.5), shape: [3, 4] };
      assert.deepEqual(got, attn.scaledDotProductAttention(halves, tensor([5, 4], 2), tensor([5, 2], 3)));
    });

    test("scores that overflow float32 are still an Error from the core's scan of the result", () => {
      const huge = { data: new Float32Array(4 * 64).fill(1e20), shape: [4, 64] };
      for (const needWeights of [true, false])
        assert.throws(
          () => attn.scaledDotProductAttention(huge, huge, huge, { needWeights }),
          /the attention scores overflow float32/,
        );
      const layer = attn.multiHeadAttention({ embedDim: 4, numHeads: 1, seed: 1, bias: false });
      layer.setWeights({
        wq: { data: new Float32Array(16).fill(1e19), shape: [4, 4] },
        wk: { data: new Float32Array(16).fill(1e19), shape: [4, 4] },
      });
      assert.throws(
        () => layer.forward({ data: new Float32Array(12).fill(1), shape: [3, 4] }),
        /the attention scores overflow float32/,
      );
      layer.dispose();
    });
  });
}
