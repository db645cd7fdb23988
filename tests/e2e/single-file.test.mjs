// npm run build:single: dist-single/attention-explorer.html opened from file:// in headless
// Chromium, offline (the browser context has no network; every request must be a file: or data:
// URL): the explorer draws, an edit of X changes the weights and output to what the JS API (in
// Node) computes for the same numbers, a lesson opens, and the training view trains and pauses.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import {
  afterRender,
  assertClose,
  collectProblems,
  expectedLessonExample,
  fillCell,
  launch,
  readHeatmap,
  recordProblems,
} from './helpers.mjs';
import { bundleSingle } from '../../scripts/bundle-single.mjs';

let env, page, context, file;
const problems = [];
const requests = [];

before(async () => {
  ({ file } = await bundleSingle());
  env = await launch();
  context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.setOffline(true);
  page = await context.newPage();
  await recordProblems(page, problems);
  page.on('request', (req) => requests.push(req.url()));
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('#app[data-ready="true"]', { timeout: 120_000 });
});
after(async () => {
  await env?.close();
});

test(
  'the single file opened from file:// and offline draws the explorer; an edit of X changes the weights to what the API computes',
  { timeout: 300_000 },
  async () => {
    const before = await readHeatmap(page, 'weights');
    await afterRender(page, () => fillCell(page, 'X', 1, 2, '0.75'));
    const weights = await readHeatmap(page, 'weights');
    const output = await readHeatmap(page, 'output');
    assert.notDeepEqual(weights.data, before.data);
    const want = await expectedLessonExample({ row: 1, col: 2, value: 0.75 });
    assertClose(weights.data, want.weights, { atol: 1e-6, rtol: 1e-5, label: 'weights' });
    assertClose(output.data, want.output, { atol: 1e-5, rtol: 1e-5, label: 'output' });
  },
);

test('a lesson of the single file opens and draws', { timeout: 120_000 }, async () => {
  await afterRender(page, () => page.click('.lesson-tab[data-panel="pitfalls"]'));
  assert.equal(await page.isVisible('#lesson-panel-pitfalls'), true);
  await page.$eval('#lesson-panel-pitfalls', (e) => e.scrollIntoView({ block: 'start' }));
  await page.waitForSelector('#lesson-panel-pitfalls table[data-heatmap][data-values]');
});

test('the training view of the single file trains a few steps and pauses', { timeout: 300_000 }, async (t) => {
  await page.evaluate(() => {
    window.location.hash = '#view=train';
  });
  await page.waitForSelector('[data-training][data-ready="true"]', { timeout: 120_000 });
  t.diagnostic(`trainer mode: ${await page.getAttribute('[data-training]', 'data-trainer-mode')}`);
  await page.click('[data-action="train"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-training]').dataset.step) >= 20, null, {
    timeout: 240_000,
  });
  await page.click('[data-action="pause"]');
  await page.waitForSelector('[data-training][data-running="false"]');
  const loss = Number(await page.getAttribute('[data-training]', 'data-loss'));
  assert.ok(Number.isFinite(loss) && loss > 0, `loss ${loss}`);
});

test('the single file asked for nothing but itself and data: URLs, and reported no errors', async () => {
  const elsewhere = requests.filter(
    (url) =>
      !url.startsWith('data:') && url !== pathToFileURL(file).href && !url.startsWith(`${pathToFileURL(file).href}#`),
  );
  assert.deepEqual(elsewhere, []);
  assert.deepEqual(await collectProblems(page, problems), []);
});
