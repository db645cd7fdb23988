// Sharing and embedding in headless Chromium under the strict CSP: the state round-trips through
// the URL (and bad links show a message and the default example), <attention-explorer> works in a
// plain lesson page, embed.html talks to its parent with postMessage both ways with the origin
// checked, and axe-core finds no violations on embed.html and the page's sharing controls.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import {
  afterRender,
  assertClose,
  cellSelector,
  collectProblems,
  fillCell,
  launch,
  openExplorer,
  readHeatmap,
  recordProblems,
  screenshot,
} from './helpers.mjs';
import { decodeState, toBase64Url } from '../../web/ui/model/url-state.js';
import { startServer } from '../../scripts/serve.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
// Elements no link may create (the lesson panels draw their own plots as <svg data-plot>).
const FORBIDDEN = 'script, img, svg:not([data-plot]), iframe, object, embed, link, style, base, form';
const pack = (value) =>
  `v1.${toBase64Url(deflateRawSync(Buffer.from(typeof value === 'string' ? value : JSON.stringify(value))))}`;
// First weights of the lesson's NumPy example (the default example).
const LESSON_FIRST = [0.11245373803705627, 0.0037760809522618742, 0.45621653209744262, 0.42755364891323921];

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

// A page with problem recording (console errors, page errors, failed requests, CSP violations).
async function newPage({ width = 1280, height = 900, context: shared = null } = {}) {
  const context = shared ?? (await env.browser.newContext({ viewport: { width, height } }));
  const page = await context.newPage();
  const problems = [];
  await recordProblems(page, problems);
  return { page, context, problems };
}

