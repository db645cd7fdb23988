// The smoke set of the page tests, in Firefox: Debian's firefox-esr, headless, driven through
// WebDriver BiDi by puppeteer-core, on the production site (dist/) under the strict CSP:
// an edit of X in the explorer (typed with the keyboard) gives the weights and output the JS API
// computes; a lesson opens and draws; the training view trains in a Worker and pauses; a
// single-lesson embed (embed.html?lesson=sqrt-dk) shows that lesson alone; embed.html in a
// sandboxed frame draws when its server sends CORS headers and says why within 3 s when not.
// Pages report no console errors or uncaught exceptions.
//   node --test tests/e2e-firefox/          (FIREFOX_PATH overrides /usr/bin/firefox-esr)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import { assertClose, expectedLessonExample, siteRoot } from '../e2e/helpers.mjs';
import { startServer } from '../../scripts/serve.mjs';

const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
// The single-lesson embed is the lesson= field of embed.html; until embed.js reads it, its test
// is skipped (and says so).
const LESSON_EMBED = /['"]lesson['"]/.test(readFileSync(new URL('../../web/embed.js', import.meta.url), 'utf8'));

let browser, server, root;
before(async () => {
  root = await siteRoot('dist');
  server = await startServer({ root });
  if (existsSync(FIREFOX))
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      protocol: 'webDriverBiDi',
      headless: true,
    });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// A new page that collects console errors and uncaught exceptions into `problems`.
async function newPage(problems) {
  const page = await browser.newPage();
  // The tab in front, as the one a person clicks in is: Firefox defers a background tab's frames
  // and idle callbacks, which the page's drawing waits for.
  await page.bringToFront();
  await page.setViewport({ width: 1280, height: 900 });
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return page;
}

// Clicks `selector` once it holds still. Scrolling to it brings cards the page skipped while far
// away (content-visibility: auto, sized 16rem until drawn) into view, and as they take their real
// heights in the next frames Firefox's scroll anchoring can move the target by ~100 px: a click
// aimed where it was lands on what moved in.
async function clickWhenSteady(page, selector) {
  await page.$eval(selector, (e) => e.scrollIntoView({ block: 'center' }));
  await page.evaluate(
    (sel) =>
      new Promise((done) => {
        let last = '';
        let still = 0;
        const look = () => {
          const r = document.querySelector(sel).getBoundingClientRect();
          const at = `${r.x},${r.y}`;
          still = at === last ? still + 1 : 0;
          last = at;
          if (still >= 3) done();
          else requestAnimationFrame(look);
        };
        look();
      }),
    selector,
  );
  await page.click(selector);
}

const heatmapValues = (page, name) =>
  page.$eval(`table[data-heatmap="${name}"]:not([data-pending])`, (t) => t.dataset.values.split(' ').map(Number));
const needsFirefox = () =>
  browser ? undefined : `no Firefox at ${FIREFOX} (scripts/setup.sh --full installs firefox-esr)`;

describe('Firefox (firefox-esr, WebDriver BiDi)', () => {
  test(
    'the explorer: a value typed into X changes the weights and output to what the API computes',
    { timeout: 180_000 },
    async (t) => {
      if (needsFirefox()) return t.skip(needsFirefox());
      const problems = [];
      const page = await newPage(problems);
      await page.goto(server.url);
      await page.waitForSelector('#app[data-ready="true"]', { timeout: 120_000 });
      const before = await heatmapValues(page, 'weights');
      const renders = Number(await page.$eval('#app', (e) => e.dataset.renders));
      await page.focus('[data-matrix="X"] .cell-input[data-row="1"][data-col="2"]');
      await page.keyboard.type('0.75');
      await page.waitForFunction(
        (n) =>
          Number(document.getElementById('app').dataset.renders) > n &&
          !document.querySelector('table[data-heatmap="weights"][data-pending]'),
        { timeout: 30_000 },
        renders,
      );
      const weights = await heatmapValues(page, 'weights');
      assert.notDeepEqual(weights, before);
      const want = await expectedLessonExample({ row: 1, col: 2, value: 0.75 });
      assertClose(weights, want.weights, { atol: 1e-6, rtol: 1e-5, label: 'weights' });
      assertClose(await heatmapValues(page, 'output'), want.output, { atol: 1e-5, rtol: 1e-5, label: 'output' });
      assert.deepEqual(problems, []);
      await page.close();
    },
  );

  test('a lesson tab opens its panel alone and draws it', { timeout: 180_000 }, async (t) => {
    if (needsFirefox()) return t.skip(needsFirefox());
    const problems = [];
    const page = await newPage(problems);
    await page.goto(server.url);
    await page.waitForSelector('#app[data-ready="true"]', { timeout: 120_000 });
    // The lesson open at first (drawn when the browser is idle) has drawn: the page below the tabs
    // has its height, so the click lands on the tab it aims at.
    await page.waitForSelector('#lesson-panel-sqrt-dk [data-lesson="sqrt-dk"]', { timeout: 60_000 });
    await clickWhenSteady(page, '.lesson-tab[data-panel="pitfalls"]');
    await page.waitForSelector('#lesson-panel-pitfalls:not([hidden]):not([aria-busy])', { timeout: 30_000 });
    // (maps out of view are drawn when scrolled to)
    await page.$eval('#lesson-panel-pitfalls', (e) => e.scrollIntoView({ block: 'start' }));
    await page.waitForSelector('#lesson-panel-pitfalls table[data-heatmap][data-values]', { timeout: 30_000 });
    await page.waitForSelector('#lesson-panel-pitfalls canvas', { visible: true, timeout: 30_000 });
    const shown = await page.$$eval('.lesson-holder', (hs) => hs.filter((h) => !h.hidden).map((h) => h.id));
    assert.deepEqual(shown, ['lesson-panel-pitfalls']);
    assert.equal(
      await page.$eval('.lesson-tab[data-panel="pitfalls"]', (b) => b.getAttribute('aria-selected')),
      'true',
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the training view trains a few steps in a Worker and pauses', { timeout: 300_000 }, async (t) => {
    if (needsFirefox()) return t.skip(needsFirefox());
    const problems = [];
    const page = await newPage(problems);
    await page.goto(`${server.url}#view=train`);
    await page.waitForSelector('[data-training][data-ready="true"]', { timeout: 120_000 });
    assert.equal(await page.$eval('[data-training]', (e) => e.dataset.trainerMode), 'worker');
    await page.click('[data-action="train"]');
    await page.waitForFunction(() => Number(document.querySelector('[data-training]').dataset.step) >= 20, {
      timeout: 240_000,
    });
    await page.click('[data-action="pause"]');
    await page.waitForSelector('[data-training][data-running="false"]', { timeout: 60_000 });
    const loss = Number(await page.$eval('[data-training]', (e) => e.dataset.loss));
    assert.ok(Number.isFinite(loss) && loss > 0, `loss ${loss}`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(
    'a single-lesson embed (embed.html?lesson=sqrt-dk) shows that lesson and no other tab',
    { timeout: 180_000 },
    async (t) => {
      if (needsFirefox()) return t.skip(needsFirefox());
      if (!LESSON_EMBED)
        return t.skip('embed.html does not read the lesson= field yet (the single-lesson embed, embed.html?lesson=ID)');
      const problems = [];
      const page = await newPage(problems);
      await page.goto(`${server.url}embed.html?lesson=sqrt-dk`);
      await page.waitForSelector('#lesson-panel-sqrt-dk', { visible: true, timeout: 120_000 });
      const tabs = await page.$$eval('.lesson-tab', (bs) =>
        bs.filter((b) => b.offsetParent !== null).map((b) => b.dataset.panel),
      );
      assert.ok(
        tabs.every((id) => id === 'sqrt-dk'),
        `visible tabs: ${tabs.join(', ')}`,
      );
      assert.deepEqual(problems, []);
      await page.close();
    },
  );
});

// A lesson page on localhost framing `src` with sandbox="allow-scripts" (an opaque origin).
async function hostPage(src) {
  const host = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Lesson</title>
      <iframe sandbox="allow-scripts" title="Attention explorer" style="width: 1200px; height: 900px" src="${src}"></iframe>`);
  });
  await new Promise((resolve) => {
    host.listen(0, 'localhost', resolve);
  });
  return {
    url: `http://localhost:${host.address().port}/`,
    close: () =>
      new Promise((done) => {
        host.close(done);
      }),
  };
}

async function sandboxedFrame(cors) {
  const site = await startServer({ root, cors });
  const host = await hostPage(`${site.url}embed.html`);
  const page = await newPage([]);
  const started = Date.now();
  await page.goto(host.url);
  let frame;
  for (let k = 0; !frame && k < 200; k++) {
    frame = page.frames().find((f) => f.url().includes('embed.html'));
    if (!frame)
      await new Promise((resolve) => {
        setTimeout(resolve, 20);
      });
  }
  await frame.waitForSelector('#app[data-load-problem], #app[data-ready="true"]', { timeout: 120_000 });
  const ms = Date.now() - started;
  const app = await frame.$eval('#app', (e) => ({
    problem: e.dataset.loadProblem ?? null,
    ready: e.dataset.ready ?? null,
    text: e.textContent,
  }));
  return {
    ...app,
    ms,
    frame,
    close: async () => {
      await page.close();
      await host.close();
      await site.close();
    },
  };
}

describe('Firefox: embed.html in an <iframe sandbox="allow-scripts">', () => {
  test('with Access-Control-Allow-Origin: * draws the explorer', { timeout: 180_000 }, async (t) => {
    if (needsFirefox()) return t.skip(needsFirefox());
    const r = await sandboxedFrame(true);
    try {
      assert.equal(r.problem, null, r.text);
      assert.equal(r.ready, 'true');
      const weights = await r.frame.$eval('table[data-heatmap="weights"]', (e) =>
        e.dataset.values.split(' ').map(Number),
      );
      assert.equal(weights.length, 16);
    } finally {
      await r.close();
    }
  });

  test('without CORS headers says within 3 s what the host must do', { timeout: 180_000 }, async (t) => {
    if (needsFirefox()) return t.skip(needsFirefox());
    const r = await sandboxedFrame(false);
    try {
      assert.equal(r.problem, 'sandbox', r.text);
      assert.ok(r.ms < 3000, `the message came after ${r.ms} ms`);
      assert.match(r.text, /Access-Control-Allow-Origin: \*/);
    } finally {
      await r.close();
    }
  });
});
