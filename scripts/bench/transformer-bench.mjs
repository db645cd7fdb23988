// `npm run bench:transformer`: one training step of the issue's induction model (2 layers, 4 heads,
// d_model 64, attention-only, pre-LN, untied, vocab 48, 32 tokens, batch 32, Adam 3e-3) on one
// thread: this module (SIMD and scalar builds), PyTorch (when /usr/bin/python3 has torch;
// torch.set_num_threads(1)) and TensorFlow.js (wasm backend, the same model, tf.train.adam).
// Chunks of steps of every implementation are interleaved round by round, so load from other
// processes slows them alike; "× ours" is the median of per-round ratios. Then the time to an
// induction head: our SIMD build trains on repeated random tokens (repeat lengths varying per
// sequence) until a layer-1 head scores ≥ 0.5 on a repeat length it never saw.
// Writes bench-results/transformer.json and .md. BENCH_ROUNDS (default 7), BENCH_PEERS=0.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

import { createAttention } from '../../web/lib/attention.js';
import { repeatedTokens } from '../../web/lib/training-data.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WITH_PEERS = process.env.BENCH_PEERS !== '0';
const MODEL = { vocabSize: 48, contextLength: 32, dModel: 64, numLayers: 2, numHeads: 4, mlp: false, tieEmbeddings: false };
const B = 32;
const LR = 3e-3;
const TRAIN_REPEATS = [3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15];
const PROBE_REPEAT = 8;  // never trained on
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const batch = repeatedTokens({ vocabSize: MODEL.vocabSize, seqLength: MODEL.contextLength, batchSize: B, seed: 1, repeatLengths: TRAIN_REPEATS });

// ----------------------------------------------------------------------------------------- ours
async function ours(simd) {
  const attn = await createAttention({ simd });
  const model = attn.transformer({ ...MODEL, seed: 1 });
  return {
    name: `ours ${simd ? 'SIMD' : 'scalar'}`,
    async run(steps) {
      const t0 = performance.now();
      for (let i = 0; i < steps; i++) model.trainStep(batch.tokens, batch.targets, { learningRate: LR });
      return (performance.now() - t0) / steps;
    },
    close() { model.dispose(); },
  };
}

// -------------------------------------------------------------------------------------- PyTorch
async function pytorch() {
  const python = '/usr/bin/python3';
  if (!existsSync(python)) return null;
  const child = spawn(python, [path.join(here, 'transformer_torch_peer.py')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  child.stdin.write(`${JSON.stringify({ ...MODEL, batch: B, tokens: batch.tokens, targets: batch.targets })}\n`);
  const first = await lines.next();
  if (first.done) return null;  // no torch
  return {
    name: `PyTorch ${first.value} (1 thread)`,
    async run(steps) {
      child.stdin.write(`${steps}\n`);
      return Number((await lines.next()).value);
    },
    close() { child.stdin.end(); },
  };
}

// ----------------------------------------------------------------------------- TensorFlow.js
function ensurePeers() {
  if (existsSync(path.join(here, 'node_modules/@tensorflow/tfjs/package.json'))) return;
  console.log('bench: installing the peer libraries (scripts/bench/package.json), once');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: here, stdio: 'inherit' });
}