// axe-core on a settled page: the lesson panels fade their figures (.stale) for the moment a
// sample is being computed in a worker; the check is of the page a reader looks at.
async function axe(target, what) {
  await target.waitForFunction(() => {
    const roots = [document, ...[...document.querySelectorAll('attention-explorer')].map((e) => e.shadowRoot)];
    return roots.every((r) => !r.querySelector('.stale'));
  });
  await target.evaluate(AXE); // evaluated over the DevTools protocol: the page's CSP does not apply
  // Cards far off screen skip layout (content-visibility: auto), so their text has no real position
  // and axe would read it against whatever lies there: lay every card out for the check.
  const violations = await target.evaluate(async () => {
    const roots = [document, ...[...document.querySelectorAll('attention-explorer')].map((e) => e.shadowRoot)];
    const cards = roots.flatMap((r) => [...r.querySelectorAll('.card')]);
    for (const c of cards) c.style.contentVisibility = 'visible';
    try {
      return (await window.axe.run(document)).violations.map(
        (v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`,
      );
    } finally {
      for (const c of cards) c.style.contentVisibility = '';
    }
  });
  assert.deepEqual(violations, [], what);
}

const hashState = async (page) => {
  const hash = await page.evaluate(() => window.location.hash);
  assert.match(hash, /^#s=v1\./);
  const r = await decodeState(hash.slice(3));
  assert.equal(r.ok, true, r.error);
  return r.state;
};

describe('the state in the URL', () => {
  test('every change reaches the address bar, and the link reopens the same example', async () => {
    const { page, context, problems } = await openExplorer(env);
    assert.equal(await page.evaluate(() => window.location.hash), '', 'an untouched page keeps a clean address');
    await afterRender(page, () => page.selectOption('#preset', 'heads'));
    await afterRender(page, () => page.check('input[name="mask"][value="causal"]'));
    await afterRender(page, () => page.click('.head-select .segment >> nth=2'));
    await afterRender(page, () => fillCell(page, 'X', 1, 3, '0.123456789'));
    await afterRender(page, () => page.selectOption('#palette', 'cividis'));
    await page.waitForFunction(() => window.location.hash.length > 100);
    await page.waitForTimeout(400); // the debounced last write
    const state = await hashState(page);
    assert.equal(state.mask.kind, 'causal');
    assert.equal(state.view.head, 2);
    assert.equal(state.display.palette, 'cividis');
    assert.equal(state.matrices.X.data[1 * 16 + 3], 0.123456789);
    assert.deepEqual(state.headNames, ['previous token', 'same word', 'first token', 'broad']);
    const url = page.url();
    const shown = { out: await readHeatmap(page, 'mha-output'), head: await readHeatmap(page, 'weights') };

    const again = await openExplorer(env, { path: url.slice(env.url.length) });
    assert.equal(await again.page.isChecked('input[name="mask"][value="causal"]'), true);
    assert.equal(await again.page.getAttribute('.head-select .segment >> nth=2', 'aria-pressed'), 'true');
    assert.equal(await again.page.inputValue('#palette'), 'cividis');
    assert.deepEqual(await readHeatmap(again.page, 'mha-output'), shown.out);
    assert.deepEqual(await readHeatmap(again.page, 'weights'), shown.head);
    assert.equal(await again.page.isVisible('.notice'), false);

    // A link pasted into the address bar of the open page is loaded too.
    await afterRender(again.page, () =>
      again.page.evaluate(
        (h) => {
          window.location.hash = h;
        },
        `s=${pack({ mode: 'qkv', n: 2, m: 3, dk: 1, dv: 1, matrices: { Q: { rows: 2, cols: 1, data: [1, 2] }, K: { rows: 3, cols: 1, data: [0, 1, 2] }, V: { rows: 3, cols: 1, data: [1, 2, 3] } } })}`,
      ),
    );
    const w = await readHeatmap(again.page, 'weights');
    assert.deepEqual(w.shape, [2, 3]);
    const expected = await again.page.evaluate(async () => {
      const { createAttention } = await import('/lib/attention.js');
      const attn = await createAttention();
      return Array.from(attn.scaledDotProductAttention([[1], [2]], [[0], [1], [2]], [[1], [2], [3]]).weights.data);
    });
    assertClose(w.data, expected, { label: 'weights of the pasted link' });
    assert.deepEqual(await collectProblems(page, problems), []);
    assert.deepEqual(await collectProblems(again.page, again.problems), []);
    await context.close();
    await again.context.close();
  });

  test('bad and hostile links show a message and the default example, never markup', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    // (Every kind of bad field is checked in Node by tests/js/url-state.test.mjs; here, that the
    // page survives each class of bad link the same way.)
    const links = {
      markup: 's=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E',
      'javascript: URL': 's=javascript:window.__pwned=1',
      'huge sizes, wrong types, markup in a value': `s=${pack({ n: 1e9, tokens: 'abc', display: { theme: '<img src=x onerror=window.__pwned=1>' }, matrices: { Q: { rows: 1e9, cols: 1e9, data: [] } } })}`,
      'prototype keys': `s=${pack('{"view": {"__proto__": {"polluted": 1}}}')}`,
      oversized: `s=v1.${'A'.repeat(120_000)}`,
    };
    for (const [what, hash] of Object.entries(links)) {
      const { page, problems } = await newPage({ context }); // a fresh load each time, not a hash change
      await page.goto(`${env.url}#${hash}`);
      await page.waitForSelector('#app[data-ready="true"]');
      const r = await page.evaluate(
        (selector) => ({
          pwned: window.__pwned ?? null,
          polluted: {}.polluted ?? null,
          forbidden: document.querySelectorAll(`#app :is(${selector})`).length,
          notice:
            document.querySelector('.notice')?.hidden === false
              ? document.querySelector('.notice p').textContent
              : null,
          preset: document.getElementById('preset').value,
        }),
        FORBIDDEN,
      );
      assert.equal(r.pwned, null, what);
      assert.equal(r.polluted, null, what);
      assert.equal(r.forbidden, 0, what);
      assert.match(r.notice ?? '', /could not be opened: .+\. Showing the default example instead\./, what);
      assert.ok(r.notice.length < 300, `${what}: a short message`);
      assert.equal(r.preset, 'lesson', what);
      assertClose((await readHeatmap(page, 'weights')).data.slice(0, 4), LESSON_FIRST, {
        atol: 2e-5,
        rtol: 1e-3,
        label: what,
      });
      // The address is corrected to the example shown.
      await page.waitForFunction(() => window.location.hash.startsWith('#s=v1.'));
      if (what === 'markup') await screenshot(page, 'bad-link-notice');
      assert.deepEqual(await collectProblems(page, problems), [], what);
      await page.close();
    }
    await context.close();
  });

  test('Copy link and Copy embed code give a working link and a custom-element snippet', async () => {
    const { page, context, problems } = await openExplorer(env);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
    await afterRender(page, () => page.selectOption('#preset', 'padding'));
    await page.click('[data-action="copy-link"]');
    await page.waitForFunction(() => /copied/i.test(document.querySelector('.share-status').textContent));
    const link = await page.inputValue('.share-text');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    assert.ok(link.startsWith(`${env.url}#s=v1.`), link.slice(0, 80));
    await page.click('[data-action="copy-embed"]');
    await page.waitForFunction(() => /Embed code copied/.test(document.querySelector('.share-status').textContent));
    const snippet = await page.inputValue('.share-text');
    assert.match(
      snippet,
      new RegExp(
        `^<script type="module" src="${env.url}attention-explorer\\.js"></script>\\n<attention-explorer state="v1\\.[A-Za-z0-9_-]+"></attention-explorer>$`,
      ),
    );
    const opened = await openExplorer(env, { path: link.slice(env.url.length) });
    assert.deepEqual(await readHeatmap(opened.page, 'weights'), await readHeatmap(page, 'weights'));
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
    await opened.context.close();
  });
});

// Values of a heatmap inside a custom element's shadow root (locators pierce open shadow roots).
async function shadowHeatmap(host, name) {
  const table = host.locator(`[data-heatmap="${name}"]:not([data-pending])`);
  await table.waitFor();
  return table.evaluate((t) => ({
    shape: [Number(t.dataset.rows), Number(t.dataset.cols)],
    data: t.dataset.values.split(' ').map(Number),
  }));
}

// Resolves when the element #causal has mounted again (its `ready` event) after an attribute change.
function remounted(page) {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        document.getElementById('causal').addEventListener('ready', () => resolve(), { once: true });
        setTimeout(() => reject(new Error('no ready event within 20 s')), 20_000);
      }),
  );
}

