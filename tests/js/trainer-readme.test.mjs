// The trainer example of docs/training.md must run as written (importing the package by name): progress every
// 10 steps, then start() resolves when the 500 steps are done, and terminate() lets the process end.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { runReadmeExample } from './support/readme-example.mjs';

test(
  'the trainer example of the training docs: start() resolves when its 500 steps are done, with what its comment says',
  { timeout: 300_000 },
  async () => {
    const stdout = await runReadmeExample(
      '## Training off the main thread',
      'readme-trainer-example.tmp.mjs',
      'docs/training.md',
    );
    const lines = stdout.trim().split('\n');
    assert.equal(lines.at(-1), "{ step: 500, reason: 'maxSteps' }");
    const steps = lines.slice(0, -1).map((line) => Number(line.split(' ')[0]));
    assert.deepEqual(
      steps,
      Array.from({ length: 50 }, (_, i) => 10 * (i + 1)),
      'a progress line every 10 steps, all before start() resolved',
    );
  },
);
