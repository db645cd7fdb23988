// The page's timing attributes are for tests and benchmarks only: a page that did not ask for them
// (?instrument, or window.__ATTN_INSTRUMENT__) carries none after edits and training, and one that
// did has them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { afterRender, launch } from './helpers.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const TIMING = ['renderMs', 'progressMs', 'progressMaxMs', 'progressMaps', 'mapsDrawn'];
const timing = (page, selector) => page.$eval(selector, (e, keys) => keys.filter((k) => k in e.dataset), TIMING);

// Trains until the loss has moved a few times (progress messages have come), then pauses.
async function trainAWhile(page) {
  await page.goto(`${page.url().split('#')[0]}#view=train`);
  await page.waitForSelector('[data-training][data-ready="true"]');
  await page.click('[data-action="train"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-training]').dataset.step) >= 30);
  await page.click('[data-action="pause"]');
}

for (const [asked, how] of [
  [false, ''],
  [true, 'global'],
  [true, '?instrument'],
]) {
  test(`a page that ${asked ? `asks (${how})` : 'does not ask'} for timing ${asked ? 'has' : 'carries none of'} the attributes`, async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    if (how === 'global')
      await page.addInitScript(() => {
        window.__ATTN_INSTRUMENT__ = true;
      });
    await page.goto(`${env.url}${how === '?instrument' ? '?instrument' : ''}`);
    await page.waitForSelector('#app[data-ready="true"]');
    await afterRender(page, async () => {
      await page.fill('#sentence', 'a b c');
      await page.press('#sentence', 'Enter');
    });
    assert.deepEqual(await timing(page, '#app'), asked ? ['renderMs'] : []);
    await trainAWhile(page);
    const training = await timing(page, '[data-training]');
    if (asked) assert.ok(training.includes('progressMs') && training.includes('mapsDrawn'), training.join());
    else assert.deepEqual(training, []);
    await context.close();
  });
}
