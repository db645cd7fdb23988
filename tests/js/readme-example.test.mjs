// The README's JavaScript example must run as written (importing the package by name).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, rm } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const root = new URL('../../', import.meta.url);

test('the README JavaScript example runs and prints what its comments say', async () => {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const example = readme.match(/```js\n([\s\S]*?)```/)?.[1];
  assert.ok(example, 'README has a ```js example');
  // Inside the repository the package resolves by its own name (package.json "exports").
  const file = new URL('readme-example.tmp.mjs', root);
  await writeFile(file, example);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [file.pathname], { cwd: root.pathname });
    assert.match(stdout, /\[ 3, 3 \]/);
    assert.match(stdout, /\[ 4, 8 \] \[ 2, 4, 4 \]/);
  } finally {
    await rm(file, { force: true });
  }
});
