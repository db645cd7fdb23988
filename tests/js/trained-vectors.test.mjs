// Sentence mode with vectors from the trained text model (web/ui/model/trained-vectors.js): the sentence
// is read character by character with the model's vocabulary, and the explorer's attention
// weights (its own pipeline: X·W_Q, X·W_K, softmax, in compute.js) equal the model's attention
// probabilities from transformer.forward for the same text, for every layer and head, to 1e-6.
// Typing a new sentence rebuilds X; unknown characters and long text follow the documented rules.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createComputer } from '../../web/ui/model/compute.js';
import { presetById } from '../../web/ui/model/presets.js';
import { reconcile, setSentence } from '../../web/ui/model/state.js';
import { charTokens } from '../../web/ui/model/char-tokens.js';
import { tokenize } from '../../web/ui/model/tokenizer.js';
import { decodeState, encodeState } from '../../web/ui/model/url-state.js';
import { loadTextModel, readSentence, textModelState } from '../../web/ui/model/trained-vectors.js';
import { pageState } from './support/page-state.mjs';

// Node's fetch has no file: URLs; the page fetches the same files from its own origin.
const realFetch = globalThis.fetch;
globalThis.fetch = async (url) => {
  const u = new URL(url);
  if (u.protocol !== 'file:') return realFetch(url);
  const bytes = readFileSync(fileURLToPath(u));
  return new Response(bytes, { status: 200 });
};

let attn;
let fill;
let embed;
let model;
let reference;
before(async () => {
  ({ attn, fill, embed } = await pageState());
  model = await loadTextModel();
  const { dModel, numHeads, numLayers, contextLength } = model.config;
  reference = attn.transformer({ vocabSize: model.vocabulary.length, contextLength, dModel, numLayers, numHeads, mlp: false, layerNorm: true, tieEmbeddings: false });
  reference.loadState(model.state);
});

const lesson = () => reconcile({ ...presetById('lesson').build(attn) }, fill, embed);

// Largest |explorer − model| over the [T, T] weights of one head.
function worstError(state, layer, head) {
  const computer = createComputer(attn);
  try {
    const ids = readSentence(state.sentence, model).ids;
    const got = computer.compute(state).head.weights;
    const T = ids.length;
    assert.deepEqual(got.shape, [T, T]);
    const want = reference.forward(ids).attentions[layer];
    let worst = 0;
    for (let i = 0; i < T * T; i++) worst = Math.max(worst, Math.abs(got.data[i] - want.data[head * T * T + i]));
    return worst;
  } finally {
    computer.dispose();
  }
}

test('the explorer\u2019s weights equal the text model\u2019s attention probabilities, every layer and head', () => {
  const base = { ...lesson(), sentence: 'Oskar sold the bell. Oskar sold' };
  for (let layer = 0; layer < model.config.numLayers; layer++) {
    for (let head = 0; head < model.config.numHeads; head++) {
      const state = reconcile(textModelState(base, { source: 'text-model', layer, head }), fill, embed);
      assert.equal(state.tokens.length, 24, 'clamped to the explorer\u2019s 24 tokens');
      assert.equal(state.tokens[5], '\u2423', 'a space is a token, shown as ␣');
      assert.equal(state.dModel, model.config.dModel + 1);
      const worst = worstError(state, layer, head);
      assert.ok(worst <= 1e-6, `layer ${layer} head ${head}: max |explorer − model| = ${worst}`);
    }
  }
});

test('typing a new sentence rebuilds X from the model: the weights follow the new text', () => {
  const start = reconcile(textModelState({ ...lesson(), sentence: 'the bell' }, { source: 'text-model', layer: 1, head: 0 }), fill, embed);
  const typed = setSentence(start, 'Mira took the green bell');
  assert.deepEqual(typed.tokens.slice(0, 4), ['M', 'i', 'r', 'a'], 'characters, not words');
  const next = reconcile(typed, fill, embed);
  assert.equal(next.matrices.X.rows, 24);
  assert.notDeepEqual(next.matrices.X.data.slice(0, 33), start.matrices.X.data.slice(0, 33));
  const worst = worstError(next, 1, 0);
  assert.ok(worst <= 1e-6, `max |explorer − model| = ${worst}`);
  // Word tokens again with random vectors: the tokenizer's default is unchanged.
  assert.deepEqual(tokenize('Mira took the bell', 24).tokens, ['Mira', 'took', 'the', 'bell']);
});

test('characters outside the vocabulary are read as their other case or a space, and named', () => {
  const read = charTokens('Bob zips!', model.vocabulary, 32);
  assert.deepEqual(read.chars, ['b', 'o', 'b', ' ', ' ', 'i', 'p', 's', ' ']);
  assert.deepEqual(read.replaced, [['B', 'b'], ['z', ' '], ['!', ' ']]);
  assert.equal(read.clamped, false);
  const long = charTokens('a'.repeat(40), model.vocabulary, 32);
  assert.equal(long.ids.length, 32);
  assert.equal(long.clamped, true);
  assert.equal(long.total, 40);
  assert.throws(() => charTokens('x', ['a', 'b'], 4), /the character "x" is not in the model's vocabulary/);
});

test('a link keeps the choice, X and W (with edits): opening it rebuilds nothing', async () => {
  const state = reconcile(textModelState({ ...lesson(), sentence: 'the bell' }, { source: 'text-model', layer: 1, head: 1 }), fill, embed);
  const edited = { ...state, matrices: { ...state.matrices, WQ: { ...state.matrices.WQ, data: state.matrices.WQ.data.map((x, i) => (i === 0 ? 0.5 : x)) } } };
  const link = await decodeState(await encodeState(edited));
  assert.ok(link.ok, link.error);
  const opened = reconcile(link.state, fill, embed);
  assert.deepEqual(opened.vectors, { source: 'text-model', layer: 1, head: 1 });
  assert.equal(opened.matrices.WQ.data[0], 0.5);
  assert.deepEqual(opened.matrices.X.data, state.matrices.X.data, 'X exactly as linked (JSON keeps doubles)');
  assert.equal(opened.xKey, state.xKey);
});
