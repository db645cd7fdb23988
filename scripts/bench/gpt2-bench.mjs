// `npm run bench:gpt2`: GPT-2 small (124 M parameters, random weights with GPT-2's initialization)
// in one Node process on one thread: the forward of a 64-token prompt (last logits only) and
// decoding with the key/value cache, tokens per second, ours (`model.forward(tokens, { logits:
// 'last' })`, `model.decoder()` / `dec.append`) against onnxruntime-web (wasm, 1 thread) running
// the same weights as an ONNX graph built here (gpt2-onnx.mjs). Both sides must give the same
// logits first. Times are CPU time, ratios paired round by round. Decoding is also set against the
// memory-bandwidth limit: the bytes of parameters (and cache) one token reads, over the copy
// bandwidth measured in the same run. Writes bench-results/gpt2.{json,md}.
// Environment: BENCH_ROUNDS (default 7), BENCH_DECODE (tokens per decode sample, default 8).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAttention } from '../../web/lib/attention.js';
import { gpt2Session } from './gpt2-onnx.mjs';
import { cpuDescription } from './machine.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const DECODE = Number(process.env.BENCH_DECODE ?? 8);
const PROMPT = 64;
const CONFIG = {
  vocabSize: 50257,
  contextLength: 1024,
  dModel: 768,
  numLayers: 12,
  numHeads: 12,
  mlp: true,
  layerNorm: true,
  positions: 'learned',
  tieEmbeddings: true,
  init: 'gpt2',
  seed: 1,
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function ensurePeers() {
  if (existsSync(path.join(here, 'node_modules/onnxruntime-web/package.json'))) return;
  console.log('bench: installing the peer libraries (scripts/bench/package.json), once');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: here, stdio: 'inherit' });
}

function maxAbsDiff(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

// Copy bandwidth: bytes moved per second (read and written, as STREAM's Copy counts them) by a
// 256 MiB typed-array copy (a native memmove), best of 5.
function copyBandwidth() {
  const n = 64 << 20;
  const src = new Float32Array(n).fill(1),
    dst = new Float32Array(n);
  dst.set(src);
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    dst.set(src);
    best = Math.min(best, performance.now() - t0);
  }
  return (2 * 4 * n) / (best / 1000);
}

const prompt = Int32Array.from({ length: PROMPT + DECODE }, (_, i) => (i * 7919 + 13) % CONFIG.vocabSize);

// Ours: the prompt's forward, and DECODE single-token appends after the prompt.
function oursRunners(model) {
  const forward = () => model.forward(prompt.subarray(0, PROMPT), { logits: 'last' }).logits.data;
  const decode = () => {
    const dec = model.decoder({ maxLength: PROMPT + DECODE });
    dec.append(prompt.subarray(0, PROMPT), { needWeights: false });
    const t0 = cpuNow();
    let logits;
    for (let i = PROMPT; i < PROMPT + DECODE; i++)
      logits = dec.append(prompt.subarray(i, i + 1), { needWeights: false }).logits.data;
    const ms = cpuNow() - t0;
    dec.dispose();
    return { ms, logits };
  };
  return { forward, decode };
}

function ortRunners(ort) {
  const forward = async () => (await ort.run(Array.from(prompt.subarray(0, PROMPT)), 0, null)).logits;
  const decode = async () => {
    let { past } = await ort.run(Array.from(prompt.subarray(0, PROMPT)), 0, null);
    const t0 = cpuNow();
    let logits;
    for (let i = PROMPT; i < PROMPT + DECODE; i++) ({ logits, past } = await ort.run([prompt[i]], i, past));
    return { ms: cpuNow() - t0, logits };
  };
  return { forward, decode };
}

async function cpuMs(fn) {
  const t0 = cpuNow();
  await fn();
  return cpuNow() - t0;
}

// Rounds of: ours, then onnxruntime-web; forward and decode each.
async function timeBoth(ours, peer) {
  const t = { forward: [[], []], decode: [[], []], fRatio: [], dRatio: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const fo = await cpuMs(ours.forward),
      fp = await cpuMs(peer.forward);
    const dOurs = ours.decode().ms / DECODE,
      dPeer = (await peer.decode()).ms / DECODE;
    (t.forward[0].push(fo), t.forward[1].push(fp), t.fRatio.push(fp / fo));
    (t.decode[0].push(dOurs), t.decode[1].push(dPeer), t.dRatio.push(dPeer / dOurs));
  }
  return t;
}

