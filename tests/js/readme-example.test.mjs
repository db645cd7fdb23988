// The README's JavaScript example must run as written (importing the package by name).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { runReadmeExample } from './support/readme-example.mjs';

test('the README JavaScript example runs and prints what its comments say', async () => {
  const stdout = await runReadmeExample(null, 'readme-example.tmp.mjs');
  assert.match(stdout, /\[ 3, 3 \]/);
  assert.match(stdout, /\[ 4, 8 \] \[ 2, 4, 4 \]/);
});
