// Every entry point the documentation shows is published and typed. From README.md and docs/*.md:
// - every package subpath quoted as 'attention-explorer/…' resolves through package.json's
//   "exports", its files exist, and TypeScript finds its types (the export's "types" and, for
//   TypeScript's older node resolution, "typesVersions");
// - every name in `import { … } from 'attention-explorer…'` is exported by that entry's .d.ts and
//   by its JavaScript module;
// - every call `attn.x(`, `attn.lessons.x(`, `model.x(`, `mha.x(`, `rng.x(`, `trainer.x(` is a
//   member of the interface it belongs to in the .d.ts files (Attention, Lessons, Transformer,
//   MultiHeadAttention, RandomState, Trainer) and a function of the real object.
// Other receivers in the docs are examples' own variables and are not checked.
// And the other way round: every example the page offers is a documented value of the element's
// `preset` attribute.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path) => readFileSync(ROOT + path, 'utf8');
const pkg = JSON.parse(read('package.json'));
const DOCS = [
  'README.md',
  ...readdirSync(ROOT + 'docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const docs = DOCS.map((path) => ({ path, text: read(path) }));

// receiver in the docs → the .d.ts and the interface (or class) that declares its members
const RECEIVERS = {
  attn: ['web/lib/attention.d.ts', 'Attention'],
  'attn.lessons': ['web/lib/attention.d.ts', 'Lessons'],
  model: ['web/lib/attention.d.ts', 'Transformer'],
  mha: ['web/lib/attention.d.ts', 'MultiHeadAttention'],
  rng: ['web/lib/attention.d.ts', 'RandomState'],
  trainer: ['web/lib/trainer.d.ts', 'Trainer'],
};

/** Every regex match in the docs as { match, where }. */
function findAll(pattern) {
  const found = [];
  for (const { path, text } of docs)
    for (const m of text.matchAll(pattern))
      found.push({ m, where: `${path}:${text.slice(0, m.index).split('\n').length}` });
  return found;
}

/** The package.json "exports" entry for a subpath ('.' or './x'), patterns ('./wasm/*') included. */
function exportFor(subpath) {
  const { exports } = pkg;
  if (exports[subpath]) return { entry: exports[subpath], star: '' };
  for (const [key, entry] of Object.entries(exports)) {
    const [head, tail] = key.split('*');
    if (tail !== undefined && subpath.startsWith(head) && subpath.endsWith(tail))
      return { entry, star: subpath.slice(head.length, subpath.length - tail.length) };
  }
  return null;
}

const targetOf = (entry, condition) =>
  typeof entry === 'string' ? (condition === 'default' ? entry : undefined) : entry[condition];

/** Top-level members of `export interface Name {…}` or `export declare class Name {…}` in a .d.ts. */
function members(dtsPath, name) {
  const text = read(dtsPath);
  const start = text.search(new RegExp(`export (?:declare )?(?:interface|class) ${name}\\b[^{]*\\{`));
  assert.ok(start >= 0, `${dtsPath} declares ${name}`);
  let depth = 0,
    i = text.indexOf('{', start);
  const body = [];
  for (; i < text.length; i++) {
    const c = text[i],
      outer = depth;
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    if (depth === 0) break;
    if (outer === 1 || depth === 1) body.push(c); // the interface's own text, brackets included
  }
  const names = new Set();
  const code = body
    .join('')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  for (const m of code.matchAll(/(?:^|[;\n])\s*(?:readonly\s+|static\s+|async\s+)*([A-Za-z_$][\w$]*)\s*[?!]?\s*[(:<]/g))
    names.add(m[1]);
  return names;
}

/** Names a .d.ts exports (functions, consts, classes, interfaces, types, re-exports). */
function dtsExports(dtsPath) {
  const text = read(dtsPath);
  const names = new Set();
  for (const m of text.matchAll(
    /export\s+(?:declare\s+)?(?:function|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g,
  ))
    names.add(m[1]);
  for (const m of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g))
    for (const part of m[1].split(','))
      if (part.trim())
        names.add(
          part
            .trim()
            .split(/\s+as\s+/)
            .pop(),
        );
  return names;
}

let live = null;
before(async () => {
  const { createAttention } = await import('../../web/lib/attention.js');
  const { Trainer } = await import('../../web/lib/trainer.js');
  const attn = await createAttention();
  live = {
    attn: attn,
    'attn.lessons': attn.lessons,
    model: attn.transformer({ vocabSize: 5, contextLength: 4, dModel: 4, numLayers: 1, numHeads: 1 }),
    mha: attn.multiHeadAttention({ embedDim: 4, numHeads: 2 }),
    rng: attn.randomState(0),
    trainer: Trainer.prototype,
  };
});

test('every documented subpath is exported, its files exist, and TypeScript finds its types', () => {
  const quoted = findAll(/[`'"](attention-explorer(?:\/[\w.*-]+)*)[`'"]/g);
  assert.ok(
    quoted.some(({ m }) => m[1] === 'attention-explorer/trainer'),
    'the docs were read',
  );
  const problems = [];
  for (const { m, where } of quoted) {
    const subpath = m[1] === 'attention-explorer' ? '.' : `./${m[1].slice('attention-explorer/'.length)}`;
    const found = exportFor(subpath);
    if (!found) {
      problems.push(`${where}: '${m[1]}' is not in package.json "exports"`);
      continue;
    }
    if (found.star.includes('*')) continue; // a pattern quoted as such ('attention-explorer/wasm/*')
    const file = targetOf(found.entry, 'default')?.replace('*', found.star);
    if (!file || !existsSync(ROOT + file)) problems.push(`${where}: '${m[1]}' → ${file}, which does not exist`);
  }
  for (const [key, entry] of Object.entries(pkg.exports)) {
    if (key.includes('*')) continue;
    const types = targetOf(entry, 'types');
    if (!types || !existsSync(ROOT + types)) {
      problems.push(`exports["${key}"] has no existing "types" (${types})`);
      continue;
    }
    if (key === '.') {
      if (pkg.types !== types) problems.push(`"types" is ${pkg.types}, exports["."] says ${types}`);
    } else if (!pkg.typesVersions?.['*']?.[key.slice(2)]?.some((p) => `./${p}` === types))
      problems.push(`typesVersions["*"]["${key.slice(2)}"] does not list ${types}`);
  }
  assert.deepEqual(problems, []);
});

test("every name the docs import from the package is in that entry's .d.ts and JavaScript module", async () => {
  const imports = findAll(/import\s*\{([^}]*)\}\s*from\s*['"](attention-explorer(?:\/[\w.-]+)*)['"]/g);
  assert.ok(imports.length >= 3, 'the docs were read');
  const problems = [];
  for (const { m, where } of imports) {
    const subpath = m[2] === 'attention-explorer' ? '.' : `./${m[2].slice('attention-explorer/'.length)}`;
    const found = exportFor(subpath);
    if (!found) {
      problems.push(`${where}: '${m[2]}' is not exported`);
      continue;
    }
    const declared = dtsExports(targetOf(found.entry, 'types').slice(2));
    const module = await import(pathToFileURL(ROOT + targetOf(found.entry, 'default')));
    for (const name of m[1]
      .split(',')
      .map((s) => s.trim().split(/\s+as\s+/)[0])
      .filter(Boolean)) {
      if (!declared.has(name)) problems.push(`${where}: ${name} is not declared by ${targetOf(found.entry, 'types')}`);
      if (!(name in module)) problems.push(`${where}: ${name} is not exported by ${targetOf(found.entry, 'default')}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('every documented call on attn, attn.lessons, model, mha, rng and trainer is declared and implemented', () => {
  const calls = findAll(/(?<![\w$.])(attn\.lessons|attn|model|mha|rng|trainer)\.([A-Za-z_$][\w$]*)\s*\(/g);
  assert.ok(
    calls.some(({ m }) => m[1] === 'model') && calls.some(({ m }) => m[1] === 'attn.lessons'),
    'the docs were read',
  );
  const declared = Object.fromEntries(Object.entries(RECEIVERS).map(([r, [dts, name]]) => [r, members(dts, name)]));
  const problems = [];
  for (const {
    m: [, receiver, method],
    where,
  } of calls) {
    const [dts, name] = RECEIVERS[receiver];
    if (!declared[receiver].has(method))
      problems.push(`${where}: ${receiver}.${method}() is not declared in ${name} (${dts})`);
    if (typeof live[receiver][method] !== 'function')
      problems.push(`${where}: ${receiver}.${method} is not a function of the real object`);
  }
  assert.deepEqual(problems, []);
});

test("every example the page offers is a documented value of the element's preset attribute", async () => {
  const { PRESETS } = await import('../../web/ui/model/presets.js');
  const row = read('docs/embedding.md').match(/^\| `preset` \|(.*)$/m)?.[1];
  assert.ok(row, 'docs/embedding.md has a row for the preset attribute');
  const documented = new Set([...row.matchAll(/`([\w-]+)`/g)].map((m) => m[1]));
  const ids = PRESETS.map((p) => p.id);
  assert.ok(ids.includes('lesson'), 'the presets were read');
  assert.deepEqual(
    ids.filter((id) => !documented.has(id)),
    [],
    'presets missing from the preset row of docs/embedding.md',
  );
});

test('the member parser reads the declarations it checks against', () => {
  assert.ok(members('web/lib/attention.d.ts', 'Transformer').has('trainStep'));
  assert.ok(members('web/lib/attention.d.ts', 'Attention').has('lessons'));
  assert.ok(!members('web/lib/attention.d.ts', 'Attention').has('learningRate'), 'no members of other interfaces');
  assert.ok(members('web/lib/trainer.d.ts', 'Trainer').has('terminate'));
  assert.ok(!members('web/lib/attention.d.ts', 'Transformer').has('tokens'), 'no parameter names');
  assert.ok(dtsExports('web/link.d.ts').has('ExplorerState'));
});

test("every name a package entry's JavaScript module exports is declared in that entry's .d.ts", async () => {
  const problems = [];
  for (const [key, entry] of Object.entries(pkg.exports)) {
    if (key.includes('*')) continue;
    const declared = dtsExports(targetOf(entry, 'types').slice(2));
    const module = await import(pathToFileURL(ROOT + targetOf(entry, 'default')));
    for (const name of Object.keys(module))
      if (name !== 'default' && !declared.has(name))
        problems.push(`'${key}' exports ${name}, which ${targetOf(entry, 'types')} does not declare`);
  }
  assert.deepEqual(problems, []);
});
