// `npm run bench:transformer`: one training step of the induction model (2 layers, 4 heads, d_model 64,
// attention-only, pre-LN, untied, vocabulary 48, 32 tokens, batch 32, Adam 3e-3) on one thread,
// ours (SIMD and scalar builds) side by side with PyTorch (/usr/bin/python3 with torch,
// torch.set_num_threads(1)) and TensorFlow.js (wasm backend, tf.train.adam), interleaved round by
// round. Every peer starts from our initial parameters and must agree with our loss before and after
// three Adam steps. Then the time ours takes to grow an induction head, with fresh batches each step.
// Times are CPU time (the process's, one thread each), so that other processes on a shared machine
// slow no side; wall times are printed too. The step's GFLOP/s is printed next to the core's forward
// GEMM kernel's (a 256 × 512 · 512 × 512 product, the size of a d_model 512 projection), measured
// in the same run. Writes bench-results/transformer.json and bench-results/transformer.md.
// Environment: BENCH_ROUNDS (default 12), BENCH_STEPS (steps per sample, default 10), BENCH_PEERS=0.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createAttention } from '../../web/lib/attention.js';
import { repeatedTokens } from '../../web/lib/training-data.js';
import { cpuDescription } from './machine.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const STEPS = Number(process.env.BENCH_STEPS ?? 10);
const WITH_PEERS = process.env.BENCH_PEERS !== '0';
const LEARNING_RATE = 3e-3;
const MODEL = {
  vocabSize: 48,
  contextLength: 32,
  dModel: 64,
  numLayers: 2,
  numHeads: 4,
  mlp: false,
  layerNorm: true,
  positions: 'learned',
  tieEmbeddings: false,
  seed: 1,
};
const BATCH = repeatedTokens({ vocabSize: 48, seqLength: 32, batchSize: 32, seed: 7 });
const INDUCTION_THRESHOLD = 0.5;
const TRAIN_REPEATS = [4, 5, 6, 7, 8, 9, 10, 11, 12];
const PROBE_REPEATS = [13, 15]; // never trained on

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const relDiff = (a, b) => Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1e-12);

function ensurePeers() {
  if (existsSync(path.join(here, 'node_modules/@tensorflow/tfjs/package.json'))) return;
  console.log('bench: installing the peer libraries (scripts/bench/package.json), once');
  spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: here, stdio: 'inherit' });
}

// `run(k)` for a synchronous step function: { ms, cpuMs } for k steps.
const timed = (step) => async (k) => {
  const t0 = performance.now(),
    c0 = process.cpuUsage();
  for (let i = 0; i < k; i++) step();
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
};

// Multiply-adds of the dense products of one forward pass (the attention counted in full, T × T,
// as a dense implementation computes it; our causal path skips part of it), times 2 FLOPs; a
// training step is the forward and a backward of twice its products: 3 × the forward.
function stepFlops({ dModel: E, numLayers: L, vocabSize: V, contextLength: T }, batch) {
  const N = batch * T;
  const perLayer = 2 * N * E * 3 * E + 2 * N * E * E + 2 * 2 * batch * T * T * E;
  return 3 * (L * perLayer + 2 * N * E * V);
}

// GFLOP/s (CPU time, median of 15 samples of 3 calls) of fn doing `flops`.
function gflops(fn, flops) {
  for (let i = 0; i < 3; i++) fn();
  const samples = [];
  for (let r = 0; r < 15; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < 3; i++) fn();
    const c = process.cpuUsage(c0);
    samples.push((c.user + c.system) / 1000 / 3);
  }
  return flops / median(samples) / 1e6;
}

// The core's forward kernels through the API, on the sizes of `npm run bench`: the GEMM of a
// d_model 512 projection (256 × 512 · 512 × 512, attn.matmul) and the multi-head forward
// (n = 256, E = 512, 8 heads, output only). The step is set against the faster of the two.
function kernelGflops(attn) {
  const rng = attn.randomState(3);
  const T = (...shape) => ({ data: Float32Array.from(rng.randn(...shape).data), shape });
  const a = T(256, 512),
    b = T(512, 512),
    x = T(1, 256, 512);
  const gemm = gflops(() => attn.matmul(a, b), 2 * 256 * 512 * 512);
  const layer = attn.multiHeadAttention({ embedDim: 512, numHeads: 8, seed: 3 });
  const mha = gflops(
    () => layer.forward(x, x, x, { needWeights: false }),
    4 * 2 * 256 * 512 * 512 + 4 * 256 * 256 * 512,
  );
  layer.dispose();
  return { gemm, mha, best: Math.max(gemm, mha) };
}

