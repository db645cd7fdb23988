// The production site: web/ bundled by esbuild into dist/, what `npm start` serves and a teacher
// hosts. web/ stays the source and runs unbundled for development (npm run start:dev).
//
//   node scripts/bundle.mjs            dist/ (skipped when nothing under web/ changed)
//   node scripts/bundle.mjs --force    dist/ even so
//   node scripts/bundle.mjs --single   dist-single/attention-explorer.html (scripts/bundle-single.mjs)
//
// dist/ keeps web/'s layout for everything that is not a module: index.html, embed.html,
// styles.css, favicon.svg, trained/, examples/, lib/wasm/ (the loaders and the .wasm files),
// ui/training/training.css, and the two Workers, lib/trainer-worker.js and
// ui/lessons/sampler-worker.js (each one self-contained file). The pages' modules become minified
// chunks in dist/assets/, split by entry and by dynamic import (the training view, each lesson,
// the checkpoint code load when they are opened); attention-explorer.js at the top is a small
// module that re-exports the element's chunk, so hosts keep one stable URL.
//
// The modules find their files with new URL('…', import.meta.url). In a chunk, import.meta.url is
// the chunk's URL, not the source module's, so every import.meta.url in web/ is rewritten to the
// URL the source module would have in dist/ (a file in web/'s layout): the relative paths beside
// it then name the same files as in web/.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { cp, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { DIST, ROOT, TARGET, WEB } from './bundle-paths.mjs';

export { DIST, ROOT, WEB };

const PAGES = { app: 'app.js', embed: 'embed.js', element: 'attention-explorer.js' };
const WORKERS = ['lib/trainer-worker.js', 'ui/lessons/sampler-worker.js'];
// Copied as they are, in web/'s layout.
// lib/ is the JS API unbundled, as the npm package has it (a lesson page's own script may import
// lib/attention.js from the hosted site), with the WebAssembly builds in lib/wasm/.
const STATIC = [
  'loading.js', 'styles.css', 'favicon.svg', 'trained', 'examples', 'ui/training/training.css', 'embed-protocol.js', 'lib',
];
const WASM_FILES = ['attention-simd.mjs', 'attention-simd.wasm', 'attention-scalar.mjs', 'attention-scalar.wasm'];

const toUrlPath = (path) => path.split(sep).join('/');

/**
 * esbuild plugin: import.meta.url in a module of web/ becomes the URL that module would have in
 * the output's web/-shaped tree, given that its code lands in `outDir` (relative to web/).
 */
export function moduleUrlPlugin(outDir) {
  return {
    name: 'module-url',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        if (!path.startsWith(WEB + sep) || !source.includes('import.meta.url')) return undefined;
        let rel = toUrlPath(relative(join(WEB, outDir), path));
        if (!rel.startsWith('.')) rel = `./${rel}`;
        return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'js' };
      });
    },
  };
}

// The transformer (with the checkpoint reader and writer, the decoder and the safetensors code) is
// a third of the API's code, and the pages never build one on their main thread: the training
// view trains in a Worker, whose bundle has the real module. So in the pages' bundle attention.js
// imports this stand-in instead, and the real module is a chunk of its own, fetched when the page
// is idle after it has loaded (or at the first asynchronous call). attn.loadTransformer() waits
// for it; the synchronous attn.transformer() and attn.transformerFromSafetensors() work once it is
// there and before that throw an Error that says so. (Code that imports lib/attention.js itself,
// as the npm package and dist/lib/ ship it, is not bundled here and has the whole API at once.)
const TRANSFORMER = join(WEB, 'lib', 'transformer.js');
const LAZY_TRANSFORMER = `
let real = null;
let loading = null;
export function loadTransformerModule() {
  loading ??= import(${JSON.stringify(TRANSFORMER)}).then((m) => { real = m; return m; });
  return loading;
}
function loaded(call) {
  if (real) return real;
  loadTransformerModule().catch(() => {});
  throw new Error(call + ': the transformer code of this page is still loading (it is fetched once the page has loaded); try again in a moment, or await attn.loadTransformer()');
}
export class Transformer {
  constructor(...args) { return new (loaded('attn.transformer()').Transformer)(...args); }
}
export function transformerFromSafetensors(...args) { return loaded('attn.transformerFromSafetensors()').transformerFromSafetensors(...args); }
export async function loadTransformer(...args) { return (await loadTransformerModule()).loadTransformer(...args); }
if (typeof window === 'object') {
  window.addEventListener('load', () => {
    const idle = window.requestIdleCallback ?? ((fn) => setTimeout(fn, 500));
    idle(() => { loadTransformerModule().catch(() => {}); }, { timeout: 3000 });
  }, { once: true });
}
`;

