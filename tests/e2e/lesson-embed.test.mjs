// One lesson, one widget, in headless Chromium under the strict CSP: every lesson id alone in
// embed.html (its panel and nothing of the other lessons, at a lesson page's height), the element's
// lesson, controls and readonly attributes, a teacher's starting numbers as text (and hostile ones),
// predict-then-reveal (the answer hidden until a guess, guesses by keyboard, the
// attention-explorer:answer event and message), the training view's panels, controls, readonly and
// height message, and axe-core on what a learner sees.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  afterFrames,
  assertClose,
  collectProblems,
  launch,
  readHeatmap,
  recordProblems,
  screenshot,
} from './helpers.mjs';
import { allLessonIds, lessonSpec, PIPELINE_STEPS } from '../../web/ui/model/lesson-registry.js';
import { LESSON_PANELS } from '../../web/ui/model/state.js';
import { formatCell, formatNumber } from '../../web/ui/model/format.js';
import { startServer } from '../../scripts/serve.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
// A lesson in a 1000 px wide frame fits a lesson page (measured here: most 500–930 px). The
// gradients lesson keeps its six maps open (its further sections fold), the text model's four
// 31-character maps and the positions lesson's four encodings (8 × 8 with their digits, its ALiBi
// heads and RoPE clocks folded) take two rows: these are taller.
const HEIGHT = { default: 940, gradients: 1150, text: 1080, positions: 1200 };

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

async function newPage({ width = 1000, height = 900, colorScheme = 'light' } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height }, colorScheme });
  const page = await context.newPage();
  const problems = [];
  await recordProblems(page, problems);
  return { page, context, problems };
}

// embed.html with `query`, once it has drawn (and a training lesson has loaded its example).
async function openEmbed(page, query) {
  await page.goto(`${env.url}embed.html?${query}`);
  await page.waitForSelector('#app[data-ready="true"]', { timeout: 30_000 });
  // A training lesson opens a trained example: wait until it is loaded.
  if (/lesson=(induction|text)\b/.test(query))
    await page.waitForFunction(() => Number(document.getElementById('app').dataset.step) > 0, null, {
      timeout: 30_000,
    });
}

const visibleCount = (page, selector) =>
  page.$$eval(
    selector,
    (es) => es.filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden').length,
  );

