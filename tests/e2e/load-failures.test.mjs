// Never an endless "Loading…": where the browser refuses the explorer's module scripts, the page
// says so within 3 s, with the reason and what the host must do (web/loading.js, a classic script,
// which loads where module scripts do not). In headless Chromium, on the production site (dist/):
// - embed.html in an <iframe sandbox="allow-scripts"> (an opaque origin) whose server sends no
//   CORS headers: the message names the sandbox and Access-Control-Allow-Origin / allow-same-origin;
// - the same frame with Access-Control-Allow-Origin: * draws the explorer and shows no message;
// - index.html and embed.html opened from file://: the message says to serve the folder over
//   http(s) or to use the single file of npm run build:single.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, siteRoot } from './helpers.mjs';
import { startServer } from '../../scripts/serve.mjs';

const LIMIT_MS = 3000;
let env, root;
before(async () => {
  root = await siteRoot('dist');
  env = await launch({ root });
});
after(async () => {
  await env?.close();
});

// A lesson page on localhost framing `src` with sandbox="allow-scripts".
async function hostPage(src) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Lesson</title>
      <iframe sandbox="allow-scripts" title="Attention explorer" style="width: 1200px; height: 900px" src="${src}"></iframe>`);
  });
  await new Promise((resolve) => {
    server.listen(0, 'localhost', resolve);
  });
  return {
    url: `http://localhost:${server.address().port}/`,
    close: () =>
      new Promise((done) => {
        server.close(done);
      }),
  };
}

// Opens `url` and resolves with the #app of `frameOf(page)` once it carries data-load-problem or
// data-ready, and how long that took from the start of the navigation.
async function firstOutcome(url, frameOf = (page) => page.mainFrame()) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  const started = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  let frame = frameOf(page);
  for (let k = 0; !frame && k < 100; k++) {
    await page.waitForTimeout(20);
    frame = frameOf(page);
  }
  await frame.waitForSelector('#app[data-load-problem], #app[data-ready="true"]', { timeout: 60_000 });
  const ms = Date.now() - started;
  const app = await frame.$eval('#app', (e) => ({
    problem: e.dataset.loadProblem ?? null,
    ready: e.dataset.ready ?? null,
    text: e.querySelector('[data-placeholder]')?.textContent ?? '',
    busy: e.getAttribute('aria-busy'),
  }));
  return { ...app, ms, page, frame, context };
}

const framed = (page) => page.frames().find((f) => f !== page.mainFrame() && f.url().includes('embed.html'));

describe('a sandboxed frame', () => {
  test('whose server sends no CORS headers says within 3 s that the host must send Access-Control-Allow-Origin or allow same-origin', async () => {
    const site = await startServer({ root, cors: false });
    const host = await hostPage(`${site.url}embed.html`);
    try {
      const r = await firstOutcome(host.url, framed);
      assert.equal(r.problem, 'sandbox', r.text);
      assert.ok(r.ms < LIMIT_MS, `the message came after ${r.ms} ms`);
      assert.match(r.text, /sandboxed frame/);
      assert.match(r.text, /Access-Control-Allow-Origin: \*/);
      assert.match(r.text, /allow-same-origin/);
      assert.equal(r.busy, 'false');
      assert.equal(await r.frame.getAttribute('#app [data-placeholder]', 'role'), 'alert');
      await r.context.close();
    } finally {
      await host.close();
      await site.close();
    }
  });

  test('whose server sends Access-Control-Allow-Origin: * draws the explorer and shows no message, also after 3 s', async () => {
    const site = await startServer({ root, cors: true });
    const host = await hostPage(`${site.url}embed.html`);
    try {
      const r = await firstOutcome(host.url, framed);
      assert.equal(r.problem, null, r.text);
      assert.equal(r.ready, 'true');
      await r.frame.waitForSelector('table[data-heatmap="weights"][data-values]');
      await r.page.waitForTimeout(LIMIT_MS);
      assert.equal(await r.frame.$eval('#app', (e) => e.dataset.loadProblem ?? null), null);
      await r.context.close();
    } finally {
      await host.close();
      await site.close();
    }
  });
});

describe('opened from file://', () => {
  for (const name of ['index.html', 'embed.html']) {
    test(`${name} of dist/ says within 3 s to serve the folder over http(s) or to use the single file`, async () => {
      const r = await firstOutcome(pathToFileURL(join(root, name)).href);
      assert.equal(r.problem, 'file', r.text);
      assert.ok(r.ms < LIMIT_MS, `the message came after ${r.ms} ms`);
      assert.match(r.text, /file/);
      assert.match(r.text, /http\(s\)/);
      assert.match(r.text, /npm run build:single/);
      await r.context.close();
    });
  }

  test('the message is in the language the address asks for (?lang=de, ?lang=es)', async () => {
    for (const [lang, words] of [
      ['de', /Stellen Sie diesen Ordner stattdessen über http\(s\) bereit/],
      ['es', /Sirva esta carpeta por http\(s\)/],
    ]) {
      const r = await firstOutcome(`${pathToFileURL(join(root, 'index.html')).href}?lang=${lang}`);
      assert.equal(r.problem, 'file', r.text);
      assert.match(r.text, words);
      assert.match(r.text, /npm run build:single/);
      await r.context.close();
    }
  });
});
