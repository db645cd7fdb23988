// The inference lessons and the checkpoint panels given a translator directly (headless Chromium,
// the unbundled site): every state i18n-inference-walk.mjs reaches shows no text outside the
// catalogue under the pseudo-locale, and German reads German with decimal commas. The page's own
// plumbing (the explorer's and the training view's translator, ?lang=) is tested by
// i18n-inference.test.mjs; here the lesson index and the training view are served with the
// translator handed to these panels' makers (page.route), so the panels are checked on their own.
// Texts drawn by other parts of the page (a heatmap's legend and label cells, which hold the
// reader's tokens) are left to their own tests.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, recordProblems } from './helpers.mjs';
import { untranslatedTexts } from './i18n-helpers.mjs';
import { siteWithCheckpoint, walkCheckpoint, walkInferenceLessons } from './i18n-inference-walk.mjs';

const MAKERS = /(create(?:FlashAttention|KvCache|Positions)Panel\(\{ attn: ctx\.attn, update: ctx\.update) \}\)/g;
const CHECKPOINTS = /createCheckpointPanels\(\{ display: ([^\n]*), onOpenState \}\)/;
const GIVEN = 'globalThis.__attnTestI18n';

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

// Serves the lesson index and the training view with the test's translator passed to the makers;
// `handed` counts the makers changed in each (none once the page passes its own translator).
async function handTranslator(page, handed) {
  const rewrite = (part, pattern, replace) => async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    const changed = body.replace(pattern, (...m) => { handed[part]++; return replace(...m); });
    await route.fulfill({ response, body: changed });
  };
  await page.route('**/ui/lessons/index.js', rewrite('lessons', MAKERS, (_, head) => `${head}, i18n: ${GIVEN} })`));
  await page.route('**/ui/training/training.js', rewrite('checkpoints', CHECKPOINTS, (_, display) => `createCheckpointPanels({ display: ${display}, onOpenState, i18n: ${GIVEN} })`));
}

async function openWith(lang, hash = '') {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  await recordProblems(page, problems);
  const handed = { lessons: 0, checkpoints: 0 };
  await handTranslator(page, handed);
  await page.goto(env.url);
  await page.waitForSelector('#app[data-ready="true"]');
  await page.evaluate(async (l) => {
    const { createTranslator } = await import('/ui/model/i18n.js');
    globalThis.ATTN_I18N_STRICT = true;  // a key missing from the catalogue throws
    globalThis.__attnTestI18n = await createTranslator(l);
  }, lang);
  if (hash) {
    await page.evaluate((h) => { window.location.hash = h; }, hash);
    await page.waitForSelector('[data-training][data-ready="true"]');
  }
  return { page, context, problems, handed };
}

// A finding in a part other engineers own: the heatmap's legend, its label cells (the tokens) and
// its cells' accessible names ("−∞, hidden").
const OTHERS = /\((?:[^)]*> )?div\.legend|th\.(?:row|col)-label|span\.label-text|> span\.badge|\(tbody > tr > td\.cell\)$/;
const mine = (found) => found.filter((f) => !OTHERS.test(f));

function checker(page, selector, failures) {
  return async (label) => {
    const found = mine(await untranslatedTexts(page, selector));
    if (found.length) failures.push(`${label}:\n  ${found.join('\n  ')}`);
  };
}

describe('the panels under the pseudo-locale', () => {
  test('every state of the three inference lessons shows only catalogue text', { timeout: 300_000 }, async () => {
    const { page, context, problems, handed } = await openWith('qps');
    const failures = [];
    const panels = '#lesson-panel-flash-attention .lesson-panel, #lesson-panel-kv-cache .lesson-panel, #lesson-panel-positions .lesson-panel';
    await walkInferenceLessons(page, checker(page, panels, failures));
    assert.equal(handed.lessons, 3, 'the three lesson makers were given the translator');
    assert.deepEqual(failures, [], [...new Set(failures.flatMap((f) => f.split('\n').slice(1)))].join('\n'));
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('every state of the checkpoint panels, its refusals included, shows only catalogue text', { timeout: 300_000 }, async () => {
    const { page, context, handed } = await openWith('qps', '#view=train');
    assert.equal(handed.checkpoints, 1, 'the checkpoint panels were given the translator');
    const failures = [];
    await walkCheckpoint(page, checker(page, '[data-checkpoint], [data-sweep]', failures), site);
    assert.deepEqual(failures, [], [...new Set(failures.flatMap((f) => f.split('\n').slice(1)))].join('\n'));
    assert.match(await page.textContent('[data-checkpoint] h2'), /^\u27e6.*\u27e7$/);
    await context.close();
  });
});

describe('German', () => {
  test('the KV cache and the checkpoint panel speak German, with decimal commas', { timeout: 120_000 }, async () => {
    const { page, context } = await openWith('de');
    await page.click('#lesson-tab-kv-cache');
    await page.waitForSelector('#lesson-panel-kv-cache [data-kv-step]');
    assert.match(await page.textContent('[data-kv-step]'), /^Token \d+ von \d+ wird decodiert/);
    assert.match(await page.textContent('tr[data-config="llama-2-7b"] output'), /\u2248 1,07 GB$/);
    assert.equal(await page.getAttribute('[data-table="kv-memory"] [data-field="layers"]', 'aria-label'), 'GPT-2 small: Schichten');
    await page.evaluate(() => { window.location.hash = '#view=train'; });
    await page.waitForSelector('[data-training][data-ready="true"]');
    assert.equal(await page.textContent('[data-checkpoint] h2'), 'Einen Checkpoint öffnen');
    await page.setInputFiles('[data-checkpoint-files]', [site.config]);
    await page.waitForSelector('[data-checkpoint][data-state="error"]');
    assert.match(await page.textContent('[data-checkpoint-status]'), /^Wähle auch die Datei model\.safetensors aus/);
    await context.close();
  });
});
