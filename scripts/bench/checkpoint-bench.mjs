// Opening and saving a GPT-2-small checkpoint (124 M parameters; 548 MB in F32 with the mask
// buffers, 274 MB in F16/BF16), written to a temporary file by the tests' generator and deleted
// afterwards. Each measurement runs in a fresh Node process, so its peak resident memory
// (process.resourceUsage().maxRSS) is its own:
//   bytes  transformerFromSafetensors(readFileSync(file))        (time excludes reading the file)
//   blob   await loadTransformer(fs.openAsBlob(file))             (the file never wholly in JS memory)
//   url    await loadTransformer('http://127.0.0.1:…/model.safetensors') from a local server
//   save   toSafetensors() of the opened model;  save-async  await toSafetensorsAsync() → Blob
// Usage: node scripts/bench/checkpoint-bench.mjs [--dtypes F32,F16,BF16] [--runs 3]
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const CONFIG = { vocabSize: 50257, contextLength: 1024, dModel: 768, numLayers: 12, numHeads: 12 };
const MB = 2 ** 20;
const rssMB = () => process.memoryUsage().rss / MB;

async function open(attn, mode, path) {
  if (mode === 'bytes') {
    const bytes = readFileSync(path);
    const t = performance.now();
    return { model: attn.transformerFromSafetensors(bytes, CONFIG), ms: performance.now() - t };
  }
  if (mode === 'blob') {
    const t = performance.now();
    return { model: await attn.loadTransformer(await openAsBlob(path), CONFIG), ms: performance.now() - t };
  }
  const server = createServer((req, res) => createReadStream(path).pipe(res));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const t = performance.now();
    const model = await attn.loadTransformer(`http://127.0.0.1:${server.address().port}/model.safetensors`, CONFIG);
    return { model, ms: performance.now() - t };
  } finally {
    server.close();
  }
}

// One measurement in this (child) process; prints one JSON line.
async function child(mode, path) {
  const { createAttention } = await import('../../web/lib/attention.js');
  const attn = await createAttention();
  const baseline = rssMB();
  const opened = await open(attn, mode.startsWith('save') ? 'blob' : mode, path);
  let ms = opened.ms;
  if (mode === 'save') {
    const t = performance.now();
    const bytes = opened.model.toSafetensors();
    ms = performance.now() - t;
    if (bytes.length < 1) throw new Error('empty');
  } else if (mode === 'save-async') {
    const t = performance.now();
    const blob = await opened.model.toSafetensorsAsync();
    ms = performance.now() - t;
    if (blob.size < 1) throw new Error('empty');
  }
  const peak = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ ms, peak, baseline }));
}

async function generate(dtype, path) {
  const { writeGpt2Checkpoint } = await import('../../tests/js/support/gpt2-checkpoint.mjs');
  return writeGpt2Checkpoint(path, CONFIG, { dtype }).size;
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(args) {
  const get = (flag, fallback) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : fallback);
  const dtypes = get('--dtypes', 'F32,F16,BF16').split(',');
  const runs = Number(get('--runs', 3));
  console.log(`CPU: ${cpus()[0].model} (${cpus().length} cores), Node ${process.version}`);
  console.log(
    'GPT-2 small (124 M parameters), median of',
    runs,
    'runs, each in a fresh process; peak = maxRSS of that process',
  );
  console.log(
    `${'dtype'.padEnd(6)}${'what'.padEnd(12)}${'time'.padStart(10)}${'peak RSS'.padStart(12)}${'before'.padStart(10)}`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'attn-bench-'));
  try {
    for (const dtype of dtypes) {
      const path = join(dir, `${dtype}.safetensors`);
      const size = await generate(dtype, path);
      console.log(`${dtype}: ${(size / MB).toFixed(0)} MiB file`);
      for (const mode of ['bytes', 'blob', 'url', ...(dtype === 'F32' ? ['save', 'save-async'] : [])]) {
        const results = [];
        for (let r = 0; r < runs; r++)
          results.push(
            JSON.parse(
              execFileSync(process.execPath, [SELF, '--child', mode, path], { encoding: 'utf8' })
                .trim()
                .split('\n')
                .pop(),
            ),
          );
        const ms = median(results.map((x) => x.ms));
        const peak = median(results.map((x) => x.peak));
        const base = median(results.map((x) => x.baseline));
        console.log(
          `${dtype.padEnd(6)}${mode.padEnd(12)}${`${ms.toFixed(0)} ms`.padStart(10)}${`${peak.toFixed(0)} MiB`.padStart(12)}${`${base.toFixed(0)} MiB`.padStart(10)}`,
        );
      }
      rmSync(path);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') await child(args[1], args[2]);
else await main(args);
