// Decoders give their WebAssembly memory back: creating, using and disposing them (and generating,
// and appends refused past maxLength) leaves malloc's bytes in use exactly where they were, and
// disposing a model frees the decoders it still has.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { modules } from './support/module-spy.mjs';

const { createAttention } = await import('../../web/lib/attention.js');
const CONFIG = {
  vocabSize: 13,
  contextLength: 16,
  dModel: 16,
  numLayers: 2,
  numHeads: 4,
  numKVHeads: 2,
  positions: 'rope',
  attentionWindow: 5,
};

test('decoders, generation and refused appends leave the heap flat; a disposed model frees its decoders', async () => {
  const attn = await createAttention();
  const model = attn.transformer(CONFIG);
  assert.equal(modules.size, 1, 'the module is visible to the test');
  const [module] = modules;
  const inUse = () => module._heapBytesInUse();
  const use = () => {
    const decoder = model.decoder({ maxLength: 12 });
    decoder.append([1, 2, 3, 4, 5, 6, 7]);
    decoder.append([8], { needWeights: false });
    decoder.cache(1);
    assert.throws(() => decoder.append([1, 2, 3, 4, 5]), /would pass maxLength/);
    decoder.dispose();
    model.generate([1, 2], { maxNewTokens: 4, seed: 3 });
  };
  use(); // the first call sizes the scratch blocks that later calls reuse
  const before = inUse();
  for (let i = 0; i < 200; i++) use();
  assert.equal(inUse(), before, 'after 200 decoders and generations');

  const other = attn.transformer(CONFIG);
  const withModel = inUse();
  for (let i = 0; i < 5; i++) other.decoder().append([1, 2, 3]);
  assert.ok(inUse() > withModel, 'five decoders hold memory');
  other.dispose();
  assert.equal(inUse(), before, 'the model and its five undisposed decoders are freed');
  model.dispose();
});
