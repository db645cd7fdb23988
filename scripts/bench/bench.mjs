// `npm run bench`: times the SIMD and scalar WebAssembly builds side by side in one Node process on
// one thread, prints medians, GFLOP/s and the SIMD/scalar ratio, and writes the table as JSON.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { createAttention } from '../../web/lib/attention.js';

const MIN_TIME_MS = Number(process.env.BENCH_MIN_TIME_MS ?? 400);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// Repeats fn until MIN_TIME_MS has passed (at least 5 runs) and returns the median in ms.
function time(fn) {
  for (let i = 0; i < 2; i++) fn();  // warm-up: tier-up and scratch allocation
  const samples = [];
  const start = performance.now();
  while (samples.length < 5 || performance.now() - start < MIN_TIME_MS) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

function randomTensor(rng, ...shape) {
  return { data: Float32Array.from(rng.randn(...shape).data), shape };
}

const cases = [
  { name: 'SDPA n=m=256 d=64', flops: 4 * 256 * 256 * 64,
    make: (attn, rng) => {
      const q = randomTensor(rng, 256, 64), k = randomTensor(rng, 256, 64), v = randomTensor(rng, 256, 64);
      return () => attn.scaledDotProductAttention(q, k, v);
    } },
  { name: 'SDPA n=m=256 d=64, output only', flops: 4 * 256 * 256 * 64,
    make: (attn, rng) => {
      const q = randomTensor(rng, 256, 64), k = randomTensor(rng, 256, 64), v = randomTensor(rng, 256, 64);
      return () => attn.scaledDotProductAttention(q, k, v, { needWeights: false });
    } },
  { name: 'SDPA n=m=512 d=64', flops: 4 * 512 * 512 * 64,
    make: (attn, rng) => {
      const q = randomTensor(rng, 512, 64), k = randomTensor(rng, 512, 64), v = randomTensor(rng, 512, 64);
      return () => attn.scaledDotProductAttention(q, k, v);
    } },
  { name: 'MHA B=1 n=256 E=512 h=8', flops: 4 * 2 * 256 * 512 * 512 + 4 * 256 * 256 * 512,
    make: (attn, rng) => {
      const mha = attn.multiHeadAttention({ embedDim: 512, numHeads: 8, seed: 1 });
      const x = randomTensor(rng, 1, 256, 512);
      return () => mha.forward(x);
    } },
  { name: 'SDPA lesson size n=8 d=8', flops: 4 * 8 * 8 * 8,
    make: (attn, rng) => {
      const q = randomTensor(rng, 8, 8), k = randomTensor(rng, 8, 8), v = randomTensor(rng, 8, 8);
      return () => attn.scaledDotProductAttention(q, k, v);
    } },
];

const builds = { simd: await createAttention({ simd: true }), scalar: await createAttention({ simd: false }) };
const rows = [];
for (const c of cases) {
  const row = { case: c.name };
  for (const [name, attn] of Object.entries(builds)) {
    const fn = c.make(attn, attn.randomState(7));
    const ms = time(fn);
    row[`${name}_ms`] = ms;
    row[`${name}_gflops`] = c.flops / ms / 1e6;
  }
  row.speedup = row.scalar_ms / row.simd_ms;
  rows.push(row);
}

const fmt = (x, digits = 3) => x.toPrecision(digits);
console.log(`attention-explorer benchmark — Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, one thread`);
console.log(`${'case'.padEnd(36)} ${'SIMD ms'.padStart(10)} ${'GFLOP/s'.padStart(8)} ${'scalar ms'.padStart(10)} ${'GFLOP/s'.padStart(8)} ${'SIMD/scalar'.padStart(12)}`);
for (const r of rows)
  console.log(`${r.case.padEnd(36)} ${fmt(r.simd_ms).padStart(10)} ${fmt(r.simd_gflops).padStart(8)} ${fmt(r.scalar_ms).padStart(10)} ${fmt(r.scalar_gflops).padStart(8)} ${(fmt(r.speedup) + '×').padStart(12)}`);
await mkdir('bench-results', { recursive: true });
const file = 'bench-results/bench.json';
await writeFile(file, JSON.stringify({ date: new Date().toISOString(), node: process.version,
  cpu: os.cpus()[0]?.model, rows }, null, 2));
console.log(`written to ${file}`);
