// The package as its users get it: `npm pack`, installed (offline: it has no dependencies) into a
// fresh project, then
//   - type-checked with `tsc --strict` under moduleResolution nodenext, bundler and node10 (which
//     ignores "exports": typesVersions must lead it to the element's, trainer's and link codec's types),
//     including @ts-expect-error lines for inputs the runtime refuses;
//   - run by Jest in its jsdom environment (a global `window` inside Node): createAttention loads
//     the .wasm, and importing the element defines it and lets Jest exit;
//   - checked for what a tarball must hold (LICENSE, the docs the README links, the link codec).
// The tools come from tests/consumers/package.json, which scripts/setup.sh installs.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { installPackedPackage } from './support/packed-package.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOOLS = join(ROOT, 'tests', 'consumers', 'node_modules');
const TSC = join(TOOLS, 'typescript', 'bin', 'tsc');
const JEST = join(TOOLS, 'jest', 'bin', 'jest.js');

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 180000, maxBuffer: 1 << 24, ...options }, (err, stdout, stderr) => {
      resolve({ code: err ? (err.killed ? 'killed' : err.code) : 0, stdout, stderr });
    });
  });
}

const CONSUMER_TS = `
import { createAttention } from 'attention-explorer';
import type { Attention, AttnMaskInput, MultiHeadAttention, Tensor, TensorInput } from 'attention-explorer';
import type { AttentionExplorerElement, ExplorerState } from 'attention-explorer/element';
import { decodeState, encodeState, StateError } from 'attention-explorer/link';
import type { Trainer, TrainerConfig } from 'attention-explorer/trainer';
import { decodeSafetensors } from 'attention-explorer/safetensors';
import { repeatedTokens } from 'attention-explorer/training-data';

export type Training = [Trainer, TrainerConfig];

export function transformerCalls(attn: Attention): number {
  const model = attn.transformer({ vocabSize: 8, contextLength: 8, dModel: 4, numLayers: 1, numHeads: 1 });
  const { tokens, targets } = repeatedTokens({ vocabSize: 8, seqLength: 8, batchSize: 2 });
  const byPosition: { loss: number[]; count: number[] } = attn.lossByPosition(model.forward(tokens).logits, targets);
  const last: Float32Array = model.forward(tokens, { logits: 'last', needWeights: false }).logits.data;
  const maps: Tensor[] = model.forward(tokens).attentions;
  const decoder = model.decoder();
  const step: Tensor[] = decoder.append([1, 2]).attentions.concat(decoder.sample([3], { u: 0.5 }).attentions);
  // @ts-expect-error with needWeights: false the attentions are null
  model.forward(tokens, { needWeights: false }).attentions.length;
  const shifted: number = model.loss(tokens, { labels: tokens }).loss + model.trainStep(tokens, targets, { eps: 1e-8 }).loss;
  // @ts-expect-error logits is 'all' or 'last'
  model.forward(tokens, { logits: 'first' });
  model.dispose();
  return byPosition.loss.length + last.length + shifted + maps.length + step.length;
}
export const readWeights: (bytes: Uint8Array) => object = decodeSafetensors;

export async function main(): Promise<number> {
  const attn: Attention = await createAttention({ simd: 'auto' });
  const q: TensorInput = { data: new Float32Array(4), shape: [2, 2] };
  const r = attn.scaledDotProductAttention(q, [[1, 0], [0, 1]], [[1, 2], [3, 4]], { causal: true });
  const out: Float32Array = r.output.data;
  // As the README uses them: the weights are there unless needWeights is false.
  const shown: number[] = r.weights.shape;
  // @ts-expect-error with needWeights: false the weights are null
  attn.scaledDotProductAttention(q, q, q, { needWeights: false }).weights.shape;
  const needWeights: boolean = out.length > 0;
  // @ts-expect-error a boolean known only at run time may be false
  attn.scaledDotProductAttention(q, q, q, { needWeights }).weights.shape;
  const grad: Tensor = attn.scaledDotProductAttentionGrad(q, q, q, q).gradScores;
  const again: Tensor = attn.matmul(r.output, [[1], [2]]);
  const layer: MultiHeadAttention = attn.multiHeadAttention({ embedDim: 4, numHeads: 2 });
  const bool: AttnMaskInput = { data: new Uint8Array(4), shape: [2, 2] };
  const float: AttnMaskInput = [[0, -Infinity], [0, 0]];
  layer.forward([[1, 2, 3, 4], [5, 6, 7, 8]], undefined, undefined, { attnMask: bool, needWeights: false });
  layer.forward([[1, 2, 3, 4], [5, 6, 7, 8]], undefined, undefined, { attnMask: float });
  const perHead: number[] = layer.forward([[1, 2, 3, 4]], undefined, undefined, { averageWeights: false }).weights.shape;
  const frozen: readonly number[] = [1, 2, 3, 4];
  layer.forward([frozen]);
  // @ts-expect-error the sizes are read-only
  layer.embedDim = 8;
  // @ts-expect-error an array-like object is not an array: the runtime refuses it
  attn.matmul({ data: { length: 1, 0: 1 }, shape: [1, 1] }, [[1]]);
  // @ts-expect-error BigInt arrays are refused
  attn.matmul({ data: new BigInt64Array(1), shape: [1, 1] }, [[1]]);
  // @ts-expect-error an Int32Array attnMask is neither boolean nor floating point
  layer.forward([[1, 2, 3, 4]], undefined, undefined, { attnMask: { data: new Int32Array(1), shape: [1, 1] } });
  layer.dispose();
  attn.dispose();
  return out.length + again.data.length + shown.length + grad.data.length + perHead.length;
}

export function listen(element: AttentionExplorerElement): void {
  element.addEventListener('ready', (event) => {
    const state: ExplorerState = event.detail.state;
    console.log(state.n);
    // @ts-expect-error the ready event has no source
    console.log(event.detail.source);
  });
  element.addEventListener('statechange', (event) => {
    const source: string = event.detail.source;
    console.log(source);
  });
  const found: AttentionExplorerElement | null = document.querySelector('attention-explorer');
  console.log(found?.state?.mode);
}

export async function roundTrip(state: ExplorerState): Promise<boolean> {
  const text: string = await encodeState(state);
  const back = await decodeState(text);
  if (!back.ok) return back.error.length > 0;
  return back.state.n === state.n && !(new StateError('x') instanceof TypeError);
}
`;

