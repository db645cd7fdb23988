// Opening and saving checkpoints: transformerFromSafetensors and attn.loadTransformer (bytes, Blob,
// stream, URL) put every parameter exactly where the file says, from F32, F16, BF16 and F64, with
// or without the "transformer." prefix and the mask buffers; progress, cancellation (the half-built
// model is freed), the buffers a model does not use, bad files, memory (no gradients or Adam
// moments until training) and toSafetensors / toSafetensorsAsync. GPT-2-shaped files of a small size
// are made at test time by tests/js/support/gpt2-checkpoint.mjs (the full GPT-2-small size is in
// checkpoint-gpt2.test.mjs, run by `npm run test:long`). Both builds.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';

import { modules } from './support/module-spy.mjs';
import { expectedValue, firstMismatch, writeGpt2Checkpoint } from './support/gpt2-checkpoint.mjs';

const { createAttention } = await import('../../web/lib/attention.js');
const { decodeSafetensors, encodeSafetensors } = await import('../../web/lib/safetensors.js');

const CONFIG = { vocabSize: 300, contextLength: 24, dModel: 32, numLayers: 2, numHeads: 4 };
const HF_CONFIG = { model_type: 'gpt2', vocab_size: 300, n_positions: 24, n_embd: 32, n_layer: 2, n_head: 4 };
const RUNS = Number(process.env.ATTN_PROPERTY_RUNS ?? 30);
const dir = mkdtempSync(join(tmpdir(), 'attn-checkpoint-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** A checkpoint written to a temporary file: → { path, bytes }. */
function checkpoint(options = {}, config = CONFIG) {
  const path = join(dir, `c${files++}.safetensors`);
  writeGpt2Checkpoint(path, config, options);
  return { path, bytes: new Uint8Array(readFileSync(path)) };
}

/** A ReadableStream of `bytes` in pieces of the given sizes (cycled). */
function streamOf(bytes, sizes = [333]) {
  let at = 0;
  let k = 0;
  return new ReadableStream(
    {
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        const n = sizes[k++ % sizes.length];
        controller.enqueue(bytes.slice(at, at + n));
        at += n;
      },
    },
    { highWaterMark: 0 },
  );
}

/** A local HTTP server: path → bytes (or a function (req, res)); → { url(path), close() }. */
async function serve(routes) {
  const server = createServer((req, res) => {
    const route = routes[req.url];
    if (typeof route === 'function') return route(req, res);
    if (!route) return res.writeHead(404).end();
    res.writeHead(200, { 'content-length': route.length }).end(Buffer.from(route));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const heapOf = () => [...modules].map((m) => m._heapBytesInUse());
const stateEqual = (a, b) => Object.keys(a).every((k) => a[k].data.every((x, i) => Object.is(x, b[k].data[i])));

for (const simd of [true, false]) {
  describe(`checkpoints, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    test('opens F32, F16, BF16 and F64 checkpoints, with or without the "transformer." prefix and the mask buffers: every parameter exactly as written', () => {
      for (const dtype of ['F32', 'F16', 'BF16', 'F64']) {
        for (const [prefix, masks] of [
          ['', true],
          ['transformer.', false],
          ['transformer.', true],
          ['', false],
        ]) {
          const { bytes } = checkpoint({ dtype, prefix, masks });
          const model = attn.transformerFromSafetensors(bytes, prefix ? HF_CONFIG : CONFIG);
          try {
            assert.equal(
              firstMismatch(model.getState(), CONFIG, dtype),
              null,
              `${dtype}, prefix "${prefix}", masks ${masks}`,
            );
          } finally {
            model.dispose();
          }
        }
      }
    });

    test('opens the same file asynchronously from bytes, a Blob, a stream in odd pieces and a URL whose config.json sits beside it', async () => {
      const { path, bytes } = checkpoint({ dtype: 'F16', masks: true });
      const server = await serve({
        '/m/model.safetensors': bytes,
        '/m/config.json': new TextEncoder().encode(JSON.stringify(HF_CONFIG)),
      });
      try {
        const sources = [
          ['bytes', bytes, CONFIG],
          ['ArrayBuffer', bytes.slice().buffer, CONFIG],
          ['Blob', await openAsBlob(path), HF_CONFIG],
          ['stream', streamOf(bytes, [1, 7, 333, 4096, 3]), CONFIG],
          ['Response', new Response(streamOf(bytes)), CONFIG],
          ['URL', server.url('/m/model.safetensors'), undefined],
          ['URL object', new URL(server.url('/m/model.safetensors')), CONFIG],
        ];
        for (const [what, source, config] of sources) {
          const model = await attn.loadTransformer(source, config);
          try {
            assert.deepEqual(
              { ...model.config },
              {
                ...CONFIG,
                mlp: true,
                layerNorm: true,
                positions: 'learned',
                tieEmbeddings: true,
                init: 'pytorch',
                seed: 0,
                ropeBase: 10000,
                numKVHeads: 4,
                attentionWindow: null,
              },
              what,
            );
            assert.equal(firstMismatch(model.getState(), CONFIG, 'F16'), null, what);
          } finally {
            model.dispose();
          }
        }
      } finally {
        await server.close();
      }
    });

    test('property: however a stream is cut into pieces, the parameters are the same', async () => {
      const { bytes } = checkpoint({ dtype: 'BF16', masks: true }, { ...CONFIG, vocabSize: 40, numLayers: 1 });
      const config = { ...CONFIG, vocabSize: 40, numLayers: 1 };
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 8 }), async (sizes) => {
          const model = await attn.loadTransformer(streamOf(bytes, sizes), config);
          try {
            assert.equal(firstMismatch(model.getState(), config, 'BF16'), null);
          } finally {
            model.dispose();
          }
        }),
        { numRuns: RUNS },
      );
    });

    test('reports progress in order, from the header to the whole file', async () => {
      const { path, bytes } = checkpoint({ dtype: 'F32' });
      for (const source of [bytes, await openAsBlob(path), streamOf(bytes, [5000])]) {
        const seen = [];
        const model = await attn.loadTransformer(source, CONFIG, { onProgress: (p) => seen.push(p) });
        model.dispose();
        assert.ok(seen.length >= 2, 'at least the header and the end');
        assert.ok(
          seen.every((p) => p.total === bytes.length),
          'total is the file size',
        );
        assert.ok(
          seen.every((p, i) => i === 0 || p.loaded > seen[i - 1].loaded),
          'loaded grows',
        );
        const headerBytes = 8 + new DataView(bytes.buffer).getUint32(0, true);
        assert.ok(seen[0].loaded >= headerBytes && seen[0].loaded < bytes.length);
        assert.equal(seen.at(-1).loaded, bytes.length);
      }
    });

    test('an AbortSignal stops a load: it rejects with an AbortError and frees the half-built model', async () => {
      const { path, bytes } = checkpoint({ dtype: 'F16' });
      const model = await attn.loadTransformer(bytes, CONFIG); // the heap's size once one model was made
      model.dispose();
      const heap = heapOf();
      const already = new AbortController();
      already.abort();
      await assert.rejects(attn.loadTransformer(bytes, CONFIG, { signal: already.signal }), { name: 'AbortError' });
      const stalled = new ReadableStream({
        pull() {
          return new Promise(() => {});
        },
      }); // never gives a byte
      for (const source of [bytes, await openAsBlob(path), streamOf(bytes, [64]), stalled]) {
        const controller = new AbortController();
        let calls = 0;
        const onProgress = () => {
          if (++calls === 1) controller.abort();
        };
        if (source === stalled) setTimeout(() => controller.abort(), 20);
        await assert.rejects(
          attn.loadTransformer(source, CONFIG, { signal: controller.signal, onProgress }),
          (err) => err.name === 'AbortError' && err instanceof Error,
        );
        assert.deepEqual(heapOf(), heap, 'the half-built model and the staging are freed');
      }
      const reason = new Error('the user closed the dialog');
      const controller = new AbortController();
      const load = attn.loadTransformer(streamOf(bytes, [100]), CONFIG, {
        signal: controller.signal,
        onProgress: () => controller.abort(reason),
      });
      await assert.rejects(load, (err) => err === reason, 'a reason given to abort() is what the load rejects with');
    });

    test('cancelling a download from a slow server rejects at once and frees the model', async () => {
      const { bytes } = checkpoint({ dtype: 'F32' });
      const server = await serve({
        '/slow.safetensors': (req, res) => {
          res.writeHead(200, { 'content-length': bytes.length });
          res.write(Buffer.from(bytes.subarray(0, bytes.length >> 1))); // half, then nothing more
        },
      });
      const heap = heapOf();
      try {
        const controller = new AbortController();
        const load = attn.loadTransformer(server.url('/slow.safetensors'), CONFIG, {
          signal: controller.signal,
          onProgress: ({ loaded }) => {
            if (loaded > bytes.length / 3) controller.abort();
          },
        });
        await assert.rejects(load, { name: 'AbortError' });
        assert.deepEqual(heapOf(), heap);
      } finally {
        server.closeAllConnections?.();
        await server.close();
      }
    });

    test('a file of several slices loads exactly while the event loop keeps running', async () => {
      const config = { ...CONFIG, vocabSize: 50257, dModel: 160, numHeads: 4, numLayers: 1 }; // 33 MB: two 16 MiB slices and a bit
      const { path, bytes } = checkpoint({ dtype: 'F32' }, config);
      for (const source of [bytes, await openAsBlob(path)]) {
        let ticks = 0;
        let running = true;
        const tick = () => {
          ticks++;
          if (running) setTimeout(tick, 0);
        };
        setTimeout(tick, 0);
        const seen = [];
        const model = await attn.loadTransformer(source, config, { onProgress: (p) => seen.push(p.loaded) });
        running = false;
        try {
          assert.equal(seen.length, 3, 'the header, then each of the two slices');
          assert.ok(seen[1] - seen[0] > 16e6 && seen[2] === bytes.length);
          // Reading a Blob is real I/O: the event loop runs between its slices. (From bytes in
          // memory the load yields once it has worked ~30 ms without a break.)
          if (source !== bytes) assert.ok(ticks >= 1, 'timers ran while the Blob was read');
          assert.equal(firstMismatch(model.getState(), config, 'F32', { sample: true }), null);
        } finally {
          model.dispose();
        }
      }
    });

    test('tensors a model does not use never make opening fail: position_ids, BOOL masks, masked_bias', async () => {
      const ids = {
        name: 'transformer.position_ids',
        dtype: 'I64',
        shape: [1, 24],
        bytes: new Uint8Array(new BigInt64Array(24).map((_, i) => BigInt(i)).buffer),
      };
      const bools = Array.from({ length: 2 }, (_, l) => ({
        name: `transformer.h.${l}.attn.bias`,
        dtype: 'BOOL',
        shape: [1, 1, 24, 24],
        bytes: new Uint8Array(576).fill(1),
      }));
      const masked = {
        name: 'transformer.h.0.attn.masked_bias',
        dtype: 'F32',
        shape: [],
        bytes: new Uint8Array(Float32Array.of(-1e4).buffer),
      };
      const counts = { name: 'step', dtype: 'I32', shape: [1], bytes: new Uint8Array(4) };
      const { bytes } = checkpoint({
        dtype: 'F32',
        prefix: 'transformer.',
        masks: false,
        extra: [ids, ...bools, masked, counts],
      });
      assert.equal(decodeSafetensors(bytes)['transformer.position_ids'].data[23], 23n);
      for (const model of [
        attn.transformerFromSafetensors(bytes, CONFIG),
        await attn.loadTransformer(new Blob([bytes]), CONFIG),
      ]) {
        assert.equal(firstMismatch(model.getState(), CONFIG, 'F32'), null);
        model.dispose();
      }
    });

    test('bad checkpoints are refused with an Error naming the tensor, and the model is freed', async () => {
      const heap = heapOf();
      const cases = badCheckpoints();
      for (const [what, bytes, message, config = CONFIG] of cases) {
        assert.throws(() => attn.transformerFromSafetensors(bytes, config), message, what);
        await assert.rejects(attn.loadTransformer(new Blob([bytes]), config), message, `${what} (Blob)`);
        await assert.rejects(attn.loadTransformer(streamOf(bytes, [1000]), config), message, `${what} (stream)`);
      }
      assert.deepEqual(heapOf(), heap);
    });

    test('bytes in a Uint8Array subclass that lies about its length and offset are read as they are', async () => {
      const { bytes } = checkpoint({ dtype: 'F16' });
      class Liar extends Uint8Array {
        get length() {
          return 2 ** 40;
        }
        get byteOffset() {
          return 12345;
        }
        get byteLength() {
          return 7;
        }
      }
      const liar = new Liar(bytes.length);
      liar.set(bytes);
      for (const model of [attn.transformerFromSafetensors(liar, CONFIG), await attn.loadTransformer(liar, CONFIG)]) {
        assert.equal(firstMismatch(model.getState(), CONFIG, 'F16'), null);
        model.dispose();
      }
      assert.deepEqual(Object.keys(decodeSafetensors(liar)).length, 2 + 2 * 13 + 2);
    });

    test('a stream that ends early or runs on is refused; so are chunks that are not bytes', async () => {
      const { bytes } = checkpoint({ dtype: 'F32' });
      await assert.rejects(
        attn.loadTransformer(streamOf(bytes.subarray(0, bytes.length - 3)), CONFIG),
        /safetensors: the file ends after \d+ bytes; its header describes \d+/,
      );
      const longer = new Uint8Array(bytes.length + 5);
      longer.set(bytes);
      await assert.rejects(
        attn.loadTransformer(streamOf(longer), CONFIG),
        /safetensors: 5\+ bytes after the last tensor belong to no tensor/,
      );
      await assert.rejects(
        attn.loadTransformer(streamOf(bytes.subarray(0, 5)), CONFIG),
        /the file ends after 5 bytes, inside the 8-byte header length/,
      );
      const words = new ReadableStream({
        start(c) {
          c.enqueue('not bytes');
          c.close();
        },
      });
      await assert.rejects(
        attn.loadTransformer(words, CONFIG),
        /each chunk of the stream must be bytes \(a Uint8Array\); got "not bytes"/,
      );
    });

    test('a bad config or option rejects before a byte is read; a URL without config.json says so', async () => {
      const { bytes } = checkpoint({ dtype: 'F32' });
      let reads = 0;
      const blob = new Blob([bytes]);
      // A Blob that counts its reads (its size and slices come from the real one).
      const spy = Object.create(Blob.prototype, {
        size: { value: blob.size },
        slice: {
          value: (...args) => {
            reads++;
            return blob.slice(...args);
          },
        },
      });
      await assert.rejects(
        attn.loadTransformer(spy, { ...CONFIG, numHeads: 5 }),
        /numHeads \(5\) must divide dModel \(32\)/,
      );
      await assert.rejects(attn.loadTransformer(spy, { n_embd: 32 }), /the Hugging Face config has no vocab_size/);
      await assert.rejects(attn.loadTransformer(spy), /loadTransformer needs a config/);
      await assert.rejects(
        attn.loadTransformer(spy, CONFIG, { signal: 'stop' }),
        /options.signal must be an AbortSignal/,
      );
      await assert.rejects(
        attn.loadTransformer(spy, CONFIG, { onProgress: 1 }),
        /options.onProgress must be a function/,
      );
      await assert.rejects(attn.loadTransformer(spy, CONFIG, { progress: () => {} }), /unknown option "progress"/);
      await assert.rejects(
        attn.loadTransformer(42, CONFIG),
        /source must be a Uint8Array, an ArrayBuffer, a Blob or File, a URL, a Response or a ReadableStream; got 42/,
      );
      await assert.rejects(
        attn.loadTransformer('model.safetensors', CONFIG),
        /is not a URL that can be fetched \(a relative URL needs a page/,
      );
      assert.equal(reads, 0);
      (await attn.loadTransformer(spy, CONFIG)).dispose();
      assert.ok(reads > 0, 'the counting Blob is read when nothing is wrong');
      const server = await serve({ '/x/model.safetensors': bytes });
      try {
        await assert.rejects(
          attn.loadTransformer(server.url('/x/model.safetensors')),
          /the config.json beside the checkpoint, http:\/\/127.0.0.1:\d+\/x\/config.json could not be fetched: HTTP 404/,
        );
        await assert.rejects(
          attn.loadTransformer(server.url('/x/other.safetensors'), CONFIG),
          /the checkpoint http:.*other.safetensors could not be fetched: HTTP 404/,
        );
      } finally {
        await server.close();
      }
    });

    test("opening a checkpoint allocates the parameters only: gradients come with gradients(), Adam's moments with trainStep()", async () => {
      const config = { ...CONFIG, vocabSize: 4000 }; // parameters dominate the heap
      // F32: values of ±0.1 train; the F16 file holds every half-precision exponent, up to 65504,
      // whose Adam update would overflow (and be refused).
      const { bytes } = checkpoint({ dtype: 'F32' }, config);
      const before = heapOf();
      const model = await attn.loadTransformer(bytes, config);
      try {
        const paramBytes = model.parameterCount() * 4;
        const grew = heapOf().map((h, i) => h - before[i]);
        const mine = Math.max(...grew);
        assert.ok(
          mine >= paramBytes && mine < paramBytes * 1.1,
          `opening holds ${mine} bytes for ${paramBytes} of parameters`,
        );
        model.forward([1, 2, 3]);
        const afterForward = Math.max(...heapOf().map((h, i) => h - before[i]));
        model.gradients([1, 2, 3], [2, 3, 4]);
        const afterGradients = Math.max(...heapOf().map((h, i) => h - before[i]));
        assert.ok(afterGradients - afterForward >= paramBytes, 'the gradients arrive with gradients()');
        model.trainStep([1, 2, 3], [2, 3, 4]);
        const afterStep = Math.max(...heapOf().map((h, i) => h - before[i]));
        assert.ok(
          afterStep - afterGradients >= 2 * paramBytes && afterStep - afterGradients < 2.1 * paramBytes,
          "Adam's two moments arrive with trainStep()",
        );
      } finally {
        model.dispose();
      }
    });

    test('toSafetensors writes the very bytes encodeSafetensors writes for getState(), straight from WebAssembly memory', () => {
      for (const tieEmbeddings of [true, false]) {
        const model = attn.transformer({ ...CONFIG, tieEmbeddings, seed: 5 });
        try {
          const bytes = model.toSafetensors();
          assert.deepEqual(Array.from(bytes), Array.from(encodeSafetensors(model.getState(), { format: 'pt' })));
          const again = attn.transformerFromSafetensors(bytes, model.config);
          assert.ok(stateEqual(model.getState(), again.getState()));
          again.dispose();
        } finally {
          model.dispose();
        }
      }
    });

    test('toSafetensorsAsync gives the same bytes as a Blob, reports progress and stops at an AbortSignal', async () => {
      const model = attn.transformer({ ...CONFIG, vocabSize: 5000, seed: 2 });
      try {
        const seen = [];
        const blob = await model.toSafetensorsAsync({ onProgress: (p) => seen.push(p) });
        assert.ok(blob instanceof Blob);
        assert.deepEqual(new Uint8Array(await blob.arrayBuffer()), model.toSafetensors());
        assert.equal(seen.at(-1).loaded, blob.size);
        assert.ok(seen.every((p, i) => p.total === blob.size && (i === 0 || p.loaded > seen[i - 1].loaded)));
        const controller = new AbortController();
        controller.abort();
        await assert.rejects(model.toSafetensorsAsync({ signal: controller.signal }), { name: 'AbortError' });
        await assert.rejects(model.toSafetensorsAsync({ onProgress: 'x' }), /options.onProgress must be a function/);
        const loaded = await attn.loadTransformer(blob, model.config);
        assert.ok(stateEqual(model.getState(), loaded.getState()));
        loaded.dispose();
      } finally {
        model.dispose();
      }
      await assert.rejects(model.toSafetensorsAsync(), /this transformer was disposed/);
    });

    test('a disposed instance makes a load reject with a clear Error', async () => {
      const own = await createAttention({ simd });
      const { bytes } = checkpoint({ dtype: 'F32' });
      const load = own.loadTransformer(streamOf(bytes, [200]), CONFIG, { onProgress: () => own.dispose() });
      await assert.rejects(load, /this attention instance was disposed/);
      await assert.rejects(own.loadTransformer(bytes, CONFIG), /this attention instance was disposed/);
    });
  });
}

// A checkpoint of dtype `dtype` whose tensor `name` holds `value` (its bits, for F16 and BF16) at
// `index`.
function patched(name, dtype, index, value) {
  const { bytes } = checkpoint({ dtype });
  const decoded = decodeSafetensors(bytes, { as: 'raw' });
  decoded[name].data[index] = value;
  return encodeSafetensors(decoded, { format: 'pt' });
}

// Values a model must not take, in each stored dtype.
function badValueCheckpoints() {
  return [
    [
      'a NaN in F32',
      patched('h.1.mlp.c_fc.weight', 'F32', 5, NaN),
      /checkpoint: "h.1.mlp.c_fc.weight" holds NaN at element 5; a model's parameters must be finite/,
    ],
    [
      'an infinity in F16',
      patched('wpe.weight', 'F16', 100, 0x7c00),
      /checkpoint: "wpe.weight" holds Infinity at element 100/,
    ],
    [
      '-Infinity in BF16',
      patched('ln_f.bias', 'BF16', 31, 0xff80),
      /checkpoint: "ln_f.bias" holds -Infinity at element 31/,
    ],
    [
      'an F64 beyond float32',
      patched('h.0.ln_1.weight', 'F64', 3, 1e39),
      /checkpoint: "h.0.ln_1.weight" holds Infinity \(beyond float32's range in F64\) at element 3/,
    ],
  ];
}

// Tensors missing, extra, of the wrong shape or type, tied weights that differ, a truncated file:
// each made from the good checkpoint `good`.
function badStructureCheckpoints(good) {
  const state = decodeSafetensors(good, { as: 'raw' });
  const without = (name) => encodeSafetensors(Object.fromEntries(Object.entries(state).filter(([k]) => k !== name)));
  const plus = (extra) => encodeSafetensors({ ...state, ...extra });
  const wte = state['wte.weight'];
  const changed = Float32Array.from(wte.data, (x, i) => (i === 7 ? x + 1 : x));
  return [
    [
      'a wrong shape',
      plus({ 'wpe.weight': { data: new Float32Array(32 * 23), shape: [23, 32] } }),
      /checkpoint: "wpe.weight" must have shape \[24, 32\], got \[23, 32\]/,
    ],
    ['a missing tensor', without('h.1.ln_2.bias'), /checkpoint: missing "h.1.ln_2.bias"/],
    [
      'a layer the config does not have',
      plus({ 'h.2.ln_1.weight': { data: new Float32Array(32), shape: [32] } }),
      /checkpoint: unknown tensor "h.2.ln_1.weight" for this config/,
    ],
    [
      'a tensor with and without the prefix',
      plus({ 'transformer.ln_f.bias': state['ln_f.bias'] }),
      /checkpoint: "ln_f.bias" is given twice \("ln_f.bias" and "transformer.ln_f.bias"\)/,
    ],
    [
      'a parameter stored as integers',
      plus({ 'ln_f.bias': { data: new Int32Array(32), shape: [32] } }),
      /checkpoint: "ln_f.bias" is stored as I32; a parameter must be F32, F16, BF16 or F64/,
    ],
    [
      'a tied lm_head that differs from wte',
      plus({ 'lm_head.weight': { data: changed, shape: wte.shape } }),
      /checkpoint: "lm_head.weight" differs from wte.weight at element 7, but this model ties its embeddings/,
    ],
    [
      'a tied lm_head of shape [80]',
      plus({ 'lm_head.weight': { data: new Float32Array(80), shape: [80] } }),
      /checkpoint: "lm_head.weight" must have shape \[300, 32\], got \[80\]/,
    ],
    [
      'a header that lies about the file',
      good.subarray(0, good.length - 4),
      /safetensors: tensor "[^"]+": data_offsets \[\d+, \d+\] lie outside the data|safetensors: the file ends after/,
    ],
  ];
}

/** [what, bytes, message, config?] for the refusal test. */
function badCheckpoints() {
  const { bytes: good } = checkpoint({ dtype: 'F32' });
  return [...badValueCheckpoints(), ...badStructureCheckpoints(good)];
}

export { expectedValue };
