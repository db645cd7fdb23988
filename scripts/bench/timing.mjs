// How the benchmarks time a call, in Node (bench.mjs) and in the browser (browser-page.mjs): warm
// up, time enough back-to-back calls per sample, and interleave the implementations of a case
// round by round.

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// One sample of fn: reps back-to-back calls, in ms per call.
async function sample(fn, reps) {
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) {
    const r = fn();
    if (r instanceof Promise) await r;
  }
  return (performance.now() - t0) / reps;
}

// Times several implementations of one case, interleaved, each for at least minTimeMs and 5
// samples: every round samples the first one (ours, the reference) and each other one that still
// needs samples. Returns per implementation the median ms, the best ms and the median over rounds
// of its sample divided by ours from the same round: a burst of load from another process slows
// both sides of a pair, so the paired ratio stays steady on a shared machine where medians taken
// minutes apart do not.
export async function timeInterleaved(fns, minTimeMs) {
  // Enough back-to-back calls per sample to last ≥ 2 ms: tiny calls are timed in bulk (and a
  // browser's coarsened performance.now() still resolves them).
  const reps = [];
  for (const fn of fns) {
    for (let i = 0; i < 3; i++) await sample(fn, 1);  // warm-up: tier-up, scratch blocks
    let n = 1;
    while (n < 1e6 && (await sample(fn, n)) * n < 2) n *= 4;
    reps.push(n);
  }
  const samples = fns.map(() => []);
  const ratios = fns.map(() => []);
  const spent = fns.map(() => 0);
  const needs = (i) => samples[i].length < 5 || spent[i] < minTimeMs;
  while (fns.some((_, i) => needs(i))) {
    const ours = await sample(fns[0], reps[0]);
    samples[0].push(ours);
    spent[0] += ours * reps[0];
    for (let i = 1; i < fns.length; i++) {
      if (!needs(i)) continue;
      const ms = await sample(fns[i], reps[i]);
      samples[i].push(ms);
      ratios[i].push(ms / ours);
      spent[i] += ms * reps[i];
    }
  }
  return fns.map((_, i) => ({ ms: median(samples[i]), best: Math.min(...samples[i]),
    ratio: i === 0 ? 1 : median(ratios[i]) }));
}
