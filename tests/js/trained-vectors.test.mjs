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
import { reconcile, setCell, setSentence } from '../../web/ui/model/state.js';
import { charTokens } from '../../web/ui/model/char-tokens.js';
import { tokenize } from '../../web/ui/model/tokenizer.js';
import { decodeState, encodeState, validateState } from '../../web/ui/model/url-state.js';
import {
  describeDModel,
  describeShown,
  describeTrainedHead,
  loadTextModel,
  textModelState,
} from '../../web/ui/model/trained-vectors.js';
import { readSentence } from '../../web/ui/model/trained-sources.js';
import { headState } from '../../web/ui/model/open-head.js';
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
  reference = attn.transformer({
    vocabSize: model.vocabulary.length,
    contextLength,
    dModel,
    numLayers,
    numHeads,
    mlp: false,
    layerNorm: true,
    tieEmbeddings: false,
  });
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

test('the explorer’s weights equal the text model’s attention probabilities, every layer and head', () => {
  const base = { ...lesson(), sentence: 'Oskar sold the bell. Oskar sold' };
  for (let layer = 0; layer < model.config.numLayers; layer++) {
    for (let head = 0; head < model.config.numHeads; head++) {
      const state = reconcile(textModelState(base, { source: 'text-model', layer, head }), fill, embed);
      assert.equal(state.tokens.length, 24, 'clamped to the explorer’s 24 tokens');
      assert.equal(state.tokens[5], '␣', 'a space is a token, shown as ␣');
      assert.equal(state.dModel, model.config.dModel + 1);
      const worst = worstError(state, layer, head);
      assert.ok(worst <= 1e-6, `layer ${layer} head ${head}: max |explorer − model| = ${worst}`);
    }
  }
});

