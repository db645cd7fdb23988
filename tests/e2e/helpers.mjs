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
export async function openExplorer(env, { width = 1280, height = 900, colorScheme = 'light', path = '', deviceScaleFactor = 1 } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height }, colorScheme, deviceScaleFactor });
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
 * What a heatmap shows in each cell, row-major: the colour painted on its canvas (a pixel a few
 * pixels inside the cell's corner, clear of the digits, as 'rgb(r, g, b)', or 'hatch' for a masked
 * cell) and the text a screen reader announces when the cell has focus (its accessible name). The
 * pixel is found from the cell's own box, so this also checks that the canvas lines up with the
 * table. `page` may be a Page or a Frame.
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
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const tds = [...table.querySelectorAll('td[data-col]')];
    // Colours first: focusing a cell shows its explanation, which can move the page.
    const colours = tds.map((td) => {
      if (td.classList.contains('masked')) return 'hatch';
      const r = td.getBoundingClientRect();
      const x = Math.floor((r.left + td.clientLeft + 3 - box.left) * scale);
      const y = Math.floor((r.top + 3 - box.top) * scale);
      if (x < 0 || y < 0 || x >= canvas.width || y >= canvas.height) return 'outside the canvas';
      const p = 4 * (y * canvas.width + x);
      return `rgb(${pixels[p]}, ${pixels[p + 1]}, ${pixels[p + 2]})`;
    });
    const focused = document.activeElement;
    const texts = tds.map((td) => {
      td.focus({ preventScroll: true });
      return td.getAttribute('aria-label');
    });
    focused?.focus?.({ preventScroll: true });
    return tds.map((_, k) => ({ colour: colours[k], text: texts[k] }));
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
