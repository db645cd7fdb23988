// Shared setup for the end-to-end tests: the strict-CSP static server, one headless Chromium per
// test file, and a page that records console errors, page errors and CSP violations.
//
// The tests run against the production site, dist/ (what users get; rebuilt here first when web/
// changed, well under a second), or against the unbundled source, web/, with SERVE=web or
// launch({ site: 'web' }) (the development path; tests/e2e/dev-site.test.mjs keeps it working).
import { mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { DIST_ROOT, WEB_ROOT, startServer } from '../../scripts/serve.mjs';
import { ensureSite } from '../../scripts/bundle.mjs';
import { decodeState, stateFromHash } from '../../web/ui/model/url-state.js';

export const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The folder of `site`: 'dist' (default; 'web' when SERVE=web) or 'web'; dist/ made fresh first. */
export async function siteRoot(site = process.env.SERVE === 'web' ? 'web' : 'dist') {
  if (site === 'web') return WEB_ROOT;
  await ensureSite();
  return DIST_ROOT;
}

/**
 * Starts the server (of `site`, see siteRoot, or of the folder `root`) and the browser; call the
 * returned close() in after().
 */
export async function launch({ root, site } = {}) {
  const server = await startServer({ port: 0, root: root ?? (await siteRoot(site)) });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  return {
    url: server.url,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

// The frame of a request, or null when it has gone (a frame already replaced).
function frameOf(req) {
  try {
    return req.frame();
  } catch {
    return null;
  }
}

/**
 * Collects into `problems` the page's console errors and warnings, uncaught exceptions, failed
 * requests, HTTP errors and CSP violations (read these with cspViolations(page)); and asks the page
 * for its timing attributes (web/ui/dom/instrument.js).
 */
export async function recordProblems(page, problems) {
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => {
    // A frame whose address changed (an embed preview redrawn) drops its requests under way.
    if (req.failure()?.errorText === 'net::ERR_ABORTED' && frameOf(req) !== page.mainFrame()) return;
    problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  await page.addInitScript(() => {
    window.__ATTN_INSTRUMENT__ = true; // the timing attributes some tests read (web/ui/dom/instrument.js)
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'}`);
    });
  });
}

/**
 * Opens the explorer and waits until it has drawn. `problems` collects what recordProblems does.
 */
export async function openExplorer(
  env,
  { width = 1280, height = 900, colorScheme = 'light', path = '', deviceScaleFactor = 1, problems = [] } = {},
) {
  const context = await env.browser.newContext({ viewport: { width, height }, colorScheme, deviceScaleFactor });
  const page = await context.newPage();
  await recordProblems(page, problems);
  await page.goto(env.url + path);
  await page.waitForSelector('#app[data-ready="true"]');
  return { page, context, problems };
}

/**
 * The harness of a test file: the server and the browser, and one explorer page opened with
 * `options` (as openExplorer) and then prepared by `setup(page)`; before() and after() are
 * registered here. Returns { env, page, problems } at once: env and page stand in for the real
 * objects (they forward to them once before() has run), problems is the page's list.
 */
export function useExplorer({ setup, site, ...options } = {}) {
  const real = {};
  const problems = [];
  before(async () => {
    real.env = await launch({ site });
    real.page = (await openExplorer(real.env, { ...options, problems })).page;
    if (setup) await setup(real.page);
  });
  after(async () => {
    await real.env?.close();
  });
  const forward = (key) =>
    new Proxy(
      {},
      {
        get(_, prop) {
          const target = real[key];
          if (!target) throw new Error(`the harness's ${key} is ready only once before() has run`);
          const value = target[prop];
          return typeof value === 'function' ? value.bind(target) : value;
        },
      },
    );
  return { env: forward('env'), page: forward('page'), problems };
}

/** All CSP violations the page reported, merged into `problems`. */
export async function collectProblems(page, problems) {
  const csp = await page.evaluate(() => window.__cspViolations ?? []);
  return [...problems, ...csp.map((v) => `CSP violation: ${v}`)];
}

/**
 * Waits until the page has drawn `count` more frames (the next one may be under way when this is
 * called), then `thenMs` milliseconds more (for work queued after the last frame).
 */
export function afterFrames(page, count = 2, thenMs = 0) {
  return page.evaluate(
    ([n, ms]) =>
      new Promise((done) => {
        const next = (left) => (left ? requestAnimationFrame(() => next(left - 1)) : setTimeout(done, ms));
        next(n);
      }),
    [count, thenMs],
  );
}

/** Waits for the next redraw after `action` (the page counts its redraws in #app[data-renders]). */
export async function afterRender(page, action) {
  const before = Number(await page.getAttribute('#app', 'data-renders'));
  await action();
  await page.waitForFunction((n) => Number(document.getElementById('app').dataset.renders) > n, before);
}

/** Sets a size field and waits for the redraw (none when the field has that value already). */
export async function setSize(page, id, value) {
  if ((await page.inputValue(id)) === value) return;
  await afterRender(page, async () => {
    await page.fill(id, value);
    await page.press(id, 'Enter');
  });
}

/**
 * Values of a heatmap, row-major, as numbers (−Infinity kept), with its shape. The page writes the
 * data-values attribute just after drawing a frame (the table carries data-pending until then).
 */
export async function readHeatmap(page, name) {
  await page.waitForFunction((heatmap) => {
    const table = document.querySelector(`[data-heatmap="${heatmap}"]`);
    return !table || !table.hasAttribute('data-pending');
  }, name);
  return page.evaluate((heatmap) => {
    const table = document.querySelector(`[data-heatmap="${heatmap}"]`);
    if (!table) throw new Error(`no heatmap ${heatmap}`);
    const shape = [Number(table.dataset.rows), Number(table.dataset.cols)];
    const data = table.dataset.values ? table.dataset.values.split(' ').map(Number) : [];
    return { shape, data };
  }, name);
}

/**
 * What a heatmap shows in each cell, row-major, read from its canvas at the cell's own box (so
 * this also checks that the canvas lines up with the table), with the map scrolled into view:
 * - colour: the pixel 3 CSS px inside the cell's corner, clear of the digits, as 'rgb(r, g, b)',
 *   or 'hatch' for a masked cell;
 * - text: the cell's accessible name, what a screen reader announces when it has focus;
 * - masked, corners: the pixels 2 CSS px inside its four corners ('r,g,b,a', 'outside' when off
 *   the canvas), gap: the pixel of the gap just left of it (null in the first column);
 * - ink, inkOffset: how many pixels differ from its corner colour (the digits), and the centre of
 *   their bounding box relative to the cell's centre, in CSS px.
 * `page` may be a Page or a Frame.
 */
export async function readHeatmapCells(page, name) {
  await page.waitForFunction((heatmap) => {
    const table = document.querySelector(`[data-heatmap="${heatmap}"]`);
    return table && !table.hasAttribute('data-pending');
  }, name);
  return page.evaluate(async (heatmap) => {
    const table = document.querySelector(`[data-heatmap="${heatmap}"]`);
    // On screen, as a person sees it (maps out of view are laid out and painted lazily).
    table.scrollIntoView({ block: 'center' });
    for (let k = 0; k < 3; k++) await new Promise((done) => requestAnimationFrame(done));
    const canvas = table.parentElement.querySelector('canvas.heatmap-paint');
    const box = canvas.getBoundingClientRect();
    const scale = canvas.width / box.width;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const rgba = (px, py) => {
      if (px < 0 || py < 0 || px >= canvas.width || py >= canvas.height) return 'outside';
      const p = 4 * (py * canvas.width + px);
      return `${data[p]},${data[p + 1]},${data[p + 2]},${data[p + 3]}`;
    };
    const at = (x, y) => rgba(Math.floor((x - box.left) * scale), Math.floor((y - box.top) * scale));
    const tds = [...table.querySelectorAll('td[data-col]')];
    // Pixels first: focusing a cell shows its explanation, which can move the page.
    const cells = tds.map((td) => {
      const r = td.getBoundingClientRect();
      const left = r.left + td.clientLeft;
      const masked = td.classList.contains('masked');
      const sample = at(left + 3, r.top + 3);
      const corners = [
        [left + 2, r.top + 2],
        [r.right - 2, r.top + 2],
        [left + 2, r.bottom - 2],
        [r.right - 2, r.bottom - 2],
      ].map(([x, y]) => at(x, y));
      let ink = 0;
      let [ix0, ix1, iy0, iy1] = [Infinity, -Infinity, Infinity, -Infinity];
      const x0 = Math.ceil((left - box.left) * scale);
      const x1 = Math.floor((r.right - box.left) * scale);
      const y0 = Math.ceil((r.top - box.top) * scale);
      const y1 = Math.floor((r.bottom - box.top) * scale);
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          if (rgba(x, y) === corners[0]) continue;
          ink += 1;
          ix0 = Math.min(ix0, x);
          ix1 = Math.max(ix1, x + 1);
          iy0 = Math.min(iy0, y);
          iy1 = Math.max(iy1, y + 1);
        }
      }
      const cx = (x0 + x1) / 2 / scale;
      const cy = (y0 + y1) / 2 / scale;
      return {
        colour: masked
          ? 'hatch'
          : sample === 'outside'
            ? 'outside the canvas'
            : `rgb(${sample.split(',').slice(0, 3).join(', ')})`,
        masked,
        corners,
        gap: Number(td.dataset.col) > 0 ? at(left - 0.5 - td.clientLeft, (r.top + r.bottom) / 2) : null,
        ink,
        inkOffset: ink ? [(ix0 + ix1) / 2 / scale - cx, (iy0 + iy1) / 2 / scale - cy] : null,
      };
    });
    const focused = document.activeElement;
    for (const [k, td] of tds.entries()) {
      td.focus({ preventScroll: true });
      cells[k].text = td.getAttribute('aria-label');
    }
    focused?.focus?.({ preventScroll: true });
    return cells;
  }, name);
}

