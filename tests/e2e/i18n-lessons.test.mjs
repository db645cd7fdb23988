// The lesson tabs translated, through the page's own language choice (?lang=): in the pseudo-locale
// every text and accessible name under .lessons went through a catalogue (or is a formula or a
// token marked translate="no") in every state the walk reaches; in German the tabs, a sentence and
// a number read German, with a decimal comma, and the explorer says it is in German.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collectProblems, openExplorer, useExplorer } from './helpers.mjs';
import { readsGerman, walkLessons } from './i18n-lessons-walk.mjs';

describe('the lessons in the pseudo-locale (?lang=qps)', () => {
  const { page, problems } = useExplorer({ path: '?lang=qps', height: 1400 });

  test(
    'every lesson tab, in every state reached, shows only catalogue text and marked formulas or tokens',
    { timeout: 240000 },
    async () => {
      assert.deepEqual(await walkLessons(page), []);
      assert.deepEqual(await collectProblems(page, problems), []);
    },
  );
});

describe('the lessons in German (?lang=de)', () => {
  const { env } = useExplorer();

  test('tab names, a sentence and a number with a decimal comma are German; the explorer says lang="de"', async () => {
    const { page, context } = await openExplorer(env, { path: '?lang=de', height: 1400 });
    try {
      assert.equal(
        await page.evaluate(() => document.querySelector('.lessons').closest('[lang]')?.getAttribute('lang')),
        'de',
      );
      await readsGerman(page);
    } finally {
      await context.close();
    }
  });
});
