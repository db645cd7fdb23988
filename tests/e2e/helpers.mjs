// Shared setup for the end-to-end tests: the strict-CSP static server, one headless Chromium per
// test file, and a page that records console errors, page errors and CSP violations.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run',
];

/** Starts the server and the browser; call the returned close() in after(). */
export async function launch() {
  const server = await startServer({ port: 0 });
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

/**
 * Opens the explorer and waits until it has drawn. `problems` collects console errors and
 * warnings, uncaught exceptions, failed requests and CSP violations.
 */
export async function openExplorer(env, { width = 1280, height = 900, colorScheme = 'light', path = '' } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height }, colorScheme });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => { if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`); });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'}`);
    });
  });
  await page.goto(env.url + path);
  await page.waitForSelector('#app[data-ready="true"]');
  return { page, context, problems };
}

/** All CSP violations the page reported, merged into `problems`. */
export async function collectProblems(page, problems) {
  const csp = await page.evaluate(() => window.__cspViolations ?? []);
  return [...problems, ...csp.map((v) => `CSP violation: ${v}`)];
}

/** Waits for the next redraw after `action` (the page counts its redraws in #app[data-renders]). */
export async function afterRender(page, action) {
  const before = Number(await page.getAttribute('#app', 'data-renders'));
  await action();
  await page.waitForFunction((n) => Number(document.getElementById('app').dataset.renders) > n, before);
}

/**
 * Values of a heatmap, row-major, as numbers (−Infinity kept), with its shape. The page writes the
 * data-value attributes just after drawing a frame (the table carries data-pending until then).
 */
export async function readHeatmap(page, name) {
  await page.waitForFunction((heatmap) => {
    const table = document.querySelector(`[data-heatmap="${heatmap}"]`);
    return !table || !table.hasAttribute('data-pending');
  }, name);
  return page.evaluate((heatmap) => {
    const table = document.querySelector(`[data-heatmap="${heatmap}"]`);
    if (!table) throw new Error(`no heatmap ${heatmap}`);
    const cells = [...table.querySelectorAll('td[data-col]')];
    const rows = new Set(cells.map((c) => c.dataset.row)).size;
    const cols = rows ? cells.length / rows : 0;
    return { shape: [rows, cols], data: cells.map((c) => Number(c.dataset.value)) };
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
    throw new Error(`${label}: first mismatch at index ${first}: got ${actual[first]}, expected ${expected[first]} (max error ${worst}, ${actual.length} values)`);
}

export async function screenshot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: false });
}