/** Values of an editable matrix, as the page's state holds them (input titles keep full precision). */
export function readMatrixShape(page, name) {
  return page.evaluate((matrix) => {
    const inputs = [...document.querySelectorAll(`[data-matrix="${matrix}"] input`)];
    const rows = new Set(inputs.map((i) => i.dataset.row)).size;
    return [rows, rows ? inputs.length / rows : 0];
  }, name);
}

/** Asserts two flat arrays agree within atol + rtol·|expected|; reports the first mismatch. */
export function assertClose(actual, expected, { atol = 1e-5, rtol = 1e-5, label = 'values' } = {}) {
  if (actual.length !== expected.length)
    throw new Error(`${label}: length ${actual.length} != expected ${expected.length}`);
  let worst = 0;
  let first = -1;
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i];
    const e = expected[i];
    if (Object.is(a, e)) continue;
    const err = Math.abs(a - e);
    if (!(err <= atol + rtol * Math.abs(e))) {
      if (first < 0) first = i;
      worst = Math.max(worst, Number.isFinite(err) ? err : Infinity);
    }
  }
  if (first >= 0)
    throw new Error(
      `${label}: first mismatch at index ${first}: got ${actual[first]}, expected ${expected[first]} (max error ${worst}, ${actual.length} values)`,
    );
}

