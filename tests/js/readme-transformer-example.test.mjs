// The tiny-transformer example of docs/api.md must run as written (importing the package by name) and
// print what its comment says.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { runReadmeExample } from './support/readme-example.mjs';

test('the tiny-transformer example of the API docs runs and prints the shapes its comment gives', async () => {
  const stdout = await runReadmeExample('## A tiny transformer', 'readme-transformer-example.tmp.mjs', 'docs/api.md');
  assert.equal(stdout.trim(), '[ 2, 8, 48 ] [ 2, 4, 8, 8 ] 17');
});
