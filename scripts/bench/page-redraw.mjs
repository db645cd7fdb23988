// How long the explorer page takes to follow an edit at its largest sizes (n = 24 tokens,
// d_model = 64, h = 8, X unfolded and focused, as a person typing into it; or `--mode qkv`: Q, K, V
// typed directly at n = m = 24, d_k = d_v = 64, Q unfolded), with every edit changing the edited
// matrix's colour range (a cell goes to 40 and back to its value, so every cell's tint changes): the
// JS redraw the page measures itself (compute + canvas and DOM writes), and from a Chromium trace
// the main thread's work from the keystroke to the end of the frame that shows it (input handler,
// redraw, style, layout, paint, layerize, commit), which is what must fit in one 16 ms frame, for
// the median edit and the slowest ones (p95, max); work queued after that frame (maps out of view,
// data attributes) is reported apart. The trace's counts (elements restyled, objects laid out) do
// not depend on how loaded the machine is, so two versions can be compared by them too.
// `--profile` also prints the functions with the most self time from the V8 CPU profiler (over the
// whole run, and within the edits' frames alone); `--per-edit` each edit's numbers by kind of work;
// `--canvas-copies` also traces the canvases' pixels handed to the compositor in each frame;
// `--layers` lists the compositor layers after the edits (see page-layers.mjs).
// `npm run bench:page` runs the three views (X, the pipeline, Q/K/V mode).
//   node scripts/bench/page-redraw.mjs [--edits 20] [--view x|pipeline] [--mode sentence|qkv]
//     [--rounds 3] [--profile] [--canvas-copies] [--layers] [--css "<rules>"] [--root dir] [--dpr 2] [--no-focus] [--focus-fixed] [--n 24] [--heads 8] [--per-edit]
import { readFileSync } from 'node:fs';
import { startServer } from '../serve.mjs';
import { watchLayers } from './page-layers.mjs';
import { fmt, launchChromium, median, openLargest, p95, verdict } from './page-largest.mjs';

const args = process.argv.slice(2);
// Pairs of edits (to 40 and back), so every round ends with the values it started from.
const EDITS = 2 * Math.ceil((Number(args[args.indexOf('--edits') + 1]) || 20) / 2);
// --rounds R: the same edits R times over. Each edit's best round is its own work with the
// machine's noise (other processes, a host that takes the virtual CPU away) left out.
const ROUNDS = Number(args[args.indexOf('--rounds') + 1]) || 1;
const PROFILE = args.includes('--profile');
// --root <dir>: serve another checkout's web/ (to compare two versions of the page).
const ROOT = args.includes('--root') ? args[args.indexOf('--root') + 1] : undefined;
// --css "<rules>": extra rules adopted before measuring, to try a layout or paint idea quickly.
const CSS = args.includes('--css') ? args[args.indexOf('--css') + 1] : '';

// Leaf-level kinds of main-thread work (containers such as TimerFire would count JS twice).
const KINDS = new Set([
  'Canvas2DResourceProvider::ProduceCanvasResource',
  'FunctionCall',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'Commit',
  'MinorGC',
  'MajorGC',
  'HitTest',
  'IntersectionObserverController::computeIntersections',
]);

// The machine's CPU time by kind (Linux: /proc/stat in clock ticks), to tell how much of it a
// virtual machine's host took away during the run ("steal": the guest's clocks run on meanwhile).
function cpuTimes() {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return { busy: user + nice + system + irq + softirq, steal };
  } catch {
    return null;
  }
}
const stealShare = (a, b) =>
  a && b && b.busy + b.steal > a.busy + a.steal ? (b.steal - a.steal) / (b.busy + b.steal - a.busy - a.steal) : null;
const cpuAtStart = cpuTimes();