export async function screenshot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: false });
}

/** The selector of cell (i, j) of the editable matrix `matrix` (a plain-text editable box). */
export const cellSelector = (matrix, i, j) => `[data-matrix="${matrix}"] .cell-input[data-row="${i}"][data-col="${j}"]`;

/** Replaces the text of cell (i, j) of `matrix`, as a person selecting it and typing. */
export const fillCell = (page, matrix, i, j, text) => page.fill(cellSelector(matrix, i, j), text);

/**
 * Types into cell (i, j) of `matrix` from inside the page, where focus already is: a driver's fill
 * would first scroll the page to the cell.
 */
export const typeInCell = (page, matrix, i, j, text) =>
  page.$eval(
    cellSelector(matrix, i, j),
    (c, t) => {
      c.textContent = t;
      c.dispatchEvent(new Event('input', { bubbles: true }));
    },
    text,
  );

/** The text cell (i, j) of `matrix` shows. */
export const cellText = async (page, matrix, i, j) => (await page.textContent(cellSelector(matrix, i, j))) ?? '';

/**
 * The weights and output of the page's default example (the lessons' NumPy example: X and W_Q,
 * W_K, W_V drawn from seed 42) with X[row][col] = value, computed in Node by the JS API (the
 * projections in float64 here), for the suites that cannot import the API into the page.
 */
export async function expectedLessonExample({ row, col, value }) {
  const { createAttention } = await import('../../web/lib/attention.js');
  const attn = await createAttention();
  const rng = attn.randomState(42);
  const X = rng.randn(4, 8).data;
  X[row * 8 + col] = value;
  const W = [rng.randn(8, 4).data, rng.randn(8, 4).data, rng.randn(8, 4).data];
  const [Q, K, V] = W.map((w) => {
    const out = new Float64Array(16);
    for (let i = 0; i < 4; i++)
      for (let c = 0; c < 4; c++) for (let r = 0; r < 8; r++) out[i * 4 + c] += X[i * 8 + r] * w[r * 4 + c];
    return { data: out, shape: [4, 4] };
  });
  const r = attn.scaledDotProductAttention(Q, K, V);
  return { weights: Array.from(r.weights.data), output: Array.from(r.output.data) };
}

/**
 * The page's address once it carries a state for which holds(state) is true (decoded here with the
 * page's own codec), waiting up to 30 s. The address follows the state 300 ms after the last change,
 * later on a loaded machine, and a change made within those 300 ms of another replaces it: a link
 * told apart only by being new could be the one from before both changes.
 */
export async function linkWhere(page, holds, what) {
  const deadline = Date.now() + 30_000;
  let seen = null;
  for (;;) {
    const href = await page.evaluate(() => location.href);
    const text = stateFromHash(new URL(href).hash);
    if (text != null) {
      const r = await decodeState(text);
      seen = r.ok ? r.state : r.error;
      if (r.ok && holds(r.state)) return href;
    }
    if (Date.now() > deadline)
      throw new Error(`the address never carried ${what}; last seen: ${JSON.stringify(seen)?.slice(0, 300)}`);
    await page.waitForTimeout(100);
  }
}

/**
 * On a phone (up to 760 px) the explorer's controls fold behind one button and, up to 600 px, the
 * page header's tools behind another: opens both where they are folded (a Page or a Frame).
 */
export async function unfold(page) {
  for (const selector of ['.controls-toggle[aria-expanded="false"]', '.tools-toggle[aria-expanded="false"]']) {
    const toggle = page.locator(selector).first();
    if ((await toggle.count()) && (await toggle.isVisible())) await toggle.click();
  }
}
