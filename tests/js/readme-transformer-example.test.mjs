// The README's tiny-transformer example must run as written (importing the package by name) and
// print what its comment says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, rm } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const root = new URL('../../', import.meta.url);

test('the README tiny-transformer example runs and prints the shapes its comment gives', async () => {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const section = readme.slice(readme.indexOf('## A tiny transformer'));
  const example = section.match(/```js\n([\s\S]*?)```/)?.[1];
  assert.ok(example, 'the tiny-transformer section has a ```js example');
  const file = new URL('readme-transformer-example.tmp.mjs', root);
  await writeFile(file, example);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [file.pathname], { cwd: root.pathname });
    assert.equal(stdout.trim(), '[ 2, 8, 48 ] [ 2, 4, 8, 8 ] 17');
  } finally {
    await rm(file, { force: true });
  }
});