async function tfjs() {
  ensurePeers();
  const tf = require('@tensorflow/tfjs');
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  wasm.setWasmPaths(path.join(here, 'node_modules/@tensorflow/tfjs-backend-wasm/dist') + path.sep);
  if (wasm.setThreadsCount) wasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  const { vocabSize: V, contextLength: T, dModel: E, numHeads: H, numLayers: L } = MODEL;
  const d = E / H;
  const uniform = (shape, fanIn) => tf.variable(tf.randomUniform(shape, -1 / Math.sqrt(fanIn), 1 / Math.sqrt(fanIn)));
  const p = { wte: tf.variable(tf.randomNormal([V, E])), wpe: tf.variable(tf.randomNormal([T, E])),
    lnf: [tf.variable(tf.ones([E])), tf.variable(tf.zeros([E]))], head: uniform([E, V], E), blocks: [] };
  for (let l = 0; l < L; l++)
    p.blocks.push({ ln: [tf.variable(tf.ones([E])), tf.variable(tf.zeros([E]))], wqkv: uniform([E, 3 * E], E),
      bqkv: uniform([3 * E], E), wo: uniform([E, E], E), bo: uniform([E], E) });
  const layerNorm = (x, [w, b]) => {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5))), w), b);
  };
  const causal = tf.tensor2d(Float32Array.from({ length: T * T }, (_, i) => ((i % T) > Math.floor(i / T) ? -1e9 : 0)), [T, T]);
  // The embedding as a one-hot product: the wasm backend has no gradient kernel for gather.
  const oneHotTokens = tf.oneHot(tf.tensor1d(batch.tokens.flat(), 'int32'), V).asType('float32');
  const valid = batch.targets.flat().map((t) => (t >= 0 ? 1 : 0));
  const labels = tf.mul(tf.oneHot(tf.tensor1d(batch.targets.flat().map((t) => Math.max(t, 0)), 'int32'), V),
    tf.tensor2d(valid, [B * T, 1]));
  const count = valid.reduce((a, b) => a + b, 0);
  const heads = (t) => tf.reshape(tf.transpose(tf.reshape(t, [B, T, H, d]), [0, 2, 1, 3]), [B * H, T, d]);
  const loss = () => {
    let x = tf.add(tf.reshape(tf.matMul(oneHotTokens, p.wte), [B, T, E]), p.wpe);
    for (const blk of p.blocks) {
      const qkv = tf.add(tf.matMul(tf.reshape(layerNorm(x, blk.ln), [B * T, E]), blk.wqkv), blk.bqkv);
      const [q, k, v] = tf.split(qkv, 3, 1).map(heads);
      const att = tf.softmax(tf.add(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(d)), causal));
      const o = tf.reshape(tf.transpose(tf.reshape(tf.matMul(att, v), [B, H, T, d]), [0, 2, 1, 3]), [B * T, E]);
      x = tf.add(x, tf.reshape(tf.add(tf.matMul(o, blk.wo), blk.bo), [B, T, E]));
    }
    const logits = tf.matMul(tf.reshape(layerNorm(x, p.lnf), [B * T, E]), p.head);
    return tf.div(tf.neg(tf.sum(tf.mul(labels, tf.logSoftmax(logits)))), count);
  };
  const optimizer = tf.train.adam(LR, 0.9, 0.999, 1e-8);
  return {
    name: `tfjs-wasm ${tf.version.tfjs}`,
    async run(steps) {
      const t0 = performance.now();
      for (let i = 0; i < steps; i++) {
        const value = optimizer.minimize(loss, true);
        value.dataSync();
        value.dispose();
      }
      return (performance.now() - t0) / steps;
    },
    close() {},
  };
}

// ------------------------------------------------------------------------ interleaved timing
async function timeSteps(impls) {
  const perRound = impls.map(() => []);
  for (const it of impls) await it.run(5);  // warm-up: buffers, JIT tiers
  // Chunks of ~0.3 s each, sized from one timed chunk.
  const chunk = [];
  for (const it of impls) chunk.push(Math.max(3, Math.round(300 / await it.run(3))));
  for (let r = 0; r < ROUNDS; r++)
    for (let i = 0; i < impls.length; i++) perRound[i].push(await impls[i].run(chunk[i]));
  return impls.map((it, i) => ({
    impl: it.name, msPerStep: median(perRound[i]), bestMs: Math.min(...perRound[i]),
    ratioToOurs: median(perRound[i].map((ms, r) => ms / perRound[0][r])),
  }));
}