function lazyTransformerPlugin() {
  return {
    name: 'lazy-transformer',
    setup(build) {
      build.onResolve({ filter: /^\.\/transformer\.js$/ }, ({ importer }) =>
        (importer === join(WEB, 'lib', 'attention.js') ? { path: 'lazy-transformer', namespace: 'lazy-transformer' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'lazy-transformer' }, () => ({ contents: LAZY_TRANSFORMER, loader: 'js', resolveDir: join(WEB, 'lib') }));
    },
  };
}

// Every file of web/ and the bundler's own scripts, by path, size and mtime: the stamp of a build.
async function inputStamp() {
  const hash = createHash('sha256');
  const walk = async (dir) => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else {
        const info = await stat(path);
        hash.update(`${relative(ROOT, path)}\0${info.size}\0${info.mtimeMs}\n`);
      }
    }
  };
  await walk(WEB);
  for (const name of ['scripts/bundle.mjs', 'scripts/bundle-paths.mjs', 'package-lock.json']) {
    const info = await stat(join(ROOT, name)).catch(() => null);
    hash.update(`${name}\0${info?.size}\0${info?.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const common = {
  bundle: true, format: 'esm', platform: 'browser', target: TARGET, minify: true,
  legalComments: 'none', external: ['node:*'], logLevel: 'warning', write: true,
};

async function buildWorkers(out) {
  await Promise.all(WORKERS.map((file) => esbuild.build({
    ...common, entryPoints: [join(WEB, file)], outfile: join(out, file), plugins: [moduleUrlPlugin(dirname(file))],
  })));
}

async function buildPages(out) {
  const result = await esbuild.build({
    ...common,
    entryPoints: Object.fromEntries(Object.entries(PAGES).map(([name, file]) => [name, join(WEB, file)])),
    outdir: join(out, 'assets'), splitting: true, entryNames: '[name]-[hash]', chunkNames: 'chunk-[hash]',
    metafile: true, plugins: [moduleUrlPlugin('assets'), lazyTransformerPlugin()],
  });
  // What went where, for a look at the chunks (npx esbuild --analyze does not read it; see the
  // esbuild docs' "metafile" for tools that do).
  await mkdir(join(ROOT, 'build'), { recursive: true });
  await writeFile(join(ROOT, 'build', 'bundle-meta.json'), JSON.stringify(result.metafile));
  // Entry name → its output file and every chunk it imports statically (what it needs at once).
  const outputs = result.metafile.outputs;
  const pages = {};
  for (const [file, info] of Object.entries(outputs)) {
    const name = Object.keys(PAGES).find((key) => info.entryPoint && resolve(ROOT, info.entryPoint) === join(WEB, PAGES[key]));
    if (!name) continue;
    const statics = new Set();
    const visit = (f) => {
      for (const imp of outputs[f].imports) {
        if (imp.kind !== 'import-statement' || imp.external || statics.has(imp.path)) continue;
        statics.add(imp.path);
        visit(imp.path);
      }
    };
    visit(file);
    const url = (f) => toUrlPath(relative(out, resolve(ROOT, f)));
    pages[name] = { file: url(file), chunks: [...statics].map(url) };
  }
  return pages;
}

// The page's HTML with its module script pointed at the bundle, and the chunks it needs at once
// announced in <head> (modulepreload), so the browser fetches them all in parallel instead of one
// import after another. (loading.js preloads the WebAssembly loader and binary, where the view
// needs them.)
async function writePage(out, htmlName, sourceScript, page) {
  let html = await readFile(join(WEB, htmlName), 'utf8');
  const tag = `<script type="module" src="${sourceScript}"></script>`;
  if (!html.includes(tag)) throw new Error(`${htmlName}: no ${tag} to replace`);
  const hints = [
    `<script type="module" src="${page.file}"></script>`,
    ...page.chunks.map((c) => `<link rel="modulepreload" href="${c}">`),
  ];
  html = html.replace(tag, hints.join('\n  '));
  await writeFile(join(out, htmlName), html);
}

/** Builds dist/ (into a fresh folder, then swapped in, so a server never sees half a site). */
export async function bundleSite({ force = false, out = DIST } = {}) {
  const stamp = await inputStamp();
  const stampFile = join(out, '.build-stamp');
  if (!force && (await readFile(stampFile, 'utf8').catch(() => '')) === stamp) return { skipped: true };
  const started = performance.now();
  const fresh = `${out}.new`;
  await rm(fresh, { recursive: true, force: true });
  await mkdir(fresh, { recursive: true });
  for (const file of [...STATIC, ...WASM_FILES.map((name) => `lib/wasm/${name}`)]) {
    const from = join(WEB, file);
    if (!(await stat(from).catch(() => null))) throw new Error(`${relative(ROOT, from)} is missing: run "npm run build" (scripts/build.sh) first`);
    await cp(from, join(fresh, file), { recursive: true });
  }
  // Emscripten's loaders, minified (a quarter smaller gzipped than as emcc writes them).
  for (const name of WASM_FILES.filter((f) => f.endsWith('.mjs'))) {
    const file = join(fresh, 'lib', 'wasm', name);
    const { code } = await esbuild.transform(await readFile(file, 'utf8'), { minify: true, format: 'esm', target: TARGET, legalComments: 'none' });
    await writeFile(file, code);
  }
  const [pages] = await Promise.all([buildPages(fresh), buildWorkers(fresh)]);
  await writePage(fresh, 'index.html', 'app.js', pages.app);
  await writePage(fresh, 'embed.html', 'embed.js', pages.embed);
  await writeFile(join(fresh, 'attention-explorer.js'),
    `// The <attention-explorer> element (web/attention-explorer.js, bundled): a stable name for hosts.\n${
      [pages.element.file, ...pages.element.chunks].map((f, i) => (i ? `import './${f}';` : `export * from './${f}';`)).join('\n')}\n`);
  await writeFile(join(fresh, '.build-stamp'), stamp);
  const old = `${out}.old`;
  await rm(old, { recursive: true, force: true });
  await rename(out, old).catch((err) => { if (err.code !== 'ENOENT') throw err; });
  await rename(fresh, out);
  await rm(old, { recursive: true, force: true });
  return { skipped: false, ms: performance.now() - started, pages };
}

// One build at a time across processes (test files run in parallel, each making sure dist/ is
// fresh): a lock folder, taken over when its holder left it behind for more than a minute.
async function withLock(fn) {
  const lock = `${DIST}.lock`;
  for (let waited = 0; ; waited += 50) {
    try {
      await mkdir(lock);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const info = await stat(lock).catch(() => null);
      if (info && Date.now() - info.mtimeMs > 60_000) await rm(lock, { recursive: true, force: true });
      await new Promise((resolve) => { setTimeout(resolve, 50); });
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** dist/ as web/ now is: built when anything changed (well under a second), else left alone. */
export const ensureSite = (options) => withLock(() => bundleSite(options));

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes('--single')) {
    const { bundleSingle } = await import('./bundle-single.mjs');
    const { file, bytes } = await bundleSingle();
    console.log(`bundle: ${relative(ROOT, file)} (${(bytes / 1024).toFixed(0)} KiB, one self-contained file)`);
  } else {
    const r = await ensureSite({ force: args.includes('--force') });
    if (r.skipped) console.log('bundle: dist/ is up to date');
    else console.log(`bundle: dist/ in ${r.ms.toFixed(0)} ms`);
  }
}
