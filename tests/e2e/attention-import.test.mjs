// The training view's attention JSON import under load, in headless Chromium: a hostile 15 MB file
// (512 tokens, 30 heads: inside the format's limits) is read, scored and drawn without ever holding
// the page's thread for long, its maps are pictures whose pixels and readouts are the file's
// weights, its scores match a plain JavaScript count; a file over the size limit is refused before
// it is read; a second file cancels the first.
//
// "Long" is measured twice. A PerformanceObserver('longtask') gives each task's wall time, which
// on a shared, loaded machine also holds the time other processes had the core (a task of 2 ms of
// work was seen to take 450 ms of wall time at load 8 on 2 cores): it is held to a generous
// WALL_MS, which the import this replaced failed by minutes. A Chromium trace of the same run gives
// each task's thread time, the page's own work: that is held to the 100 ms the page promises.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { collectProblems, launch, openExplorer, screenshot } from './helpers.mjs';
import { makeScale } from '../../web/ui/model/palettes.js';

const WALL_MS = Number(process.env.LONG_TASK_WALL_MS ?? 1500);
const THREAD_MS = 100;
const T = 512;
const HEADS = 30;

let env;
let dir;
before(async () => {
  env = await launch();
  dir = mkdtempSync(path.join(tmpdir(), 'attention-import-'));
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Head h attends from each query to the key `h % 4` places back (clamped at 0): one-hot rows.
const keyOf = (h, i) => Math.max(0, i - (h % 4));
const TOKENS = Array.from({ length: T }, (_, i) => `w${(i * 7) % 61}`);

function hostileFile() {
  const head = (h) =>
    `[${Array.from({ length: T }, (_, i) => {
      const k = keyOf(h, i);
      return `[${Array.from({ length: T }, (_, j) => (j === k ? 1 : 0)).join(',')}]`;
    }).join(',')}]`;
  const text = `{"tokens":${JSON.stringify(TOKENS)},"attentions":[[${Array.from({ length: HEADS }, (_, h) => head(h)).join(',')}]]}`;
  const file = path.join(dir, 'hostile.json');
  writeFileSync(file, text);
  return { file, bytes: text.length };
}

// Previous-token score as head_scores.h defines it for one-hot rows: the share of queries i ≥ 1
// whose weight on key i − 1 is 1, i.e. the mean weight on the previous token.
const previousTokenScore = (h) => {
  let sum = 0;
  for (let i = 1; i < T; i++) sum += keyOf(h, i) === i - 1 ? 1 : 0;
  return sum / (T - 1);
};

// The renderer main thread's top-level tasks in a Chromium trace: [wall ms, thread ms] each.
function tasksOf(traceBuffer) {
  const events = JSON.parse(traceBuffer.toString()).traceEvents;
  const isTask = (e) => e.ph === 'X' && (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask');
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const count = (t) => events.reduce((n, e) => n + (e.pid === t.pid && e.tid === t.tid && isTask(e) ? 1 : 0), 0);
  const main = mains.reduce((best, t) => (!best || count(t) > count(best) ? t : best), null);
  const tasks = events.filter((e) => isTask(e) && e.pid === main.pid && e.tid === main.tid).sort((a, b) => a.ts - b.ts);
  const out = [];
  let end = -Infinity;
  for (const e of tasks) {
    if (e.ts < end) continue; // nested inside the task before
    end = e.ts + e.dur;
    out.push([e.dur / 1000, (e.tdur ?? e.dur) / 1000]);
  }
  return out;
}

async function openTraining() {
  const r = await openExplorer(env, { width: 1400, height: 900, path: '#view=train' });
  await r.page.waitForSelector('[data-training][data-ready="true"]');
  // No training runs here: the trainer's Worker is idle, so the page's tasks are the import's.
  await r.page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration));
    }).observe({ type: 'longtask' });
  });
  return r;
}