// preset="hand": the weights are the API's for the hand-built Q, K, V.
async function checkPresetAttribute(page, causal) {
  const ready = remounted(page);
  await page.evaluate(() => document.getElementById('causal').setAttribute('preset', 'hand'));
  await ready;
  const hand = await shadowHeatmap(causal, 'weights');
  const expected = await page.evaluate(async () => {
    const { createAttention } = await import('/lib/attention.js');
    const attn = await createAttention();
    const r = attn.scaledDotProductAttention(
      [
        [1, 0],
        [0, 1],
        [1, 1],
      ],
      [
        [1, 0],
        [0, 1],
        [1, 1],
      ],
      [
        [1, 0],
        [0, 1],
        [0.5, 0.5],
      ],
    );
    return Array.from(r.weights.data);
  });
  assertClose(hand.data, expected, { label: 'hand preset through the attribute' });
}

// A good state link is shown; a hostile one gives the notice and runs nothing.
async function checkStateAttribute(page, causal) {
  let ready = remounted(page);
  const link = pack({
    mode: 'qkv',
    n: 1,
    m: 2,
    dk: 1,
    dv: 1,
    mask: { kind: 'none' },
    matrices: {
      Q: { rows: 1, cols: 1, data: [1] },
      K: { rows: 2, cols: 1, data: [0, 1] },
      V: { rows: 2, cols: 1, data: [0, 1] },
    },
  });
  await page.evaluate((l) => document.getElementById('causal').setAttribute('state', l), link);
  await ready;
  assert.deepEqual((await shadowHeatmap(causal, 'weights')).shape, [1, 2]);

  ready = remounted(page);
  await page.evaluate(() =>
    document.getElementById('causal').setAttribute('state', 'v1.<img src=x onerror=window.__pwned=1>'),
  );
  await ready;
  assert.match(await causal.locator('.notice p').textContent(), /could not be opened/);
  assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
}

// Whether each cell of matrix `name` is read-only (and not editable).
const readOnlyCells = (causal, name) =>
  causal
    .locator(`[data-matrix="${name}"] .cell-input`)
    .evaluateAll((inputs) => inputs.map((i) => i.getAttribute('aria-readonly') === 'true' && !i.isContentEditable));

