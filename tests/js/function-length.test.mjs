// The house rule that no function is longer than a screen, checked over the project's JavaScript
// (the page, the JS API, scripts and tests): each function's own lines, where a nested function
// of more than three lines counts for itself and not for the function around it (so a factory
// made of small closures is judged by its own code). Parsed with acorn, not matched by pattern.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';

const SCREEN = 60; // lines
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// The tracked JavaScript files, without Emscripten's generated loaders.
function projectFiles() {
  const listed = execFileSync('git', ['ls-files', '*.js', '*.mjs'], { cwd: ROOT, encoding: 'utf8' });
  return listed.split('\n').filter((f) => f && !f.startsWith('web/lib/wasm/'));
}

// Every function in `source` with its own line count.
function functionLengths(source) {
  const ast = parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  const found = [];
  const visit = (node, name, around) => {
    if (!node || typeof node.type !== 'string') return;
    let inside = around;
    if (node.type.includes('Function')) {
      inside = {
        name: node.id?.name ?? name ?? '(anonymous)',
        start: node.loc.start.line,
        end: node.loc.end.line,
        nested: [],
      };
      around?.nested.push(inside);
      found.push(inside);
    }
    const named =
      node.type === 'VariableDeclarator'
        ? node.id?.name
        : node.type === 'Property' || node.type === 'MethodDefinition'
          ? node.key?.name
          : name;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'loc') continue;
      if (Array.isArray(child)) child.forEach((c) => visit(c, named, inside));
      else if (child && typeof child === 'object') visit(child, named, inside);
    }
  };
  visit(ast, null, null);
  return found.map((fn) => {
    const own = new Set();
    for (let line = fn.start; line <= fn.end; line++) own.add(line);
    for (const n of fn.nested)
      if (n.end - n.start >= 3) for (let line = n.start + 1; line < n.end; line++) own.delete(line);
    return { name: fn.name, line: fn.start, lines: own.size };
  });
}

test("the measure counts a function's own lines, and its long closures for themselves", () => {
  const body = (n) => Array.from({ length: n }, (_, k) => `  const v${k} = ${k};`).join('\n');
  const source = `function outer() {\n${body(10)}\n  function inner() {\n${body(70)}\n  }\n}\n`;
  const lengths = Object.fromEntries(functionLengths(source).map((f) => [f.name, f.lines]));
  assert.equal(lengths.inner, 72);
  assert.equal(lengths.outer, 14); // its 10 lines, its braces, and inner's first and last lines
});

test(`no function in the project is longer than a screen (${SCREEN} lines of its own)`, () => {
  const files = projectFiles();
  assert.ok(files.length > 100, `found ${files.length} files`);
  const long = files.flatMap((file) =>
    functionLengths(readFileSync(`${ROOT}${file}`, 'utf8'))
      .filter((f) => f.lines > SCREEN)
      .map((f) => `${file}:${f.line} ${f.name}: ${f.lines} lines`),
  );
  assert.deepEqual(long, []);
});