const JEST_TEST = `
import { createAttention } from 'attention-explorer';

test('Node with jsdom: a global window, and the .wasm still loads from the package', async () => {
  expect(typeof window).toBe('object');
  const attn = await createAttention();
  const r = attn.scaledDotProductAttention([[1, 0]], [[1, 0]], [[2, 3]]);
  expect(Array.from(r.output.data)).toEqual([2, 3]);
  attn.dispose();
});

test('importing the element module under jsdom defines the element and starts nothing', async () => {
  const module = await import('attention-explorer/element');
  expect(customElements.get('attention-explorer')).toBe(module.AttentionExplorerElement);
});
`;

function tsconfig(resolution) {
  const module = resolution === 'node10' || resolution === 'bundler' ? 'esnext' : 'nodenext';
  return JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'es2022',
      module,
      moduleResolution: resolution,
      lib: ['es2022', 'dom'],
      types: [],
      skipLibCheck: false,
      exactOptionalPropertyTypes: true,
    },
    files: ['consumer.ts'],
  });
}

describe('the packed package in a fresh project', () => {
  let dir, project;
  before(async () => {
    for (const tool of [TSC, JEST])
      assert.ok(existsSync(tool), `${tool} is missing: run bash scripts/setup.sh (it installs tests/consumers)`);
    dir = await mkdtemp(join(tmpdir(), 'attn-consumer-'));
    project = await installPackedPackage(dir, 'project', 'consumer');
  });
  after(() => dir && rm(dir, { recursive: true, force: true }));

  test('the tarball holds the license, the docs the README links and the link codec', async () => {
    const pkg = join(project, 'node_modules', 'attention-explorer');
    assert.match(await readFile(join(pkg, 'LICENSE'), 'utf8'), /MIT License/);
    const readme = await readFile(join(pkg, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(((?:docs|web)\/[^)#\s]+)/g)].map((m) => m[1]);
    assert.ok(links.length >= 3, 'the README links docs/ files');
    for (const link of links)
      assert.ok(existsSync(join(pkg, link)), `the README links ${link}, which the package does not hold`);
    const manifest = JSON.parse(await readFile(join(pkg, 'package.json'), 'utf8'));
    assert.equal(manifest.type, 'module');
    // moduleResolution node10 ignores "exports": every typed subpath needs a typesVersions entry.
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath === '.' || subpath.includes('*') || !target.types) continue;
      assert.deepEqual(
        manifest.typesVersions?.['*']?.[subpath.slice(2)],
        [target.types.slice(2)],
        `typesVersions for ${subpath}`,
      );
    }
    assert.match(readme, /ESM only/);
    // The pages that "Copy link" and the iframe snippet point at ship too.
    for (const page of ['web/index.html', 'web/app.js', 'web/embed.html', 'web/attention-explorer.js'])
      assert.ok(existsSync(join(pkg, page)), `${page} is not in the package`);
    // Both WebAssembly builds, and not the base builds that only the bundled site loads first.
    const wasm = await readdir(join(pkg, 'web', 'lib', 'wasm'));
    assert.deepEqual(wasm.sort(), [
      'attention-scalar.mjs',
      'attention-scalar.wasm',
      'attention-simd.mjs',
      'attention-simd.wasm',
    ]);
    // The link codec by its package name, as a consumer imports it.
    await writeFile(join(project, 'link-check.mjs'), "export * from 'attention-explorer/link';\n");
    const link = await import(pathToFileURL(join(project, 'link-check.mjs')).href);
    const text = await link.encodeState({ n: 2, m: 2 });
    assert.match(text, /^v1\./);
    assert.equal((await link.decodeState(text)).state.n, 2);
  });

  for (const resolution of ['nodenext', 'bundler', 'node10']) {
    test(`tsc --strict accepts correct use and refuses what the runtime refuses (moduleResolution ${resolution})`, async () => {
      await writeFile(join(project, 'consumer.ts'), CONSUMER_TS);
      await writeFile(join(project, `tsconfig.${resolution}.json`), tsconfig(resolution));
      const r = await run(process.execPath, [TSC, '-p', `tsconfig.${resolution}.json`], { cwd: project });
      assert.equal(r.code, 0, `tsc failed:\n${r.stdout}${r.stderr}`);
    });
  }

  test('Jest (jsdom environment) loads the API and the element, then exits', async () => {
    await writeFile(join(project, 'jsdom.test.mjs'), JEST_TEST);
    await writeFile(
      join(project, 'jest.config.json'),
      JSON.stringify({
        testEnvironment: join(TOOLS, 'jest-environment-jsdom'),
        transform: {},
        testMatch: ['**/*.test.mjs'],
        moduleFileExtensions: ['js', 'mjs', 'json'],
        cacheDirectory: join(dir, 'jest-cache'),
      }),
    );
    // No --forceExit: a handle left open at import would keep Jest (and this child) running.
    const r = await run(
      process.execPath,
      ['--experimental-vm-modules', '--no-warnings', JEST, '--ci', '--config', 'jest.config.json'],
      { cwd: project, timeout: 120000 },
    );
    assert.notEqual(r.code, 'killed', `Jest did not exit:\n${r.stderr}`);
    assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /Tests:\s+2 passed, 2 total/);
  });
});