// readonly="Q" locks Q's cells only; panels="inputs pipeline" leaves the controls out.
async function checkReadonlyAndPanels(page, causal) {
  const ready = remounted(page);
  await page.evaluate(() => {
    const e = document.getElementById('causal');
    e.setAttribute('readonly', 'Q');
    e.setAttribute('panels', 'inputs pipeline');
  });
  await ready;
  assert.equal(await causal.locator('.controls').count(), 0);
  const q = await readOnlyCells(causal, 'Q');
  const k = await readOnlyCells(causal, 'K');
  assert.ok(q.length > 0 && q.every(Boolean) && k.every((x) => !x));
}

// link-base sets where the element's links point.
async function checkLinkBase(page) {
  const ready = remounted(page);
  await page.evaluate(() =>
    document.getElementById('causal').setAttribute('link-base', 'https://lessons.example/explorer/'),
  );
  await ready;
  assert.match(
    await page.evaluate(() => document.getElementById('causal').link()),
    /^https:\/\/lessons\.example\/explorer\/#s=v1\./,
  );
}

describe('<attention-explorer> in a plain lesson page', () => {
  test('two elements with their own presets, panels, themes and read-only cells, under the strict CSP', async () => {
    const { page, context, problems } = await newPage();
    await page.goto(`${env.url}examples/element.html`);
    await page.waitForFunction(() => [...document.querySelectorAll('attention-explorer')].every((e) => e.state));
    const causal = page.locator('#causal');
    const heads = page.locator('#heads');
    // Panels: the first has controls, inputs, steps and the explanation; no multi-head panel, no toolbar.
    assert.equal(await causal.locator('.controls').count(), 1);
    assert.equal(await causal.locator('.heads').count(), 0);
    assert.equal(await causal.locator('.explorer-toolbar').count(), 0);
    assert.equal(await heads.locator('.controls').count(), 0);
    assert.equal(await heads.locator('[data-heatmap="head-4"]').count(), 1);
    // Themes live on each element, not on the host page.
    assert.equal(await causal.locator('.ae-root').getAttribute('data-theme'), 'light');
    assert.equal(await heads.locator('.ae-root').getAttribute('data-theme'), 'dark');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme ?? null), null);
    // The causal example: the upper triangle of the weights is exactly 0.
    const w = await shadowHeatmap(causal, 'weights');
    const [n, m] = w.shape;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < m; j++) assert.equal(w.data[i * m + j], 0);
    // Editing a cell in the shadow root recomputes, and the page hears a statechange event.
    const cell = causal.locator(cellSelector('X', 0, 0));
    const renders = Number(await causal.locator('.ae-root').getAttribute('data-renders'));
    await cell.fill('2.5');
    await page.waitForFunction(() => document.getElementById('last-change').textContent === '6 tokens, causal mask');
    await page.waitForFunction(
      (n) => Number(document.getElementById('causal').shadowRoot.querySelector('.ae-root').dataset.renders) > n,
      renders,
    );
    const after = await shadowHeatmap(causal, 'weights');
    assert.notDeepEqual(after.data, w.data);
    const state = await page.evaluate(() => document.getElementById('causal').state);
    assert.equal(state.matrices.X.data[0], 2.5);
    // Read-only: every matrix cell of the second element refuses typing.
    const readOnly = await heads
      .locator('[data-matrix] .cell-input')
      .evaluateAll((inputs) => inputs.map((i) => i.getAttribute('aria-readonly') === 'true' && !i.isContentEditable));
    assert.ok(readOnly.length === 0 || readOnly.every(Boolean));
    await screenshot(page, 'element-lesson-page');
    await page.evaluate(() => document.getElementById('heads').scrollIntoView());
    await screenshot(page, 'element-heads-dark');
    assert.deepEqual(await collectProblems(page, problems), []);
    await axe(page, 'examples/element.html'); // after: axe itself tries an inline <style>, which the CSP refuses
    await context.close();
  });

  test('attributes set from script: preset, state (good and bad), readonly, panels', async () => {
    const { page, context, problems } = await newPage();
    await page.goto(`${env.url}examples/element.html`);
    await page.waitForFunction(() => document.getElementById('causal').state);
    const causal = page.locator('#causal');
    await checkPresetAttribute(page, causal);
    await checkStateAttribute(page, causal);
    await checkReadonlyAndPanels(page, causal);
    await checkLinkBase(page);
    // Setting a state object from script is checked field by field.
    const error = await page.evaluate(() => {
      try {
        document.getElementById('causal').state = { n: 'four' };
        return null;
      } catch (err) {
        return err.message;
      }
    });
    assert.match(error, /^n must be a whole number/);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
});