const server = await startServer({ port: 0, ...(ROOT ? { root: ROOT } : {}) });
const browser = await launchChromium();
try {
  // --dpr 2: a high-density screen, where Chromium composites every scroller.
  const DPR = args.includes('--dpr') ? Number(args[args.indexOf('--dpr') + 1]) : 1;
  // The largest sizes the page allows by default (--n, --heads: smaller ones).
  const HEADS = args.includes('--heads') ? args[args.indexOf('--heads') + 1] : '8';
  const MODE = args.includes('--mode') ? args[args.indexOf('--mode') + 1] : 'sentence';
  const N = args.includes('--n') ? Number(args[args.indexOf('--n') + 1]) : 24;
  const {
    page,
    edited: EDITED,
    matrix,
  } = await openLargest(browser, server.url, { dpr: DPR, n: N, heads: HEADS, mode: MODE });
  // As a person typing: the cell has focus and the page shows it (--view pipeline: the steps).
  const VIEW = args.includes('--view') ? args[args.indexOf('--view') + 1] : 'x';
  await page.$eval(VIEW === 'pipeline' ? '#pipeline' : matrix, (e) => e.scrollIntoView({ block: 'start' }));

  // --focus-fixed: the focus stays on a cell no edit touches, so the caret never appears or moves.
  if (args.includes('--focus-fixed'))
    await page.evaluate(() => {
      window.__focusFixed = true;
    });
  if (args.includes('--no-focus'))
    await page.evaluate(() => {
      window.__noFocus = true;
      document.activeElement?.blur();
    });
  if (CSS) {
    await page.evaluate((rules) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(rules);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    }, CSS);
  }
  console.log(
    await page.evaluate(
      () =>
        `DOM: ${document.getElementsByTagName('*').length} elements, ${document.querySelectorAll('td.cell').length} heatmap cells, ${document.querySelectorAll('input').length} inputs, ${document.querySelectorAll('.cell-input').length} matrix cells`,
    ),
  );
  const cdp = await page.context().newCDPSession(page);
  const printLayers = args.includes('--layers') ? await watchLayers(cdp) : null;
  if (PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  }
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'toplevel', ...(args.includes('--canvas-copies') ? ['blink'] : [])],
  });
  // The edits are typed from inside the page, so the test driver adds no work of its own; each is
  // followed by an idle pause and marked in the trace with console.timeStamp.
  const { jsMs, rangeChanged } = await page.evaluate(
    async ([edits, rounds, n, name]) => {
      const app = document.getElementById('app');
      const block = document.querySelector(`[data-matrix="${name}"]`);
      // A cell is an <input> (earlier versions) or a plain-text editable box.
      const cell = (i, j) => block.querySelector(`.cell-input[data-row="${i}"][data-col="${j}"]`);
      const textOf = (c) => (c instanceof HTMLInputElement ? c.value : c.textContent);
      const write = (c, text) => {
        if (c instanceof HTMLInputElement) c.value = text;
        else c.textContent = text;
      };
      // The colour range as the page shows it: the editor's bound, or (a page that tints each input
      // inline) the colour of a cell no edit touches.
      const range = () => block.dataset.tintBound ?? cell(n - 1, 63).style.backgroundColor;
      const rendered = (n) =>
        new Promise((done) => {
          const seen = new MutationObserver(() => {
            if (Number(app.dataset.renders) > n) {
              seen.disconnect();
              console.timeStamp('rendered'); // inside the task that draws the frame with the edit
              done();
            }
          });
          seen.observe(app, { attributes: true, attributeFilter: ['data-renders'] });
        });
      const out = [];
      let changed = 0;
      let original = '';
      for (let k = 0; k < edits * rounds; k++) {
        // Pairs of edits on one cell: to 40 (the range grows) and back to its value (it shrinks).
        const p = (k % edits) >> 1;
        const input = cell(p % (n - 1), (p * 7) % 63);
        if (k % 2 === 0) original = textOf(input);
        // The cell is focused first, as a person clicks a cell and then types into it: the edit
        // measured is the keystroke.
        if (window.__focusFixed) cell(n - 1, 62).focus({ preventScroll: true });
        else if (!window.__noFocus) input.focus({ preventScroll: true });
        await new Promise((done) => setTimeout(done, 100));
        const before = Number(app.dataset.renders);
        const rangeBefore = range();
        console.timeStamp(`edit-${k}`);
        write(input, k % 2 === 0 ? '40' : original);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await rendered(before);
        out.push(Number(app.dataset.renderMs));
        await new Promise((done) => setTimeout(done, 500)); // past the address-bar update too
        console.timeStamp(`idle-${k}`);
        if (range() !== rangeBefore) changed += 1;
      }
      return { jsMs: out, rangeChanged: changed };
    },
    [EDITS, ROUNDS, N, EDITED],
  );
  const trace = JSON.parse((await browser.stopTracing()).toString());
  let profile = null;
  if (PROFILE) ({ profile } = await cdp.send('Profiler.stop'));

  // Main-thread busy time per edit: top-level tasks of the renderer main thread between marks.
  const events = trace.traceEvents ?? trace;
  const stampsOf = (prefix) =>
    events
      .filter((e) => e.name === 'TimeStamp' && (e.args?.data?.message ?? '').startsWith(prefix))
      .sort((a, b) => a.ts - b.ts);
  const stamps = stampsOf('edit-');
  const idle = stampsOf('idle-');
  const renderedAt = events
    .filter((e) => e.name === 'TimeStamp' && e.args?.data?.message === 'rendered')
    .map((e) => e.ts);
  const { pid, tid } = stamps[0];
  // From each keystroke to the pause after it (moving focus to the next cell is left out).
  const windows = stamps.map((s, k) => [s.ts, idle[k].ts]);
  const onMain = events.filter((e) => e.ph === 'X' && e.pid === pid && e.tid === tid).sort((a, b) => a.ts - b.ts);
  const perEdit = windows.map(() => 0);
  // Up to the frame: the tasks from the edit to the end of the one that drew the edit (the input
  // handler, the redraw in requestAnimationFrame, then style, layout, paint and layerize).
  const toFrame = windows.map(() => 0);
  // The same in thread time (CPU time of the main thread, tdur): on a loaded machine the wall time
  // also counts the moments another process had the core, the thread time does not.
  const toFrameCpu = windows.map(() => 0);
  const cpu = (e) => (e.tdur ?? e.dur) / 1000;
  const frameEnd = windows.map(([a, b]) => {
    const r = renderedAt.find((t) => t >= a && t < b);
    const task = onMain.find(
      (e) => (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') && e.ts <= r && e.ts + e.dur >= r,
    );
    return task ? task.ts + task.dur : a;
  });
  const byName = new Map();
  const inFrameByName = new Map();
  const inFrameCpuByName = new Map();
  const inFrameCount = new Map();
  const countByName = new Map();
  // Up to the frame: elements whose style was recomputed and objects laid out (load-independent).
  const restyled = windows.map(() => 0);
  const laidOut = windows.map(() => 0);
  const kindsPerEdit = windows.map(() => new Map());
  const lastEnd = new Map(); // skips events nested in one of the same name
  for (const e of onMain) {
    const w = windows.findIndex(([a, b]) => e.ts >= a && e.ts < b);
    if (w < 0) continue;
    if ((lastEnd.get(e.name) ?? -1) > e.ts) continue;
    lastEnd.set(e.name, e.ts + e.dur);
    if (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') {
      perEdit[w] += e.dur / 1000;
      if (e.ts < frameEnd[w]) {
        toFrame[w] += e.dur / 1000;
        toFrameCpu[w] += cpu(e);
      }
    } else if (KINDS.has(e.name)) {
      byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
      if (e.ts < frameEnd[w]) {
        inFrameByName.set(e.name, (inFrameByName.get(e.name) ?? 0) + e.dur / 1000);
        inFrameCpuByName.set(e.name, (inFrameCpuByName.get(e.name) ?? 0) + cpu(e));
        inFrameCount.set(e.name, (inFrameCount.get(e.name) ?? 0) + 1);
        kindsPerEdit[w].set(e.name, (kindsPerEdit[w].get(e.name) ?? 0) + cpu(e));
        if (e.name === 'UpdateLayoutTree') restyled[w] += e.args?.elementCount ?? e.args?.endData?.elementCount ?? 0;
        if (e.name === 'Layout') laidOut[w] += e.args?.beginData?.dirtyObjects ?? 0;
      }
      countByName.set(e.name, (countByName.get(e.name) ?? 0) + 1);
    }
  }
  const what =
    MODE === 'qkv' ? `Q, K, V typed directly, n = m = ${N}, d_k = d_v = 64` : `n = ${N}, d_model = 64, h = ${HEADS}`;
  console.log(
    `${what}, ${EDITED} unfolded, view ${VIEW}; ${EDITS} edits of ${EDITED}${ROUNDS > 1 ? `, ${ROUNDS} rounds` : ''}, ${rangeChanged} of them changing its colour range (SIMD: ${await page.getAttribute('#app', 'data-simd')})`,
  );
  console.log(`JS redraw (compute + DOM writes, #app[data-render-ms]): ${fmt(jsMs)}`);
  console.log(`main-thread work from the edit to the frame that shows it (the 16 ms budget): ${fmt(toFrame)}`);
  console.log(
    `the same in main-thread CPU time (thread time: what other processes' load does not stretch): ${fmt(toFrameCpu)}`,
  );
  console.log(
    `main-thread busy per edit, with the work after that frame (maps out of view, data attributes, the address bar): ${fmt(perEdit)}`,
  );
  console.log(
    `up to the frame, per edit: elements restyled median ${median(restyled)}, max ${Math.max(...restyled)}; objects laid out median ${median(laidOut)}, max ${Math.max(...laidOut)}`,
  );
  console.log(
    'main-thread time by kind, mean per edit: up to the frame (CPU time; events) | whole edit (events per edit)',
  );
  const typed = windows.length;
  for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms / typed >= 0.05)) {
    const frame = (inFrameByName.get(name) ?? 0) / typed;
    const frameCpu = (inFrameCpuByName.get(name) ?? 0) / typed;
    console.log(
      `  ${name.padEnd(18)} ${frame.toFixed(2).padStart(6)} ms (${frameCpu.toFixed(2).padStart(5)}; ${((inFrameCount.get(name) ?? 0) / typed).toFixed(1)}) | ${(ms / typed).toFixed(2).padStart(6)} ms (${(countByName.get(name) / typed).toFixed(1)})`,
    );
  }
  // --per-edit: each edit's numbers, to see which edits are the slow ones.
  if (args.includes('--per-edit')) {
    toFrameCpu.forEach((ms, k) =>
      console.log(
        `  edit ${k} (${k % 2 ? 'back' : 'to 40'}): JS ${jsMs[k].toFixed(1)} ms, to the frame ${ms.toFixed(1)} ms CPU (${toFrame[k].toFixed(1)} wall), ${restyled[k]} restyled, ${laidOut[k]} laid out; ${[
          ...kindsPerEdit[k],
        ]
          .filter(([, ms]) => ms >= 0.3)
          .sort((a, b) => b[1] - a[1])
          .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
          .join(', ')}`,
      ),
    );
  }
  console.log(
    `verdict, CPU time: median ${verdict(median(toFrameCpu))} one 16 ms frame (${median(toFrameCpu).toFixed(1)} ms), p95 ${verdict(p95(toFrameCpu))} (${p95(toFrameCpu).toFixed(1)} ms), slowest ${verdict(Math.max(...toFrameCpu))} (${Math.max(...toFrameCpu).toFixed(1)} ms)`,
  );
  console.log(
    `verdict, wall time: the median edit reaches the screen ${verdict(median(toFrame))} one 16 ms frame (${median(toFrame).toFixed(1)} ms), the p95 edit ${verdict(p95(toFrame))} (${p95(toFrame).toFixed(1)} ms), the slowest ${verdict(Math.max(...toFrame))} (${Math.max(...toFrame).toFixed(1)} ms)`,
  );
  if (ROUNDS > 1) {
    const best = Array.from({ length: EDITS }, (_, e) =>
      Math.min(...Array.from({ length: ROUNDS }, (_, r) => toFrameCpu[r * EDITS + e])),
    );
    console.log(
      `each edit's best of ${ROUNDS} rounds, CPU time: median ${verdict(median(best))} (${median(best).toFixed(1)} ms), p95 ${verdict(p95(best))} (${p95(best).toFixed(1)} ms), slowest ${verdict(Math.max(...best))} (${Math.max(...best).toFixed(1)} ms)`,
    );
  }
  if (printLayers) await printLayers();
  const stolen = stealShare(cpuAtStart, cpuTimes());
  if (stolen != null)
    console.log(
      `the host took ${(100 * stolen).toFixed(0)} % of this machine's CPU time during the run (steal time, /proc/stat)`,
    );
  if (profile) {
    // Self time per function, over the whole run and within the edits' frames alone (the
    // profile's clock is the trace's).
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const whole = new Map();
    const inFrame = new Map();
    let t = profile.startTime;
    profile.samples.forEach((id, s) => {
      t += profile.timeDeltas[s] ?? 0;
      const f = nodes.get(id).callFrame;
      const key = `${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
      const ms = (profile.timeDeltas[s + 1] ?? 0) / 1000;
      whole.set(key, (whole.get(key) ?? 0) + ms);
      if (windows.some(([a], k) => t >= a && t < frameEnd[k])) inFrame.set(key, (inFrame.get(key) ?? 0) + ms);
    });
    const top = (m, label) => {
      console.log(`V8 self time (top 25, ${label}):`);
      for (const [k, ms] of [...m]
        .filter(([k]) => !k.startsWith('(idle)'))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 25))
        console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${k}`);
    };
    top(whole, 'whole run');
    top(inFrame, `within the edits' frames, ${windows.length} edits`);
  }
} finally {
  await browser.close();
  await server.close();
}