const attn = await createAttention({ simd: true });
let t0 = performance.now();
const model = attn.transformer(CONFIG);
console.log(
  `GPT-2 small: ${model.parameterCount()} parameters, created in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
ensurePeers();
const ortModule = require('onnxruntime-web');
ortModule.env.wasm.numThreads = 1;
ortModule.env.wasm.simd = true;
ortModule.env.logLevel = 'error';
t0 = performance.now();
const session = await gpt2Session(ortModule, CONFIG, model.getState());
console.log(
  `onnxruntime-web ${ortModule.env.versions?.web ?? ''}: session of ${(session.modelBytes / 2 ** 20).toFixed(0)} MiB made in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
const ours = oursRunners(model),
  peer = ortRunners(session);

// The same logits on both sides before anything is timed.
const parityForward = maxAbsDiff(ours.forward(), await peer.forward());
const parityDecode = maxAbsDiff(ours.decode().logits, (await peer.decode()).logits);
console.log(
  `max |Δ| of the last logits, ours vs onnxruntime-web: forward ${parityForward.toExponential(1)}, after ${DECODE} decoded tokens ${parityDecode.toExponential(1)}`,
);
if (!(parityForward < 1e-2 && parityDecode < 1e-2)) throw new Error('onnxruntime-web and ours disagree on the logits');

const bandwidth = copyBandwidth();
const t = await timeBoth(ours, peer);
const params = model.parameterCount();
const E = CONFIG.dModel,
  L = CONFIG.numLayers;
// Every weight is read once per token except wpe, of which one row is: the layers, ln_f and wte
// (the unembedding), plus the cache: keys and values of each layer at the mean length decoded at.
const cacheBytes = 2 * L * E * 4 * (PROMPT + DECODE / 2);
const bytesPerToken = 4 * (params - CONFIG.contextLength * E + E) + cacheBytes;
const limitMs = (bytesPerToken / bandwidth) * 1000;
const res = {
  forward: { oursMs: median(t.forward[0]), ortMs: median(t.forward[1]), ratio: median(t.fRatio) },
  decode: { oursMs: median(t.decode[0]), ortMs: median(t.decode[1]), ratio: median(t.dRatio) },
};
const cpu = cpuDescription();
const md = [
  `GPT-2 small (124 M parameters, random GPT-2-initialized weights, vocabulary 50257), one thread, CPU time, median of ${ROUNDS} rounds ` +
    `(${cpu}, Node ${process.version}, onnxruntime-web ${ortModule.env.versions?.web ?? '?'}):`,
  '',
  '| case | ours | onnxruntime-web | onnxruntime-web / ours (paired) |',
  '| --- | ---: | ---: | ---: |',
  `| forward, ${PROMPT} tokens, last logits | ${res.forward.oursMs.toFixed(1)} ms (${((PROMPT / res.forward.oursMs) * 1000).toFixed(0)} tokens/s) | ` +
    `${res.forward.ortMs.toFixed(1)} ms | ${res.forward.ratio.toFixed(2)}× |`,
  `| decode after ${PROMPT} tokens, per token | ${res.decode.oursMs.toFixed(1)} ms (${(1000 / res.decode.oursMs).toFixed(1)} tokens/s) | ` +
    `${res.decode.ortMs.toFixed(1)} ms (${(1000 / res.decode.ortMs).toFixed(1)} tokens/s) | ${res.decode.ratio.toFixed(2)}× |`,
  '',
  `Memory-bandwidth limit of a decoded token: ${(bytesPerToken / 2 ** 20).toFixed(0)} MiB read (parameters and cache) ÷ ` +
    `${(bandwidth / 1e9).toFixed(1)} GB/s (copy bandwidth, bytes read + written, a 256 MiB copy in this run) = ${limitMs.toFixed(1)} ms; ours takes ` +
    `${(res.decode.oursMs / limitMs).toFixed(2)}× that.`,
];
const targets = [
  { target: 'forward ≥ 1.3× onnxruntime-web', value: res.forward.ratio, met: res.forward.ratio >= 1.3 },
  { target: 'decode ≥ 1.3× onnxruntime-web', value: res.decode.ratio, met: res.decode.ratio >= 1.3 },
  {
    target: 'decode within 2× of the memory-bandwidth limit',
    value: res.decode.oursMs / limitMs,
    met: res.decode.oursMs <= 2 * limitMs,
  },
];
md.push('', ...targets.map((x) => `- ${x.met ? 'met' : '**missed**'}: ${x.target} (${x.value.toFixed(2)})`));
console.log(md.join('\n'));
await mkdir('bench-results', { recursive: true });
await writeFile('bench-results/gpt2.md', md.join('\n') + '\n');
await writeFile(
  'bench-results/gpt2.json',
  JSON.stringify(
    {
      date: new Date().toISOString(),
      cpu,
      node: process.version,
      onnxruntimeWeb: ortModule.env.versions?.web,
      rounds: ROUNDS,
      decodeTokens: DECODE,
      prompt: PROMPT,
      parityForward,
      parityDecode,
      bandwidthBytesPerSecond: bandwidth,
      bytesPerToken,
      limitMs,
      ...res,
      samples: t,
      targets,
    },
    null,
    2,
  ),
);
