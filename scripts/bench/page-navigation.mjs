// How long the explorer page takes to follow an arrow key through X at its largest sizes (n = 24,
// d_model = 64, h = 8, X unfolded and on screen): moving the focus re-explains the cell and moves
// the outlines it draws on Q, K and V, and past the visible columns scrolls the matrix. Keys are
// pressed through Chromium's input pipeline; from a trace, the main thread's CPU time from each key
// to the end of the first frame after it (the keydown handler, style, layout, paint, layerize)
// must fit in one 16 ms frame. Five steps right and one down, four times, then back (left, up).
//   node scripts/bench/page-navigation.mjs [--root dir] [--per-key]
import { startServer } from '../serve.mjs';
import { fmt, launchChromium, median, openLargest, p95, verdict } from './page-largest.mjs';

const args = process.argv.slice(2);
const ROOT = args.includes('--root') ? args[args.indexOf('--root') + 1] : undefined;
const KEYS = [
  ...Array.from({ length: 4 }, () => [...Array(5).fill('ArrowRight'), 'ArrowDown']).flat(),
  ...Array.from({ length: 4 }, () => [...Array(5).fill('ArrowLeft'), 'ArrowUp']).flat(),
];
// Leaf-level kinds of main-thread work, for --per-key.
const KINDS = ['FunctionCall', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'HitTest'];

// Main-thread CPU time from each key's mark to the end of the first frame after it, by kind too.
function perKey(events) {
  const marks = (prefix) =>
    events
      .filter((e) => e.name === 'TimeStamp' && (e.args?.data?.message ?? '').startsWith(prefix))
      .sort((a, b) => a.ts - b.ts);
  const starts = marks('key-');
  const ends = marks('end-');
  const { pid, tid } = starts[0];
  const onMain = events.filter((e) => e.ph === 'X' && e.pid === pid && e.tid === tid).sort((a, b) => a.ts - b.ts);
  const tasks = onMain.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask');
  const cpu = (e) => (e.tdur ?? e.dur) / 1000;
  return starts.map((s, k) => {
    const frame = onMain.find((e) => e.name === 'Layerize' && e.ts > s.ts && e.ts < ends[k].ts);
    if (!frame) return null;
    const task = tasks.find((t) => t.ts <= frame.ts && t.ts + t.dur >= frame.ts);
    const inWindow = (e) => e.ts > s.ts && e.ts <= task.ts;
    const byKind = new Map();
    const lastEnd = new Map(); // skips events nested in one of the same name
    for (const e of onMain.filter((x) => KINDS.includes(x.name) && x.ts > s.ts && x.ts < task.ts + task.dur)) {
      if ((lastEnd.get(e.name) ?? -1) > e.ts) continue;
      lastEnd.set(e.name, e.ts + e.dur);
      byKind.set(e.name, (byKind.get(e.name) ?? 0) + cpu(e));
    }
    return { ms: tasks.filter(inWindow).reduce((sum, t) => sum + cpu(t), 0), byKind };
  });
}

const server = await startServer({ port: 0, ...(ROOT ? { root: ROOT } : {}) });
const browser = await launchChromium();
try {
  const { page, matrix } = await openLargest(browser, server.url);
  await page.focus(`${matrix} .cell-input[data-row="3"][data-col="0"]`);
  await page.$eval(matrix, (e) => e.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(500);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel'] });
  for (const [k, key] of KEYS.entries()) {
    await page.evaluate((i) => console.timeStamp(`key-${i}`), k);
    await page.keyboard.press(key);
    await page.waitForTimeout(300);
    await page.evaluate((i) => console.timeStamp(`end-${i}`), k);
  }
  const trace = JSON.parse((await browser.stopTracing()).toString());
  const keys = perKey(trace.traceEvents ?? trace);
  const missing = keys.filter((x) => !x).length;
  if (missing) console.log(`${missing} keys drew no frame`);
  console.log(
    `n = 24, d_model = 64, h = 8, X unfolded and on screen; ${KEYS.length} arrow keys, main-thread CPU time from the key to the frame after it:`,
  );
  for (const name of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) {
    const ms = keys.filter((x, k) => x && KEYS[k] === name).map((x) => x.ms);
    console.log(`  ${name.padEnd(10)} ${fmt(ms)}`);
  }
  if (args.includes('--per-key')) {
    keys.forEach(
      (x, k) =>
        x &&
        console.log(
          `  key ${k} (${KEYS[k]}): ${x.ms.toFixed(1)} ms; ${[...x.byKind]
            .filter(([, ms]) => ms >= 0.3)
            .sort((a, b) => b[1] - a[1])
            .map(([n, ms]) => `${n} ${ms.toFixed(1)}`)
            .join(', ')}`,
        ),
    );
  }
  const all = keys.filter(Boolean).map((x) => x.ms);
  console.log(
    `verdict, CPU time: median ${verdict(median(all))} one 16 ms frame (${median(all).toFixed(1)} ms), p95 ${verdict(p95(all))} (${p95(all).toFixed(1)} ms), slowest ${verdict(Math.max(...all))} (${Math.max(...all).toFixed(1)} ms)`,
  );
} finally {
  await browser.close();
  await server.close();
}
