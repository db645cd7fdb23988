// The benchmark in headless Chromium: serves the repository under the explorer's strict
// Content-Security-Policy, opens scripts/bench/browser.html, waits for its results and prints
// them like bench.mjs (ours SIMD and scalar, onnxruntime-web; one thread). Writes
// bench-results/bench-browser.json. `npm run bench:browser`; BENCH_MIN_TIME_MS as in bench.mjs.
// Chromium's V8 is newer than Node 20's: the scalar build in particular runs faster there.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
if (!existsSync(path.join(here, 'node_modules/onnxruntime-web/package.json'))) {
  console.log('bench: installing the peer libraries (scripts/bench/package.json), once');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: here, stdio: 'inherit' });
}
const root = path.resolve(fileURLToPath(new URL('../../', import.meta.url)));
const minTime = Number(process.env.BENCH_MIN_TIME_MS ?? 600);
const server = await startServer({ root, port: 0 });
const browser = await chromium.launch({
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
try {
  const page = await browser.newPage();
  page.on('requestfailed', (req) => console.log(`page: request failed ${req.url()}`));
  page.on('response', (res) => {
    if (res.status() >= 400) console.log(`page: ${res.status()} ${res.url()}`);
  });
  page.on('crash', () => console.log('page: crashed'));
  page.on('console', (msg) => {
    if (msg.type() === 'warning' || msg.type() === 'error') console.log(`page: ${msg.text()}`);
  });
  await page.goto(`${server.url}scripts/bench/browser.html?minTime=${minTime}`);
  await page.waitForFunction(() => window.benchResult, null, { timeout: 10 * 60 * 1000, polling: 500 });
  const result = await page.evaluate(() => window.benchResult);
  if (result.error) throw new Error(result.error);
  console.log(
    `attention-explorer benchmark in ${result.userAgent}, one thread` +
      (result.ortVersion ? `, onnxruntime-web ${result.ortVersion}` : ''),
  );
  for (const r of result.results) {
    console.log(`\n${r.case}`);
    for (const row of r.rows) {
      const ms = row.ms < 0.1 ? `${(row.ms * 1000).toPrecision(3)} µs` : `${row.ms.toPrecision(3)} ms`;
      console.log(
        `  ${row.impl.padEnd(26)} ${ms.padStart(10)} ${(r.flops / row.ms / 1e6).toFixed(1).padStart(7)} GFLOP/s` +
          `  ${(row.ms / r.rows[0].ms).toFixed(2).padStart(7)}× ours`,
      );
    }
  }
  await mkdir('bench-results', { recursive: true });
  await writeFile(
    'bench-results/bench-browser.json',
    JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2),
  );
  console.log('\nwritten to bench-results/bench-browser.json');
} finally {
  await browser.close();
  await server.close();
}