async function axe(page, what) {
  await page.evaluate(AXE); // over the DevTools protocol: the page's CSP does not apply
  const violations = await page.evaluate(async () =>
    (await window.axe.run(document)).violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`,
    ),
  );
  assert.deepEqual(violations, [], what);
}

// Checks that lesson `id` is alone on the page: its own panel, maps and controls only.
async function checkAlone(page, id) {
  const spec = lessonSpec(id);
  assert.equal(await visibleCount(page, '.lesson-tab, [role="tablist"]'), 0, `${id}: no lesson tab`);
  assert.equal(await page.isVisible(`#lesson-panel-${id}`), true, `${id}: #lesson-panel-${id}`);
  if (spec.kind === 'tab') {
    assert.equal(await page.isVisible(`#lesson-panel-${id}`), true, `${id}: its panel`);
    assert.equal(await page.$$eval('.lesson-holder', (hs) => hs.length), 1, `${id}: no other lesson panel`);
    assert.equal(await page.$('#pipeline'), null, `${id}: no pipeline`);
  } else if (spec.kind === 'step') {
    for (const step of PIPELINE_STEPS)
      assert.equal(
        await visibleCount(page, `[data-heatmap="${step}"]`),
        spec.steps.includes(step) ? 1 : 0,
        `${id}: step ${step}`,
      );
    assert.equal(await page.$('#lessons'), null, `${id}: no lessons`);
    assert.equal(await visibleCount(page, '.controls .control-group'), spec.groups.length, `${id}: its control groups`);
  } else if (spec.kind === 'heads') {
    assert.equal(await visibleCount(page, '[data-heatmap^="head-"]'), 4);
    assert.equal(await page.$('#pipeline'), null);
  } else {
    assert.equal(await page.getAttribute('#app', 'data-lesson'), id);
    assert.equal(await visibleCount(page, '.training-controls fieldset'), 0, `${id}: the run buttons only`);
    assert.equal(
      await visibleCount(page, '.examples-panel, .import-panel, .loss-panel, .generate-panel, .checkpoint-panels'),
      0,
      `${id}: no other panel`,
    );
    assert.equal(await visibleCount(page, '[data-head-score]'), id === 'induction' ? 8 : 0);
    assert.equal(await visibleCount(page, '[data-your-text]'), id === 'text' ? 1 : 0);
  }
}

describe('one lesson, one widget', () => {
  test('every lesson id shows that lesson alone in embed.html, at a lesson page’s height', async () => {
    const { page: first, context } = await newPage();
    await first.close();
    const heights = [];
    for (const id of allLessonIds()) {
      const page = await context.newPage();
      const problems = [];
      await recordProblems(page, problems);
      await openEmbed(page, `lesson=${id}`);
      await checkAlone(page, id);
      // Alone, a lesson loads the parts of the API it calls itself (no explorer tab loaded them).
      assert.deepEqual(
        await page.$$eval('#app .error', (es) => es.filter((e) => e.getClientRects().length).map((e) => e.textContent)),
        [],
        `${id}: no error line`,
      );
      // Alone, a lesson has no explorer above it: its text names the explorer's head, inputs and
      // fields instead of pointing up at them.
      assert.doesNotMatch(
        await page.textContent('#app'),
        /\b(head|heads|weights|inputs|field|dₖ) above\b|chosen above|as above/i,
        id,
      );
      // Printed, a lesson is its text and figures: an action (Step, Next token, …) does nothing on
      // paper. A choice stays (aria-pressed: a head's tile title, the head shown), and says which
      // numbers the figure holds.
      await page.emulateMedia({ media: 'print' });
      assert.deepEqual(
        await page.$$eval('#app button', (es) =>
          es
            .filter((e) => e.getClientRects().length && !e.closest('.head-select') && !e.matches('[aria-pressed]'))
            .map((e) => e.textContent),
        ),
        [],
        `${id}: no button printed`,
      );
      await page.emulateMedia({ media: 'screen' });
      const height = await page.$eval('#app', (e) => Math.ceil(e.getBoundingClientRect().height));
      heights.push(`${id} ${height}`);
      assert.ok(height <= (HEIGHT[id] ?? HEIGHT.default), `${id}: ${height} px tall`);
      if (['pitfalls', 'softmax-row', 'induction'].includes(id)) await screenshot(page, `lesson-${id}`);
      assert.deepEqual(await collectProblems(page, problems), [], id);
      await page.close();
    }
    console.log(`heights at 1000 px: ${heights.join(', ')}`);
    await context.close();
  });

  test('an unknown lesson names the lessons there are and shows the whole explorer', async () => {
    const { page, context } = await newPage();
    await openEmbed(page, 'lesson=%3Cimg%20src%3Dx%3E');
    assert.match(
      await page.textContent('.notice p'),
      /There is no lesson called \u201c<img src=x>\u201d\. Lessons: sqrt-dk, pitfalls,.*induction, text\./,
    );
    assert.equal(await page.$$eval('#app img', (es) => es.length), 0);
    assert.equal(await visibleCount(page, '.lesson-tab'), LESSON_PANELS.length);
    await context.close();
  });

  test('the element: lesson, controls none|minimal|full, readonly, and another lesson set later', async () => {
    const { page, context, problems } = await newPage({ width: 1280 });
    await page.goto(`${env.url}examples/element.html`);
    await page.waitForFunction(() => customElements.get('attention-explorer'));
    await page.evaluate(() => {
      document.body.replaceChildren();
      for (const [id, attrs] of [
        ['a', { lesson: 'pitfalls' }],
        ['b', { lesson: 'pitfalls', controls: 'none' }],
        ['c', { lesson: 'pitfalls', controls: 'full' }],
        ['d', { lesson: 'weights', readonly: '' }],
        ['e', { controls: 'minimal' }],
      ]) {
        const e = document.createElement('attention-explorer');
        e.id = id;
        for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
        document.body.append(e);
      }
    });
    await page.waitForFunction(() => [...document.querySelectorAll('attention-explorer')].every((e) => e.state));
    const inside = (id, selector) => page.locator(`#${id}`).locator(selector);
    assert.equal(await inside('a', '#lesson-panel-pitfalls').isVisible(), true);
    assert.equal(await inside('a', '.lesson-tab').count(), 0);
    assert.equal(await inside('a', '.control-group').count(), 1, 'minimal: the mask only');
    assert.equal(await inside('b', '.controls').count(), 0, 'none');
    assert.ok((await inside('c', '.control-group').count()) >= 7, 'full');
    assert.deepEqual(
      await inside('e', '.control-group > legend').allTextContents(),
      ['Example', 'Scaling', 'Mask', 'Head shown'],
      'the whole explorer, minimal',
    );
    const q = await inside('d', '[data-matrix="Q"] .cell-input').evaluateAll((cells) =>
      cells.map((c) => !c.isContentEditable && c.getAttribute('aria-readonly') === 'true'),
    );
    assert.ok(q.length === 6 && q.every(Boolean), 'readonly: Q cannot be edited');
    // A new lesson later: a fresh mount showing that lesson.
    const ready = page.evaluate(
      () => new Promise((done) => document.getElementById('a').addEventListener('ready', done, { once: true })),
    );
    await page.evaluate(() => document.getElementById('a').setAttribute('lesson', 'softmax-row'));
    await ready;
    assert.equal(await inside('a', '#lesson-panel-pitfalls').count(), 0);
    assert.equal(await inside('a', '[data-heatmap="weights"]').count(), 1);
    assert.equal(await inside('a', '[data-heatmap="scores"]').count(), 0);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('readonly holds for a lesson’s own controls: the Mixing lesson’s points do not move V', async () => {
    const { page, context } = await newPage();
    for (const readonly of [false, true]) {
      await openEmbed(page, `lesson=hull${readonly ? '&readonly' : ''}`);
      await page.waitForSelector('.value-point');
      const before = await page.$eval(
        '[data-lesson="hull"]',
        () => document.querySelector('[data-table="hull-outputs"] tbody').textContent,
      );
      await page.focus('.value-point');
      await page.keyboard.press('ArrowRight');
      await page.waitForTimeout(300);
      const afterText = await page.$eval('[data-table="hull-outputs"] tbody', (t) => t.textContent);
      if (readonly) assert.equal(afterText, before, 'read-only: the outputs stay');
      else assert.notEqual(afterText, before, 'editable: moving a value point moves the outputs');
    }
    await context.close();
  });
});

describe('starting numbers as text', () => {
  test('q, k, v and mask in the address: the weights and output are the core’s for those numbers', async () => {
    const { page, context, problems } = await newPage();
    const q = '[[1, 0], [0, 2], [1, 1]]';
    const k = '1 0; 0 1; -1 0.5; 2 2';
    const v = '[[1, 2], [3, 4], [5, 6], [7, 8]]';
    await openEmbed(
      page,
      `lesson=output&q=${encodeURIComponent(q)}&k=${encodeURIComponent(k)}&v=${encodeURIComponent(v)}&mask=causal`,
    );
    const weights = await readHeatmap(page, 'weights');
    const output = await readHeatmap(page, 'output');
    assert.deepEqual(weights.shape, [3, 4]);
    const expected = await page.evaluate(async () => {
      const { createAttention } = await import('/lib/attention.js');
      const attn = await createAttention();
      const r = attn.scaledDotProductAttention(
        [
          [1, 0],
          [0, 2],
          [1, 1],
        ],
        [
          [1, 0],
          [0, 1],
          [-1, 0.5],
          [2, 2],
        ],
        [
          [1, 2],
          [3, 4],
          [5, 6],
          [7, 8],
        ],
        { causal: true },
      );
      return { w: Array.from(r.weights.data), o: Array.from(r.output.data) };
    });
    assertClose(weights.data, expected.w, { label: 'weights' });
    assertClose(output.data, expected.o, { label: 'output' });
    assert.equal(await page.isVisible('.notice'), false);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('sentence and x as attributes label the rows and give X; hostile text is named and never markup', async () => {
    const { page, context, problems } = await newPage({ width: 1280 });
    await page.goto(`${env.url}examples/element.html`);
    await page.waitForFunction(() => customElements.get('attention-explorer'));
    await page.evaluate(() => {
      document.body.replaceChildren();
      const good = document.createElement('attention-explorer');
      good.id = 'good';
      good.setAttribute('lesson', 'scores');
      good.setAttribute('sentence', 'dogs chase cats');
      good.setAttribute('x', '1 0 0 0; 0 1 0 0; 0 0 1 0');
      const bad = document.createElement('attention-explorer');
      bad.id = 'bad';
      bad.setAttribute('lesson', 'weights');
      bad.setAttribute('q', '[[1e309, 0]]');
      bad.setAttribute('k', '1 2');
      bad.setAttribute('mask', '<img src=x onerror=window.__pwned=1>');
      bad.setAttribute('sentence', `${'w '.repeat(30)}`);
      document.body.append(good, bad);
    });
    await page.waitForFunction(() => [...document.querySelectorAll('attention-explorer')].every((e) => e.state));
    const state = await page.evaluate(() => document.getElementById('good').state);
    assert.deepEqual(state.tokens, ['dogs', 'chase', 'cats']);
    assert.deepEqual(state.matrices.X.data, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
    assert.equal(state.dModel, 4);
    const labels = await page
      .locator('#good')
      .locator('[data-heatmap="scores"] th.row-label .label-text')
      .allTextContents();
    assert.deepEqual(
      labels.map((t) => t.trim()),
      ['dogs', 'chase', 'cats'],
    );
    const notice = await page.locator('#bad').locator('.notice p').textContent();
    assert.match(notice, /q row 1, number 1 \(Infinity\) is not a finite number/);
    assert.match(notice, /sentence has more than 24 tokens/);
    assert.match(notice, /mask must be none, causal, padding, custom/);
    assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
    assert.equal(await page.locator('#bad').locator('img').count(), 0);
    // The example stays the lesson's own (3 tokens by hand).
    assert.equal((await page.evaluate(() => document.getElementById('bad').state)).n, 3);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
});

// Listens for answer events on the page's document (they bubble and leave a shadow root).
const listenForAnswers = (page) =>
  page.evaluate(() => {
    window.__answers = [];
    document.addEventListener('attention-explorer:answer', (e) =>
      window.__answers.push({ ...e.detail, target: e.target.id || e.target.tagName }),
    );
  });

// Every string of the page a person or a program can read: each attribute, the text (visually
// hidden text too, in shadow roots as well) and what a screen reader is given (the accessibility
// tree as an ARIA snapshot).
async function pageStrings(page) {
  const dom = await page.evaluate(() => {
    const out = [];
    const walk = (root) => {
      for (const e of root.querySelectorAll('*')) {
        for (const a of e.attributes) out.push(`${e.tagName}[${a.name}]: ${a.value}`);
        if (e.shadowRoot) walk(e.shadowRoot);
      }
    };
    walk(document);
    const text = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n; (n = text.nextNode());) out.push(`${n.parentElement.tagName} text: ${n.data}`);
    return out;
  });
  return [...dom, `accessibility tree: ${await page.locator('body').ariaSnapshot()}`];
}

// The strings of `strings` that hold one of `numbers` as the page writes it: in full (data-values),
// as a cell's digits and name (formatCell) or to three digits (the legend); not inside a longer number.
function stringsWith(strings, numbers) {
  const forms = [...new Set(numbers.flatMap((v) => [String(v), formatCell(v), formatNumber(v, 3)]))];
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`(?<![\\d.])(${forms.map(escape).join('|')})(?![\\d])`);
  return strings.filter((s) => found.test(s));
}

// Whether the canvas of heatmap `name` has no pixel painted (a covered map paints nothing): its
// image is a blank canvas's of the same size.
const blankCanvas = (page, name) =>
  page.$eval(`[data-heatmap="${name}"]`, (t) => {
    const canvas = t.parentElement.querySelector('canvas.heatmap-paint');
    const blank = document.createElement('canvas');
    [blank.width, blank.height] = [canvas.width, canvas.height];
    return canvas.toDataURL() === blank.toDataURL();
  });

describe('predict, then reveal', () => {
  test('the weights stay hidden until a guess made with the keyboard; the feedback and the event say whether it was right', async () => {
    const { page, context, problems } = await newPage();
    await openEmbed(page, 'lesson=weights&reveal=predict');
    await listenForAnswers(page);
    const hidden = () => page.$eval('[data-heatmap="weights"]', (t) => getComputedStyle(t).visibility === 'hidden');
    assert.equal(await hidden(), true, 'hidden before the guess');
    assert.equal(
      await page.$eval('[data-heatmap="weights"]', (t) => t.closest('.answer-hidden').dataset.cover),
      'Hidden until you answer',
    );
    await screenshot(page, 'predict-asking');
    // The 'hand' example: q3 = (1, 1) meets k3 = (1, 1) best. Keys by keyboard: the first radio,
    // then the arrow keys move the choice; Tab reaches the button.
    assert.match(await page.textContent('.predict-question'), /query \u201cq\u2083\u201d \(row 3\)/);
    await page.focus('.predict input[type="radio"]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.$eval('.predict input:checked', (r) => r.value), '2');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Check my answer');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__answers.length === 1);
    const answer = (await page.evaluate(() => window.__answers))[0];
    const w = await readHeatmap(page, 'weights');
    const row = w.data.slice(6, 9);
    assert.equal(answer.answer, row.indexOf(Math.max(...row)));
    assert.equal(answer.lesson, 'weights');
    assert.equal(answer.correct, true);
    assert.equal(answer.guess, 2);
    assert.equal(answer.answerLabel, 'k₃');
    assert.equal(answer.target, 'app');
    assertClose(Object.values(answer.weights), row, { label: 'the row reported' });
    assert.equal(await hidden(), false, 'revealed');
    assert.match(await page.textContent('.predict-feedback'), /^Right\. \u201ck\u2083\u201d takes 0\.\d\d/);
    await screenshot(page, 'predict-revealed');
    await axe(page, 'the weights question, revealed');
    // Ask again: hidden again; a wrong guess is reported as such.
    await page.click('.predict-again');
    assert.equal(await hidden(), true);
    await page.check('.predict input[value="0"]');
    await page.click('.predict-check');
    await page.waitForFunction(() => window.__answers.length === 2);
    const wrong = (await page.evaluate(() => window.__answers))[1];
    assert.equal(wrong.correct, false);
    assert.equal(wrong.guess, 0);
    assert.match(await page.textContent('.predict-feedback'), /^Not quite\. You chose \u201ck\u2081\u201d/);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('a covered answer is nowhere in the page until the reveal writes it: no attribute, text, cell name or pixel', async () => {
    const { page, context, problems } = await newPage();
    await openEmbed(page, 'lesson=weights&reveal=predict');
    // The 'hand' example's weights as the API computes them: Q = K = [[1, 0], [0, 1], [1, 1]].
    const weights = await page.evaluate(async () => {
      const { createAttention } = await import('/lib/attention.js');
      const attn = await createAttention();
      const m = (data) => ({ data: Float32Array.from(data), shape: [3, 2] });
      const QK = m([1, 0, 0, 1, 1, 1]);
      return Array.from(attn.scaledDotProductAttention(QK, QK, m([1, 0, 0, 1, 0.5, 0.5])).weights.data);
    });
    const covered = async (when) => {
      await page.waitForSelector('[data-heatmap="weights"]:not([data-pending])', { state: 'attached' });
      await afterFrames(page, 3);
      assert.deepEqual(stringsWith(await pageStrings(page), weights), [], `${when}: no weight in the page`);
      assert.equal(await page.getAttribute('[data-heatmap="weights"]', 'data-values'), null, when);
      assert.deepEqual(
        [
          await page.getAttribute('[data-heatmap="weights"]', 'data-rows'),
          await page.getAttribute('[data-heatmap="weights"]', 'data-cols'),
        ],
        ['3', '3'],
        `${when}: the map keeps its shape`,
      );
      assert.equal(await blankCanvas(page, 'weights'), true, `${when}: nothing painted`);
      // Nor the statistics of the weights: the summary under the map says nothing yet.
      assert.deepEqual(
        await page.$eval('[data-stat="summary"]', (p) => [p.textContent, p.dataset.meanEntropy, p.dataset.meanMax]),
        ['', undefined, undefined],
        `${when}: no summary`,
      );
    };
    await covered('before the guess');
    // A printout shows the cover, not the map.
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.$eval('[data-heatmap="weights"]', (t) => getComputedStyle(t).visibility), 'hidden');
    await page.emulateMedia({ media: 'screen' });

    await page.check('.predict input[value="2"]');
    await page.click('.predict-check');
    await page.waitForSelector('.predict[data-state="revealed"]');
    const shown = await readHeatmap(page, 'weights');
    assert.deepEqual(shown.shape, [3, 3]);
    assertClose(shown.data, weights, { label: 'the weights revealed' });
    assert.deepEqual(
      await page.$$eval('[data-heatmap="weights"] td.cell', (tds) => tds.map((td) => td.getAttribute('aria-label'))),
      weights.map(formatCell),
      'each cell named by its value',
    );
    assert.equal(await blankCanvas(page, 'weights'), false, 'painted');
    assert.match(await page.textContent('[data-stat="summary"]'), /^Mean entropy \d\.\d\d nats/);
    // A weight explained on focus, then the question asked again: covered again, the explanation too.
    await page.focus('[data-heatmap="weights"] td[data-row="2"][data-col="2"]');
    await page.waitForFunction(() => /A\[3,3\]/.test(document.querySelector('#explain-body').textContent));
    await page.click('.predict-again');
    await covered('asked again');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('Export offers no matrix of a covered answer: the weights and what follows them come with the reveal', async () => {
    const { page, context, problems } = await newPage();
    await openEmbed(page, 'lesson=weights&reveal=predict&panels=export');
    await page.click('.export-menu > summary');
    await page.waitForSelector('#export-target option', { state: 'attached' });
    const offered = () => page.$$eval('#export-target option', (os) => os.map((o) => o.value));
    const covered = await offered();
    assert.ok(covered.includes('Q') && covered.includes('scores'), covered.join(' '));
    assert.deepEqual(
      covered.filter((id) => ['weights', 'output'].includes(id) || id.startsWith('head-')),
      [],
      'nothing of the weights',
    );
    const panel = async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-export="json"]')]);
      return JSON.parse(readFileSync(await download.path(), 'utf8'));
    };
    await page.selectOption('#export-target', 'panel-pipeline');
    assert.deepEqual(
      (await panel()).matrices.map((m) => m.name),
      ['scores', 'scaled', 'masked'],
      'the steps panel without the weights',
    );
    await page.click('.export-menu > summary'); // closed, to answer
    await page.check('.predict input[value="2"]');
    await page.click('.predict-check');
    await page.waitForSelector('.predict[data-state="revealed"]');
    await page.click('.export-menu > summary');
    await page.waitForSelector('#export-target option[value="weights"]', { state: 'attached' }); // offered once revealed
    await page.selectOption('#export-target', 'weights');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-export="csv"]')]);
    const rows = readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r\n/)
      .slice(1);
    const { data } = await readHeatmap(page, 'weights');
    assertClose(
      rows.flatMap((r) => r.split(',').slice(1).map(Number)),
      data,
      { label: 'the CSV' },
    );
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('the pitfalls question covers the mistake’s side with none of its numbers, and the notes that tell the answer', async () => {
    const { page, context, problems } = await newPage();
    await openEmbed(page, 'lesson=pitfalls&reveal=predict');
    const wrong = '[data-heatmap^="pitfall-wrong-"]';
    // What the covered side and notes hold: the maps' values, cell names and row sums, the summary.
    const held = async () => {
      await page.waitForFunction(
        (w) => [...document.querySelectorAll(w)].every((t) => !t.hasAttribute('data-pending')),
        wrong,
      );
      await afterFrames(page, 2);
      return page.evaluate((w) => {
        const maps = [...document.querySelectorAll(w)];
        const summary = document.querySelector('[data-stat="pitfall-summary"]');
        return {
          values: maps.map((t) => t.dataset.values ?? null),
          shapes: maps.map((t) => [t.dataset.rows, t.dataset.cols]),
          names: maps.flatMap((t) => [...t.querySelectorAll('td[aria-label]')]).length,
          sums: maps.flatMap((t) =>
            [...t.querySelectorAll('td.stat')].map((td) => td.textContent + (td.dataset.value ?? '')),
          ),
          summary: summary.textContent + (summary.dataset.rowsShort ?? ''),
          notes: [...document.querySelectorAll('.lesson-panel > .lesson-note')].map((n) => n.textContent),
        };
      }, wrong);
    };
    const covered = await held();
    assert.deepEqual(covered.values, [null, null], 'no data-values');
    assert.deepEqual(
      covered.shapes,
      [
        ['4', '4'],
        ['4', '4'],
      ],
      'the maps keep their shape',
    );
    assert.equal(covered.names, 0, 'no cell named by its value');
    assert.deepEqual(covered.sums, ['', '', '', ''], 'no row sum');
    assert.equal(covered.summary, '', 'no summary');
    assert.ok(covered.notes.length && covered.notes.every((n) => n === ''), 'no note says what the mistake does');

    await page.check('.predict input[value="less-than-1"]');
    await page.click('.predict-check');
    await page.waitForSelector('.predict[data-state="revealed"]');
    const shown = await held();
    assert.ok(
      shown.values.every((v) => v && v.split(' ').length === 16),
      'values written',
    );
    assert.match(shown.summary, /rows? sums? to less than 1/);
    assert.ok(
      shown.notes.some((n) => /sums to less than 1/.test(n)),
      'the note explains it',
    );
    const { data, shape } = await readHeatmap(page, 'pitfall-wrong-weights');
    const sums = Array.from({ length: shape[0] }, (_, i) =>
      data.slice(i * shape[1], (i + 1) * shape[1]).reduce((a, b) => a + b, 0),
    ).filter((v) => v < 0.99);
    assert.ok(sums.length > 0 && stringsWith(await pageStrings(page), sums).length > 0, 'the short rows’ sums shown');
    // Asked again: covered again, every one of them gone.
    await page.click('.predict-again');
    assert.deepEqual(stringsWith(await pageStrings(page), sums), [], 'asked again: no short row’s sum');
    assert.deepEqual(await held(), covered, 'asked again: as before the first guess');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('an answer given with the keyboard keeps the focus in the question: on Ask again, then on a choice', async () => {
    const { page, context, problems } = await newPage();
    await openEmbed(page, 'lesson=weights&reveal=predict');
    const focused = () =>
      page.evaluate(() => {
        const e = document.activeElement;
        return e.matches('.predict-again') ? 'again' : e.matches('.predict input') ? `choice ${e.value}` : e.tagName;
      });
    // Check my answer hides itself and the choices are disabled: the focus must not fall to the page.
    await page.focus('.predict input[type="radio"]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.predict[data-state="revealed"]');
    assert.equal(await focused(), 'again', 'after Check my answer');
    await page.keyboard.press('Enter');
    assert.equal(await focused(), 'choice 0', 'after Ask again');
    // Enter on a choice answers too.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.predict[data-state="revealed"]');
    assert.equal(await focused(), 'again', 'after Enter on a choice');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('the entropy question of the √dₖ lesson is answered from the panel’s own measurement', async () => {
    const { page, context, problems } = await newPage();
    await openEmbed(page, 'lesson=sqrt-dk&reveal=predict');
    await listenForAnswers(page);
    await page.waitForSelector('[data-lesson="sqrt-dk"][data-shown]');
    assert.equal(await page.$eval('[data-stat="entropy-raw"]', (e) => getComputedStyle(e).visibility), 'hidden');
    // Covered, the softmax rows hold none of their numbers: no entropy or largest weight, no bar.
    const softmaxRows = () =>
      page.$eval('[data-stat="entropy-raw"]', (e) => {
        const figures = e.closest('.lesson-figures');
        return {
          stats: [...figures.querySelectorAll('[data-stat]')].map((s) => s.textContent + (s.dataset.value ?? '')),
          bars: figures.querySelectorAll('.plot.bars rect').length,
          described: [...figures.querySelectorAll('svg')].filter((p) =>
            /\d\.\d/.test(p.getAttribute('aria-label') ?? ''),
          ).length,
        };
      });
    assert.deepEqual(await softmaxRows(), { stats: ['', '', '', ''], bars: 0, described: 0 });
    // The hint sends the learner to the histograms where they are: below the question.
    const [hint, questionBottom, histogramsTop] = await page.evaluate(() => [
      document.querySelector('.predict-hint').textContent,
      document.querySelector('.predict').getBoundingClientRect().bottom,
      document.querySelector('[data-stat="raw-std"]').closest('.lesson-figures').getBoundingClientRect().top,
    ]);
    assert.match(hint, /^The histograms below /);
    assert.ok(
      questionBottom <= histogramsTop,
      `question ends at ${questionBottom}, histograms start at ${histogramsTop}`,
    );
    await page.check('.predict input[value="scaled"]');
    await page.click('.predict-check');
    await page.waitForFunction(() => window.__answers.length === 1);
    const answer = (await page.evaluate(() => window.__answers))[0];
    const raw = Number(await page.getAttribute('[data-stat="entropy-raw"]', 'data-value'));
    const scaled = Number(await page.getAttribute('[data-stat="entropy-scaled"]', 'data-value'));
    assert.ok(scaled > raw + 0.5, `${scaled} > ${raw}`);
    assert.deepEqual(
      [answer.correct, answer.answer, answer.entropyUnscaled, answer.entropyScaled, answer.dk],
      [true, 'scaled', raw, scaled, 64],
    );
    assert.equal(await page.$eval('[data-stat="entropy-raw"]', (e) => getComputedStyle(e).visibility), 'visible');
    const revealed = await softmaxRows();
    assert.ok(
      revealed.stats.every((text) => /\d/.test(text)),
      revealed.stats.join(' | '),
    );
    assert.deepEqual([revealed.bars, revealed.described], [2 * 64, 2]);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
});

// A lesson site on a second server (http://localhost:P; the same pages as http://127.0.0.1:P are
// another origin) framing two lessons with parentOrigin set to it, under a strict CSP, sandboxed
// as lesson platforms frame content (no allow-forms). Its script collects every message.
async function framedLessons() {
  const dir = mkdtempSync(join(tmpdir(), 'ae-lesson-'));
  const parent = await startServer({
    root: dir,
    csp: `default-src 'self'; script-src 'self'; frame-src ${env.url.replace(/\/$/, '')}`,
  });
  const port = new URL(parent.url).port;
  const lessonSite = `http://localhost:${port}`;
  const embed = (q) => `${env.url}embed.html?${q}&reveal=predict&parentOrigin=${encodeURIComponent(lessonSite)}`;
  writeFileSync(
    join(dir, 'lesson.html'),
    '<!doctype html><html lang="en"><head><title>lesson</title><script src="parent.js"></script></head><body>' +
      `<iframe id="a" title="Pitfalls" src="${embed('lesson=pitfalls')}" width="1000" height="900" sandbox="allow-scripts allow-same-origin"></iframe>` +
      `<iframe id="b" title="Induction" src="${embed('lesson=induction')}" width="1000" height="900" sandbox="allow-scripts allow-same-origin"></iframe></body></html>`,
  );
  writeFileSync(
    join(dir, 'parent.js'),
    `window.got = [];
    window.addEventListener('message', (e) => { for (const id of ['a', 'b']) if (e.source === document.getElementById(id).contentWindow) window.got.push({ frame: id, origin: e.origin, data: e.data }); });`,
  );
  const { page, context } = await newPage({ width: 1100, height: 900 });
  await page.goto(`${lessonSite}/lesson.html`);
  const close = async () => {
    await context.close();
    await parent.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { page, context, port, close };
}

// The first message of `type` from frame `id` of the lesson page.
const message = async (page, id, type) =>
  await (
    await page.waitForFunction(([f, t]) => window.got.find((m) => m.frame === f && m.data.type === t), [id, type], {
      timeout: 30_000,
    })
  ).jsonValue();

describe('answers and heights reach the lesson page', () => {
  test('in sandboxed iframes: the pitfalls answer as a message, with the row sum the panel then shows', async () => {
    const { page, port, context, close } = await framedLessons();
    const pitfalls = page.frameLocator('#a');
    await pitfalls.locator('.predict input[value="less-than-1"]').check();
    await pitfalls.locator('.predict-check').click();
    const a = await message(page, 'a', 'attention-explorer:answer');
    assert.equal(a.origin, env.url.replace(/\/$/, ''));
    assert.deepEqual(
      [a.data.version, a.data.lesson, a.data.correct, a.data.answer],
      [1, 'pitfalls', true, 'less-than-1'],
    );
    const wrong = await pitfalls
      .locator('[data-heatmap="pitfall-wrong-weights"]:not([data-pending])')
      .evaluate((t) => ({ data: t.dataset.values.split(' ').map(Number), cols: Number(t.dataset.cols) }));
    const sum = wrong.data.slice(a.data.row * wrong.cols, (a.data.row + 1) * wrong.cols).reduce((x, y) => x + y, 0);
    assertClose([a.data.sum], [sum], { atol: 1e-5, label: 'row sum' });
    assert.ok(a.data.sum < 0.9);
    // Another site framing the same lesson hears nothing.
    const evil = await context.newPage();
    await evil.goto(`http://127.0.0.1:${port}/lesson.html`);
    await evil.frameLocator('#a').locator('.predict input[value="exactly-1"]').check();
    await evil.frameLocator('#a').locator('.predict-check').click();
    await evil.frameLocator('#a').locator('.predict[data-state="revealed"]').waitFor();
    await evil.waitForTimeout(300);
    assert.deepEqual(await evil.evaluate(() => window.got), []);
    await close();
  });

  test('in sandboxed iframes: the training view sends its height, and the induction answer is judged by the trainer’s scores', async () => {
    const { page, close } = await framedLessons();
    const induction = page.frameLocator('#b');
    await message(page, 'b', 'attention-explorer:ready');
    await page.waitForFunction(
      () => window.got.some((m) => m.frame === 'b' && m.data.type === 'attention-explorer:height'),
      null,
      { timeout: 30_000 },
    );
    await page.waitForTimeout(500);
    const height = await page.evaluate(
      () => window.got.filter((m) => m.frame === 'b' && m.data.type === 'attention-explorer:height').at(-1).data.height,
    );
    const real = await induction.locator('html').evaluate((h) => Math.ceil(h.getBoundingClientRect().height));
    assert.ok(Math.abs(height - real) <= 2 && height > 300, `height ${height} vs ${real}`);
    await induction.locator('[data-head-score][data-layer="1"][data-head="2"]').waitFor();
    // Covered, no card gives its scores or its label away: not in its numbers, hooks or classes.
    const cards = () =>
      induction.locator('[data-head-score]').evaluateAll((list) =>
        list.map((c) => ({
          layer: Number(c.dataset.layer),
          head: Number(c.dataset.head),
          induction: c.dataset.induction === undefined ? null : Number(c.dataset.induction),
          numbers: [...c.querySelectorAll('.head-numbers dd')].map((dd) => dd.textContent).join(' '),
          label: c.querySelector('.head-badge').textContent,
          outlined: c.classList.contains('is-induction') || c.classList.contains('is-previous'),
          legend: [...c.querySelectorAll('.legend-value')].map((v) => v.textContent).join(' '),
        })),
      );
    assert.deepEqual(
      (await cards()).filter(
        (c) => c.induction !== null || c.numbers !== '– – –' || c.label || c.outlined || c.legend !== '– – –',
      ),
      [],
      'covered cards',
    );
    assert.equal(
      await induction
        .locator('.head-badge')
        .first()
        .evaluate((b) => getComputedStyle(b).display),
      'none',
      'labels hidden',
    );
    await induction.locator('.predict input[value="0,1"]').check(); // a previous-token head of layer 0
    await induction.locator('.predict-check').click();
    const b = await message(page, 'b', 'attention-explorer:answer');
    await induction.locator('.predict[data-state="revealed"]').waitFor();
    const scores = await cards();
    assert.ok(
      scores.every((c) => c.induction !== null && /^\d\.\d\d /.test(c.numbers)),
      'revealed cards',
    );
    assert.ok(
      scores.some((c) => c.label === 'induction head' && c.outlined),
      'an induction head named',
    );
    const best = scores.reduce((x, y) => (y.induction > x.induction ? y : x));
    assert.equal(b.data.lesson, 'induction');
    assert.equal(b.data.correct, scores.find((s) => s.layer === 0 && s.head === 1).induction >= 0.4);
    assert.equal(b.data.correct, false, 'a layer-0 head of the trained model is no induction head');
    assert.deepEqual(b.data.guess, { layer: 0, head: 1 });
    assert.equal(b.data.answer, `${best.layer},${best.head}`);
    assert.ok(Math.abs(b.data.best.score - best.induction) < 1e-6, `${b.data.best.score} vs ${best.induction}`);
    await screenshot(page, 'lesson-page-two-frames');
    await close();
  });

  test('the whole training view honours panels, controls and readonly', async () => {
    const { page, context, problems } = await newPage({ width: 1280 });
    await openEmbed(page, 'view=train&panels=controls%20heads&controls=full&readonly');
    assert.equal(await visibleCount(page, '.loss-panel, .examples-panel, .import-panel, [data-action="defaults"]'), 0);
    assert.equal(
      await page.$$eval('.training-controls fieldset', (fs) => fs.length > 0 && fs.every((f) => f.disabled)),
      true,
      'settings read-only',
    );
    assert.equal(await page.isEnabled('[data-action="train"]'), true, 'training still runs');
    await openEmbed(page, 'view=train&controls=minimal');
    assert.equal(await visibleCount(page, '.training-controls fieldset'), 0);
    assert.equal(await visibleCount(page, '[data-action="train"]'), 1);
    assert.equal(await visibleCount(page, '.loss-panel'), 1, 'every panel by default');
    await openEmbed(page, 'view=train&controls=none');
    assert.equal(await visibleCount(page, '.training-controls'), 0);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
});

describe('the embed builder', () => {
  test('the page fetches the WebAssembly build ahead only for a view that draws the explorer itself', async () => {
    // A preload the page itself never uses is a console warning a few seconds after load: the
    // builder's preview and the training view's Worker load the core in their own documents.
    const { context } = await newPage();
    const preloaded = async (hash) => {
      const page = await context.newPage(); // (a new document: a changed hash alone loads none)
      await page.goto(`${env.url}${hash}`);
      const count = await page.$$eval('link[rel="preload"][href$=".wasm"]', (ls) => ls.length);
      await page.close();
      return count;
    };
    assert.equal(await preloaded(''), 1, 'the explorer preloads its build');
    assert.equal(await preloaded('#view=embed'), 0, 'the embed builder');
    assert.equal(await preloaded('?view=train'), 0, 'the training view');
    assert.equal(await preloaded('#checkpoint=models/gpt2/'), 0, 'a checkpoint link, which opens the training view');
    await context.close();
  });

  test('pick a lesson and options: the live preview is that embed, and both snippets give it on other pages', async () => {
    const { page, context, problems } = await newPage({ width: 1400, height: 900 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
    await page.goto(`${env.url}#view=embed`);
    await page.waitForSelector('[data-field="lesson"]');
    await page.selectOption('[data-field="lesson"]', 'pitfalls');
    await page.check('[data-field="reveal"]');
    await page.fill('[data-field="sentence"]', 'a b c');
    await page.fill('[data-field="mask"]', 'causal');
    const preview = page.frameLocator('[data-preview]');
    await page.waitForFunction(() =>
      /lesson=pitfalls.*reveal=predict.*sentence=a\+b\+c.*mask=causal/.test(
        document.querySelector('[data-preview]').src,
      ),
    );
    await preview.locator('#lesson-panel-pitfalls .predict').waitFor();
    assert.deepEqual(
      await preview
        .locator('[data-heatmap="pitfall-correct-weights"]:not([data-pending])')
        .evaluate((t) => [t.dataset.rows, t.dataset.cols]),
      ['3', '3'],
    );
    // The preview is sized by its height messages, as a lesson page sizes a frame.
    await page.waitForFunction(
      () =>
        Math.abs(
          document.querySelector('[data-preview]').getBoundingClientRect().height -
            document.querySelector('[data-preview]').contentDocument.documentElement.getBoundingClientRect().height,
        ) <= 3,
    );
    const element = await page.inputValue('[data-snippet="element"]');
    assert.equal(
      element,
      `<script type="module" src="${env.url}attention-explorer.js"></script>\n<attention-explorer lesson="pitfalls" reveal="predict" sentence="a b c" mask="causal"></attention-explorer>`,
    );
    await page.click('[data-action="copy-element"]');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), element);
    const frame = await page.inputValue('[data-snippet="iframe"]');
    assert.match(
      frame,
      /^<iframe src="http:\/\/[^"]+\/embed\.html\?lesson=pitfalls&amp;reveal=predict&amp;sentence=a\+b\+c&amp;mask=causal" title="Attention explorer: Pitfalls side by side" width="100%" height="\d+"/,
    );
    // The element snippet on a page that hosts the explorer's files (the module is loaded there).
    const host = await context.newPage();
    await host.goto(`${env.url}examples/element.html`);
    await host.waitForFunction(() => customElements.get('attention-explorer'));
    await host.evaluate((html) => {
      document.body.innerHTML = html.split('\n')[1];
    }, element);
    await host.locator('attention-explorer').locator('#lesson-panel-pitfalls .predict').waitFor();
    assert.deepEqual(await host.evaluate(() => document.querySelector('attention-explorer').state.tokens), [
      'a',
      'b',
      'c',
    ]);
    await axe(page, 'the embed builder');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
});

describe('accessibility', () => {
  test('axe-core: lessons alone, their questions unanswered, light and dark', async () => {
    for (const [query, colorScheme] of [
      ['lesson=pitfalls&reveal=predict', 'dark'],
      ['lesson=induction&reveal=predict', 'light'],
      ['lesson=heads', 'dark'],
      ['lesson=sqrt-dk&reveal=predict', 'light'],
      ['lesson=text', 'dark'],
    ]) {
      const { page, context } = await newPage({ colorScheme });
      await openEmbed(page, query);
      await page.waitForFunction(() => !document.querySelector('.stale'));
      await axe(page, query);
      await context.close();
    }
  });
});