// Keyboard on the picture of head 2 (two tokens back): one tab stop; arrows move a cursor and read the cell out.
async function checkKeyboard(page) {
  await page.focus('[data-heatmap="import-l0-h2"] .pixel-map-frame');
  const readOut = () =>
    page.$eval('[data-heatmap="import-l0-h2"] [data-readout]', (e) => ({
      at: [Number(e.dataset.row), Number(e.dataset.col)],
      text: e.textContent,
    }));
  for (const key of ['PageDown', 'End', 'ArrowLeft', 'ArrowUp']) await page.keyboard.press(key);
  let r = await readOut();
  assert.deepEqual(r.at, [T - 2, T - 2]);
  assert.equal(r.text, `query ${T - 1} “${TOKENS[T - 2]}” → key ${T - 1} “${TOKENS[T - 2]}”: 0.000`);
  // Head 2 looks two tokens back: query 510's weight is on key 508.
  for (const key of ['ArrowLeft', 'ArrowLeft']) await page.keyboard.press(key);
  r = await readOut();
  assert.deepEqual(r.at, [T - 2, T - 4]);
  assert.match(r.text, /: 1\.000$/);
  await page.keyboard.press('Home');
  assert.deepEqual((await readOut()).at, [T - 2, 0]);
}

// Imports `file` under a Chromium trace, waits until every map is drawn, scrolls through every card
// (each map shown on screen) and lets the frames settle; returns the main thread's tasks.
async function importTraced(page, file, t) {
  await env.browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
  });
  const started = Date.now();
  await page.setInputFiles('[data-import-attention]', file);
  await page.waitForSelector(`.import-panel[data-imported="${HEADS}"]`, { timeout: 300_000 });
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-imported-head] [data-heatmap][data-drawn]').length === n,
    HEADS,
    { timeout: 120_000 },
  );
  t.diagnostic(`read, scored and drawn in ${Date.now() - started} ms`);
  await page.$eval('.import-panel', (e) => e.scrollIntoView());
  for (let k = 0; k < 10; k++) {
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(50);
  }
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return tasksOf(await env.browser.stopTracing());
}

// No task held the thread for long: by the page's own work (thread time, from the trace) and by
// wall time (the longtask observer).
async function checkTaskLengths(page, tasks, t) {
  const longTasks = await page.evaluate(() => window.__longTasks);
  const byThread = [...tasks].sort((a, b) => b[1] - a[1]).slice(0, 5);
  t.diagnostic(`long tasks, wall time (ms): ${longTasks.join(', ') || 'none'}`);
  t.diagnostic(
    `longest tasks by thread time (ms, thread/wall): ${byThread.map(([w, c]) => `${c.toFixed(1)}/${w.toFixed(0)}`).join(', ')}`,
  );
  assert.ok(tasks.length > 100, `the trace holds the run's tasks (${tasks.length})`);
  assert.ok(
    byThread[0][1] <= THREAD_MS,
    `every task does ≤ ${THREAD_MS} ms of the page's work: ${byThread[0][1].toFixed(1)} ms`,
  );
  assert.ok(
    longTasks.every((ms) => ms <= WALL_MS),
    `every task ≤ ${WALL_MS} ms of wall time: ${longTasks.join(', ')}`,
  );
}

// Scores: the core's, on the file's weights, against the count above; every map a picture.
async function checkScores(page) {
  const cards = await page.$$eval('[data-imported-head]', (els) =>
    els.map((e) => ({
      head: Number(e.dataset.head),
      prev: Number(e.dataset.previousToken),
      table: !!e.querySelector('table'),
    })),
  );
  assert.equal(cards.length, HEADS);
  for (const c of cards) {
    assert.ok(
      Math.abs(c.prev - previousTokenScore(c.head)) < 1e-6,
      `head ${c.head}: previous-token ${c.prev} vs ${previousTokenScore(c.head)}`,
    );
    assert.equal(c.table, false, 'a 512-token map is a picture, not a table of 262 144 cells');
  }
}

