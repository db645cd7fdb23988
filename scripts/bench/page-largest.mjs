// The explorer page at its largest sizes, as the page benchmarks drive it (page-redraw.mjs types
// into it, page-navigation.mjs moves through it): headless Chromium, n = 24 tokens,
// d_model = 64, h = 8 (or Q, K, V typed directly at n = m = 24, d_k = d_v = 64), the edited matrix
// unfolded with its first cell focused. Also the statistics both print.
import { chromium } from 'playwright-core';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)];
export const fmt = (xs) =>
  `median ${median(xs).toFixed(1)} ms, p95 ${p95(xs).toFixed(1)}, min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)}`;
export const verdict = (ms) => (ms <= 16 ? 'within' : 'over');

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Opens the page at `url` in `browser` at its largest sizes (n, heads: smaller ones; mode 'qkv':
 * Q, K, V typed directly), unfolds the edited matrix (X, or Q in Q/K/V mode) and focuses its
 * first cell. Returns { page, n, edited, matrix } (matrix: the edited matrix's selector).
 */
export async function openLargest(browser, url, { dpr = 1, n = 24, heads = '8', mode = 'sentence' } = {}) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: dpr });
  await page.addInitScript(() => {
    window.__ATTN_INSTRUMENT__ = true;
  }); // data-render-ms (web/ui/dom/instrument.js)
  await page.goto(url);
  await page.waitForSelector('#app[data-ready="true"]');
  const renders = async () => Number(await page.getAttribute('#app', 'data-renders'));
  const afterRender = async (action) => {
    const before = await renders();
    await action();
    await page.waitForFunction((k) => Number(document.getElementById('app').dataset.renders) > k, before);
  };
  const sizes =
    mode === 'qkv'
      ? [
          ['#size-n', String(n)],
          ['#size-m', String(n)],
          ['#size-dk', '64'],
          ['#size-dv', '64'],
        ]
      : [
          ['#size-dModel', '64'],
          ['#size-heads', heads],
        ];
  if (mode === 'qkv') await afterRender(() => page.check('input[name="mode"][value="qkv"]'));
  else await afterRender(() => page.fill('#sentence', Array.from({ length: n }, (_, i) => `w${i + 1}`).join(' ')));
  for (const [id, v] of sizes) {
    if ((await page.inputValue(id)) === v) continue;
    await afterRender(async () => {
      await page.fill(id, v);
      await page.press(id, 'Enter');
    });
  }
  const edited = mode === 'qkv' ? 'Q' : 'X';
  const matrix = `[data-matrix="${edited}"]`;
  await page.click(`${matrix} >> xpath=ancestor::details/summary`);
  await page.waitForSelector(`${matrix} .cell-input[data-row="${n - 1}"][data-col="63"]`, { state: 'attached' });
  await page.focus(`${matrix} .cell-input[data-row="0"][data-col="0"]`);
  return { page, n, edited, matrix };
}
