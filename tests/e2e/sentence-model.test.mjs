// The trained text model reads the learner's own sentence, in headless Chromium under the page's
// strict CSP: in the training view, "Your text" shows every layer's and head's real attention on
// it (checked against transformer.forward in the page), names characters outside the vocabulary
// and clamps long text to the context; in the explorer's sentence mode, "Token vectors from: the
// trained text model" makes X and W the model's, so the explorer's weights are the model's
// attention probabilities for the typed sentence; both also inside <attention-explorer> and the
// iframe page; axe-core finds no violations; screenshots at 1400 and 375 px, light and dark.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { assertClose, collectProblems, launch, openExplorer, readHeatmap, SCREENSHOTS, unfold } from './helpers.mjs';
import { charVocabulary } from '../../web/lib/training-data.js';
import { TINY_CORPUS } from '../../web/lib/tiny-corpus.js';
import { charTokens } from '../../web/ui/model/char-tokens.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

async function axe(page, what) {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () =>
    (await window.axe.run(document)).violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`,
    ),
  );
  assert.deepEqual(violations, [], what);
}

// The text model's attention on `text` ([layer] → { data, shape [H, T, T] }), computed in the page
// by the transformer API from web/trained/text.safetensors, and the ids it read.
async function modelAttention(page, text, limit) {
  const vocabulary = charVocabulary(TINY_CORPUS).chars;
  const { ids } = charTokens(text, vocabulary, limit);
  return page.evaluate(
    async ({ ids, vocabulary }) => {
      const { createAttention } = await import('/lib/attention.js');
      const { decodeSafetensors } = await import('/lib/safetensors.js');
      const state = decodeSafetensors(new Uint8Array(await (await fetch('/trained/text.safetensors')).arrayBuffer()));
      const attn = await createAttention();
      const model = attn.transformer({
        vocabSize: vocabulary.length,
        contextLength: 32,
        dModel: 32,
        numLayers: 2,
        numHeads: 2,
        mlp: false,
        layerNorm: true,
        tieEmbeddings: false,
      });
      model.loadState(state);
      const out = model.forward(ids).attentions.map((a) => ({ data: Array.from(a.data), shape: a.shape }));
      model.dispose();
      return { ids, attentions: out };
    },
    { ids, vocabulary },
  );
}

const headOf = (a, h) => {
  const T = a.shape[1];
  return a.data.slice(h * T * T, (h + 1) * T * T);
};

async function shot(locator, name) {
  await locator.scrollIntoViewIfNeeded();
  await locator.screenshot({ path: `${SCREENSHOTS}${name}.png` });
}

// Every layer's and head's map of "Your text" is the model's attention on `text`, with a
// previous-token score in [0, 1]; a space is labelled ␣.
async function checkYourTextMaps(page, text) {
  const want = await modelAttention(page, text, 32);
  for (let l = 0; l < 2; l++) {
    for (let h = 0; h < 2; h++) {
      const map = await readHeatmap(page, `your-l${l}-h${h}`);
      assert.deepEqual(map.shape, [text.length, text.length]);
      assertClose(map.data, headOf(want.attentions[l], h), {
        atol: 1e-7,
        rtol: 0,
        label: `your text, layer ${l} head ${h}`,
      });
      const score = Number(
        await page.getAttribute(`[data-your-head][data-layer="${l}"][data-head="${h}"]`, 'data-previous-token'),
      );
      assert.ok(score >= 0 && score <= 1, `previous-token score ${score}`);
    }
  }
  const labels = await page.$$eval('[data-heatmap="your-l0-h0"] th.col-label', (ths) => ths.map((t) => t.textContent));
  assert.equal(labels[5], '␣', 'a space is labelled ␣');
}

// Characters outside the vocabulary are named and read as the documented replacement; long text
// is clamped to the context length, and said so.
async function checkUnknownCharactersAndLongText(page, input) {
  // Characters outside the vocabulary: named, and read as the documented replacement.
  await page.fill(input, 'Bob zips!');
  await page.waitForFunction(() => document.querySelector('[data-your-text]').dataset.tokens === 'bob  ips ');
  const message = await page.textContent('.your-text-message');
  assert.match(message, /\u201cB\u201d as \u201cb\u201d/);
  assert.match(message, /\u201cz\u201d as \u201c\u2423\u201d/);
  // Long text: clamped to the context length, and said so.
  await page.fill(input, 'Oskar went to the market. At the market, Oskar sold a green bell.');
  await page.waitForFunction(() => document.querySelector('[data-your-text]').dataset.tokens?.length === 32);
  assert.match(
    await page.textContent('.your-text-message'),
    /Only the first 32 of your 65 characters are shown: the model\u2019s context length is 32/,
  );
  assert.deepEqual((await readHeatmap(page, 'your-l1-h1')).shape, [32, 32]);
}

// Screenshots of the "Your text" panel at 1400 px, light and dark, then at 375 px, dark and light.
async function shootYourText(page) {
  const panel = page.locator('[data-your-text]');
  await shot(panel, 'your-text-1400-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForSelector('[data-training][data-theme="dark"]');
  await shot(panel, 'your-text-1400-dark');
  await page.setViewportSize({ width: 375, height: 800 });
  await shot(panel, 'your-text-375-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForSelector('[data-training][data-theme="light"]');
  await shot(panel, 'your-text-375-light');
}

test(
  'training view: "Your text" shows the text model’s real attention on the learner’s sentence',
  { timeout: 300_000 },
  async () => {
    const { page, problems, context } = await openExplorer(env, { width: 1400, path: '#view=train' });
    await page.waitForSelector('[data-training][data-ready="true"]');
    assert.equal(await page.isHidden('[data-your-text]'), true, 'hidden for the repeated-token task');
    await page.click('[data-action="open-example"][data-example="text"]');
    await page.waitForSelector('.examples-panel[data-example="text"]');
    await page.waitForSelector('[data-your-text][data-tokens]');
    const input = '[data-your-text] input';
    const text = 'Oskar sold the bell. Oskar sold';
    await page.fill(input, text);
    await page.waitForFunction((t) => document.querySelector('[data-your-text]').dataset.tokens === t, text);
    await checkYourTextMaps(page, text);
    await checkUnknownCharactersAndLongText(page, input);
    await page.fill(input, text);
    await page.waitForFunction((t) => document.querySelector('[data-your-text]').dataset.tokens === t, text);
    await axe(page, 'training view with "Your text"');
    await shootYourText(page);
    await axe(page, 'training view with "Your text", narrow');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  },
);

// Reads the explorer's weights for `text` after choosing the model's vectors (in `scope`: the page
// or the element's shadow root), and checks them against the model.
async function chooseModelAndType(page, root, text, { layer = 1, head = 0 } = {}) {
  const q = (sel) => `${root}${sel}`;
  await page.selectOption(q('[data-vector-source]'), 'text-model');
  await page.waitForSelector(q('.vector-source[data-loaded="true"]'));
  await page.selectOption(q('[data-vector-layer]'), String(layer));
  await page.selectOption(q('[data-vector-head]'), String(head));
  await page.fill(q('input#sentence'), text);
}

test(
  'explorer: token vectors from the trained text model give the model’s own attention probabilities',
  { timeout: 300_000 },
  async () => {
    const { page, problems, context } = await openExplorer(env, { width: 1400 });
    assert.equal(await page.inputValue('[data-vector-source]'), 'random');
    assert.match(await page.textContent('.vector-note'), /Random per word/);
    const text = 'Mira gave the bell to Tobin.';
    await chooseModelAndType(page, '', text, { layer: 1, head: 0 });
    await page.waitForFunction(() => document.querySelector('[data-heatmap="weights"]').dataset.rows === '24');
    const weights = await readHeatmap(page, 'weights');
    assert.deepEqual(weights.shape, [24, 24], 'clamped to the explorer’s 24 tokens');
    const want = await modelAttention(page, text, 24);
    assertClose(weights.data, headOf(want.attentions[1], 0), {
      atol: 1e-6,
      rtol: 0,
      label: 'explorer weights vs the model (layer 1, head 0)',
    });
    // The option's value counts from 0 (the state's layer 1); the page counts from 1.
    assert.match(
      await page.textContent('.vectors-note'),
      /Trained vectors: each row of X is what layer 2\u2019s attention sees/,
    );
    assert.deepEqual(await page.$$eval('[data-vector-layer] option', (o) => o.map((x) => [x.value, x.textContent])), [
      ['0', 'Layer 1'],
      ['1', 'Layer 2'],
    ]);
    assert.match(
      await page.textContent('#sentence-help'),
      /24 characters, one token each \(at most 24\)\. .*Only the first 24 of your 28 characters/,
    );
    assert.equal(await page.isHidden('.positional-field'), true);
    await page.locator('.vector-source').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}explorer-trained-vectors-1400-light.png` });
    await axe(page, 'explorer with trained vectors');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForSelector('#app[data-theme="dark"]');
    await page.screenshot({ path: `${SCREENSHOTS}explorer-trained-vectors-1400-dark.png` });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.locator('.vector-source').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}explorer-trained-vectors-375-dark.png` });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForSelector('#app[data-theme="light"]');
    await page.locator('[data-matrix="X"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}explorer-trained-vectors-375-light.png` });
    // Back to random vectors: words again, the earlier sizes, the random note.
    await page.selectOption('[data-vector-source]', 'random');
    await page.waitForFunction(() => document.querySelector('[data-heatmap="weights"]').dataset.rows === '7'); // Mira gave the bell to Tobin .
    assert.match(await page.textContent('.vector-note'), /Random per word/);
    assert.match(await page.textContent('.vectors-note'), /random but fixed/);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  },
);

