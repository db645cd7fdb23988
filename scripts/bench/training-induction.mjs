// Time from pressing Train to the first "induction head" label in the training view, at its
// defaults, in headless Chromium: each run a fresh browser (a fresh page, a new Worker, cold code),
// the page's own clock from the click to the frame that shows the label, with the step it came at
// and the Worker's steps per second (from the view's data-step). Prints the CPU model and the load
// average, since on a shared machine the wall time tracks the load; steps per second and the step
// of the label are what to compare between builds.
//   node scripts/bench/training-induction.mjs [--runs 5] [--path '#view=train'] [--limit 60]
// `npm run bench:training-induction` runs it at the defaults.
import os from 'node:os';
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';
import { cpuDescription } from './machine.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const RUNS = Number(opt('--runs', 5));
const PATH = opt('--path', '#view=train');
const LIMIT_S = Number(opt('--limit', 60));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// In the page: click Train, then watch every frame for a visible "induction head" badge.
function watch(limitMs) {
  return new Promise((resolve) => {
    const root = document.querySelector('[data-training]');
    const stepNow = () => Number(root.dataset.step);
    const labelled = () =>
      [...document.querySelectorAll('[data-head-score] .head-badge:not([hidden])')].some(
        (b) => b.textContent === 'induction head',
      );
    const marks = [];
    const t0 = performance.now();
    document.querySelector('[data-action="train"]').click();
    const tick = () => {
      const t = performance.now() - t0,
        step = stepNow();
      if (!marks.length || marks.at(-1).step !== step) marks.push({ t, step });
      if (labelled() || t > limitMs) {
        resolve({ ms: labelled() ? t : null, step, marks });
        return;
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

// Steps per second of the run's middle (after the first report, which pays for tier-up).
function stepsPerSecond(marks) {
  const from = marks.find((m) => m.step > 0),
    to = marks.at(-1);
  return from && to.t > from.t ? (to.step - from.step) / ((to.t - from.t) / 1000) : null;
}

const server = await startServer({ port: 0 });
const results = [];
try {
  for (let run = 0; run < RUNS; run++) {
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
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(server.url + PATH);
      await page.waitForSelector('[data-training][data-ready="true"]');
      const load = os.loadavg()[0];
      const r = await page.evaluate(watch, LIMIT_S * 1000);
      const rate = stepsPerSecond(r.marks);
      results.push({ ...r, stepsPerSecond: rate, load });
      console.log(
        `run ${run + 1}: ${r.ms === null ? `no label in ${LIMIT_S} s` : `label after ${(r.ms / 1000).toFixed(2)} s`} at step ${r.step}, ` +
          `${rate?.toFixed(0) ?? '?'} steps/s, load average ${load.toFixed(1)}`,
      );
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}
const found = results.filter((r) => r.ms !== null);
console.log(
  `\ntraining view at ${PATH}, ${cpuDescription()}, ${RUNS} fresh browsers: first induction label ` +
    `after ${found.length ? `${(median(found.map((r) => r.ms)) / 1000).toFixed(2)} s (median)` : 'never'}, at step ` +
    `${found.length ? median(found.map((r) => r.step)) : '-'}, ${median(results.map((r) => r.stepsPerSecond ?? 0)).toFixed(0)} steps/s (median)`,
);
