// The explorer in other languages, in headless Chromium: with ?lang=qps (the pseudo-locale: every
// catalogue message reads ⟦…⟧) no visible text or accessible name of the explorer — its header,
// controls, inputs, steps, heads, explanation, export menu, Start here, notices, a predict-then-
// reveal embed and the embed builder — is left outside a catalogue (the lesson tabs are their own
// parts' tests); German shows German sentences, decimal commas and lang="de" on its roots; the
// element takes its language from its lang attribute; the builder writes the chosen lang.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { afterRender, collectProblems, launch, recordProblems } from './helpers.mjs';
import { untranslatedTexts } from './i18n-helpers.mjs';

// Everything of the stand-alone page but the lesson tabs (tests/e2e/i18n-lessons.test.mjs).
const EXPLORER = 'body > :not(main), #app > :not(.layout), .layout > :not(.content), .content > :not(.lessons)';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

async function open(path, { width = 1280, height = 900 } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const problems = [];
  await recordProblems(page, problems);
  await page.goto(env.url + path);
  await page.waitForSelector('#app[data-ready="true"]', { timeout: 30_000 });
  return { page, context, problems };
}

const expectTranslated = async (page, selector, where) => {
  assert.deepEqual(await untranslatedTexts(page, selector), [], `untranslated text ${where}`);
};

describe('the pseudo-locale finds no text outside the catalogues', () => {
  test('the whole explorer (but its lessons): controls, inputs, steps, explanation, Start here and the export menu', async () => {
    const { page, context, problems } = await open('?lang=qps');
    assert.equal(await page.getAttribute('html', 'lang'), 'en-XA');
    await expectTranslated(page, EXPLORER, 'on the first screen');
    await page.focus('[data-heatmap="weights"] td[data-row="1"][data-col="0"]');
    await page.waitForFunction(() => !document.querySelector('#explain-body .explain-idle'));
    await expectTranslated(page, EXPLORER, 'with a weight explained');
    for (const map of ['scores', 'scaled', 'masked', 'output']) {
      await page.focus(`[data-heatmap="${map}"] td[data-row="2"][data-col="1"]`);
      await expectTranslated(page, EXPLORER, `with a cell of ${map} explained`);
    }
    await page.click('.export-menu > summary');
    await page.waitForSelector('.export-menu[open] .export-panel');
    await expectTranslated(page, EXPLORER, 'with the export menu open');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.start-here:not([hidden])').count(), 1, 'Start here is shown');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('every mask, multi-head attention, Q/K/V typed directly, the bias matrix, cross-attention and a clamped number', async () => {
    const { page, context } = await open('?lang=qps');
    for (const kind of ['causal', 'padding', 'custom']) {
      await afterRender(page, () => page.check(`input[name="mask"][value="${kind}"]`));
      await expectTranslated(page, EXPLORER, `with the ${kind} mask`);
    }
    await afterRender(page, () => page.check('#bias-matrix'));
    await afterRender(page, () => page.check('#projection-biases'));
    await afterRender(page, () => page.check('#cross-attention'));
    await page.focus('[data-heatmap="masked"] td[data-row="0"][data-col="0"]');
    await expectTranslated(page, EXPLORER, 'with the bias matrix, the projection biases and cross-attention');
    for (const cell of [
      '[data-matrix="B"] .cell-input',
      '[data-matrix="X"] .cell-input',
      '[data-matrix="XM"] .cell-input',
      '[data-matrix="WQ"] .cell-input',
      '[data-matrix="BK"] .cell-input',
      '[data-heatmap="Q"] td',
      '[data-heatmap="V"] td',
    ]) {
      await page.focus(`${cell}[data-row="0"][data-col="1"]`);
      await expectTranslated(page, EXPLORER, `with ${cell} explained`);
    }
    await afterRender(page, () => page.selectOption('#preset', 'heads'));
    await page.waitForSelector('section.heads:not([hidden])');
    await page.focus('[data-heatmap="weights"] td[data-row="1"][data-col="0"]');
    await expectTranslated(page, EXPLORER, 'with four heads');
    for (const map of ['head-2', 'average', 'concat', 'mha-output']) {
      await page.focus(`[data-heatmap="${map}"] td[data-row="1"][data-col="2"]`);
      await expectTranslated(page, EXPLORER, `with a cell of ${map} explained`);
    }
    await page.focus('[data-matrix="WO"] .cell-input[data-row="1"][data-col="2"]');
    await expectTranslated(page, EXPLORER, 'with a cell of W_O explained');
    await afterRender(page, () => page.selectOption('#preset', 'fully-masked'));
    await page.focus('[data-heatmap="weights"] td[data-row="1"][data-col="0"]');
    await expectTranslated(page, EXPLORER, 'with Q, K, V typed and a fully masked row');
    await page.focus('[data-matrix="V"] .cell-input[data-row="1"][data-col="0"]');
    await expectTranslated(page, EXPLORER, 'with a value explained');
    await page.fill('#size-n', '99');
    await page.press('#size-n', 'Enter');
    await page.waitForSelector('[data-clamp-note]:not([hidden])');
    await expectTranslated(page, EXPLORER, 'with a number clamped');
    await context.close();
  });

  test('notices (a damaged link, a lesson that does not exist) and the phone layout, folded and unfolded', async () => {
    const { page, context } = await open('?lang=qps#s=v1.garbage', { width: 390, height: 800 });
    await page.waitForSelector('.notice:not([hidden])');
    await expectTranslated(page, EXPLORER, 'with a notice, on a phone');
    for (const fold of ['.controls-toggle', '.start-here .start-fold', '.explain-toggle', '.tools-toggle']) {
      await page.click(fold);
      await expectTranslated(page, EXPLORER, `after ${fold}`);
    }
    await context.close();
    const embed = await open('embed.html?lesson=no-such-lesson&lang=qps');
    await embed.page.waitForSelector('.notice:not([hidden])');
    await expectTranslated(
      embed.page,
      '#app > :not(.layout), .layout > :not(.content), .content > :not(.lessons)',
      'with an unknown lesson named',
    );
    await embed.context.close();
  });

  test('predict, then reveal in an embed: the question, the covered answer and the feedback', async () => {
    const { page, context } = await open('embed.html?lesson=weights&reveal=predict&lang=qps');
    await expectTranslated(page, 'body', 'while asking');
    await page.click('.predict-check');
    await expectTranslated(page, 'body', 'after checking without an answer');
    await page.check('.predict-choice input >> nth=0');
    await page.click('.predict-check');
    await page.waitForSelector('.predict[data-state="revealed"]');
    await expectTranslated(page, 'body', 'after the answer');
    await context.close();
  });

  test('the questions of the pitfalls and √dₖ lessons', async () => {
    for (const lesson of ['pitfalls', 'sqrt-dk']) {
      const { page, context } = await open(`embed.html?lesson=${lesson}&reveal=predict&lang=qps`);
      await page.waitForSelector('.predict .predict-choice');
      await expectTranslated(page, '.predict, .controls', `in the ${lesson} question`);
      await context.close();
    }
  });

  test('the embed builder, with each language it offers', async () => {
    const { page, context } = await open('?lang=qps#view=embed');
    await expectTranslated(page, 'body > :not(main), .embed-builder', 'in the embed builder');
    await page.selectOption('[data-field="lesson"]', 'pitfalls');
    await expectTranslated(page, 'body > :not(main), .embed-builder', 'with a lesson chosen');
    await context.close();
  });
});

