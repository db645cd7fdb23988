// The page under hostile input, in headless Chromium under the strict CSP
// (default-src 'self'; script-src 'self' 'wasm-unsafe-eval'): sentences and matrix cells holding
// markup, script, URLs, huge, malformed and exotic Unicode values are shown as text or rejected
// with a message; nothing they contain runs (a payload that runs sets window.__pwned), no element
// they describe appears, no NaN reaches a heatmap, and the page reports no error and no CSP
// violation. Links (#s=… state) with markup in them show it as text; damaged or hostile links are
// refused with a message; a hostile query string and messages from other windows do nothing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { afterFrames, afterRender, cellSelector, collectProblems, readHeatmap, useExplorer } from './helpers.mjs';
import { MAX_TOKEN_LENGTH, tokenize } from '../../web/ui/model/tokenizer.js';
import { MAX_TOKENS, reconcile } from '../../web/ui/model/state.js';
import { encodeState } from '../../web/ui/model/url-state.js';

const PAYLOADS = [
  '<img src=x onerror="window.__pwned=\'img\'">',
  '<script>window.__pwned="script"</script>',
  '"><svg onload=window.__pwned=1><!--',
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  'javascript:window.__pwned=1//',
  '{{constructor.constructor("window.__pwned=1")()}} ${window.__pwned=1}',
  '&lt;b&gt;not bold&lt;/b&gt; &amp; &#60;img&#62;',
  '\u202eevil\u202c \u200b zero\u200dwidth e\u0301 👩\u200d👧 \ufeff',
  'lone \ud800 surrogate \u0000 nul \uffff',
  'a'.repeat(5000),
  'word '.repeat(500),
  '[PAD] [PAD] [PAD]',
  '__proto__ constructor prototype toString hasOwnProperty',
];
// Elements no input may create inside the app.
// The lesson panels draw their own plots as inline SVG (data-plot); any other SVG would be injected.
const FORBIDDEN = 'script, img, svg:not([data-plot]), iframe, object, embed, link, style, base, form';

const { env, page, problems } = useExplorer({
  setup: (page) => afterRender(page, () => page.selectOption('#preset', 'causal')), // a sentence preset
});

// Fills the sentence field and waits until the page has either redrawn or flagged the text.
async function typeSentence(text) {
  const before = Number(await page.getAttribute('#app', 'data-renders'));
  await page.fill('#sentence', text);
  await page.waitForFunction(
    (n) =>
      Number(document.getElementById('app').dataset.renders) > n ||
      document.getElementById('sentence').getAttribute('aria-invalid') === 'true',
    before,
  );
  // Let a queued animation-frame redraw land before reading the page.
  await afterFrames(page);
}

async function expectNothingRan(what) {
  const state = await page.evaluate(
    (selector) => ({
      pwned: window.__pwned ?? null,
      forbidden: [...document.querySelectorAll(`#app :is(${selector})`)].map((e) => e.outerHTML.slice(0, 80)),
      status: document.getElementById('status').hidden ? '' : document.getElementById('status').textContent,
    }),
    FORBIDDEN,
  );
  assert.equal(state.pwned, null, `${what}: a payload ran`);
  assert.deepEqual(state.forbidden, [], `${what}: input became elements`);
  assert.equal(state.status, '', `${what}: the page shows an error`);
  assert.deepEqual(await collectProblems(page, problems), [], `${what}: page problems`);
}

async function expectFiniteHeatmaps(what) {
  for (const name of ['weights', 'output']) {
    const { data } = await readHeatmap(page, name);
    assert.ok(
      data.length > 0 && data.every(Number.isFinite),
      `${what}: ${name} holds ${data.find((x) => !Number.isFinite(x))}`,
    );
  }
}

describe('hostile sentences', () => {
  for (const payload of PAYLOADS) {
    const what = JSON.stringify(payload.length > 60 ? `${payload.slice(0, 57)}…` : payload);
    test(`${what} is shown as text tokens or rejected`, async () => {
      await typeSentence(payload);
      await expectNothingRan(what);
      // What the field holds (the transfer to the browser turns a lone surrogate into U+FFFD).
      const { tokens } = tokenize(await page.inputValue('#sentence'), MAX_TOKENS);
      const invalid = await page.getAttribute('#sentence', 'aria-invalid');
      if (tokens.length === 0) {
        assert.equal(invalid, 'true', `${what}: a sentence without tokens is flagged`);
        return;
      }
      assert.notEqual(invalid, 'true', `${what}: flagged although it has tokens`);
      // The token chips and the heatmap labels carry exactly the tokens, as text.
      const shown = await page.$$eval('.sentence-box li.token', (lis) => lis.map((li) => li.textContent));
      assert.deepEqual(shown, tokens, `${what}: token chips`);
      assert.ok(shown.length <= MAX_TOKENS && shown.every((t) => t === '[PAD]' || t.length <= MAX_TOKEN_LENGTH));
      const labels = await page.$$eval('[data-heatmap="weights"] thead th.col-label', (ths) =>
        ths.map((th) => th.textContent),
      );
      assert.deepEqual(
        labels.map((l) => l.trim()),
        tokens.map((t) => t.trim()),
        `${what}: weights column labels`,
      );
      if (tokens.every((t) => t === '[PAD]')) return; // every key padded: the explorer shows the masked case
      await expectFiniteHeatmaps(what);
    });
  }
});

