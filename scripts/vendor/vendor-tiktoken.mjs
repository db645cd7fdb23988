// Copies what web/lib/gpt2-tokenizer.js needs from the js-tiktoken npm package into web/lib/vendor/
// as plain ES modules with relative imports, so the tokenizer runs in a page served as it is (no
// bundler, no import map: a strict Content-Security-Policy refuses inline import maps) as well as in
// Node and through bundlers: js-tiktoken's BPE core (dist/chunk-*.js, its one import of base64-js
// pointed at web/lib/base64.js) and GPT-2's merge ranks (dist/ranks/gpt2.js, ~545 KB). Run by
// scripts/build.sh; nothing is fetched, the files come from node_modules. js-tiktoken is MIT
// licensed: its licence text goes along.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = path.join(ROOT, 'web/lib/vendor');
const require = createRequire(path.join(ROOT, 'package.json'));
// (The package exports no ./package.json: its lite entry, dist/lite.cjs, locates it.)
const dist = path.dirname(require.resolve('js-tiktoken/lite'));
const packageDir = path.dirname(dist);
const pkg = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
const version = pkg.version;

// lite.js re-exports one chunk: find it rather than hard-code its hashed name.
const lite = readFileSync(path.join(dist, 'lite.js'), 'utf8');
const chunk = lite.match(/from '\.\/(chunk-[\w-]+\.js)'/)?.[1];
if (!chunk)
  throw new Error(
    `js-tiktoken ${version}: dist/lite.js no longer re-exports one chunk; update scripts/vendor/vendor-tiktoken.mjs`,
  );
let core = readFileSync(path.join(dist, chunk), 'utf8');
const imports = core.match(/^import .*$/gm) ?? [];
if (imports.length !== 1 || !/from 'base64-js'/.test(imports[0]))
  throw new Error(
    `js-tiktoken ${version}: ${chunk} imports ${imports.join('; ') || 'nothing'}, not base64-js alone; update scripts/vendor/vendor-tiktoken.mjs`,
  );
core = core.replace(/from 'base64-js'/, "from '../base64.js'");
const licence = ['LICENSE', 'LICENSE.md', 'license'].map((f) => path.join(packageDir, f)).find(existsSync);
const header = `// js-tiktoken ${version} (${pkg.license} licence${licence ? ', text in LICENSE-js-tiktoken.txt' : ''}; https://github.com/dqbd/tiktoken),\n// copied by scripts/vendor/vendor-tiktoken.mjs from node_modules. Do not edit.\n`;

const files = {
  'tiktoken-lite.js': header + core,
  'gpt2-ranks.js': header + readFileSync(path.join(dist, 'ranks/gpt2.js'), 'utf8'),
};
if (licence) files['LICENSE-js-tiktoken.txt'] = readFileSync(licence, 'utf8');
mkdirSync(OUT, { recursive: true });
for (const [name, text] of Object.entries(files)) {
  const file = path.join(OUT, name);
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
}
// Nothing else belongs in the folder (a renamed file would otherwise linger).
for (const name of readdirSync(OUT))
  if (!(name in files)) throw new Error(`web/lib/vendor/${name} is not a vendored file; remove it`);