describe('German, Spanish and the choice of language', () => {
  test('German: German sentences, decimal commas in the digits, legends and explanations, lang="de" on the roots', async () => {
    const { page, context, problems } = await open('?lang=de');
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    assert.equal(await page.getAttribute('#app', 'lang'), 'de');
    assert.equal(await page.textContent('#pipeline-title'), 'Attention, Schritt für Schritt');
    assert.equal(await page.title(), 'Attention-Explorer: Skalarprodukt- und Multi-Head-Attention, live');
    const legend = await page.textContent('[data-card] .legend-note, .card .legend-note');
    assert.match(legend, /^Werte −?\d+,\d+ bis −?\d+,\d+, um 0 zentriert$/, legend);
    const cell = await page.getAttribute('[data-heatmap="weights"] td[data-row="0"][data-col="0"]', 'aria-label');
    assert.match(cell, /^\d,\d+$/, `a weight's name: ${cell}`);
    await page.focus('[data-heatmap="weights"] td[data-row="0"][data-col="1"]');
    await page.waitForSelector('#explain-body .explain-result');
    assert.match(await page.textContent('#explain-title'), /^Gewicht: wie stark „the“ auf „cat“ achtet$/);
    assert.match(await page.textContent('#explain-body .explain-result'), /^= \d,\d+$/);
    assert.doesNotMatch(await page.textContent('#explain-body'), /\d\.\d/, 'no decimal point in the explanation');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('the element follows its lang attribute (Spanish), whatever the page', async () => {
    const { page, context } = await open('?lang=de');
    await page.evaluate(async () => {
      await import(new URL('attention-explorer.js', document.baseURI).href);
      const element = document.createElement('attention-explorer');
      element.setAttribute('lang', 'es');
      element.setAttribute('lesson', 'weights');
      document.body.append(element);
      await element.ready;
    });
    const shown = await page.evaluate(() => {
      const root = document.querySelector('attention-explorer').shadowRoot.querySelector('.ae-host-root');
      return {
        lang: root.getAttribute('lang'),
        title: root.querySelector('#pipeline-title, [id$="pipeline-title"]')?.textContent,
      };
    });
    assert.deepEqual(shown, { lang: 'es', title: 'Pesos de atención' });
    await context.close();
  });

  test('the embed builder writes the chosen language into both snippets', async () => {
    const { page, context } = await open('?lang=es#view=embed');
    assert.equal(await page.textContent('#builder-title'), 'Incrustar una lección');
    assert.doesNotMatch(
      await page.inputValue('[data-snippet="element"]'),
      /lang=/,
      'no language: the reader’s browser decides',
    );
    await page.selectOption('[data-field="lang"]', 'de');
    assert.match(await page.inputValue('[data-snippet="element"]'), /<attention-explorer lesson="weights" lang="de">/);
    assert.match(await page.inputValue('[data-snippet="iframe"]'), /embed\.html\?lesson=weights&amp;lang=de"/);
    await context.close();
  });
});
