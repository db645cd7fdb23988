// The parts of the JS API that the bundled site loads after the first drawing (web/lib/api-parts.js,
// scripts/bundle.mjs): bundled as the pages are, with their stand-ins, a synchronous call into a
// part that is not loaded yet throws an Error naming the part and apiReady, and after
// `await apiReady(part)` every call gives what the unbundled API gives. Unbundled (the npm
// package), apiReady resolves at once and nothing is deferred. The bundler refuses a page that
// would load a deferred part with its first code. The bundled createAttention loads the base
// WebAssembly build, and the parts that need the whole build get it through apiReady too.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as esbuild from 'esbuild';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ROOT,
  WEB,
  checkDeferred,
  deferredPartsPlugin,
  firstBuildPlugin,
  moduleUrlPlugin,
} from '../../scripts/bundle.mjs';
import { createAttention } from '../../web/lib/attention.js';
import { apiReady as unbundledReady } from '../../web/lib/api-parts.js';

const OUT = join(ROOT, 'build', `deferred-parts-test-${process.pid}`);
const lib = (file) => JSON.stringify(join(WEB, 'lib', file));
const tensor = (shape, seed) => ({
  data: Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 0.37 + seed)),
  shape,
});
const CONFIG = { vocabSize: 7, contextLength: 6, dModel: 8, numLayers: 1, numHeads: 2, seed: 3 };

// Bundles `source` (an entry module) as scripts/bundle.mjs bundles the pages: split, with the
// stand-ins; returns the metafile.
async function bundle(name, source) {
  const entry = join(OUT, `${name}-entry.js`);
  await writeFile(entry, source);
  const result = await esbuild.build({
    entryPoints: { [name]: entry },
    outdir: join(OUT, name),
    bundle: true,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    external: ['node:*'],
    metafile: true,
    logLevel: 'silent',
    write: true,
    plugins: [moduleUrlPlugin(relative(WEB, join(OUT, name))), deferredPartsPlugin(), firstBuildPlugin()],
  });
  return result.metafile;
}

let bundled;
let reference;
before(async () => {
  await mkdir(OUT, { recursive: true });
  await bundle(
    'api',
    `export { createAttention } from ${lib('attention.js')};\nexport { apiReady } from ${lib('api-parts.js')};\n`,
  );
  bundled = await import(pathToFileURL(join(OUT, 'api', 'api.js')).href);
  reference = await createAttention({ simd: false });
});
after(() => rm(OUT, { recursive: true, force: true }));

test('bundled: a call into a part not loaded yet throws an Error that names the part and apiReady', async () => {
  const attn = await bundled.createAttention({ simd: false });
  const [q, k, v, dO] = [tensor([3, 4], 1), tensor([5, 4], 2), tensor([5, 2], 3), tensor([3, 2], 4)];
  const calls = {
    gradients: () => attn.scaledDotProductAttentionGrad(q, k, v, dO),
    'head-scores': () => attn.headScores([0, 1, 2], { data: new Float32Array(9).fill(1 / 3), shape: [3, 3] }),
    'flash-lesson': () => attn.lessons.flashAttention(q, k, v),
    transformer: () => attn.transformer(CONFIG),
    rope: () => attn.rope(q),
  };
  for (const [part, call] of Object.entries(calls))
    assert.throws(call, new RegExp(`still loading on this page; await apiReady\\("${part}"\\)`), part);
  // The module keeps working meanwhile.
  assert.deepEqual(attn.scaledDotProductAttention(q, k, v), reference.scaledDotProductAttention(q, k, v));
});

test('bundled: after apiReady(part), each call gives what the unbundled API gives', async () => {
  const attn = await bundled.createAttention({ simd: false });
  const [q, k, v, dO] = [tensor([3, 4], 1), tensor([5, 4], 2), tensor([5, 2], 3), tensor([3, 2], 4)];
  await bundled.apiReady('gradients', 'head-scores');
  assert.deepEqual(
    attn.scaledDotProductAttentionGrad(q, k, v, dO),
    reference.scaledDotProductAttentionGrad(q, k, v, dO),
  );
  const weights = { data: new Float32Array(9).fill(1 / 3), shape: [3, 3] };
  assert.deepEqual(attn.headScores([0, 1, 2], weights), reference.headScores([0, 1, 2], weights));
  const layer = attn.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 1 });
  const ours = reference.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 1 });
  const x = tensor([3, 4], 5);
  assert.deepEqual(layer.backward(x, x, x, tensor([3, 4], 6)), ours.backward(x, x, x, tensor([3, 4], 6)));
  await bundled.apiReady(); // every part
  assert.deepEqual(attn.lessons.flashAttention(q, k, v), reference.lessons.flashAttention(q, k, v));
  assert.deepEqual(attn.rope(q), reference.rope(q));
  assert.deepEqual(
    attn.lossByPosition(tensor([1, 2, 3], 7), [[0, 2]]),
    reference.lossByPosition(tensor([1, 2, 3], 7), [[0, 2]]),
  );
  assert.deepEqual(attn.transformer(CONFIG).forward([0, 1, 2]), reference.transformer(CONFIG).forward([0, 1, 2]));
  await assert.rejects(
    bundled.apiReady('transformers'),
    /apiReady: unknown part "transformers"; parts: transformer, gradients/,
  );
});

