// The bundled site's two WebAssembly builds (web/lib/api-parts.js, scripts/bundle.mjs): the page
// draws its first heatmap with the base build alone, and loads the whole build after it, for the
// lessons that need it (here the KV cache, which decodes with a transformer). A single-lesson embed
// of such a lesson asks for the whole build at once. In headless Chromium, on dist/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { afterRender, collectProblems, launch, recordProblems } from './helpers.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

// A fresh page whose WebAssembly requests are recorded by file name, in order.
async function openPage(path) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  await recordProblems(page, problems);
  const wasm = [];
  page.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop();
    if (name.endsWith('.wasm')) wasm.push(name);
  });
  await page.goto(`${env.url}${path}`);
  await page.waitForSelector('#app[data-ready="true"]', { timeout: 30_000 });
  return { page, context, problems, wasm };
}

test('index.html draws with the base build, and a lesson that decodes loads the whole one', async () => {
  const { page, context, problems, wasm } = await openPage('');
  // Only the base build had been asked for when the first heatmap was drawn.
  assert.deepEqual(
    await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.name.endsWith('.wasm'))
        .map((e) => e.name.split('/').pop()),
    ),
    ['attention-simd-base.wasm'],
  );
  // A click by the element itself: a click at its place on the screen can miss the tab on a loaded
  // machine, while cards skipped until now get their heights as the page scrolls to it.
  await afterRender(page, () => page.$eval('.lesson-tab[data-panel="kv-cache"]', (tab) => tab.click()));
  await page.waitForSelector('#lesson-panel-kv-cache [data-table="kv-memory"]', { state: 'visible' });
  assert.deepEqual([...new Set(wasm)], ['attention-simd-base.wasm', 'attention-simd.wasm']);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('an embed of the KV-cache lesson alone gets the whole build with its core', async () => {
  const { page, context, problems, wasm } = await openPage('embed.html?lesson=kv-cache');
  // (The table is in the lesson's folded further sections when the lesson is shown alone.)
  await page.waitForSelector('[data-table="kv-memory"]', { state: 'attached', timeout: 30_000 });
  assert.deepEqual([...new Set(wasm)].sort(), ['attention-simd-base.wasm', 'attention-simd.wasm']);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
