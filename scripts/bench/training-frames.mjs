// Whether the training view keeps every frame within 16 ms while the Worker trains: opens the view
// in headless Chromium, presses Train and records a Chromium trace for N seconds. From the trace,
// the renderer's main thread: its top-level tasks (busy intervals, nested tasks merged) are cut
// into 16.7 ms vsync windows, giving the main-thread work per frame (median, p95, max, how many
// windows exceed 16 ms) and the longest task, plus the work by kind (script, style, layout, paint)
// and the scripts that cost most. This measures the page's own work, not the gaps between
// requestAnimationFrame callbacks (which on a shared machine mostly measure the machine).
//   node scripts/bench/training-frames.mjs [--seconds 10] [--path '#view=train'] [--example text]
//     [--width 1400] [--root dir] [--profile] [--idle (the same trace without pressing Train: the machine's noise)]
// `npm run bench:training-frames` runs it at the defaults.
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';
import { ensureSite } from '../bundle.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const SECONDS = Number(opt('--seconds', 10));
const PATH = opt('--path', '#view=train');
const EXAMPLE = opt('--example', '');
const WIDTH = Number(opt('--width', 1400));
const ROOT = opt('--root', undefined);
const FRAME_US = 1e6 / 60;
const TASKS = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);
// Leaf-level kinds of work (containers such as TimerFire would count script twice).
const KINDS = new Set([
  'FunctionCall',
  'EvaluateScript',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'Commit',
  'MinorGC',
  'MajorGC',
  'HitTest',
  'ParseHTML',
]);

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (us) => (us / 1000).toFixed(2);

// The thread's outermost tasks (nested ones are inside them) as [start, end, cpu] in µs: cpu is
// the task's thread time (tdur), what the page itself costs; the wall time also holds the time
// the OS gave the thread's core to other processes, which on a shared machine can be most of it.
function busyIntervals(tasks) {
  const out = [];
  for (const e of tasks) {
    const last = out[out.length - 1];
    if (last && e.ts < last[1]) continue;
    out.push([e.ts, e.ts + e.dur, e.tdur ?? e.dur]);
  }
  return out;
}

// Main-thread work per vsync window from `start` to `end` (µs): each task counts in full in the
// window where it starts, so a 100 ms task is one frame with 100 ms of work (the frame it delays),
// not six full windows. `pick` chooses wall or thread time.
function perWindow(intervals, start, end, pick) {
  const work = new Float64Array(Math.floor((end - start) / FRAME_US));
  for (const interval of intervals) {
    const k = Math.floor((interval[0] - start) / FRAME_US);
    if (k >= 0 && k < work.length) work[k] += pick(interval);
  }
  return Array.from(work).sort((a, b) => a - b);
}

// A script function as "name folder/file.js:line" from a FunctionCall event's data.
function scriptKey(d) {
  const file = String(d.url ?? '')
    .split('/')
    .slice(-2)
    .join('/');
  return `${d.functionName || '(anonymous)'} ${file}:${(d.lineNumber ?? 0) + 1}`;
}

// What the longest tasks were made of: their leaf events by kind, and the scripts in them.
function describeLongest(intervals, inRun, count = 5) {
  const longest = [...intervals].sort((x, y) => y[2] - x[2]).slice(0, count);
  for (const [a, b, cpu] of longest) {
    const parts = new Map();
    for (const e of inRun) {
      if (e.ts < a || e.ts >= b || !KINDS.has(e.name)) continue;
      const d = e.args?.data ?? {};
      const key = e.name === 'FunctionCall' ? `${e.name} ${scriptKey(d)}` : e.name;
      parts.set(key, (parts.get(key) ?? 0) + (e.tdur ?? e.dur));
    }
    const top = [...parts]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 4)
      .map(([k, us]) => `${k} ${ms(us)}`)
      .join(', ');
    console.log(`  ${ms(cpu).padStart(8)} ms (${ms(b - a)} wall): ${top}`);
  }
}

function mainThreadOf(events) {
  const names = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  let best = null;
  let most = -1;
  for (const t of names) {
    const n = events.reduce((c, e) => c + (e.pid === t.pid && e.tid === t.tid && TASKS.has(e.name) ? 1 : 0), 0);
    if (n > most) [best, most] = [t, n];
  }
  return best;
}

// The work by kind over the run (nested events of one kind counted once) and the scripts with the
// most time.
function printWorkByKind(inRun) {
  const byKind = new Map();
  const lastEnd = new Map();
  const scripts = new Map();
  for (const e of inRun) {
    if (!KINDS.has(e.name) || (lastEnd.get(e.name) ?? -1) > e.ts) continue;
    lastEnd.set(e.name, e.ts + e.dur);
    byKind.set(e.name, (byKind.get(e.name) ?? 0) + (e.tdur ?? e.dur));
    if (e.name === 'FunctionCall') {
      const key = scriptKey(e.args?.data ?? {});
      const s = scripts.get(key) ?? { total: 0, max: 0, count: 0 };
      s.total += e.tdur ?? e.dur;
      s.max = Math.max(s.max, e.tdur ?? e.dur);
      s.count++;
      scripts.set(key, s);
    }
  }
  console.log('work by kind over the run (thread time, total ms):');
  for (const [name, us] of [...byKind].sort((a, b) => b[1] - a[1]))
    console.log(`  ${name.padEnd(18)} ${ms(us).padStart(9)}`);
  console.log('scripts with the most time (total, longest call, calls):');
  for (const [key, s] of [...scripts].sort((a, b) => b[1].total - a[1].total).slice(0, 8))
    console.log(
      `  ${ms(s.total).padStart(9)} ms  max ${ms(s.max).padStart(7)} ms  ${String(s.count).padStart(5)}×  ${key}`,
    );
}

