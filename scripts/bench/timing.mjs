// How the benchmarks time a call, in Node (bench.mjs) and in the browser (browser-page.mjs): warm
// up, time enough back-to-back calls per sample, and interleave the implementations of a case
// round by round.

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Which clock a case is timed by: 'cpu' is the process's CPU time (user + system, Node only), so
// that other processes on a shared machine slow no side of a comparison (wall times moved by up to
// 2× under load); it suits work that keeps the thread busy. 'wall' also counts a library's own
// waits, a promise that resolves on a later turn of the event loop, which CPU time would leave out
// and which dominate calls of a few microseconds (lesson sizes). Browsers have only wall time.
export const HAS_CPU_TIME = typeof process === 'object' && typeof process?.cpuUsage === 'function';
const clocks = {
  wall: () => performance.now(),
  cpu: HAS_CPU_TIME
    ? () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      }
    : () => performance.now(),
};

// One sample of fn: reps back-to-back calls, in ms per call.
async function sample(fn, reps, clock = clocks.wall) {
  const t0 = clock();
  for (let i = 0; i < reps; i++) {
    const r = fn();
    if (r instanceof Promise) await r;
  }
  return (clock() - t0) / reps;
}

// Times several implementations of one case, interleaved, each for at least minTimeMs and 5
// samples: every round samples the first one (ours, the reference) and each other one that still
// needs samples. Returns per implementation the median ms, the best ms and the median over rounds
// of its sample divided by ours from the same round: a burst of load from another process slows
// both sides of a pair, so the paired ratio stays steady on a shared machine where medians taken
// minutes apart do not.
// clock: 'wall' (default) or 'cpu' (see above).
export async function timeInterleaved(fns, minTimeMs, clock = 'wall') {
  const now = clocks[clock];
  // Enough back-to-back calls per sample to last ≥ 2 ms: tiny calls are timed in bulk (and a
  // browser's coarsened performance.now() still resolves them).
  const reps = [];
  for (const fn of fns) {
    for (let i = 0; i < 3; i++) await sample(fn, 1); // warm-up: tier-up, scratch blocks
    let n = 1;
    // CPU time can advance in steps of up to a few ms: its samples last ≥ 10 ms.
    while (n < 1e6 && (await sample(fn, n, now)) * n < (clock === 'cpu' ? 10 : 2)) n *= 4;
    reps.push(n);
  }
  const samples = fns.map(() => []);
  const ratios = fns.map(() => []);
  const spent = fns.map(() => 0);
  const needs = (i) => samples[i].length < 5 || spent[i] < minTimeMs;
  while (fns.some((_, i) => needs(i))) {
    const ours = await sample(fns[0], reps[0], now);
    samples[0].push(ours);
    spent[0] += ours * reps[0];
    for (let i = 1; i < fns.length; i++) {
      if (!needs(i)) continue;
      const ms = await sample(fns[i], reps[i], now);
      samples[i].push(ms);
      ratios[i].push(ms / ours);
      spent[i] += ms * reps[i];
    }
  }
  return fns.map((_, i) => ({
    ms: median(samples[i]),
    best: Math.min(...samples[i]),
    ratio: i === 0 ? 1 : median(ratios[i]),
  }));
}
