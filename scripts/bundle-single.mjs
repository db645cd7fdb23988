// `npm run build:single`: the whole page (explorer, lessons, training view, trained examples) as
// one self-contained HTML file, dist-single/attention-explorer.html, that a teacher can send by
// mail or open from file://, offline. docs/embedding.md says what it cannot do.
//
// One module script holds all the code (esbuild, no splitting: the lessons' and the training
// view's import() calls become plain calls), styles.css is a <style>, and every file a module
// finds with new URL('…', import.meta.url) (the WebAssembly loaders and binaries, the trained
// examples, training.css) is a data: URL in a table, globalThis.__attentionExplorerFiles, which the
// rewritten expressions read. The two Workers are bundled the same way and started from data: URLs
// made when they are needed, with the WebAssembly part of the table prepended (so the binaries are
// in the file once). From file:// Chromium starts such a data: Worker; where none can start, the
// trainer runs on the page's thread and the √dₖ lesson samples there (their own fallbacks).
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { ROOT, TARGET, WEB } from './bundle-paths.mjs';

export const SINGLE_DIR = join(ROOT, 'dist-single');
const FILES = '__attentionExplorerFiles';
const WORKER = '__attentionExplorerWorker';
const WORKERS = ['lib/trainer-worker.js', 'ui/lessons/sampler-worker.js'];
const TYPES = { '.wasm': 'application/wasm', '.mjs': 'text/javascript', '.js': 'text/javascript', '.css': 'text/css' };

const key = (path) => relative(WEB, path).split(sep).join('/');
const typeOf = (path) => TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream';

// Rewrites new URL('literal' or `template`, import.meta.url) in the modules of web/ into reads of
// the table (or, for a Worker's module, a call that makes its data: URL); `needed` collects the
// files the table must hold.
function singlePlugin(needed) {
  const literal = /new URL\((['"])([^'"`]+)\1,\s*import\.meta\.url\)/g;
  const template = /new URL\(`([^`]+)`,\s*import\.meta\.url\)/g;
  return {
    name: 'single-file',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, async ({ path }) => {
        let source = await readFile(path, 'utf8');
        if (!path.startsWith(WEB + sep) || !source.includes('import.meta.url')) return undefined;
        const here = dirname(path);
        source = source.replace(literal, (whole, _q, rel) => {
          const target = resolve(here, rel);
          if (WORKERS.includes(key(target))) return `new URL(globalThis.${WORKER}(${JSON.stringify(key(target))}))`;
          if (!existsSync(target)) return whole; // (a comment's example, say)
          needed.add(target);
          return `new URL(globalThis.${FILES}[${JSON.stringify(key(target))}])`;
        });
        const pending = [];
        source = source.replace(template, (whole, text) => {
          // `./wasm/attention-${variant}.mjs`: every file of ./wasm/ whose name fits the pattern.
          const dir = text.slice(0, text.lastIndexOf('/') + 1);
          const name = text.slice(dir.length);
          if (dir.includes('${')) return whole;
          const folder = resolve(here, dir);
          const escape = (t) => t.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
          pending.push({
            folder,
            pattern: new RegExp(
              `^${name
                .split(/\$\{[^}]*\}/)
                .map(escape)
                .join('.+')}$`,
            ),
          });
          return `new URL(globalThis.${FILES}[\`${key(folder)}/${name}\`])`;
        });
        // Not the base WebAssembly builds: they are the split site's first modules (bundle.mjs's
        // firstBuildPlugin), and this one file loads the whole build.
        for (const { folder, pattern } of pending) {
          for (const file of await readdir(folder))
            if (pattern.test(file) && !/-base\.(mjs|wasm)$/.test(file)) needed.add(join(folder, file));
        }
        return { contents: source, loader: 'js' };
      });
    },
  };
}

async function bundleCode(entry, needed) {
  const result = await esbuild.build({
    entryPoints: [join(WEB, entry)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: TARGET,
    minify: true,
    legalComments: 'none',
    external: ['node:*'],
    write: false,
    splitting: false,
    logLevel: 'warning',
    plugins: [singlePlugin(needed)],
  });
  return result.outputFiles[0].text;
}

async function dataUrl(path) {
  return `data:${typeOf(path)};base64,${(await readFile(path)).toString('base64')}`;
}

// The table of files and the Workers' maker, run before the page's code.
function prelude(files, workers) {
  const wasm = Object.fromEntries(Object.entries(files).filter(([k]) => k.startsWith('lib/wasm/')));
  return (
    `globalThis.${FILES}=${JSON.stringify(files)};` +
    `const __workerSources=${JSON.stringify(workers)};` +
    `globalThis.${WORKER}=(k)=>"data:text/javascript;charset=utf-8,"+encodeURIComponent(` +
    `"globalThis.${FILES}="+JSON.stringify(${JSON.stringify(Object.keys(wasm))}.reduce((t,n)=>(t[n]=globalThis.${FILES}[n],t),{}))+";\\n"+__workerSources[k]);\n`
  );
}

// Text safe inside <script>…</script> and <style>…</style>.
const inlineSafe = (text, tag) => text.replace(new RegExp(`</${tag}`, 'gi'), `<\\/${tag}`).replace(/<!--/g, '<\\!--');

/** Writes dist-single/attention-explorer.html; returns { file, bytes }. */
export async function bundleSingle() {
  const needed = new Set();
  const code = await bundleCode('app.js', needed);
  const workers = {};
  for (const entry of WORKERS) workers[entry] = await bundleCode(entry, needed);
  const files = {};
  for (const path of [...needed].sort()) {
    if (!(await stat(path).catch(() => null)))
      throw new Error(`${relative(ROOT, path)} is missing: run "npm run build" first`);
    files[key(path)] = await dataUrl(path);
  }
  let html = await readFile(join(WEB, 'index.html'), 'utf8');
  const css = await readFile(join(WEB, 'styles.css'), 'utf8');
  const replace = (from, to) => {
    if (!html.includes(from)) throw new Error(`index.html: no ${from} to replace`);
    html = html.replace(from, () => to);
  };
  replace(
    '<link rel="icon" href="favicon.svg" type="image/svg+xml">',
    `<link rel="icon" href="${await dataUrl(join(WEB, 'favicon.svg'))}" type="image/svg+xml">`,
  );
  replace('<link rel="stylesheet" href="styles.css">', `<style>\n${inlineSafe(css, 'style')}\n</style>`);
  replace(/ *<script src="loading.js"[^>]*><\/script>\n/.exec(html)?.[0] ?? '<script src="loading.js"', '');
  replace(
    '<script type="module" src="app.js"></script>',
    `<script type="module">\n${inlineSafe(prelude(files, workers) + code, 'script')}\n</script>`,
  );
  await mkdir(SINGLE_DIR, { recursive: true });
  const file = join(SINGLE_DIR, 'attention-explorer.html');
  await writeFile(file, html);
  return { file, bytes: Buffer.byteLength(html), files: Object.keys(files), name: basename(file) };
}
