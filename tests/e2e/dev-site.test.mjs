// The development path: web/ served unbundled (npm run start:dev, SERVE=web) still runs. In
// headless Chromium: the page loads its modules one by one from web/ (no dist/ chunk), an edit of
// X gives the weights the API computes, a lesson tab opens, the training view gets ready, and
// nothing reports an error. (Every other page test runs against dist/.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  afterRender,
  assertClose,
  collectProblems,
  expectedLessonExample,
  fillCell,
  readHeatmap,
  useExplorer,
} from './helpers.mjs';

const { env, page, problems } = useExplorer({ site: 'web' });

test("web/ is served as it is: the explorer's own modules, no bundled chunk", async () => {
  const context = await env.browser.newContext();
  const tab = await context.newPage();
  const requests = [];
  tab.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await tab.goto(env.url);
  await tab.waitForSelector('#app[data-ready="true"]');
  assert.ok(requests.includes('/ui/explorer.js'), 'ui/explorer.js was requested');
  assert.ok(!requests.some((p) => p.startsWith('/assets/')), 'no dist/ chunk');
  await context.close();
});

test('web/: an edit of X gives the weights and output the API computes', async () => {
  await afterRender(page, () => fillCell(page, 'X', 1, 2, '0.75'));
  const want = await expectedLessonExample({ row: 1, col: 2, value: 0.75 });
  assertClose((await readHeatmap(page, 'weights')).data, want.weights, { atol: 1e-6, rtol: 1e-5, label: 'weights' });
  assertClose((await readHeatmap(page, 'output')).data, want.output, { atol: 1e-5, rtol: 1e-5, label: 'output' });
});

test('web/: a lesson tab opens and draws, and the training view gets ready', { timeout: 120_000 }, async () => {
  await afterRender(page, () => page.click('.lesson-tab[data-panel="cost"]'));
  assert.equal(await page.isVisible('#lesson-panel-cost'), true);
  assert.equal(await page.getAttribute('#lesson-panel-cost', 'aria-busy'), null);
  await page.evaluate(() => {
    window.location.hash = '#view=train';
  });
  await page.waitForSelector('[data-training][data-ready="true"]', { timeout: 90_000 });
  assert.deepEqual(await collectProblems(page, problems), []);
});
