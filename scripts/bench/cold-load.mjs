// Cold load: how long a new visitor waits for the first heatmap, and what the page downloads
// before it. Each run is a fresh headless Chromium (a new profile: nothing cached) opening the page
// from the project's server under the strict CSP; the time is from navigation start to the moment
// the first heatmap carries its numbers (table[data-heatmap][data-values], seen by a
// MutationObserver installed before the page's own scripts). Requests and bytes come from the
// page's Resource Timing entries that started before that moment; "gzip" is each file compressed
// by zlib at level 6 (what most servers send), "raw" the bytes as they are on disk.
//
//   node scripts/bench/cold-load.mjs [--runs 5] [--site dist|web|both] [--path embed.html]
//
// Prints the CPU model and the load average with the results, and writes
// bench-results/cold-load.json and bench-results/cold-load.md. Targets (the production site):
// first heatmap ≤ 500 ms (median of the runs), ≤ 150 KB gzipped of JS + WASM before it.
import { chromium } from 'playwright-core';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST_ROOT, WEB_ROOT, startServer } from '../serve.mjs';
import { ensureSite } from '../bundle.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const RUNS = Number(option('runs', 5));
const SITES = option('site', 'both') === 'both' ? ['dist', 'web'] : [option('site')];
const PATH = option('path', '');
const TARGET_MS = 500;
const TARGET_KB = 150;
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

// The moment the first heatmap has its numbers, in ms since navigation start.
function watchFirstHeatmap() {
  const seen = () => document.querySelector('table[data-heatmap][data-values]');
  new MutationObserver((_, observer) => {
    if (window.__firstHeatmap === undefined && seen()) {
      window.__firstHeatmap = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-values'] });
}

const gzipCache = new Map();
async function fileSizes(root, url) {
  const path = decodeURIComponent(new URL(url).pathname).replace(/^\/+/, '') || 'index.html';
  if (!gzipCache.has(path)) {
    const body = await readFile(join(root, path)).catch(() => null);
    gzipCache.set(path, body ? { raw: body.length, gzip: gzipSync(body, { level: 6 }).length } : { raw: 0, gzip: 0 });
  }
  return gzipCache.get(path);
}

async function oneRun(root, url) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ARGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(watchFirstHeatmap);
    await page.goto(url + PATH);
    await page.waitForFunction(() => window.__firstHeatmap !== undefined, null, { timeout: 60_000 });
    const { ms, entries } = await page.evaluate(() => ({
      ms: window.__firstHeatmap,
      entries: performance
        .getEntriesByType('resource')
        .map((e) => ({ name: e.name, start: e.startTime, type: e.initiatorType })),
    }));
    const before = [{ name: url + PATH, start: 0 }, ...entries.filter((e) => e.start < ms)];
    let raw = 0,
      gzip = 0,
      codeRaw = 0,
      codeGzip = 0;
    for (const e of before) {
      const size = await fileSizes(root, e.name);
      raw += size.raw;
      gzip += size.gzip;
      if (/\.(m?js|wasm)$/.test(new URL(e.name).pathname)) {
        codeRaw += size.raw;
        codeGzip += size.gzip;
      }
    }
    const code = before.filter((e) => /\.(m?js|wasm)$/.test(new URL(e.name).pathname)).length;
    return {
      ms,
      requests: before.length,
      codeRequests: code,
      raw,
      gzip,
      codeRaw,
      codeGzip,
      files: before.map((e) => new URL(e.name).pathname),
    };
  } finally {
    await browser.close();
  }
}

async function benchSite(site) {
  const root = site === 'web' ? WEB_ROOT : DIST_ROOT;
  const server = await startServer({ root });
  try {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await oneRun(root, server.url));
    return { site, runs, ms: median(runs.map((r) => r.ms)), last: runs[runs.length - 1] };
  } finally {
    await server.close();
  }
}

await ensureSite();
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const header =
  `Cold load of ${PATH || 'index.html'}: ${RUNS} fresh headless Chromium profiles per site; ${cpu} ` +
  `(${cpus().length} cores), load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} at the start`;
console.log(header);
const results = [];
for (const site of SITES) {
  const r = await benchSite(site);
  results.push(r);
  const { last } = r;
  console.log(
    `${site === 'dist' ? 'dist/ (production)' : 'web/ (unbundled source)'}: first heatmap ${r.runs.map((x) => x.ms.toFixed(0)).join(', ')} ms, ` +
      `median ${r.ms.toFixed(0)} ms; before it ${last.requests} requests (${last.codeRequests} JS/WASM), ` +
      `${kb(last.raw)} raw, JS + WASM ${kb(last.codeRaw)} raw, ${kb(last.codeGzip)} gzipped`,
  );
}
const dist = results.find((r) => r.site === 'dist');
if (dist) {
  const okMs = dist.ms <= TARGET_MS;
  const okKb = dist.last.codeGzip <= TARGET_KB * 1024;
  console.log(
    `targets: first heatmap ${dist.ms.toFixed(0)} ms ${okMs ? '≤' : '>'} ${TARGET_MS} ms; ` +
      `JS + WASM before it ${kb(dist.last.codeGzip)} gzipped ${okKb ? '≤' : '>'} ${TARGET_KB} KB`,
  );
  console.log(`files before the first heatmap (dist/): ${dist.last.files.join(' ')}`);
}
await mkdir('bench-results', { recursive: true });
const stamp = {
  date: new Date().toISOString(),
  cpu,
  cores: cpus().length,
  loadavg: loadavg(),
  path: PATH || 'index.html',
};
await writeFile('bench-results/cold-load.json', JSON.stringify({ ...stamp, results }, null, 2));
await writeFile(
  'bench-results/cold-load.md',
  [
    `# ${header}`,
    '',
    '| site | first heatmap, median | runs (ms) | requests before it | JS + WASM raw | JS + WASM gzipped |',
    '| --- | ---: | --- | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.site} | ${r.ms.toFixed(0)} ms | ${r.runs.map((x) => x.ms.toFixed(0)).join(', ')} | ${r.last.requests} | ${kb(r.last.codeRaw)} | ${kb(r.last.codeGzip)} |`,
    ),
    '',
  ].join('\n'),
);
