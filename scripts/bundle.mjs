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
  'loading.js',
  'styles.css',
  'favicon.svg',
  'trained',
  'examples',
  'ui/training/training.css',
  'embed-protocol.js',
  'lib',
];
// Each variant as the whole module and as the base build the pages load first (see firstBuildPlugin).
const WASM_FILES = ['simd', 'scalar'].flatMap((variant) =>
  [`attention-${variant}`, `attention-${variant}-base`].flatMap((name) => [`${name}.mjs`, `${name}.wasm`]),
);

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
        return {
          contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`),
          loader: 'js',
        };
      });
    },
  };
}

// Parts of the JS API that the first heatmap does not need (web/lib/api-parts.js): in the pages'
// bundle, the modules that import them (attention.js, multi-head-attention.js, lessons.js) get a
// stand-in instead, and the real module is a chunk of its own. The stand-in registers the part with
// api-parts.js; apiReady(part) loads it, and the page's code awaits that before calling into it
// (the lessons await every part before they draw, the training view's import panel the head
// scores). Until then a synchronous call throws an Error that names the part and says to await
// apiReady (and starts the load, so a later call finds it); asynchronous calls (loadTransformer)
// wait for it. The transformer with the checkpoint reader and writer and the decoder is a third
// of the API's code; the training view trains in a Worker, whose bundle has the real modules.
// (Code that imports lib/attention.js itself, as the npm package and dist/lib/ ship it, is not
// bundled here and has the whole API at once.)
// Each part: its module in web/lib, the modules whose import of it gets the stand-in, and what
// they import from it: a class, a synchronous function (with the call users make, for the message)
// or an asynchronous one. esbuild refuses a name a stand-in does not export, so a new import of a
// part fails the build instead of being missed.
const DEFERRED_PARTS = [
  {
    part: 'transformer',
    file: 'transformer.js',
    importers: ['attention.js'],
    exports: {
      Transformer: ['class', 'attn.transformer()'],
      transformerFromSafetensors: ['sync', 'attn.transformerFromSafetensors()'],
      loadTransformer: ['async'],
    },
  },
  {
    part: 'gradients',
    file: 'gradients.js',
    importers: ['attention.js', 'multi-head-attention.js'],
    exports: {
      scaledDotProductAttentionGrad: ['sync', 'attn.scaledDotProductAttentionGrad()'],
      multiHeadBackward: ['sync', 'backward() of a multi-head layer'],
    },
  },
  {
    part: 'head-scores',
    file: 'head-scores.js',
    importers: ['attention.js'],
    exports: {
      headScores: ['sync', 'attn.headScores()'],
      lossByPosition: ['sync', 'attn.lossByPosition()'],
    },
  },
  {
    part: 'flash-lesson',
    file: 'flash-lesson.js',
    importers: ['lessons.js'],
    exports: {
      flashAttention: ['sync', 'attn.lessons.flashAttention()'],
    },
  },
];

function standIn({ part, file, exports }) {
  const lines = [
    "import { registerDeferredPart, stillLoading } from './api-parts.js';",
    'let real = null;',
    'let loading = null;',
    'function load() {',
    `  if (!loading) {`,
    `    loading = import(${JSON.stringify(`./${file}`)}).then((m) => { real = m; return m; });`,
    '    loading.catch(() => { loading = null; });',
    '  }',
    '  return loading;',
    '}',
    `registerDeferredPart(${JSON.stringify(part)}, load);`,
    'function loaded(call) {',
    '  if (real) return real;',
    '  load().catch(() => {});',
    `  throw stillLoading(call, ${JSON.stringify(part)});`,
    '}',
  ];
  for (const [name, [kind, call]] of Object.entries(exports)) {
    if (kind === 'class')
      lines.push(
        `export class ${name} { constructor(...args) { return new (loaded(${JSON.stringify(call)}).${name})(...args); } }`,
      );
    else if (kind === 'sync')
      lines.push(`export function ${name}(...args) { return loaded(${JSON.stringify(call)}).${name}(...args); }`);
    else lines.push(`export async function ${name}(...args) { return (await load()).${name}(...args); }`);
  }
  return `${lines.join('\n')}\n`;
}

export function deferredPartsPlugin() {
  return {
    name: 'deferred-parts',
    setup(build) {
      for (const spec of DEFERRED_PARTS) {
        const importers = new Set(spec.importers.map((f) => join(WEB, 'lib', f)));
        const filter = new RegExp(`^\\./${spec.file.replace('.', '\\.')}$`);
        build.onResolve({ filter }, ({ importer }) =>
          importers.has(importer) ? { path: spec.part, namespace: 'deferred-part' } : undefined,
        );
      }
      build.onLoad({ filter: /.*/, namespace: 'deferred-part' }, ({ path }) => ({
        contents: standIn(DEFERRED_PARTS.find((p) => p.part === path)),
        loader: 'js',
        resolveDir: join(WEB, 'lib'),
      }));
    },
  };
}

// The pages' createAttention loads the base WebAssembly build (attention-<variant>-base: attention,
// layers, gradients and lesson experiments; 46 kB gzipped instead of 95), which is all the first
// heatmap needs; the parts that need the whole build load it beside (lib/api-parts.js). The
// Workers keep the whole build: they train and decode.
export function firstBuildPlugin() {
  const importer = join(WEB, 'lib', 'attention.js');
  return {
    name: 'first-build',
    setup(build) {
      build.onResolve({ filter: /^\.\/first-build\.js$/ }, (args) =>
        args.importer === importer ? { path: 'base', namespace: 'first-build' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'first-build' }, () => ({
        contents: "export const FIRST_BUILD = 'base';\n",
        loader: 'js',
      }));
    },
  };
}

// A deferred part in the code a page loads at once would defeat its stand-in: refused.
export function checkDeferred(outputs, page, files) {
  for (const f of files)
    for (const input of Object.keys(outputs[f].inputs))
      for (const { file } of DEFERRED_PARTS)
        if (resolve(ROOT, input) === join(WEB, 'lib', file))
          throw new Error(
            `bundle: lib/${file} is loaded at once by the ${page} page (${f}); it must stay deferred (DEFERRED_PARTS)`,
          );
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
  // The metafile's paths are relative to this folder, and the pages are found in it by path.
  absWorkingDir: ROOT,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: TARGET,
  minify: true,
  legalComments: 'none',
  external: ['node:*'],
  logLevel: 'warning',
  write: true,
};

async function buildWorkers(out) {
  await Promise.all(
    WORKERS.map((file) =>
      esbuild.build({
        ...common,
        entryPoints: [join(WEB, file)],
        outfile: join(out, file),
        plugins: [moduleUrlPlugin(dirname(file))],
      }),
    ),
  );
}

async function buildPages(out) {
  const result = await esbuild.build({
    ...common,
    entryPoints: Object.fromEntries(Object.entries(PAGES).map(([name, file]) => [name, join(WEB, file)])),
    outdir: join(out, 'assets'),
    splitting: true,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    metafile: true,
    plugins: [moduleUrlPlugin('assets'), deferredPartsPlugin(), firstBuildPlugin()],
  });
  // What went where, for a look at the chunks (npx esbuild --analyze does not read it; see the
  // esbuild docs' "metafile" for tools that do).
  await mkdir(join(ROOT, 'build'), { recursive: true });
  await writeFile(join(ROOT, 'build', 'bundle-meta.json'), JSON.stringify(result.metafile));
  // Entry name → its output file and every chunk it imports statically (what it needs at once).
  const outputs = result.metafile.outputs;
  const pages = {};
  for (const [file, info] of Object.entries(outputs)) {
    const name = Object.keys(PAGES).find(
      (key) => info.entryPoint && resolve(ROOT, info.entryPoint) === join(WEB, PAGES[key]),
    );
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
    checkDeferred(outputs, name, [file, ...statics]);
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
  // loading.js preloads the build the page's createAttention loads first (firstBuildPlugin).
  const loader = '<script src="loading.js" data-wasm="lib/wasm/"';
  if (!html.includes(loader)) throw new Error(`${htmlName}: no ${loader}> to mark`);
  html = html.replace(loader, `${loader} data-wasm-build="base"`);
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
    if (!(await stat(from).catch(() => null)))
      throw new Error(`${relative(ROOT, from)} is missing: run "npm run build" (scripts/build.sh) first`);
    await cp(from, join(fresh, file), { recursive: true });
  }
  // Emscripten's loaders, minified (a quarter smaller gzipped than as emcc writes them).
  for (const name of WASM_FILES.filter((f) => f.endsWith('.mjs'))) {
    const file = join(fresh, 'lib', 'wasm', name);
    const { code } = await esbuild.transform(await readFile(file, 'utf8'), {
      minify: true,
      format: 'esm',
      target: TARGET,
      legalComments: 'none',
    });
    await writeFile(file, code);
  }
  const [pages] = await Promise.all([buildPages(fresh), buildWorkers(fresh)]);
  await writePage(fresh, 'index.html', 'app.js', pages.app);
  await writePage(fresh, 'embed.html', 'embed.js', pages.embed);
  await writeFile(
    join(fresh, 'attention-explorer.js'),
    `// The <attention-explorer> element (web/attention-explorer.js, bundled): a stable name for hosts.\n${[
      pages.element.file,
      ...pages.element.chunks,
    ]
      .map((f, i) => (i ? `import './${f}';` : `export * from './${f}';`))
      .join('\n')}\n`,
  );
  await writeFile(join(fresh, '.build-stamp'), stamp);
  const old = `${out}.old`;
  await rm(old, { recursive: true, force: true });
  await rename(out, old).catch((err) => {
    if (err.code !== 'ENOENT') throw err;
  });
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
      await new Promise((resolve) => {
        setTimeout(resolve, 50);
      });
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