// The main thread's events between the train-start and train-end time stamps, with its
// outermost tasks as busy intervals.
function runOnMain(events) {
  const main = mainThreadOf(events);
  const onMain = events
    .filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid)
    .sort((a, b) => a.ts - b.ts);
  const start = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === 'train-start').ts;
  const end = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === 'train-end').ts;
  const inRun = onMain.filter((e) => e.ts >= start && e.ts < end);
  const intervals = busyIntervals(inRun.filter((e) => TASKS.has(e.name)));
  return { start, end, inRun, intervals };
}

function report(events, page) {
  const { start, end, inRun, intervals } = runOnMain(events);
  const cpu = perWindow(intervals, start, end, (i) => i[2]);
  const wall = perWindow(intervals, start, end, (i) => i[1] - i[0]);
  const longestCpu = intervals.reduce((m, i) => Math.max(m, i[2]), 0);
  const longestWall = intervals.reduce((m, i) => Math.max(m, i[1] - i[0]), 0);
  const over = cpu.filter((w) => w > 16000).length;
  const busy = intervals.reduce((s, i) => s + i[2], 0);
  const line = (w) =>
    `median ${ms(quantile(w, 0.5))} ms, p95 ${ms(quantile(w, 0.95))} ms, p99 ${ms(quantile(w, 0.99))} ms, max ${ms(w.at(-1))} ms`;
  console.log(`${page}: ${SECONDS} s of training traced, ${cpu.length} frames of 16.7 ms`);
  console.log(`main-thread work per frame (thread time): ${line(cpu)}; ${over} frames over 16 ms`);
  console.log(
    `  the same in wall time (with the time other processes took the core): ${line(wall)}; ${wall.filter((w) => w > 16000).length} over 16 ms`,
  );
  console.log(
    `longest task: ${ms(longestCpu)} ms of thread time (${ms(longestWall)} ms wall); main thread busy ${((100 * busy) / (end - start)).toFixed(1)} % of the time`,
  );
  printWorkByKind(inRun);
  console.log('the longest tasks:');
  describeLongest(intervals, inRun);
  const verdict = cpu.at(-1) <= 16000 ? 'every frame within 16 ms' : `${over} of ${cpu.length} frames over 16 ms`;
  console.log(
    `verdict (thread time): ${verdict} (p95 ${ms(quantile(cpu, 0.95))} ms, longest task ${ms(longestCpu)} ms)`,
  );
}

// --profile: the main thread's JavaScript functions with the most self time (V8's sampler).
function printProfile(profile) {
  const self = new Map();
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, k) => {
    const f = nodes.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[k] ?? 0) / 1000);
  });
  console.log('JavaScript self time (top 15):');
  for (const [key, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${t.toFixed(1).padStart(8)} ms  ${key}`);
}

if (!ROOT) await ensureSite(); // dist/, made fresh when web/ changed (as the page tests do)
const server = await startServer({ port: 0, ...(ROOT ? { root: ROOT } : {}) });
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
  const page = await browser.newPage({ viewport: { width: WIDTH, height: 900 } });
  await page.addInitScript(() => {
    window.__ATTN_INSTRUMENT__ = true;
  }); // data-progress-* (web/ui/dom/instrument.js)
  await page.goto(server.url + PATH);
  await page.waitForSelector('[data-training][data-ready="true"]');
  if (EXAMPLE) {
    await page.click(`[data-action="open-example"][data-example="${EXAMPLE}"]`);
    await page.waitForSelector(`.examples-panel[data-example="${EXAMPLE}"]`);
  }
  await page.waitForTimeout(1000);
  const cdp = args.includes('--profile') ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'toplevel', 'disabled-by-default-devtools.timeline'],
  });
  await page.evaluate(() => console.timeStamp('train-start'));
  if (!args.includes('--idle')) await page.click('[data-action="train"]');
  await page.waitForTimeout(SECONDS * 1000);
  await page.evaluate(() => console.timeStamp('train-end'));
  const trace = JSON.parse((await browser.stopTracing()).toString());
  if (cdp) printProfile((await cdp.send('Profiler.stop')).profile);
  const step = await page.getAttribute('[data-training]', 'data-step');
  const progress = await page.$eval('[data-training]', (e) => e.dataset.progressMaxMs);
  if (!args.includes('--idle')) await page.click('[data-action="pause"]');
  report(trace.traceEvents ?? trace, `${PATH}${EXAMPLE ? ` + ${EXAMPLE} example` : ''} at ${WIDTH} px`);
  console.log(`steps trained: ${step}; longest progress handler (the page's own data-progress-max-ms): ${progress} ms`);
} finally {
  await browser.close();
  await server.close();
}