test('bundled: the first module is the base build, and the parts that need the whole one load it', async () => {
  // A bundle of its own: the pages' state (which parts were asked for) starts afresh.
  await bundle(
    'fresh',
    `export { createAttention } from ${lib('attention.js')};\nexport { apiReady } from ${lib('api-parts.js')};\n`,
  );
  const fresh = await import(pathToFileURL(join(OUT, 'fresh', 'fresh.js')).href);
  const attn = await fresh.createAttention({ simd: false });
  const [q, k, v] = [tensor([3, 4], 1), tensor([5, 4], 2), tensor([5, 2], 3)];
  await fresh.apiReady('gradients'); // in the base build: the whole one is not needed yet
  assert.throws(() => attn.transformer(CONFIG), /still loading on this page; await apiReady\("transformer"\)/);
  await fresh.apiReady('transformer');
  const model = attn.transformer(CONFIG);
  assert.deepEqual(model.forward([0, 1, 2]), reference.transformer(CONFIG).forward([0, 1, 2]));
  assert.deepEqual(attn.scaledDotProductAttention(q, k, v), reference.scaledDotProductAttention(q, k, v));
  // dispose() lets both modules go: the model's calls throw, as with one module.
  attn.dispose();
  assert.throws(() => model.forward([0, 1]), /disposed/);
  assert.throws(() => attn.transformer(CONFIG), /disposed/);
  await assert.rejects(attn.loadTransformer(new Uint8Array(8), CONFIG), /disposed/);
});

test('bundled: createAttention awaited beside apiReady(part) gives an instance that has the part', async () => {
  const [attn] = await Promise.all([bundled.createAttention({ simd: false }), bundled.apiReady('head-scores')]);
  const weights = { data: new Float32Array(9).fill(1 / 3), shape: [3, 3] };
  assert.deepEqual(attn.headScores([0, 1, 2], weights), reference.headScores([0, 1, 2], weights));
});

test('the base build has no model code: the transformer, decoder, checkpoints, head scores, RoPE, trace', async () => {
  const { readFile } = await import('node:fs/promises');
  for (const variant of ['simd', 'scalar']) {
    const text = (name) => readFile(join(WEB, 'lib', 'wasm', `${name}.wasm`), 'latin1');
    const [base, whole] = await Promise.all([text(`attention-${variant}-base`), text(`attention-${variant}`)]);
    for (const name of [
      '_transformerCreate',
      '_decoderAppend',
      '_convertToFloat32',
      '_headScores',
      '_ropeRotate',
      '_flashAttentionTrace',
    ]) {
      assert.ok(whole.includes(name), `${name} in the whole ${variant} build`);
      assert.ok(!base.includes(name), `${name} not in the base ${variant} build`);
    }
    for (const name of ['_sampleDotProducts', '_randomSeed', '_matmul'])
      assert.ok(base.includes(name), `${name} in the base ${variant} build`);
    // The plain exports are named in the loader (the .wasm's own export names are minified).
    const loader = await readFile(join(WEB, 'lib', 'wasm', `attention-${variant}-base.mjs`), 'utf8');
    for (const name of ['attn_scaled_dot_product_attention_backward', 'attn_multi_head_attention_backward'])
      assert.ok(loader.includes(name), `${name} in the base ${variant} build`);
  }
});

test('unbundled (the npm package): apiReady resolves at once and nothing is deferred', async () => {
  await unbundledReady();
  await unbundledReady('transformer', 'flash-lesson');
  assert.equal(typeof reference.transformer(CONFIG).forward, 'function');
  await assert.rejects(unbundledReady('lessons'), /unknown part "lessons"/);
});

// An entry's output file and the chunks it imports statically, as scripts/bundle.mjs lists them.
function firstCode(meta, name) {
  const entry = Object.keys(meta.outputs).find((f) => f.endsWith(`${name}.js`) && meta.outputs[f].entryPoint);
  const files = new Set([entry]);
  const visit = (f) => {
    for (const i of meta.outputs[f].imports)
      if (i.kind === 'import-statement' && !i.external && !files.has(i.path)) (files.add(i.path), visit(i.path));
  };
  visit(entry);
  return [...files];
}

test('the bundler refuses a page whose first code would load a deferred part', async () => {
  const eager = await bundle(
    'eager',
    `import { createAttention } from ${lib('attention.js')};\n` +
      `import { headScores } from ${lib('head-scores.js')};\nexport { createAttention, headScores };\n`,
  );
  assert.throws(
    () => checkDeferred(eager.outputs, 'eager', firstCode(eager, 'eager')),
    /lib\/head-scores\.js is loaded at once by the eager page/,
  );
  const lazy = await bundle('lazy', `export { createAttention } from ${lib('attention.js')};\n`);
  assert.doesNotThrow(() => checkDeferred(lazy.outputs, 'lazy', firstCode(lazy, 'lazy')));
});
