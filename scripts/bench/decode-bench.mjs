// `npm run bench:decode`: time per new token with the key/value cache (model.decoder, one append
// of one token at length L) against recomputing the whole prefix (model.forward of L tokens, what
// a model without a cache does for every token), at several lengths, on the SIMD build in one
// thread. The model: RoPE, 8 query heads over 2 key/value heads (GQA), d_model 256, 4 layers with
// MLP and LayerNorm, vocabulary 512; and the same with a sliding window of 256. Each length checks
// first that the cached logits equal the full forward's. Writes bench-results/decode.{json,md}.
// Environment: BENCH_TOKENS (timed tokens per length, default 24), BENCH_LENGTHS (e.g. "64,512").
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { createAttention } from '../../web/lib/attention.js';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 24);
const LENGTHS = (process.env.BENCH_LENGTHS ?? '64,256,1024,2048').split(',').map(Number);
const MODEL = {
  vocabSize: 512,
  contextLength: 4096,
  dModel: 256,
  numLayers: 4,
  numHeads: 8,
  numKVHeads: 2,
  positions: 'rope',
  seed: 1,
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const sequence = (T) => Int32Array.from({ length: T }, (_, i) => (i * 7919 + (i >> 3)) % MODEL.vocabSize);

// The cached logits of the token at position L − 1 against the full forward's: the benchmark only
// times what is right.
function checkParity(model, tokens) {
  const decoder = model.decoder({ maxLength: tokens.length });
  decoder.append(tokens.subarray(0, tokens.length - 1), { needWeights: false });
  const cached = decoder.append(tokens.subarray(tokens.length - 1), { needWeights: false }).logits.data;
  decoder.dispose();
  const full = model
    .forward(tokens, { needWeights: false })
    .logits.data.subarray((tokens.length - 1) * MODEL.vocabSize);
  let worst = 0;
  for (let i = 0; i < cached.length; i++) worst = Math.max(worst, Math.abs(cached[i] - full[i]));
  if (!(worst < 1e-3))
    throw new Error(`cached logits differ from the forward's by ${worst} at length ${tokens.length}`);
  return worst;
}

// Milliseconds per token: TOKENS single-token appends after a prefix of L − 1 tokens.
function cachedPerToken(model, L) {
  const tokens = sequence(L + TOKENS);
  const decoder = model.decoder({ maxLength: L + TOKENS });
  decoder.append(tokens.subarray(0, L - 1), { needWeights: false });
  const times = [];
  for (let i = L - 1; i < L - 1 + TOKENS; i++) {
    const t0 = performance.now();
    decoder.append(tokens.subarray(i, i + 1), { needWeights: false });
    times.push(performance.now() - t0);
  }
  const bytes = decoder.cacheBytes;
  decoder.dispose();
  return { ms: median(times), cacheBytes: bytes };
}

// Milliseconds for the next token without a cache: a forward of the whole prefix.
function recomputePerToken(model, L) {
  const tokens = sequence(L);
  const rounds = Math.max(3, Math.min(TOKENS, Math.round(4096 / L)));
  const times = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    model.forward(tokens, { needWeights: false });
    times.push(performance.now() - t0);
  }
  return median(times);
}

function benchModel(attn, config) {
  const model = attn.transformer(config);
  const rows = [];
  for (const L of LENGTHS) {
    const error = checkParity(model, sequence(Math.min(L, 512)));
    cachedPerToken(model, Math.min(L, 64)); // warm-up: the engine tiers the code up
    const cached = cachedPerToken(model, L);
    const recompute = recomputePerToken(model, L);
    rows.push({
      length: L,
      cachedMs: cached.ms,
      recomputeMs: recompute,
      speedup: recompute / cached.ms,
      cacheBytes: cached.cacheBytes,
      parityError: error,
    });
    console.log(
      `${config.attentionWindow ? `window ${config.attentionWindow}` : 'no window'}, L = ${L}: cached ${cached.ms.toFixed(2)} ms/token, recompute ${recompute.toFixed(1)} ms`,
    );
  }
  model.dispose();
  return rows;
}

const attn = await createAttention({ simd: true });
const configs = [MODEL, { ...MODEL, attentionWindow: 256 }];
const results = configs.map((config) => ({ config, rows: benchModel(attn, config) }));
const mib = (b) => `${(b / 2 ** 20).toFixed(1)} MiB`;
const md = [
  `Decoding one token at length L (${os.cpus()[0].model}, Node ${process.version}, SIMD build, one thread): RoPE, ` +
    `${MODEL.numHeads} query / ${MODEL.numKVHeads} key-value heads, d_model ${MODEL.dModel}, ${MODEL.numLayers} layers with MLP, ` +
    `vocabulary ${MODEL.vocabSize}; median of ${TOKENS} tokens with the cache, the full forward of L tokens without.`,
  '',
  '| model | L | with the cache (ms / token) | recomputing the prefix (ms) | speed-up | cache |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...results.flatMap(({ config, rows }) =>
    rows.map(
      (r) =>
        `| ${config.attentionWindow ? `window ${config.attentionWindow}` : 'no window'} | ${r.length} | ${r.cachedMs.toFixed(2)} | ${r.recomputeMs.toFixed(1)} | ${r.speedup.toFixed(0)}× | ${mib(r.cacheBytes)} |`,
    ),
  ),
];
console.log(md.join('\n'));
await mkdir('bench-results', { recursive: true });
await writeFile('bench-results/decode.md', md.join('\n') + '\n');
await writeFile(
  'bench-results/decode.json',
  JSON.stringify({ date: new Date().toISOString(), cpu: os.cpus()[0].model, results }, null, 2),
);