// The lesson site is a second server: http://localhost:P is the allowed parent, and the same
// pages reached as http://127.0.0.1:P are another origin. (Chromium refuses to frame loopback
// pages into intercepted "public" ones, so the parents are real pages.) Strict CSP on both. Its
// lesson.html frames embed.html and keeps in window.got what the frame posts to it.
async function startLessonSite() {
  const dir = mkdtempSync(join(tmpdir(), 'ae-parent-'));
  const parent = await startServer({
    root: dir,
    csp: `default-src 'self'; script-src 'self'; frame-src ${env.url.replace(/\/$/, '')}`,
  });
  const port = new URL(parent.url).port;
  const lessonSite = `http://localhost:${port}`;
  const embed = `${env.url}embed.html?parentOrigin=${encodeURIComponent(lessonSite)}&panels=pipeline`;
  writeFileSync(
    join(dir, 'lesson.html'),
    '<!doctype html><html lang="en"><head><title>parent</title><script src="parent.js"></script></head>' +
      `<body><iframe id="f" title="Attention explorer" src="${embed}" allow="clipboard-write" sandbox="allow-scripts allow-same-origin allow-downloads"></iframe></body></html>`,
  );
  writeFileSync(
    join(dir, 'parent.js'),
    `window.got = [];
    window.addEventListener('message', (e) => { if (e.source === document.getElementById('f').contentWindow) window.got.push({ origin: e.origin, data: e.data }); });
    window.send = (message) => document.getElementById('f').contentWindow.postMessage(message, '*');`,
  );
  return { dir, parent, port, lessonSite };
}

// A 2 × 2 example, unlike the 4 × 4 default.
const TWO_BY_TWO = {
  mode: 'qkv',
  n: 2,
  m: 2,
  dk: 1,
  dv: 1,
  matrices: {
    Q: { rows: 2, cols: 1, data: [1, 1] },
    K: { rows: 2, cols: 1, data: [1, 3] },
    V: { rows: 2, cols: 1, data: [0, 1] },
  },
};

// The number of cells in the weights heatmap of the explorer framed as #f in page `p`.
const weightsShape = (p) =>
  p
    .frameLocator('#f')
    .locator('[data-heatmap="weights"]:not([data-pending])')
    .evaluate((t) => t.querySelectorAll('td[data-col]').length);