// Pictures: 512 tokens pooled 2 × 2 into 256 pixels a side, each the largest weight it covers.
// Head 1 (previous token): block (p, p) holds cell (2p + 1, 2p) = 1; block (p, p + 1) only zeros.
async function checkPictures(page) {
  const pixels = await page.$eval('[data-heatmap="import-l0-h1"] canvas', (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const at = (x, y) => Array.from(d.slice(4 * (y * c.width + x), 4 * (y * c.width + x) + 3)).join(',');
    return {
      width: c.width,
      diagonal: Array.from({ length: c.width }, (_, p) => at(p, p)),
      above: Array.from({ length: c.width - 1 }, (_, p) => at(p + 1, p)),
    };
  });
  assert.equal(pixels.width, 256);
  // The page's colour scale, computed here: the bundled site serves no ui/ modules to import.
  const scale = makeScale({ kind: 'sequential', palette: 'viridis', theme: 'light', min: 0, max: 1 });
  const colour = { one: scale.map(1).rgb.join(','), zero: scale.map(0).rgb.join(',') };
  assert.ok(
    pixels.diagonal.every((p) => p === colour.one),
    'every diagonal pixel shows weight 1',
  );
  assert.ok(
    pixels.above.every((p) => p === colour.zero),
    'every pixel above the diagonal shows 0',
  );
}

test(
  'a 15 MB file of 512 tokens × 30 heads imports without a long task; its pictures and scores are the file’s',
  { timeout: 600_000 },
  async (t) => {
    const { file, bytes } = hostileFile();
    assert.ok(bytes > 15e6, `${bytes} bytes`);
    const { page, problems, context } = await openTraining();
    const tasks = await importTraced(page, file, t);
    await checkTaskLengths(page, tasks, t);
    await checkScores(page);
    await checkPictures(page);
    await checkKeyboard(page);
    await page.$eval('[data-heatmap="import-l0-h2"]', (e) => e.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'import-512-tokens');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  },
);

test(
  'a file over the size limit is refused at once, before it is read; a new file cancels a running import',
  { timeout: 300_000 },
  async () => {
    const big = path.join(dir, 'big.json');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 65 * 2 ** 20); // sparse: no 65 MB written
    closeSync(fd);
    const { page, problems, context } = await openTraining();
    const t0 = Date.now();
    await page.setInputFiles('[data-import-attention]', big);
    await page.waitForSelector('.import-panel[data-import-error]');
    assert.match(
      await page.textContent('.import-status'),
      /big\.json could not be imported: the file is 65\.0 MB; the import reads files of at most 64 MB/,
    );
    assert.ok(Date.now() - t0 < 20_000);
    assert.match(
      await page.textContent('.import-limits'),
      /files up to 64 MB, at most 512 tokens, 2,048 heads and 8,000,000 weights/,
    );
    // A slow import, then a small one: only the small one is shown, the first never lands.
    const { file } = hostileFile();
    await page.setInputFiles('[data-import-attention]', file);
    await page.waitForSelector('.import-panel[data-importing]');
    const small = {
      tokens: ['a', 'b'],
      attentions: [
        [
          [
            [1, 0],
            [1, 0],
          ],
        ],
      ],
    };
    await page.setInputFiles('[data-import-attention]', {
      name: 'small.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(small)),
    });
    await page.waitForSelector('.import-panel[data-imported="1"]:not([data-importing])');
    await page.waitForTimeout(1500);
    assert.equal(await page.$$eval('[data-imported-head]', (e) => e.length), 1);
    assert.match(await page.textContent('.import-status'), /small\.json: 1 layers, 1 heads, 2 tokens/);
    const longTasks = await page.evaluate(() => window.__longTasks);
    assert.ok(
      longTasks.every((ms) => ms <= WALL_MS),
      `every task ≤ ${WALL_MS} ms of wall time: ${longTasks.join(', ')}`,
    );
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  },
);