// ------------------------------------------------------------------------ time to induction
async function timeToInduction(seed, maxSteps = 4000) {
  const attn = await createAttention({ simd: true });
  const model = attn.transformer({ ...MODEL, seed });
  const probe = repeatedTokens({ vocabSize: MODEL.vocabSize, seqLength: MODEL.contextLength, batchSize: 16, seed: 12345, repeatLengths: [PROBE_REPEAT] });
  const t0 = performance.now();
  let trainMs = 0;
  try {
    for (let step = 1; step <= maxSteps; step++) {
      const b = repeatedTokens({ vocabSize: MODEL.vocabSize, seqLength: MODEL.contextLength, batchSize: B, seed: seed * 100003 + step, repeatLengths: TRAIN_REPEATS });
      const s0 = performance.now();
      model.trainStep(b.tokens, b.targets, { learningRate: LR });
      trainMs += performance.now() - s0;
      if (step % 25) continue;
      const scores = attn.headScores(probe.tokens, model.forward(probe.tokens).attentions[1]).induction;
      const best = Math.max(...scores);
      if (best >= 0.5) return { seed, step, seconds: (performance.now() - t0) / 1000, trainSeconds: trainMs / 1000, score: best };
    }
    return { seed, step: null, seconds: (performance.now() - t0) / 1000, trainSeconds: trainMs / 1000, score: null };
  } finally {
    model.dispose();
  }
}

const impls = [await ours(true), await ours(false)];
if (WITH_PEERS) {
  const torch = await pytorch();
  if (torch) impls.push(torch); else console.log('bench: /usr/bin/python3 has no torch; PyTorch skipped');
  impls.push(await tfjs());
}
console.log(`training step, ${JSON.stringify(MODEL)}, batch ${B}: ${ROUNDS} interleaved rounds`);
const rows = await timeSteps(impls);
for (const it of impls) it.close();
for (const r of rows)
  console.log(`  ${r.impl.padEnd(28)} ${r.msPerStep.toFixed(2).padStart(8)} ms/step (best ${r.bestMs.toFixed(2)})  ${r.ratioToOurs.toFixed(2)}× ours`);

const induction = [];
for (const seed of [1, 2, 3]) {
  induction.push(await timeToInduction(seed));
  const r = induction.at(-1);
  console.log(`  induction head, seed ${seed}: ` + (r.step ? `step ${r.step}, ${r.seconds.toFixed(1)} s (training ${r.trainSeconds.toFixed(1)} s), score ${r.score.toFixed(2)}` : `none in ${r.seconds.toFixed(1)} s`));
}

const targets = [];
const find = (prefix) => rows.find((r) => r.impl.startsWith(prefix));
if (find('PyTorch')) targets.push({ target: '≥ 2× PyTorch steps/s', value: find('PyTorch').ratioToOurs, met: find('PyTorch').ratioToOurs >= 2 });
if (find('tfjs')) targets.push({ target: '≥ 3× TensorFlow.js steps/s', value: find('tfjs').ratioToOurs, met: find('tfjs').ratioToOurs >= 3 });
for (const t of targets) console.log(`  ${t.met ? 'met' : 'MISSED'}: ${t.target} — ${t.value.toFixed(2)}×`);

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const md = [`Training step (${cpu}, one thread, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}):`, '',
  '| implementation | ms/step (median) | best | time / ours |', '| --- | ---: | ---: | ---: |',
  ...rows.map((r) => `| ${r.impl} | ${r.msPerStep.toFixed(2)} | ${r.bestMs.toFixed(2)} | ${r.ratioToOurs.toFixed(2)}× |`), '',
  'Time to an induction head (ours, SIMD, Node; a layer-1 head scoring ≥ 0.5 on repeat length 8, never trained on):', '',
  ...induction.map((r) => `- seed ${r.seed}: ${r.step ? `step ${r.step}, ${r.seconds.toFixed(1)} s` : `none in ${r.seconds.toFixed(1)} s`}`)];
await mkdir('bench-results', { recursive: true });
await writeFile('bench-results/transformer.md', md.join('\n') + '\n');
await writeFile('bench-results/transformer.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, cpu,
  model: MODEL, batch: B, rows, induction, targets }, null, 2));
console.log('wrote bench-results/transformer.json and transformer.md');
