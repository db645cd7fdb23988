// The checkpoint's DOM-free sentences in the reader's language: the explorer's notes on a checkpoint's
// head (describeCheckpoint), the open panel's summary and sizes, and the refusals of the core, each
// from the catalogue part `checkpoint`, English by default, numbers with the locale's separators.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTranslator, describeCheckpoint, english } from '../../web/ui/model/model.js';
import { megabytes, openedSummary, refusal } from '../../web/ui/checkpoint/messages.js';

const vectors = {
  source: 'checkpoint',
  layer: 2,
  head: 1,
  layers: 3,
  heads: 4,
  dModel: 32,
  rank: 9,
  name: 'small',
  sentence: 'Hi',
};

test('describeCheckpoint speaks the translator’s language and English without one', async () => {
  const en = describeCheckpoint({ vectors });
  assert.match(
    en.source,
    /^A checkpoint\u2019s head: layer 3 \u00b7 head 2 of small \(3 layers of 4 heads, d_model 32\)\./,
  );
  assert.deepEqual(describeCheckpoint({ vectors }, english), en);
  const de = describeCheckpoint({ vectors }, await createTranslator('de'));
  assert.match(
    de.source,
    /^Kopf eines Checkpoints: Schicht 3 \u00b7 Kopf 2 von small \(3 Schichten mit je 4 Köpfen, d_model 32\)\./,
  );
  assert.match(de.note, /in 9 Koordinaten/);
  assert.match(
    describeCheckpoint({ vectors: { ...vectors, stale: true } }, await createTranslator('es')).help,
    /^Leyendo tu frase con el checkpoint/,
  );
  const pseudo = describeCheckpoint({ vectors }, await createTranslator('qps'));
  for (const text of Object.values(pseudo)) assert.match(text, /^\u27e6[^\u27e7]*\u27e7$/);
});

test('the open panel’s summary and sizes use the locale’s separators', async () => {
  const de = await createTranslator('de');
  const done = {
    name: 'gpt2',
    config: { numLayers: 12, numHeads: 12, dModel: 768, contextLength: 1024, vocabSize: 50257 },
    parameterCount: 124439808,
    gpt2: true,
    mode: 'worker',
  };
  assert.equal(
    openedSummary(done),
    'gpt2 is open: 12 layers of 12 heads, d_model 768, 124,439,808 parameters, a context of 1024 tokens. It runs in its own Worker, so the page stays responsive.',
  );
  assert.match(
    openedSummary(done, de),
    /^gpt2 ist geöffnet: 12 Schichten mit je 12 Köpfen, d_model 768, 124\.439\.808 Parameter/,
  );
  assert.match(
    openedSummary({ ...done, gpt2: false, config: { ...done.config, vocabSize: 1000 } }, await createTranslator('es')),
    /Su vocabulario tiene 1000 tokens/,
  );
  assert.equal(megabytes(1_234_567), '1.2 MB');
  assert.equal(megabytes(1_234_567, de), '1,2 MB');
  assert.equal(megabytes(123_456_789, de), '123 MB');
});

test('a refusal names its reason in the reader’s language and keeps the core’s own detail', async () => {
  const es = await createTranslator('es');
  assert.equal(
    refusal(new Error("transformer: config.model_type must be 'gpt2'."), es),
    "Esto no es un checkpoint de GPT-2 que esta página pueda abrir: config.model_type must be 'gpt2'.",
  );
  assert.equal(
    refusal(new DOMException('the open was cancelled', 'AbortError'), es),
    'Se canceló la apertura; no hay nada abierto.',
  );
  assert.match(
    refusal(new Error('cannot fit in WebAssembly memory')),
    /^This checkpoint is too large for this tab\u2019s memory/,
  );
  assert.match(
    refusal(new Error('disk on fire'), await createTranslator('de')),
    /^Der Checkpoint ließ sich nicht öffnen: disk on fire\.$/,
  );
});
