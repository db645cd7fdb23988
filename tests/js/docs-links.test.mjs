// The README stays short and its details live in docs/: every relative link of the README and of
// docs/*.md leads to a file that exists, and every #anchor to a heading of that file (as GitHub
// makes anchors from headings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

// GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens.
const anchorOf = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsIn(file) {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => anchorOf(m[1])));
}

function linksIn(file) {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/i.test(l));
}

test('the anchor rule matches GitHub on the headings this project writes', () => {
  assert.equal(anchorOf("The page's speed"), 'the-pages-speed');
  assert.equal(anchorOf('Train a tiny transformer (the training view)'), 'train-a-tiny-transformer-the-training-view');
});

test('the README is short: at most 300 lines', () => {
  const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length;
  assert.ok(lines <= 300, `README.md has ${lines} lines`);
});

test('the README links every page of docs/', () => {
  const linked = new Set(linksIn('README.md').map((l) => l.split('#')[0]));
  for (const doc of DOCS.slice(1)) assert.ok(linked.has(doc), `README.md does not link ${doc}`);
});

for (const file of DOCS) {
  test(`every relative link of ${file} leads to a file, and every anchor to a heading`, () => {
    for (const link of linksIn(file)) {
      const [target, anchor] = link.split('#');
      const resolved = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target)) : file;
      assert.ok(existsSync(path.join(ROOT, resolved)), `${file} links ${link}: ${resolved} does not exist`);
      if (anchor && resolved.endsWith('.md'))
        assert.ok(anchorsIn(resolved).has(anchor), `${file} links ${link}: ${resolved} has no heading #${anchor}`);
    }
  });
}
