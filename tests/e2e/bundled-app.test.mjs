// The package in an app a bundler built: `npm pack`, installed into a fresh project whose page
// imports `attention-explorer` and `attention-explorer/element`, built by Vite (the tool of
// tests/consumers) and served with the project's strict Content-Security-Policy. In Chromium:
// the API computes, the explorer element draws, the share controls say where to host the page
// instead of copying links that lead nowhere, the training view's Worker trains, and a trained
// example opens (its file shipped by the bundler, not inlined where connect-src refuses it).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { collectProblems, launch, recordProblems } from './helpers.mjs';
import { installPackedPackage } from '../js/support/packed-package.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VITE = join(ROOT, 'tests', 'consumers', 'node_modules', 'vite', 'dist', 'node', 'index.js');

const INDEX_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson built with Vite</title></head>
<body>
<output id="result">pending</output>
<attention-explorer id="explorer"></attention-explorer>
<attention-explorer id="trainer" view="train"></attention-explorer>
<script type="module" src="/main.js"></script>
</body></html>
`;

const MAIN_JS = `import { createAttention } from 'attention-explorer';
import 'attention-explorer/element';
const out = document.getElementById('result');
createAttention().then((attn) => {
  const r = attn.scaledDotProductAttention([[1, 0], [0, 2]], [[1, 0], [0, 1], [1, 1]], [[1, 2], [3, 4], [5, 6]]);
  out.textContent = JSON.stringify(Array.from(r.output.data));
}).catch((err) => { out.textContent = 'error: ' + err.message; });
`;

let dir, env, page;
const problems = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'attention-vite-'));
  const project = await installPackedPackage(dir, 'app', 'lesson');
  await writeFile(join(project, 'index.html'), INDEX_HTML);
  await writeFile(join(project, 'main.js'), MAIN_JS);
  // The browser asks every origin for /favicon.ico; Vite copies public/ into the build.
  await mkdir(join(project, 'public'));
  await copyFile(join(ROOT, 'web', 'favicon.svg'), join(project, 'public', 'favicon.ico'));
  const { build } = await import(pathToFileURL(VITE).href);
  await build({ root: project, configFile: false, logLevel: 'error', build: { outDir: join(project, 'dist') } });
  env = await launch({ root: join(project, 'dist') });
  page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await recordProblems(page, problems);
  await page.goto(env.url);
});

after(async () => {
  await env?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// softmax(q·kᵀ/√2)·v in float64.
function expected() {
  const q = [
      [1, 0],
      [0, 2],
    ],
    k = [
      [1, 0],
      [0, 1],
      [1, 1],
    ],
    v = [
      [1, 2],
      [3, 4],
      [5, 6],
    ];
  return q.flatMap((qi) => {
    const s = k.map((kj) => (qi[0] * kj[0] + qi[1] * kj[1]) / Math.SQRT2);
    const z = s.reduce((a, x) => a + Math.exp(x), 0);
    const w = s.map((x) => Math.exp(x) / z);
    return [0, 1].map((c) => w.reduce((a, wj, j) => a + wj * v[j][c], 0));
  });
}

test('the API computes attention in the bundled app', async () => {
  await page.waitForFunction(() => document.getElementById('result').textContent !== 'pending');
  const text = await page.textContent('#result');
  assert.doesNotMatch(text, /^error/);
  JSON.parse(text).forEach((x, i) =>
    assert.ok(Math.abs(x - expected()[i]) < 1e-6, `output ${i}: ${x} vs ${expected()[i]}`),
  );
});

test('the explorer element draws, and its share controls say where to host the page', async () => {
  const explorer = page.locator('#explorer');
  await explorer.locator('table[data-heatmap]').first().waitFor();
  await explorer.locator('[data-action="copy-link"]').click();
  await assert.doesNotReject(explorer.getByText('host attention-explorer', { exact: false }).first().waitFor());
  await explorer.locator('[data-action="copy-embed"]').click();
  // (Copying is asynchronous: the status says so once the snippet is made.)
  await explorer
    .locator('.share-controls')
    .getByText(/Embed code copied|Copy this text/)
    .waitFor();
  const snippet = await explorer
    .locator('.share-text')
    .inputValue()
    .catch(() => '');
  const status = await explorer.locator('[aria-live="polite"]').first().textContent();
  assert.match(`${status} ${snippet}`, /YOUR-HOST/, 'the embed snippet names the placeholder host to replace');
});

test('the training view trains in its Worker, and a trained example opens', async () => {
  const trainer = page.locator('#trainer');
  const root = trainer.locator('[data-training]');
  // Waits until the training view inside the element (perhaps in its shadow root) reaches `min` steps.
  const reachStep = (min, timeout) =>
    page.waitForFunction(
      (want) => {
        const host = document.getElementById('trainer');
        return Number((host.shadowRoot ?? host).querySelector('[data-training]')?.dataset.step) >= want;
      },
      min,
      { timeout },
    );
  await trainer.locator('[data-action="train"]').click();
  await reachStep(20, 60000);
  await trainer.locator('[data-action="pause"]').click();
  await trainer.locator('[data-action="open-example"][data-example="induction"]').click();
  await reachStep(800, 30000);
  assert.equal(await root.getAttribute('data-step'), '800');
  assert.match(await trainer.locator('.example-status').textContent(), /800 steps/);
});

test('nothing failed: no console errors, failed requests or CSP violations', async () => {
  assert.deepEqual(await collectProblems(page, problems), []);
});