describe('embed.html in an iframe', () => {
  test('same-origin lesson page: ready, state on every change, set-state and get-state both ways', async () => {
    const { page, context, problems } = await newPage({ width: 1000, height: 900 });
    await page.goto(`${env.url}examples/iframe.html`);
    await page.waitForFunction(() => window.explorerMessages?.some((m) => m.type === 'attention-explorer:ready'));
    const frame = page.frameLocator('#explorer');
    const ready = await page.evaluate(() => window.explorerMessages.find((m) => m.type === 'attention-explorer:ready'));
    assert.equal(ready.version, 1);
    assert.equal(ready.state.mask.kind, 'none');

    // Parent → explorer: the causal example.
    await page.click('#send-causal');
    await page.waitForFunction(() =>
      window.explorerMessages.some((m) => m.type === 'attention-explorer:state' && m.source === 'parent'),
    );
    const masked = await frame
      .locator('[data-heatmap="masked"]:not([data-pending])')
      .evaluate((t) => t.dataset.values.split(' ').map(Number));
    assert.equal(masked[1], -Infinity);
    // Explorer → parent: a person's edit.
    await frame.locator(cellSelector('X', 0, 0)).fill('1.75');
    const sent = await page.waitForFunction(() =>
      window.explorerMessages.find((m) => m.type === 'attention-explorer:state' && m.source === 'user'),
    );
    const userState = await sent.jsonValue();
    assert.equal(userState.state.matrices.X.data[0], 1.75);
    assert.equal(userState.state.mask.kind, 'causal');
    await page.click('#ask');
    await page.waitForFunction(() => window.explorerMessages.some((m) => m.source === 'request'));

    // A bad state from the parent is refused with a message both sides can read.
    await page.evaluate(() =>
      document.getElementById('explorer').contentWindow.postMessage(
        {
          type: 'attention-explorer:set-state',
          version: 1,
          state: { n: 1e9, tokens: ['<img src=x onerror=parent.__pwned=1>'.repeat(3)] },
        },
        window.location.origin,
      ),
    );
    const err = await page.waitForFunction(() =>
      window.explorerMessages.find((m) => m.type === 'attention-explorer:error'),
    );
    assert.match((await err.jsonValue()).error, /^n must be a whole number/);
    await page.evaluate(() =>
      document
        .getElementById('explorer')
        .contentWindow.postMessage({ type: 'attention-explorer:set-state', version: 2, state: {} }, '*'),
    );
    await page.waitForFunction(() =>
      window.explorerMessages.some((m) => /unsupported message version/.test(m.error ?? '')),
    );
    assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
    await screenshot(page, 'iframe-parent');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('origin check: the configured lesson site talks to the explorer, another site cannot', async () => {
    const site = await startLessonSite();
    const { page, context } = await newPage({ width: 900, height: 700 });
    await page.goto(`${site.lessonSite}/lesson.html`);
    await page.waitForFunction(() => window.got.some((m) => m.data.type === 'attention-explorer:ready'));
    assert.equal(await page.evaluate(() => window.got[0].origin), env.url.replace(/\/$/, ''));
    await page.evaluate(
      (state) => window.send({ type: 'attention-explorer:set-state', version: 1, state }),
      TWO_BY_TWO,
    );
    await page.waitForFunction(() => window.got.some((m) => m.data.source === 'parent'));
    assert.equal(await weightsShape(page), 4);

    const evil = await context.newPage();
    await evil.goto(`http://127.0.0.1:${site.port}/lesson.html`);
    await evil.frameLocator('#f').locator('.ae-root[data-ready="true"]').waitFor();
    await evil.evaluate(
      (state) => window.send({ type: 'attention-explorer:set-state', version: 1, state }),
      TWO_BY_TWO,
    );
    await evil.evaluate(() => window.send({ type: 'attention-explorer:get-state', version: 1 }));
    await evil.waitForTimeout(300);
    assert.deepEqual(await evil.evaluate(() => window.got), [], 'the explorer sends nothing to another origin');
    assert.equal(await weightsShape(evil), 16, 'and takes nothing from it (the 4 × 4 default example stays)');

    // A parentOrigin that is not an origin fails closed, with a message.
    const broken = await context.newPage();
    await broken.goto(`${env.url}embed.html?parentOrigin=javascript:alert(1)`);
    await broken.waitForSelector('#app[data-ready="true"]');
    assert.match(await broken.textContent('.notice p'), /parentOrigin setting is not a list of origins/);
    await context.close();
    await site.parent.close();
    rmSync(site.dir, { recursive: true, force: true });
  });
});

describe('accessibility of the embedding surfaces', () => {
  test('axe-core: embed.html (light, and dark in a narrow frame) and the page with its sharing and export controls open', async () => {
    for (const [query, width] of [
      ['', 1000],
      ['?theme=dark&preset=heads&panels=display%20share%20export%20pipeline%20heads%20explain', 420],
    ]) {
      const { page, context, problems } = await newPage({ width, height: 700 });
      await page.goto(`${env.url}embed.html${query}`);
      await page.waitForSelector('#app[data-ready="true"]');
      if (width < 500) await screenshot(page, 'embed-narrow');
      assert.deepEqual(await collectProblems(page, problems), []);
      await axe(page, `embed.html${query}`);
      await context.close();
    }
    const { page, context } = await newPage();
    await page.goto(`${env.url}#s=v1.damaged`);
    await page.waitForSelector('#app[data-ready="true"]');
    await page.click('.export-menu > summary');
    await page.click('[data-action="copy-link"]');
    await page.waitForFunction(() => document.querySelector('.share-status').textContent);
    await axe(page, 'index.html with the notice, the export menu and the link field');
    await context.close();
  });
});
