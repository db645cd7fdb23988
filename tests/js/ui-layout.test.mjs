// The page's layout rules, read from the import statements themselves (parsed with acorn):
// - a folder of web/ui is used from outside only through its entry module (<folder>/<folder>.js,
//   or index.js), so a newcomer finds a part by its folder and may rearrange its inside freely;
// - data flows one way: the JS API (web/lib) never imports the page;
// - web/ui/model/ is DOM-free: its modules run in Node and in Workers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const UI = 'web/ui/';

function productFiles() {
  const listed = execFileSync('git', ['ls-files', 'web/*.js'], { cwd: ROOT, encoding: 'utf8' });
  return listed.split('\n').filter((f) => f && !f.startsWith('web/lib/wasm/') && existsSync(path.join(ROOT, f)));
}

// Relative specifiers of static imports, re-exports and dynamic imports with a literal source.
function importsOf(source) {
  const ast = parse(source, { ecmaVersion: 'latest', sourceType: 'module' });
  const found = [];
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    if (/^(Import|ExportNamed|ExportAll)Declaration$/.test(node.type) && node.source) found.push(node.source.value);
    if (node.type === 'ImportExpression' && node.source.type === 'Literal') found.push(node.source.value);
    for (const child of Object.values(node)) {
      if (Array.isArray(child)) child.forEach(visit);
      else if (child && typeof child === 'object') visit(child);
    }
  };
  visit(ast);
  return found.filter((s) => s.startsWith('.'));
}

const edges = productFiles().flatMap((file) =>
  importsOf(readFileSync(path.join(ROOT, file), 'utf8')).map((spec) => ({
    from: file,
    to: path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)),
  })),
);

// The folder of web/ui a file is in ('heatmap' for web/ui/heatmap/paint.js), or null.
function uiFolder(file) {
  if (!file.startsWith(UI)) return null;
  const parts = file.slice(UI.length).split('/');
  return parts.length > 1 ? parts[0] : null;
}

const isEntry = (file, folder) => file === `${UI}${folder}/${folder}.js` || file === `${UI}${folder}/index.js`;

test('the project has imports to check, and each leads to a file that exists', () => {
  assert.ok(edges.length > 200, `found ${edges.length} imports`);
  for (const { from, to } of edges)
    assert.ok(existsSync(path.join(ROOT, to)), `${from} imports ${to}, which does not exist`);
});

test('a folder of web/ui is imported from outside only through its entry module', () => {
  const wrong = edges.filter(({ from, to }) => {
    const folder = uiFolder(to);
    return folder && uiFolder(from) !== folder && !isEntry(to, folder);
  });
  assert.deepEqual(
    wrong.map(({ from, to }) => `${from} -> ${to}`),
    [],
  );
});

test('every folder of web/ui has exactly one entry module', () => {
  const folders = new Set(productFiles().map(uiFolder).filter(Boolean));
  assert.ok(folders.size >= 8, `folders: ${[...folders]}`);
  for (const folder of folders) {
    const entries = [`${folder}.js`, 'index.js'].filter((f) => existsSync(path.join(ROOT, UI, folder, f)));
    assert.equal(entries.length, 1, `web/ui/${folder}/ has entries ${entries.join(', ') || 'none'}`);
  }
});

test('the JS API never imports the page', () => {
  const back = edges.filter(({ from, to }) => from.startsWith('web/lib/') && !to.startsWith('web/lib/'));
  assert.deepEqual(
    back.map(({ from, to }) => `${from} -> ${to}`),
    [],
  );
});

test('web/ui/model/ is DOM-free: no document, window or element in its modules', () => {
  const DOM = /\b(document|window|HTMLElement|requestAnimationFrame|getComputedStyle|customElements)\b/;
  const files = productFiles().filter((f) => uiFolder(f) === 'model');
  assert.ok(files.length >= 10);
  for (const file of files) {
    const code = readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
      .join('\n');
    const hit = code.match(DOM);
    assert.equal(hit, null, `${file} uses ${hit?.[0]}`);
  }
});
