// The parts of the JS API that the bundled site loads after the first drawing (web/lib/api-parts.js,
// scripts/bundle.mjs): bundled as the pages are, with their stand-ins, a synchronous call into a
// part that is not loaded yet throws an Error naming the part and apiReady, and after
// `await apiReady(part)` every call gives what the unbundled API gives. Unbundled (the npm
// package), apiReady resolves at once and nothing is deferred. The bundler refuses a page that
// would load a deferred part with its first code.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as esbuild from 'esbuild';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, WEB, checkDeferred, deferredPartsPlugin, moduleUrlPlugin } from '../../scripts/bundle.mjs';
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
    plugins: [moduleUrlPlugin(relative(WEB, join(OUT, name))), deferredPartsPlugin()],
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
  assert.deepEqual(attn.transformer(CONFIG).forward([0, 1, 2]), reference.transformer(CONFIG).forward([0, 1, 2]));
  await assert.rejects(
    bundled.apiReady('transformers'),
    /apiReady: unknown part "transformers"; parts: transformer, gradients/,
  );
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
