// The JavaScript the bundled page (dist/) loads before its first heatmap, without a browser: the
// app entry's chunk and every chunk it imports statically (what index.html lists as
// modulepreload), from esbuild's metafile, and the WebAssembly build it loads. Issue 29's budget is
// 150 KB gzipped of JS + WASM on that path; this counts both, with the source files that weigh most
// in the JS, so a change to what loads later shows its effect in bytes. (npm run bench:load
// measures the same path in Chromium.)
//
//   node scripts/bundle.mjs && node scripts/bench/first-load-bytes.mjs [--entry app|embed|element] [--top 20]
//
// "gzip" is each file compressed by zlib at level 9; the sizes by source file are esbuild's
// minified bytes of that file in the output (before compression, which works on whole files).
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST, ROOT, WEB } from '../bundle-paths.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const ENTRIES = { app: 'app.js', embed: 'embed.js', element: 'attention-explorer.js' };
const entry = option('entry', 'app');
const top = Number(option('top', 20));
if (!ENTRIES[entry]) throw new Error(`--entry: one of ${Object.keys(ENTRIES).join(', ')}`);

const meta = JSON.parse(
  await readFile(join(ROOT, 'build', 'bundle-meta.json'), 'utf8').catch(() => {
    throw new Error('build/bundle-meta.json is missing: run "node scripts/bundle.mjs" first');
  }),
);
const { outputs } = meta;
const start = Object.keys(outputs).find(
  (f) => outputs[f].entryPoint && resolve(ROOT, outputs[f].entryPoint) === join(WEB, ENTRIES[entry]),
);
const files = [start];
for (const f of files)
  for (const imp of outputs[f].imports)
    if (imp.kind === 'import-statement' && !imp.external && !files.includes(imp.path)) files.push(imp.path);

// The metafile names the folder the build wrote into (dist.new/, swapped in afterwards).
const onDisk = (f) => join(DIST, 'assets', f.split('/').pop());
// kB of 1000 bytes, as issue 29 counts its budget.
const kb = (bytes) => (bytes / 1000).toFixed(1);
const rows = [];
for (const f of files) {
  const body = await readFile(onDisk(f));
  rows.push({ file: `assets/${f.split('/').pop()}`, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
}
rows.sort((a, b) => b.raw - a.raw);
const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip }), { raw: 0, gzip: 0 });

const inputs = new Map();
for (const f of files)
  for (const [input, { bytesInOutput }] of Object.entries(outputs[f].inputs))
    inputs.set(input, (inputs.get(input) ?? 0) + bytesInOutput);
const biggest = [...inputs].sort((a, b) => b[1] - a[1]).slice(0, top);

console.log(`First heatmap of ${ENTRIES[entry]} in dist/: ${rows.length} JS files`);
console.log(`${'raw kB'.padStart(8)} ${'gzip kB'.padStart(8)}  file`);
for (const r of rows) console.log(`${kb(r.raw).padStart(8)} ${kb(r.gzip).padStart(8)}  ${r.file}`);
console.log(`${kb(total.raw).padStart(8)} ${kb(total.gzip).padStart(8)}  JavaScript`);
// The WebAssembly the page loads before its first heatmap: the base build (bundle.mjs's
// firstBuildPlugin) and its loader, as dist/ has them (the SIMD variant, which current browsers use).
for (const name of ['attention-simd-base.mjs', 'attention-simd-base.wasm']) {
  const body = await readFile(join(DIST, 'lib', 'wasm', name));
  const gzip = gzipSync(body, { level: 9 }).length;
  console.log(`${kb(body.length).padStart(8)} ${kb(gzip).padStart(8)}  lib/wasm/${name}`);
  total.raw += body.length;
  total.gzip += gzip;
}
console.log(`${kb(total.raw).padStart(8)} ${kb(total.gzip).padStart(8)}  total (issue 29's budget: 150 kB gzipped)`);
console.log(`\nBiggest source files on that path (minified kB in the output), ${biggest.length} of ${inputs.size}:`);
for (const [input, bytes] of biggest)
  console.log(`${kb(bytes).padStart(8)}  ${relative(ROOT, resolve(ROOT, input)) || input}`);