test('typing a new sentence rebuilds X from the model: the weights follow the new text', () => {
  const start = reconcile(
    textModelState({ ...lesson(), sentence: 'the bell' }, { source: 'text-model', layer: 1, head: 0 }),
    fill,
    embed,
  );
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
  assert.deepEqual(read.replaced, [
    ['B', 'b'],
    ['z', ' '],
    ['!', ' '],
  ]);
  assert.equal(read.clamped, false);
  const long = charTokens('a'.repeat(40), model.vocabulary, 32);
  assert.equal(long.ids.length, 32);
  assert.equal(long.clamped, true);
  assert.equal(long.total, 40);
  assert.throws(() => charTokens('x', ['a', 'b'], 4), /the character "x" is not in the model's vocabulary/);
});

test('a link keeps the choice, X and W (with edits): opening it rebuilds nothing', async () => {
  const state = reconcile(
    textModelState({ ...lesson(), sentence: 'the bell' }, { source: 'text-model', layer: 1, head: 1 }),
    fill,
    embed,
  );
  const edited = {
    ...state,
    matrices: {
      ...state.matrices,
      WQ: { ...state.matrices.WQ, data: state.matrices.WQ.data.map((x, i) => (i === 0 ? 0.5 : x)) },
    },
  };
  const link = await decodeState(await encodeState(edited));
  assert.ok(link.ok, link.error);
  const opened = reconcile(link.state, fill, embed);
  assert.deepEqual(opened.vectors, { source: 'text-model', layer: 1, head: 1 });
  assert.equal(opened.matrices.WQ.data[0], 0.5);
  assert.deepEqual(opened.matrices.X.data, state.matrices.X.data, 'X exactly as linked (JSON keeps doubles)');
  assert.equal(opened.xKey, state.xKey);
});

// A head of the trained induction example, as "Open in the explorer" hands it over: the explorer's
// own pipeline gives the model's attention, the state says which head it is, and a change X
// cannot follow returns to random vectors.
async function inductionHead(layer, head) {
  const { fetchExample } = await import('../../web/ui/model/example-files.js');
  const example = await fetchExample('induction');
  const [V, E] = example.state['wte.weight'].shape;
  const config = { dModel: E, numHeads: example.settings.heads, numLayers: example.settings.layers };
  const tokens = [0, 5, 9, 13, 7, 5, 9, 13, 7, 5];
  const labels = tokens.map((t) => (t === 0 ? 'B' : String(t)));
  const state = headState({
    layer,
    head,
    state: example.state,
    config,
    tokens,
    labels,
    task: 'repeated',
    step: example.steps,
    example: 'induction',
  });
  const net = attn.transformer({
    vocabSize: V,
    contextLength: example.state['wpe.weight'].shape[0],
    dModel: E,
    numLayers: config.numLayers,
    numHeads: config.numHeads,
    mlp: false,
    layerNorm: true,
    tieEmbeddings: false,
  });
  net.loadState(example.state);
  const want = net.forward(tokens).attentions[layer];
  net.dispose?.();
  return { state, want, tokens, E, steps: example.steps };
}

test('a trained head opened in the explorer: its own vector source, and the model’s attention', async () => {
  const { state: opened, want, tokens, E, steps } = await inductionHead(1, 3);
  assert.deepEqual(opened.vectors, {
    source: 'trained-head',
    layer: 1,
    head: 3,
    layers: 2,
    heads: 4,
    dModel: E,
    task: 'repeated',
    step: steps,
    example: 'induction',
  });
  const state = reconcile(opened, fill, embed);
  assert.equal(state.vectors.source, 'trained-head', 'reconcile keeps it');
  const computer = createComputer(attn);
  try {
    const got = computer.compute(state).head.weights;
    const T = tokens.length;
    let worst = 0;
    for (let i = 0; i < T * T; i++) worst = Math.max(worst, Math.abs(got.data[i] - want.data[3 * T * T + i]));
    assert.ok(worst <= 1e-6, `max |explorer − model| = ${worst}`);
  } finally {
    computer.dispose();
  }
  const words = describeTrainedHead(state);
  assert.match(
    words.source,
    /layer 2 · head 4 of the trained induction example \(2 layers of 4 heads, 800 steps on repeated random tokens\)/,
  );
  assert.match(
    words.note,
    /what layer 2’s attention sees .* after layer 1 .* plus a last column of ones\. W_Q, W_K and W_V are head 4’s trained weights, their last row its bias/,
  );
  assert.equal(describeShown(state).option, 'Trained layer 2 · head 4');
  assert.equal(
    describeDModel(state),
    `d_model = ${E + 1}: the model’s ${E} features plus a column of ones, whose row in each W is the head’s bias (X·W + b = [X, 1]·[W; b]).`,
  );
  assert.equal(describeDModel(lesson()), '', 'nothing to say about random vectors');
});

test('a trained head travels in a link; links from before it (text model, none) still open', async () => {
  const state = reconcile((await inductionHead(0, 1)).state, fill, embed);
  const link = await decodeState(await encodeState(state));
  assert.ok(link.ok, link.error);
  const opened = reconcile(link.state, fill, embed);
  assert.deepEqual(opened.vectors, state.vectors);
  assert.deepEqual(opened.matrices.X.data, state.matrices.X.data);
  assert.deepEqual(validateState({ vectors: { source: 'text-model', layer: 1, head: 0 } }).vectors, {
    source: 'text-model',
    layer: 1,
    head: 0,
  });
  assert.deepEqual(validateState({ mode: 'sentence' }), { mode: 'sentence' });
  assert.throws(
    () => validateState({ vectors: { source: 'a model' } }),
    /vectors\.source must be one of random, text-model, trained-head/,
  );
  assert.throws(
    () => validateState({ vectors: { source: 'trained-head', layer: -1 } }),
    /vectors\.layer must be a whole number from 0 to 63/,
  );
  assert.throws(
    () => validateState({ vectors: { source: 'trained-head', example: 'gpt2' } }),
    /vectors\.example must be one of induction, text/,
  );
  assert.throws(
    () => validateState({ vectors: { source: 'trained-head', __proto__: null, constructor: 1 } }),
    /not allowed/,
  );
});

test('what X cannot follow (a new sentence, seed, d_model or head count) leaves the trained head; an edited cell does not', async () => {
  const start = reconcile((await inductionHead(1, 0)).state, fill, embed);
  const trainedX = start.matrices.X.data;
  const edited = reconcile(setCell(start, 'X', 0, 0, 0.5), fill, embed);
  assert.equal(edited.vectors.source, 'trained-head', 'an edit keeps the head: it is still its X, changed by hand');
  const changes = {
    sentence: setSentence(start, 'the cat sat'),
    seed: { ...start, seed: 7 },
    dModel: { ...start, dModel: 16 },
    heads: { ...start, heads: 3 },
  };
  for (const [what, next] of Object.entries(changes)) {
    const s = reconcile(next, fill, embed);
    assert.deepEqual(s.vectors, { source: 'random', left: 'trained-head' }, what);
    const randomX = embed(s).data;
    assert.deepEqual(s.matrices.X.data, randomX, `${what}: X is made from the words again`);
    assert.notDeepEqual(s.matrices.X.data.slice(0, 8), trainedX.slice(0, 8));
  }
  const sameW = reconcile(changes.sentence, fill, embed);
  assert.deepEqual(sameW.matrices.WQ, start.matrices.WQ, 'the weights stay the head’s');
});
