// Hostile inputs to the newest surfaces, each refused with an Error naming the argument (or given
// the right answer), never passed on to the core where it would be read differently: integers that
// a 32-bit size_t would wrap (maxLength, attentionWindow, blockRows), results beyond float32,
// detached buffers, and callbacks that change the model under a generation.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/lib/attention.js';
import { decodeSafetensors, safetensorsHeaderSize } from '../../web/lib/safetensors.js';

const CONFIG = { vocabSize: 11, contextLength: 8, dModel: 8, numLayers: 1, numHeads: 2 };
const ROPE = { ...CONFIG, positions: 'rope' };

// `view` after its ArrayBuffer was transferred away (as postMessage with a transfer list does).
function detach(view) {
  structuredClone(view.buffer, { transfer: [view.buffer] });
  return view;
}

describe('hostile review', () => {
  let attn;
  before(async () => {
    attn = await createAttention();
  });

  test('maxLength beyond the core bound is refused, not wrapped to 32 bits', () => {
    const model = attn.transformer(ROPE);
    try {
      for (const maxLength of [2 ** 24 + 1, 2 ** 32, 2 ** 32 + 5, 2 ** 53 - 1]) {
        assert.throws(() => model.decoder({ maxLength }), /maxLength must be at most 16777216/, `decoder ${maxLength}`);
        assert.throws(
          () => model.generate([1], { maxLength, maxNewTokens: 2 }),
          /maxLength must be at most 16777216/,
          `generate ${maxLength}`,
        );
      }
      const decoder = model.decoder({ maxLength: 12 });
      assert.equal(decoder.maxLength, 12);
      decoder.append([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2], { needWeights: false });
      assert.equal(decoder.length, 12);
      assert.equal(model.generate([1], { maxLength: 2 ** 24, maxNewTokens: 3, temperature: 0 }).tokens.length, 4);
    } finally {
      model.dispose();
    }
  });

  test('attentionWindow beyond 32 bits is refused, not wrapped into another window', () => {
    for (const attentionWindow of [2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 1])
      assert.throws(
        () => attn.transformer({ ...ROPE, attentionWindow }),
        /attentionWindow must be at most 2147483647/,
        String(attentionWindow),
      );
    const wide = attn.transformer({ ...ROPE, seed: 4, attentionWindow: 2 ** 31 - 1 });
    const none = attn.transformer({ ...ROPE, seed: 4 });
    try {
      assert.deepEqual(wide.forward([1, 2, 3, 4, 5]).logits, none.forward([1, 2, 3, 4, 5]).logits);
    } finally {
      wide.dispose();
      none.dispose();
    }
  });

  test('flashAttention: a block larger than 32 bits is one block, as any block of n rows or m columns is', () => {
    const q = [
      [1, 0],
      [0, 1],
      [1, 1],
      [2, 0],
      [0, 3],
    ];
    const k = [
      [1, 0],
      [0, 1],
      [3, 1],
    ];
    const v = [
      [1, 2],
      [3, 4],
      [5, 6],
    ];
    const flash = (options) => attn.lessons.flashAttention(q, k, v, options);
    const whole = flash({ blockRows: 5, blockCols: 3 });
    for (const huge of [2 ** 32 + 1, 2 ** 33 + 2, 2 ** 40]) {
      assert.deepEqual(flash({ blockRows: huge, blockCols: 3 }), whole, `blockRows ${huge}`);
      assert.deepEqual(flash({ blockRows: 5, blockCols: huge }), whole, `blockCols ${huge}`);
    }
    assert.deepEqual(flash({ blockRows: 2 ** 32 + 1, blockCols: 2 }), flash({ blockRows: 5, blockCols: 2 }));
  });

  test('rope refuses a rotation that overflows float32 instead of returning ±Infinity', () => {
    const big = { data: new Float32Array(8).fill(3e38), shape: [2, 4] };
    assert.throws(() => attn.rope(big), /rope: x's rotated values overflow float32 .*scale x down/);
    // Position 0 turns nothing, so the same values there come back as they are.
    assert.deepEqual(attn.rope(big, { positions: [0, 0] }).data, big.data);
    const after = attn.rope([
      [1, 2],
      [3, 4],
    ]);
    assert.ok(after.data.every(Number.isFinite));
  });

  test('rope: positions in a detached buffer are refused naming options.positions', () => {
    const positions = Float64Array.of(0, 1);
    structuredClone(positions.buffer, { transfer: [positions.buffer] });
    assert.throws(
      () =>
        attn.rope(
          [
            [1, 2],
            [3, 4],
          ],
          { positions },
        ),
      /options.positions is a Float64Array whose ArrayBuffer was detached \(transferred\); pass a copy/,
    );
    const ints = Int32Array.of(0, 1);
    structuredClone(ints.buffer, { transfer: [ints.buffer] });
    assert.throws(
      () => attn.rope([[1, 2]], { positions: ints }),
      /options.positions is an Int32Array whose ArrayBuffer was detached/,
    );
  });

  test('generate stops with an Error when onToken changes the parameters under its cache', () => {
    const model = attn.transformer({ ...CONFIG, seed: 3 });
    const other = attn.transformer({ ...CONFIG, seed: 9 });
    const tokens = [1, 2, 3, 4, 5, 6, 7, 0];
    const targets = [2, 3, 4, 5, 6, 7, 0, 1];
    try {
      const changed = /generate: onToken changed the model's parameters \(trainStep or loadState\)/;
      assert.throws(
        () => model.generate([1], { temperature: 0, onToken: () => model.trainStep(tokens, targets) }),
        changed,
      );
      const state = other.getState();
      assert.throws(() => model.generate([1], { temperature: 0, onToken: () => model.loadState(state) }), changed);
      // Stopping in the same callback keeps the tokens drawn before the change.
      const stopped = model.generate([1], {
        temperature: 0,
        onToken: () => {
          model.loadState(state);
          return false;
        },
      });
      assert.equal(stopped.tokens.length, 2);
      // A model changed between two generations generates as a fresh one with its parameters does.
      const fresh = attn.transformer({ ...CONFIG, seed: 5 });
      fresh.loadState(state);
      assert.deepEqual(model.generate([1], { temperature: 0 }).tokens, fresh.generate([1], { temperature: 0 }).tokens);
      fresh.dispose();
    } finally {
      model.dispose();
      other.dispose();
    }
  });

  test('safetensors bytes in a detached buffer are refused naming them, before and during a load', async () => {
    const model = attn.transformer(CONFIG);
    const file = model.toSafetensors();
    try {
      for (const [bytes, kind] of [
        [detach(file.slice()), 'a Uint8Array'],
        [detach(file.slice()).buffer, 'an ArrayBuffer'],
        [detach(new DataView(file.slice().buffer)), 'a DataView'],
      ]) {
        const gone = new RegExp(
          `(bytes|source) is ${kind} whose ArrayBuffer was detached \\(transferred\\); pass a copy`,
        );
        assert.throws(() => decodeSafetensors(bytes), gone);
        assert.throws(() => safetensorsHeaderSize(bytes), gone);
        assert.throws(() => attn.transformerFromSafetensors(bytes, CONFIG), gone);
        await assert.rejects(attn.loadTransformer(bytes, CONFIG), gone);
      }
      const copy = file.slice();
      await assert.rejects(
        attn.loadTransformer(copy, CONFIG, { onProgress: () => copy.buffer.byteLength && detach(copy) }),
        /source's ArrayBuffer was detached \(transferred\) during the load; pass a copy/,
      );
      const again = await attn.loadTransformer(file, CONFIG);
      assert.deepEqual(again.getState(), model.getState());
      again.dispose();
    } finally {
      model.dispose();
    }
  });

  test('loadTransformer rejects when onProgress aborts at the last progress, as at any other', async () => {
    const model = attn.transformer(CONFIG);
    const file = model.toSafetensors();
    model.dispose();
    for (const source of [file, new Blob([file])]) {
      const controller = new AbortController();
      const onProgress = ({ loaded, total }) => loaded === total && controller.abort();
      await assert.rejects(attn.loadTransformer(source, CONFIG, { signal: controller.signal, onProgress }), {
        name: 'AbortError',
      });
    }
  });

  test('generate and decoder refuse a token list longer than they take before reading its ids', () => {
    const model = attn.transformer(CONFIG);
    try {
      // A Proxy counts the ids read: a sparse array of 2**31 - 1 holes costs nothing to make, but
      // reading every hole before the length check ran Node out of memory (a fatal abort).
      let reads = 0;
      const counted = new Proxy(new Array(2 ** 20), {
        get: (target, key) => (key === 'length' ? target.length : (reads++, target[key])),
      });
      assert.throws(() => model.generate(counted), /prompt has 1048576 tokens, more than maxLength \(8\)/);
      const decoder = model.decoder();
      decoder.append([1, 2]);
      assert.throws(
        () => decoder.append(counted),
        /decoder.append: appending 1048576 tokens to the 2 already seen would pass maxLength \(8\)/,
      );
      assert.throws(() => decoder.sample(counted), /appending 1048576 tokens/);
      assert.equal(reads, 0);
      assert.throws(() => model.generate(new Array(2 ** 31 - 1)), /prompt has 2147483647 tokens/);
      assert.throws(() => decoder.append(new Array(2 ** 31 - 1)), /appending 2147483647 tokens/);
      assert.equal(decoder.length, 2);
      assert.equal(decoder.append([3, 4, 5, 6, 7, 8]).logits.shape[0], 6);
    } finally {
      model.dispose();
    }
  });

  test('a tensor, token list, mask or positions list full of holes is refused at its first hole, not read to the end', () => {
    // A sparse array costs nothing to make; reading its 2**29 holes one by one took gigabytes and
    // Node aborted. A Proxy counts the elements read.
    let reads = 0;
    const holes = (length) =>
      new Proxy(new Array(length), { get: (t, key) => (key === 'length' ? t.length : (reads++, t[key])) });
    const model = attn.transformer(CONFIG);
    try {
      const cases = [
        [() => attn.scaledDotProductAttention(holes(2 ** 20), [[1]], [[1]]), /q\[0\] is undefined, expected a number/],
        [
          () => attn.scaledDotProductAttention({ data: holes(2 ** 20), shape: [2 ** 20, 1] }, [[1]], [[1]]),
          /q\.data\[0\] is undefined, expected a number/,
        ],
        [
          () => attn.scaledDotProductAttention([[1]], [[1]], [[1]], { mask: [holes(1)] }),
          /mask\[0\]\[0\] is undefined/,
        ],
        [() => model.forward(holes(2 ** 20)), /tokens\[0\] is undefined/],
        [() => model.forward([[1, 2], holes(2)]), /tokens\[1\]\[0\] is undefined/],
        [
          () => attn.rope([[1, 2]], { positions: holes(2 ** 20) }),
          /options\.positions must hold one position per row of x \(T = 1\), got 1048576/,
        ],
      ];
      for (const [call, message] of cases) {
        reads = 0;
        assert.throws(call, message);
        assert.ok(reads <= 1, `${reads} elements read`);
      }
      assert.throws(() => attn.scaledDotProductAttention(new Array(2 ** 29), [[1]], [[1]]), /q\[0\] is undefined/);
      assert.throws(() => model.forward(new Array(2 ** 29)), /tokens\[0\] is undefined/);
      assert.equal(attn.scaledDotProductAttention([[1, 0]], [[1, 0]], [[2]]).output.data[0], 2);
    } finally {
      model.dispose();
    }
  });
});
