// attn.dispose() gives the instance's WebAssembly memory back while its objects are still
// referenced: a trained transformer (parameters, gradients, Adam's moments, activations: ~470 MB),
// a multi-head layer, a random state and the lessons object all stay reachable, and yet the module
// becomes garbage (a WeakRef to it clears) and the process's memory falls back near its baseline.
// Their safety nets (FinalizationRegistry) must name the instance, never the module.
//
// The garbage collector is reached through V8's flag (node --expose-gc is not needed): the module
// is seen through a FinalizationRegistry subclass that keeps only WeakRefs, installed before the
// API loads (support/module-spy.mjs would keep the modules alive).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const moduleRefs = new Set();
globalThis.FinalizationRegistry = class extends FinalizationRegistry {
  register(target, held, token) {
    const module = held?.instance?.module ?? held?.module;
    if (module) moduleRefs.add(new WeakRef(module));
    return super.register(target, held, token);
  }
};

const { createAttention } = await import('../../web/lib/attention.js');

const MiB = 2 ** 20;

async function collect() {
  for (let i = 0; i < 8; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test('attn.dispose() returns the memory while its transformer, layer, random state and lessons are referenced', async () => {
  await collect();
  const baseline = process.memoryUsage().rss;
  const attn = await createAttention({ simd: 'auto' });
  // 50 000 × 512 + one block: ~29 M parameters; a training step adds gradients, Adam's two moments
  // and activations (4 × 117 MB + a few MB).
  const model = attn.transformer({ vocabSize: 50000, contextLength: 16, dModel: 512, numLayers: 1, numHeads: 8 });
  model.trainStep([[1, 2, 3, 4]], [[2, 3, 4, 5]]);
  const layer = attn.multiHeadAttention({ embedDim: 8, numHeads: 2 });
  const rng = attn.randomState(3);
  const { lessons } = attn;
  const modules = [...new Set([...moduleRefs].map((ref) => ref.deref()).filter(Boolean))];
  assert.equal(modules.length, 1, 'the spy saw the one module');
  moduleRefs.clear();
  const moduleRef = new WeakRef(modules.pop());
  const loaded = process.memoryUsage().rss;
  assert.ok(loaded - baseline > 400 * MiB, `the model holds its memory: ${(loaded - baseline) / MiB} MiB`);

  attn.dispose();
  await collect();
  const after = process.memoryUsage().rss;
  assert.ok(moduleRef.deref() === undefined, 'the module was collected');
  assert.ok(
    after - baseline < 100 * MiB,
    `back near the baseline: ${((after - baseline) / MiB).toFixed(0)} MiB above it (was ${((loaded - baseline) / MiB).toFixed(0)})`,
  );
  // Every object is still here, and says what happened.
  assert.throws(() => model.forward([1, 2]), /disposed/);
  assert.throws(() => layer.forward([[1, 2, 3, 4, 5, 6, 7, 8]]), /disposed/);
  assert.throws(() => rng.randn(2), /disposed/);
  assert.throws(() => lessons.rowStats([[1]]), /disposed/);
  model.dispose();
});