test('trained vectors inside <attention-explorer> and the iframe page', { timeout: 300_000 }, async () => {
  const { page, problems, context } = await openExplorer(env, { width: 1000 });
  await page.evaluate(async () => {
    await import('/attention-explorer.js');
    const e = document.createElement('attention-explorer');
    e.id = 'lesson';
    document.body.append(e);
    await e.ready;
  });
  await chooseModelAndType(page, '#lesson ', 'the bell', { layer: 0, head: 1 });
  await page.waitForFunction(() => document.getElementById('lesson').state.tokens.join('') === 'the␣bell');
  const state = await page.evaluate(() => document.getElementById('lesson').state);
  assert.deepEqual([state.dModel, state.dk, state.mask.kind, state.vectors.source], [33, 16, 'causal', 'text-model']);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();

  const frame = await openExplorer(env, { width: 375, height: 800, path: 'embed.html' });
  await unfold(frame.page);
  await chooseModelAndType(frame.page, '', 'the bell', { layer: 1, head: 1 });
  await frame.page.waitForFunction(() => document.querySelector('[data-heatmap="weights"]').dataset.rows === '8');
  const weights = await readHeatmap(frame.page, 'weights');
  const want = await modelAttention(frame.page, 'the bell', 24);
  assertClose(weights.data, headOf(want.attentions[1], 1), {
    atol: 1e-6,
    rtol: 0,
    label: 'iframe page: explorer vs model',
  });
  assert.deepEqual(await collectProblems(frame.page, frame.problems), []);
  await frame.context.close();
});

test(
  'while training, no progress message redraws a heatmap itself: the maps are drawn from the frame queue and still follow',
  { timeout: 300_000 },
  async () => {
    const { page, problems, context } = await openExplorer(env, { width: 1400, path: '#view=train' });
    await page.waitForSelector('[data-training][data-ready="true"]');
    const first = await readHeatmap(page, 'train-l1-h0');
    await page.click('[data-action="train"]');
    // 8 maps per redraw: wait for three rounds of redraws.
    await page.waitForFunction(() => Number(document.querySelector('[data-training]').dataset.mapsDrawn) >= 32, null, {
      timeout: 240_000,
    });
    await page.click('[data-action="pause"]');
    await page.waitForSelector('[data-training][data-running="false"]');
    assert.equal(
      await page.getAttribute('[data-training]', 'data-progress-maps'),
      '0',
      'heatmaps redrawn inside one progress handler',
    );
    const later = await readHeatmap(page, 'train-l1-h0');
    assert.deepEqual(later.shape, first.shape);
    assert.notDeepEqual(later.data, first.data, 'the map follows the training');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  },
);
