// The inference lessons (FlashAttention, the KV cache, positions) and the training view's checkpoint
// panels in the page's own languages (headless Chromium): under ?lang=qps every state that
// i18n-inference-walk.mjs reaches (each tile step, the KV cache's steps, window and key/value heads,
// every explanation, the checkpoint's refusals, a small checkpoint opened and swept) shows no text
// outside the catalogues; under ?lang=de the lessons speak German with decimal commas and the widget
// says lang="de".
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, recordProblems } from './helpers.mjs';
import { untranslatedTexts } from './i18n-helpers.mjs';
import { siteWithCheckpoint, walkCheckpoint, walkFlash, walkKvCache, walkPositions } from './i18n-inference-walk.mjs';

let env;
let site;
before(async () => {
  site = siteWithCheckpoint();
  env = await launch({ root: site.root });
});
after(async () => {
  await env?.close();
  site?.remove();
});

async function open(address, ready = '#app[data-ready="true"]') {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  await recordProblems(page, problems);
  await page.goto(env.url + address);
  await page.waitForSelector(ready);
  return { page, context, problems };
}

function checker(page, selector, failures) {
  return async (label) => {
    const found = await untranslatedTexts(page, selector);
    if (found.length) failures.push(`${label}:\n  ${found.join('\n  ')}`);
  };
}
const summary = (failures) => [...new Set(failures.flatMap((f) => f.split('\n').slice(1)))].join('\n');

describe('the pseudo-locale', () => {
  for (const [id, walk] of [
    ['flash-attention', walkFlash],
    ['kv-cache', walkKvCache],
    ['positions', walkPositions],
  ]) {
    test(`every state of the ${id} lesson shows only catalogue text`, { timeout: 300_000 }, async () => {
      const { page, context, problems } = await open('?lang=qps');
      const failures = [];
      await walk(page, checker(page, `#lesson-panel-${id}`, failures));
      assert.deepEqual(failures, [], summary(failures));
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  test(
    'the checkpoint panels, refusals and an opened, swept checkpoint show only catalogue text',
    { timeout: 300_000 },
    async () => {
      const { page, context } = await open('?lang=qps#view=train&lang=qps', '[data-training][data-ready="true"]');
      const failures = [];
      await walkCheckpoint(page, checker(page, '[data-checkpoint], [data-sweep]', failures), site);
      assert.deepEqual(failures, [], summary(failures));
      await context.close();
    },
  );
});

describe('German', () => {
  test(
    'the KV cache lesson speaks German with decimal commas, in a widget marked lang="de"',
    { timeout: 120_000 },
    async () => {
      const { page, context } = await open('?lang=de');
      await page.click('#lesson-tab-kv-cache');
      await page.waitForSelector('#lesson-panel-kv-cache [data-kv-step]');
      assert.match(await page.textContent('[data-kv-step]'), /^Token \d+ von \d+ wird decodiert/);
      assert.match(await page.textContent('tr[data-config="llama-2-7b"] output'), /\u2248 1,07 GB$/);
      assert.equal(await page.$eval('#lesson-panel-kv-cache', (e) => e.closest('[lang]')?.getAttribute('lang')), 'de');
      await context.close();
    },
  );

  test('the checkpoint panel speaks German, its refusals too', { timeout: 120_000 }, async () => {
    const { page, context } = await open('?lang=de#view=train&lang=de', '[data-training][data-ready="true"]');
    assert.equal(await page.textContent('[data-checkpoint] h2'), 'Einen Checkpoint öffnen');
    await page.setInputFiles('[data-checkpoint-files]', [site.config]);
    await page.waitForSelector('[data-checkpoint][data-state="error"]');
    assert.match(
      await page.textContent('[data-checkpoint-status]'),
      /^Wählen Sie auch die Datei model\.safetensors aus/,
    );
    assert.equal(await page.$eval('[data-checkpoint]', (e) => e.closest('[lang]')?.getAttribute('lang')), 'de');
    await context.close();
  });
});
