// The training view in the pseudo-locale (index.html?lang=qps#view=train): every visible text
// and accessible name of its panels went through the catalogues (web/ui/i18n/<lang>/training.js),
// at rest, while training and after, with a head ablated, with a trained example opened (the text
// model's "Your text" panel), with the import panel's snippet open and a bad file's error, and
// with Generate run and its numbers explained. The checkpoint panels below the view are checked by
// their own test. German: a known sentence, decimal commas and lang="de" on the view's root, and
// the attention file's problem said in German.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { collectProblems, launch, openExplorer } from './helpers.mjs';
import { untranslatedTexts } from './i18n-helpers.mjs';

// The view's own panels: everything under the root but the checkpoint panels (their own part).
const PANELS = ['.training-layout', '.examples-panel', '.import-panel'].map((p) => `[data-training] ${p}`).join(', ');

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const openTraining = (path, options = {}) =>
  openExplorer(env, { width: 1400, ...options, path }).then(async (r) => {
    await r.page.waitForSelector('[data-training][data-ready="true"]');
    await r.page.waitForFunction(() => /\d/.test(document.querySelector('.run-status').textContent));
    return r;
  });

async function assertTranslated(page, what) {
  assert.deepEqual(await untranslatedTexts(page, PANELS), [], what);
}

const stepAtLeast = (page, n) =>
  page.waitForFunction((k) => Number(document.querySelector('[data-training]').dataset.step) >= k, n, {
    timeout: 120_000,
  });
const file = (name, body) => ({ name, mimeType: 'application/json', buffer: Buffer.from(body) });

test(
  'qps: the view at rest, while training, paused with a head ablated: every text from the catalogues',
  { timeout: 300_000 },
  async () => {
    const { page, problems, context } = await openTraining('?lang=qps#view=train');
    assert.equal(await page.getAttribute('[data-training]', 'lang'), 'en-XA');
    assert.match(await page.textContent('.training-controls .card-title'), /^\u27e6.*\u27e7$/);
    await assertTranslated(page, 'at rest');
    await page.click('[data-action="train"]');
    await stepAtLeast(page, 30);
    await page.waitForFunction(() => /\d/.test(document.querySelector('.steps-per-second').textContent));
    await assertTranslated(page, 'while training');
    await page.click('[data-action="pause"]');
    await page.waitForSelector('[data-training][data-running="false"]');
    await page.waitForFunction(
      () => document.querySelector('[data-generalisation]').dataset.trained !== undefined,
      null,
      { timeout: 60_000 },
    );
    await page.click('[data-head-score][data-layer="0"][data-head="0"] [data-action="ablate"]');
    await page.waitForSelector('[data-head-score][data-layer="0"][data-head="0"] .ablation-effect:not([hidden])');
    await assertTranslated(page, 'paused, one head ablated');
    // Text task: its explanation, the text field and its placeholder.
    await page.check('.task-choice input[value="text"]');
    await page.waitForFunction(
      () =>
        /\d/.test(document.querySelector('.run-status').textContent) &&
        !document.querySelector('[data-action="train"]').disabled,
    );
    await assertTranslated(page, 'text task');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  },
);

test(
  'qps: a trained example with Your text, the import panel with a bad file, Generate explained',
  { timeout: 300_000 },
  async () => {
    const { page, problems, context } = await openTraining('?lang=qps#view=train&example=text');
    await page.waitForSelector('.examples-panel[data-example="text"]');
    await page.waitForSelector('[data-your-text][data-step]');
    await page.fill('.your-text-input', 'Oskar sold the BELL and the bell again, and again, and again, and again');
    await page.waitForFunction(() => document.querySelector('.your-text-message').textContent.length > 0);
    await assertTranslated(page, 'text example, your text replaced and clamped');
    // Import: the snippet open, a bad file's error.
    await page.click('.import-panel summary');
    await page.setInputFiles(
      '[data-import-attention]',
      file('bad.json', JSON.stringify({ tokens: ['a', 'b'], attentions: [[[[1, 0]]]] })),
    );
    await page.waitForSelector('.import-panel[data-import-error]');
    assert.match(
      await page.getAttribute('.import-panel', 'data-import-error'),
      /attentions\[0\]\[0\] must have 2 rows/,
      'the hook keeps English',
    );
    await page.setInputFiles('[data-import-attention]', file('cut.json', '{"tokens": ['));
    await page.waitForFunction(() => /JSON/.test(document.querySelector('.import-panel').dataset.importError ?? ''));
    await assertTranslated(page, 'import error');
    // Generate, then its numbers explained.
    await page.waitForFunction(() => !document.querySelector('[data-action="generate"]').disabled);
    await page.click('[data-action="generate"]');
    await page.waitForFunction(() => document.querySelector('[data-generate]').dataset.reason, null, {
      timeout: 120_000,
    });
    await page.waitForSelector('[data-heatmap="gen-attention"]:not([data-pending])');
    await assertTranslated(page, 'generated');
    for (const stat of ['gen-cache-bytes', 'gen-ms-cached', 'gen-difference']) {
      await page.focus(`[data-stat="${stat}"]`);
      await assertTranslated(page, `${stat} explained`);
    }
    for (const map of ['gen-attention', 'gen-keys']) {
      await page.focus(`[data-heatmap="${map}"] td[data-row="0"][data-col="0"]`);
      await assertTranslated(page, `${map} cell explained`);
    }
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  },
);

test(
  'German: lang="de", a translated sentence, decimal commas, and the file reader’s problem in German',
  { timeout: 300_000 },
  async () => {
    const { page, problems, context } = await openTraining('?lang=de#view=train');
    assert.equal(await page.getAttribute('[data-training]', 'lang'), 'de');
    assert.equal(await page.textContent('.training-controls .card-title'), 'Einen winzigen Transformer trainieren');
    assert.match(await page.textContent('.run-status'), /Parameter\. Drücken Sie „Trainieren“\./);
    // ln 24 of the repeated task's 24 tokens, with a decimal comma (the hook keeps the machine number).
    assert.match(await page.textContent('.loss-panel .hint'), /ln 24 ≈ 3,18 Nats pro Token/);
    assert.ok(Math.abs(Number(await page.getAttribute('.loss-panel .hint', 'data-ln-v')) - Math.log(24)) < 1e-12);
    await page.click('[data-action="step"]');
    await stepAtLeast(page, 1);
    await page.waitForFunction(() =>
      /^Schritt 1: Loss \d+,\d{3}/.test(document.querySelector('.run-status').textContent),
    );
    assert.match(
      await page.getAttribute('[data-training]', 'data-loss'),
      /^\d+\.\d+/,
      'data-loss keeps a plain number',
    );
    await page.setInputFiles(
      '[data-import-attention]',
      file(
        'bad.json',
        JSON.stringify({
          tokens: ['a', 'b'],
          attentions: [
            [
              [
                [1, 0],
                [0.5, 0.2],
              ],
            ],
          ],
        }),
      ),
    );
    await page.waitForSelector('.import-panel[data-import-error]');
    assert.equal(
      await page.textContent('.import-status'),
      'bad.json konnte nicht importiert werden: attentions[0][0][1] hat die Summe 0,7000; Attention-Zeilen summieren sich zu 1 (ist das ein Softmax?).',
    );
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  },
);
