// A new reader's first screen, measured in headless Chromium: the attention weights without
// scrolling at 1400 × 900 and within two screens on a 375 px phone, "Start here" and its three
// things to try, the explanation docked beside the content on a wide screen and folded to a line
// on narrow ones (a phone, 200 % zoom), and axe-core on both. Screenshots at 1400 px light and
// 375 px dark go to screenshots/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterRender, collectProblems, launch, openExplorer, readHeatmap, screenshot } from './helpers.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const box = (page, selector) =>
  page.$eval(selector, (e) => {
    const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, width: r.width };
  });

async function axe(page, what) {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    for (const c of document.querySelectorAll('.card')) c.style.contentVisibility = 'visible';
    return (await window.axe.run(document)).violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`,
    );
  });
  assert.deepEqual(violations, [], what);
}

test('1400 × 900: the attention weights are in the first screen, with Start here and the explanation docked beside them', async () => {
  const { page, context, problems } = await openExplorer(env, { width: 1400, height: 900 });
  const weights = await box(page, '[data-heatmap="weights"]');
  assert.ok(weights.top > 0 && weights.bottom <= 900, `weights at ${weights.top}–${weights.bottom} px`);
  const pipeline = await box(page, '#pipeline');
  const explain = await box(page, '#explain');
  const start = await box(page, '.start-here');
  assert.ok(
    explain.left >= pipeline.right && start.left >= pipeline.right,
    'the explanation and Start here are beside the steps',
  );
  assert.ok(explain.top < 900 && explain.bottom > 0, 'and in view');
  assert.equal(await page.isVisible('#explain-body'), true, 'open on a wide screen');
  // It stays beside the content while the page scrolls.
  await page.evaluate(() => window.scrollTo(0, 1500));
  const scrolled = await box(page, '#explain');
  assert.ok(scrolled.top >= 0 && scrolled.top < 10, `docked at the top while scrolled: ${scrolled.top}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.hover('[data-heatmap="weights"] td[data-row="1"][data-col="2"]');
  assert.match(await page.textContent('#explain-title'), /weight/i);
  await screenshot(page, 'first-contact-1400-light');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('375 px phone, dark: the weights within two screens; the explanation and the controls fold to a line each', async () => {
  const { page, context, problems } = await openExplorer(env, { width: 375, height: 740, colorScheme: 'dark' });
  const weights = await box(page, '[data-heatmap="weights"]');
  assert.ok(weights.bottom <= 2 * 740, `weights end at ${weights.bottom} px: more than two screens`);
  const explain = await box(page, '#explain');
  assert.ok(explain.height <= 60, `the folded explanation takes ${explain.height} px of 740`);
  assert.equal(await page.getAttribute('.explain-toggle', 'aria-expanded'), 'false');
  assert.equal(await page.isVisible('.controls .control-group'), false, 'controls folded');
  assert.ok((await box(page, '.controls')).height <= 60);
  assert.equal(await page.isVisible('#display-tools'), false, 'header tools folded');
  await screenshot(page, 'first-contact-375-dark');
  await page.click('.controls-toggle');
  assert.equal(await page.isVisible('#preset'), true);
  await page.click('.tools-toggle');
  assert.equal(await page.isVisible('#theme'), true);
  await page.focus('[data-heatmap="weights"] td[data-row="1"][data-col="1"]');
  assert.match(await page.textContent('#explain-title'), /weight/i, 'the folded panel’s title follows the cell');
  await axe(page, '375 px dark, controls and tools open');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('at 200 % zoom (700 × 450 CSS px) the explanation folds to a line too', async () => {
  const { page, context } = await openExplorer(env, { width: 700, height: 450, deviceScaleFactor: 2 });
  const explain = await box(page, '#explain');
  assert.ok(explain.height <= 60, `${explain.height} px of 450`);
  await page.click('.explain-toggle');
  assert.equal(await page.isVisible('#explain-body'), true);
  await context.close();
});

test('Start here walks the three things to try, and Got it puts it away for good', async () => {
  const { page, context, problems } = await openExplorer(env, { width: 1400, height: 900 });
  await page.click('.start-step:nth-child(1) button');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'sentence');
  await page.click('.start-step:nth-child(2) button');
  assert.equal(await page.evaluate(() => document.activeElement.closest('[data-heatmap]')?.dataset.heatmap), 'weights');
  assert.match(await page.textContent('#explain-title'), /weight/i);
  assert.match(await page.textContent('#explain-body'), /exp|softmax/);
  await afterRender(page, () => page.click('.start-step:nth-child(3) button'));
  assert.equal(await page.isChecked('input[name="mask"][value="causal"]'), true);
  assert.equal(await page.getAttribute('.start-step:nth-child(3) button', 'aria-pressed'), 'true');
  const w = await readHeatmap(page, 'weights');
  assert.equal(w.data[1], 0, 'the first query no longer sees the second key');
  await afterRender(page, () => page.click('.start-step:nth-child(3) button'));
  assert.equal(await page.isChecked('input[name="mask"][value="none"]'), true);
  await page.click('.start-close');
  assert.equal(await page.isVisible('.start-here'), false);
  await page.reload();
  await page.waitForSelector('#app[data-ready="true"]');
  assert.equal(await page.isVisible('.start-here'), false, 'still put away after a reload');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