describe('hostile matrix cells', () => {
  const cell = cellSelector('X', 0, 0);
  const VALUES = [
    '<img src=x onerror="window.__pwned=1">',
    'javascript:alert(1)',
    'NaN',
    'Infinity',
    '-Infinity',
    '1e999',
    '-1e39',
    '1e-400',
    '0x10',
    '1_000',
    '١٢٣',
    '9'.repeat(400),
    '1e308',
    ' ',
    '--1',
    '1e',
  ];
  for (const value of VALUES) {
    const what = JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}…` : value);
    test(`${what} in a cell is rejected or stays finite`, async () => {
      await page.fill(cell, value);
      await afterFrames(page);
      await expectNothingRan(what);
      await expectFiniteHeatmaps(what);
      // Then a good value is taken again.
      await afterRender(page, () => page.fill(cell, '0.5'));
      assert.equal((await page.getAttribute(cell, 'aria-invalid')) ?? 'false', 'false');
    });
  }

  // A cell is a plain-text editable box: a paste (Ctrl+V of HTML from another page) inserts the
  // clipboard's text only, however hostile, and the cell stays one line of text.
  test('pasting HTML into a cell inserts its text, never markup', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
    const plain = '<img src=x onerror="window.__pwned=1">';
    await page.focus(cell);
    await page.keyboard.press('Control+a');
    await page.evaluate(async (text) => {
      // (Markup with inline handlers or styles would make Chromium's clipboard sanitizer itself
      // report CSP violations on this page, so the HTML flavour is elements only.)
      const html =
        '<b data-pasted>2</b><table data-pasted><tr><td>3</td></tr></table><br><a data-pasted href="#x">4</a>';
      await navigator.clipboard.write([
        new ClipboardItem({
          'text/html': new Blob([html], { type: 'text/html' }),
          'text/plain': new Blob([text], { type: 'text/plain' }),
        }),
      ]);
    }, plain);
    await page.keyboard.press('Control+V');
    await page.waitForFunction((sel) => document.querySelector(sel).getAttribute('aria-invalid') === 'true', cell);
    const shown = await page.$eval(cell, (c) => ({ text: c.textContent, elements: c.childElementCount }));
    assert.deepEqual(shown, { text: plain, elements: 0 });
    assert.equal(await page.$$eval('[data-pasted]', (es) => es.length), 0);
    await expectNothingRan('pasted HTML');
    await expectFiniteHeatmaps('pasted HTML');
    await afterRender(page, () => page.fill(cell, '0.5'));
    assert.equal((await page.getAttribute(cell, 'aria-invalid')) ?? 'false', 'false');
  });
});

describe('URL and postMessage input', () => {
  test('a hostile query string and hash do nothing', async () => {
    const context = page.context();
    const other = await context.newPage();
    const own = [];
    other.on('pageerror', (err) => own.push(err.message));
    await other.addInitScript(() => {
      window.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective));
    });
    await other.goto(
      `${env.url}?state=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E&preset=%22%3E%3Cscript%3E` +
        '#%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E',
    );
    await other.waitForSelector('#app[data-ready="true"]');
    const r = await other.evaluate(() => ({ pwned: window.__pwned ?? null, csp: window.__csp }));
    assert.deepEqual(r, { pwned: null, csp: [] });
    assert.deepEqual(own, []);
    await other.close();
  });

  // A link (#s=v1.…) carries a whole state: hostile tokens must come out as text, a hostile
  // message (error text quoting the link) as text too.
  const openLink = async (hash) => {
    const other = await page.context().newPage();
    const own = [];
    other.on('pageerror', (err) => own.push(err.message));
    other.on('console', (msg) => {
      if (msg.type() === 'error') own.push(msg.text());
    });
    await other.addInitScript(() => {
      window.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective));
    });
    await other.goto(`${env.url}#${hash}`);
    await other.waitForSelector('#app[data-ready="true"]');
    const r = await other.evaluate(
      (selector) => ({
        pwned: window.__pwned ?? null,
        csp: window.__csp,
        forbidden: [...document.querySelectorAll(`#app :is(${selector})`)].length,
        tokens: [...document.querySelectorAll('.sentence-box li.token')].map((li) => li.textContent),
        text: document.body.innerText,
      }),
      FORBIDDEN,
    );
    await other.close();
    assert.deepEqual([r.pwned, r.csp, r.forbidden, own], [null, [], 0, []], `#${hash.slice(0, 40)}`);
    return r;
  };

  test('a link whose state holds markup shows it as text', async () => {
    const tokens = ['<img src=x onerror=f()>', '<script>', 'javascript:x', '"><b>', '{{7*7}}']; // ≤ 24 characters each
    const link = await encodeState(
      reconcile({ mode: 'sentence', sentence: tokens.join(' '), tokens, dModel: 4, heads: 1 }, (name, count) =>
        Array.from({ length: count }, (_, k) => Math.cos(k)),
      ),
    );
    const r = await openLink(`s=${link}`);
    assert.deepEqual(r.tokens, tokens);
  });

  test('damaged and hostile links are refused with a message, the default example shown', async () => {
    for (const hash of [
      's=v1.%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E',
      's=v2.AAAA',
      's=v1.' + 'A'.repeat(200000),
      's=%3Cscript%3Ewindow.__pwned%3D1%3C%2Fscript%3E',
      'preset=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E',
    ]) {
      const r = await openLink(hash);
      assert.ok(
        !/undefined|NaN|\[object Object\]/.test(r.text),
        `#${hash.slice(0, 40)}: the page text shows a raw value`,
      );
    }
  });

  test('messages from another window run nothing and break nothing', async () => {
    await page.evaluate(() => {
      for (const data of [
        '<img src=x onerror="window.__pwned=1">',
        { state: { tokens: ['<script>'] } },
        { type: 'state', state: { n: 1e9, matrices: { Q: { rows: 1e9, cols: 1e9, data: [] } } } },
        null,
      ])
        window.postMessage(data, '*');
      return new Promise((resolve) => setTimeout(resolve, 100));
    });
    await expectNothingRan('postMessage');
    await expectFiniteHeatmaps('postMessage');
  });
});