function ours(attn) {
  const model = attn.transformer(MODEL);
  const step = () => model.trainStep(BATCH.tokens, BATCH.targets, { learningRate: LEARNING_RATE }).loss;
  return { model, step };
}

// Our loss before any step and after three, from a fresh model of the same seed.
function ourParity(attn) {
  const { model, step } = ours(attn);
  const state = model.getState();
  const loss = step();
  step();
  step();
  const lossAfter3 = model.gradients(BATCH.tokens, BATCH.targets).loss;
  model.dispose();
  return { state, loss, lossAfter3 };
}

// The PyTorch peer runs in its own process; `run(K)` resolves with its milliseconds for K steps.
async function torchPeer(state) {
  const python = '/usr/bin/python3';
  if (spawnSync(python, ['-c', 'import torch'], { stdio: 'ignore' }).status !== 0) return null;
  const child = spawn(python, [path.join(here, 'transformer_torch_peer.py')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const ask = async (message) => {
    child.stdin.write(JSON.stringify(message) + '\n');
    return JSON.parse((await lines.next()).value);
  };
  const plain = Object.fromEntries(
    Object.entries(state).map(([k, t]) => [k, { data: Array.from(t.data), shape: t.shape }]),
  );
  const ready = await ask({
    config: MODEL,
    state: plain,
    tokens: BATCH.tokens,
    targets: BATCH.targets,
    learningRate: LEARNING_RATE,
  });
  return {
    name: `PyTorch ${ready.torch}`,
    loss: ready.loss,
    lossAfter3: ready.lossAfter3,
    run: async (k) => ask({ steps: k }),
    close: () => {
      child.stdin.end(JSON.stringify({ quit: true }) + '\n');
    },
  };
}

async function tfjsPeer(state) {
  const { tfjsTrainer } = await import('./transformer-tfjs-peer.mjs');
  const t = await tfjsTrainer(MODEL, state, BATCH.tokens, BATCH.targets, LEARNING_RATE);
  const loss = t.step();
  t.step();
  t.step();
  const lossAfter3 = t.lossNow();
  return {
    name: `TensorFlow.js ${t.version} (wasm)`,
    loss,
    lossAfter3,
    run: timed(t.step),
    close: () => {},
  };
}

// Samples every implementation once per round, ours first; ratios (of CPU times) are paired within
// a round.
async function interleave(impls) {
  for (const impl of impls) await impl.run(3); // warm-up
  const cpu = impls.map(() => []);
  const wall = impls.map(() => []);
  const ratio = impls.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    const times = [];
    for (const impl of impls) times.push(await impl.run(STEPS));
    times.forEach((t, i) => {
      cpu[i].push(t.cpuMs / STEPS);
      wall[i].push(t.ms / STEPS);
      ratio[i].push(t.cpuMs / times[0].cpuMs);
    });
  }
  return impls.map((impl, i) => ({
    name: impl.name,
    msPerStep: median(cpu[i]),
    best: Math.min(...cpu[i]),
    wallMsPerStep: median(wall[i]),
    ratioToOurs: i === 0 ? 1 : median(ratio[i]),
  }));
}

// Fresh batches every step (as the trainer does) until a head of layer 1 or later (a layer-0 head
// cannot match a token with its predecessor's copy) scores ≥ INDUCTION_THRESHOLD on a probe of
// repeat lengths never trained on.
function timeToInduction(attn, seed, maxSteps = 3000) {
  const model = attn.transformer({ ...MODEL, seed });
  const probe = repeatedTokens({ vocabSize: 48, seqLength: 32, batchSize: 16, seed: 99, repeatLengths: PROBE_REPEATS });
  const t0 = performance.now();
  let best = 0;
  try {
    for (let step = 1; step <= maxSteps; step++) {
      const b = repeatedTokens({
        vocabSize: 48,
        seqLength: 32,
        batchSize: 32,
        seed: seed * 100003 + step,
        repeatLengths: TRAIN_REPEATS,
      });
      model.trainStep(b.tokens, b.targets, { learningRate: LEARNING_RATE });
      if (step % 25) continue;
      const { attentions } = model.forward(probe.tokens);
      best = Math.max(...attentions.slice(1).map((a) => Math.max(...attn.headScores(probe.tokens, a).induction)));
      if (best >= INDUCTION_THRESHOLD) return { seed, step, seconds: (performance.now() - t0) / 1000, score: best };
    }
    return { seed, step: null, seconds: (performance.now() - t0) / 1000, score: best };
  } finally {
    model.dispose();
  }
}

const simd = await createAttention({ simd: true });
const scalar = await createAttention({ simd: false });
const parity = ourParity(simd);
const impls = [
  { name: 'ours SIMD', run: timed(ours(simd).step) },
  { name: 'ours scalar', run: timed(ours(scalar).step) },
];
const peers = [];
if (WITH_PEERS) {
  const torch = await torchPeer(parity.state);
  if (torch) peers.push(torch);
  else console.log('bench: /usr/bin/python3 has no torch; PyTorch skipped');
  ensurePeers();
  peers.push(await tfjsPeer(parity.state));
}
for (const p of peers) {
  const d0 = relDiff(p.loss, parity.loss),
    d3 = relDiff(p.lossAfter3, parity.lossAfter3);
  console.log(
    `${p.name}: loss ${p.loss.toFixed(6)} (ours ${parity.loss.toFixed(6)}), after 3 Adam steps ${p.lossAfter3.toFixed(6)} (ours ${parity.lossAfter3.toFixed(6)})`,
  );
  if (d0 > 1e-4 || d3 > 1e-3)
    throw new Error(`${p.name} disagrees with our training (relative ${d0.toExponential(1)}, ${d3.toExponential(1)})`);
}
const rows = await interleave([...impls, ...peers]);
for (const p of peers) p.close();
const flops = stepFlops(MODEL, 32);
const kernels = kernelGflops(simd);
const stepGflops = flops / rows[0].msPerStep / 1e6;
const speed = { stepMflop: flops / 1e6, stepGflops, kernels, fraction: stepGflops / kernels.best };
const induction = [1, 2, 3].map((seed) => timeToInduction(simd, seed));
const find = (prefix) => rows.find((r) => r.name.startsWith(prefix));
const targets = [
  ['PyTorch', 2],
  ['TensorFlow.js', 3],
]
  .filter(([p]) => find(p))
  .map(([p, times]) => ({
    target: `≥ ${times}× ${p}'s steps per second`,
    value: find(p).ratioToOurs,
    met: find(p).ratioToOurs >= times,
  }));
targets.push({
  target: "a training step at ≥ 0.5 × the forward kernels' GFLOP/s",
  value: speed.fraction,
  met: speed.fraction >= 0.5,
});

const md = [
  `Training step, 2 layers × 4 heads, d_model 64, attention-only, vocabulary 48, 32 tokens, batch 32 (${cpuDescription()}, ${ROUNDS} rounds of ${STEPS} steps):`,
  '',
  '| implementation | CPU ms / step | steps / s | best | wall ms / step | time / ours (paired CPU time) |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.msPerStep.toFixed(2)} | ${(1000 / r.msPerStep).toFixed(0)} | ${r.best.toFixed(2)} | ${r.wallMsPerStep.toFixed(2)} | ${r.ratioToOurs.toFixed(2)}× |`,
  ),
  '',
  `Training step: ${speed.stepMflop.toFixed(0)} MFLOP (3 × the forward's dense products) at ${speed.stepGflops.toFixed(1)} GFLOP/s; ` +
    `forward kernels in the same run: GEMM 256 × 512 · 512 × 512 (attn.matmul) ${speed.kernels.gemm.toFixed(1)} GFLOP/s, ` +
    `multi-head forward n = 256, E = 512, 8 heads ${speed.kernels.mha.toFixed(1)} GFLOP/s; the step runs at ${speed.fraction.toFixed(2)} of the faster.`,
  '',
  ...targets.map((t) => `${t.met ? 'Met' : 'MISSED'}: ${t.target} (${t.value.toFixed(2)}×).`),
  '',
  `Time to an induction head (ours SIMD, Node; a layer-1 head scoring ≥ ${INDUCTION_THRESHOLD} on repeat lengths ${PROBE_REPEATS.join(' and ')}, trained on ${TRAIN_REPEATS[0]}–${TRAIN_REPEATS.at(-1)}):`,
  '',
  ...induction.map(
    (r) =>
      `- seed ${r.seed}: ${r.step ? `step ${r.step}, ${r.seconds.toFixed(1)} s` : `none in ${r.seconds.toFixed(1)} s (best score ${r.score.toFixed(2)})`}`,
  ),
];
console.log(md.join('\n'));
await mkdir('bench-results', { recursive: true });
await writeFile('bench-results/transformer.md', md.join('\n') + '\n');
await writeFile(
  'bench-results/transformer.json',
  JSON.stringify(
    {
      date: new Date().toISOString(),
      cpu: cpuDescription(),
      model: MODEL,
      rows,
      speed,
      targets,
      induction,
      parity: { loss: parity.loss, lossAfter3: parity.lossAfter3 },
    },
    null,
    2,
  ),
);
