// The lesson tabs in the pseudo-locale and in German, given their translator directly: the page's
// own lessons module is served with its English default replaced, so this checks the lessons'
// texts whatever the explorer around them does with ?lang=. Any visible text or
// accessible name under .lessons with words outside ⟦…⟧ is a string that missed the catalogue
// (the explorer's own widgets inside a lesson, heatmaps and the matrix editor, are left out here;
// tests/e2e/i18n-lessons.test.mjs checks the whole with ?lang=qps).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collectProblems, useExplorer } from './helpers.mjs';
import { readsGerman, walkLessons } from './i18n-lessons-walk.mjs';

// The page's lessons module, its English default replaced by `translator` (an expression over
// makeTranslator, pseudoMessages and de, imported into it).
const withTranslator = (translator) => async (p) => {
  await p.route('**/ui/lessons/index.js', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace('const i18n = given ?? english;', `const i18n = given ?? ${translator};`);
    const header = "import { translator as makeTranslator, pseudoMessages } from '../model/i18n.js';\n" +
      "import de from '../i18n/de/index.js';\n";
    await route.fulfill({ response, body: header + body });
  });
  await p.reload();
  await p.waitForSelector('#app[data-ready="true"]');
};

// The explorer's own widgets inside the lessons (heatmaps, the matrix editor) are translated with
// the explorer's part, through ?lang=, and so is the parameter sentence of the cost lesson
// (web/ui/parameter-count.js); here they are set aside.
const setAsideOtherParts = (page) => page.evaluate(() => {
  for (const e of document.querySelectorAll('.lessons .heatmap-block, .lessons .matrix-block, .lessons .parameter-count')) e.setAttribute('translate', 'no');
});

describe('the lessons with a pseudo translator', () => {
  const { page, problems } = useExplorer({ site: 'web', height: 1400, setup: withTranslator("makeTranslator('qps', pseudoMessages())") });

  test('every lesson tab, in every state reached, shows only catalogue text and marked formulas or tokens', { timeout: 240000 }, async () => {
    problems.length = 0;  // the first load's requests, cut short by the reload with the pseudo translator
    const tab = await page.evaluate(() => document.querySelector('.lesson-tab').textContent);
    assert.match(tab, /^\u27e6.*\u27e7$/, 'the lessons got the pseudo translator');
    assert.deepEqual(await walkLessons(page, { prepare: setAsideOtherParts }), []);
    assert.deepEqual(await collectProblems(page, problems), []);
  });
});

describe('the lessons with the German translator', () => {
  const { page } = useExplorer({ site: 'web', height: 1400, setup: withTranslator("makeTranslator('de', de)") });

  test('tab names, sentences and a measured number with a decimal comma are German', () => readsGerman(page));
});
