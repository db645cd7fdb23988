// No leaks: 10⁴ calls of every API function leave the WebAssembly heap flat, on both builds. That
// includes calls rejected by the JS layer or by the core, multi-head layers and random generators
// that are disposed, and ones that are only dropped and left to the garbage collector (the
// FinalizationRegistry safety net). The calls run in a child process with --expose-gc
// (support/leak-worker.mjs), which reports malloc's bytes in use before and after each scenario.
//
// "Flat" means exactly flat: after the scenario (and full collections), the bytes in use are the
// bytes in use before it. Scenarios that do not depend on the collector must not grow WebAssembly
// memory either. ATTN_LEAK_CALLS=N changes the number of calls per scenario.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CALLS = Number(process.env.ATTN_LEAK_CALLS) || 10000;
const WORKER = fileURLToPath(new URL('./support/leak-worker.mjs', import.meta.url));

function runWorker(variant) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', WORKER, variant, String(CALLS)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '',
      err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`leak worker (${variant}) exited with ${code}:\n${err}`));
      else
        resolve(
          out
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line)),
        );
    });
  });
}

// Both builds measure at the same time, each in its own process.
const results = { simd: runWorker('simd'), scalar: runWorker('scalar') };
for (const p of Object.values(results)) p.catch(() => {}); // reported by the tests below

const dependsOnCollector = (name) => /garbage-collected|after allocating/.test(name);

for (const variant of ['simd', 'scalar']) {
  describe(`${variant} build: ${CALLS} calls of each API function leave the WASM heap flat`, () => {
    let scenarios;
    before(async () => {
      scenarios = await results[variant];
    });

    test('every scenario ran', () => {
      assert.ok(scenarios.length >= 17, `only ${scenarios.length} scenarios reported`);
      for (const s of scenarios) assert.equal(s.calls, CALLS, s.name);
    });

    test('bytes in use after each scenario equal the bytes in use before it', () => {
      const grew = scenarios
        .filter((s) => s.after !== s.before)
        .map(
          (s) => `${s.name}: ${s.before} → ${s.after} bytes (${((s.after - s.before) / CALLS).toFixed(1)} per call)`,
        );
      assert.deepEqual(grew, [], `heap not flat:\n${grew.join('\n')}`);
    });

    test('scenarios that do not need the garbage collector never grow WebAssembly memory', () => {
      const grew = scenarios
        .filter((s) => !dependsOnCollector(s.name) && s.memoryAfter !== s.memoryBefore)
        .map((s) => `${s.name}: memory ${s.memoryBefore} → ${s.memoryAfter} bytes`);
      assert.deepEqual(grew, [], grew.join('\n'));
      const peaked = scenarios
        .filter((s) => !dependsOnCollector(s.name) && s.peak !== s.before)
        .map((s) => `${s.name}: ${s.before} → peak ${s.peak} bytes`);
      assert.deepEqual(peaked, [], peaked.join('\n'));
    });
  });
}
