// The training view's Generate panel and its new model settings in headless Chromium under the
// strict CSP: on a fresh page, #view=train&example=text then Generate continues the prompt with
// the example's weights exactly as model.generate does in the page; each token's cache length,
// bytes and difference against a full pass are in the hooks; Step adds one token; Stop ends a
// long generation while the page keeps answering, and one before the first token (while training
// pauses) makes none; new tokens, temperature, top-k and seed are clamped and rounded in their
// fields, and Generate sends what they show; positions, key/value heads and the attention
// window travel in the address and reach the model (its cache stops growing at the window); axe
// finds nothing; screenshots at 1400 and 375 px, light and dark.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { collectProblems, launch, openExplorer, screenshot } from './helpers.mjs';
import { createAttention } from '../../web/lib/attention.js';
import { charVocabulary } from '../../web/lib/training-data.js';
import { TINY_CORPUS } from '../../web/lib/tiny-corpus.js';
import { charTokens } from '../../web/ui/model/char-tokens.js';
import { readExample } from '../../web/ui/model/example-files.js';
import { trainerConfig } from '../../web/ui/training/config.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const openTraining = (path, options = {}) =>
  openExplorer(env, { width: 1400, ...options, path }).then(async (r) => {
    await r.page.waitForSelector('[data-training][data-ready="true"]');
    await r.page.waitForFunction(() => !document.querySelector('[data-action="generate"]').disabled);
    return r;
  });
const finished = (page) =>
  page.waitForFunction(() => document.querySelector('[data-generate]').dataset.running === 'false', null, {
    timeout: 120_000,
  });
const generated = (page) =>
  page.$eval('[data-generated]', (e) => ({
    text: e.textContent,
    tokens: e.dataset.tokens.split(' ').map(Number),
    fresh: Number(e.dataset.new),
  }));
// The number fields' notes on what they clamped, as shown.
const notes = (page) =>
  page.$$eval('[data-generate] [data-clamp-note]:not([hidden])', (all) => all.map((n) => n.textContent));
const cache = (page) =>
  page.$eval('[data-kv-cache]', (e) => ({ length: Number(e.dataset.length), bytes: Number(e.dataset.bytes) }));

test('#view=train&example=text, then Generate: model.generate’s tokens, the cache in the hooks, a full pass that agrees', async () => {
  const { page, problems, context } = await openTraining('#view=train&example=text');
  await page.waitForFunction(() => /loaded/.test(document.querySelector('.run-status').textContent));
  await page.fill('[data-generate] input[type="number"] >> nth=1', '0.9'); // temperature
  await page.click('[data-action="generate"]');
  await finished(page);
  const out = await generated(page);
  assert.ok(out.text.startsWith('Oskar went to the '), out.text);
  // model.generate on the example's weights, here in Node (the bundled site serves no ui/ modules).
  const { state, settings } = readExample(
    new Uint8Array(readFileSync(new URL('../../web/trained/text.safetensors', import.meta.url))),
  );
  const chars = charVocabulary(TINY_CORPUS).chars;
  const model = (await createAttention()).transformer({ ...trainerConfig(settings).model, vocabSize: chars.length });
  model.loadState(state);
  const expected = Array.from(
    model.generate(charTokens('Oskar went to the ', chars, 31).ids, { maxNewTokens: 20, temperature: 0.9, seed: 0 })
      .tokens,
  );
  model.dispose();
  assert.deepEqual(out.tokens, expected);
  const c = await cache(page);
  assert.equal(c.length, out.tokens.length - 1, 'every token but the last drawn has been appended');
  assert.equal(c.bytes, 2 * 2 * 2 * 16 * c.length * 4);
  const difference = Number(await page.getAttribute('[data-cache-difference]', 'data-value'));
  assert.ok(difference >= 0 && difference < 1e-4, `difference ${difference}`);
  assert.equal(await page.getAttribute('[data-generate]', 'data-reason'), 'length', 'the 32-token context ends it');
  await page.focus('[data-cache-difference]');
  assert.match(await page.textContent('[data-generate] .lesson-explain'), /full pass/);
  await page.focus('[data-heatmap="gen-attention"] td[data-row="0"][data-col="0"]');
  assert.match(await page.textContent('[data-generate] .lesson-explain'), /Head 1 of layer 2/);
  await page.$eval('[data-generate]', (e) => e.scrollIntoView());
  await screenshot(page, 'generate-text-1400-light');
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () =>
    (await window.axe.run(document.querySelector('[data-generate]'))).violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`,
    ),
  );
  assert.deepEqual(violations, []);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Step adds one token at a time and Stop ends a long generation while the page answers', async () => {
  const { page, problems, context } = await openTraining('#view=train', { colorScheme: 'dark' });
  for (let k = 1; k <= 3; k++) {
    await page.click('[data-action="generate-step"]');
    await finished(page);
    assert.equal((await generated(page)).fresh, k);
  }
  const prompt = await page.inputValue('[data-generate] textarea');
  assert.equal((await generated(page)).tokens.length, prompt.split(' ').length + 3);
  // A generation of many tokens, each checked against a full pass, stopped halfway.
  await page.fill('[data-generate] textarea', 'B 3');
  await page.fill('[data-generate] input[type="number"] >> nth=0', '25');
  // Stop pressed as soon as the second token shows (a tiny model makes a token in well under a millisecond).
  await page.evaluate(() => {
    const out = document.querySelector('[data-generated]');
    new MutationObserver((_, observer) => {
      if (Number(out.dataset.new) < 2) return;
      observer.disconnect();
      document.querySelector('[data-action="generate-stop"]').click();
    }).observe(out, { attributes: true });
  });
  await page.click('[data-action="generate"]');
  await finished(page);
  const reason = await page.getAttribute('[data-generate]', 'data-reason');
  const fresh = (await generated(page)).fresh;
  assert.ok(reason === 'cancelled' || (reason === 'done' && fresh === 25), `${reason} after ${fresh}`);
  await page.$eval('[data-generate]', (e) => e.scrollIntoView());
  await screenshot(page, 'generate-repeated-1400-dark');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Generate pressed twice while training runs starts one generation: the button is busy while training pauses', async () => {
  const { page, problems, context } = await openTraining('#view=train');
  await page.click('[data-action="train"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-training]').dataset.step) > 20);
  await page.fill('[data-generate] input[type="number"] >> nth=0', '5');
  const starts = await page.evaluate(async () => {
    const panel = document.querySelector('[data-generate]');
    const button = panel.querySelector('[data-action="generate"]');
    let count = 0;
    new MutationObserver(() => {
      if (panel.dataset.running === 'true') count++;
    }).observe(panel, { attributes: true, attributeFilter: ['data-running'] });
    button.click();
    await new Promise((resolve) => {
      setTimeout(resolve, 0);
    });
    const busy = button.disabled;
    button.click();
    await new Promise((resolve) => {
      const done = () => (panel.dataset.running === 'false' ? resolve() : setTimeout(done, 20));
      setTimeout(done, 20);
    });
    return { count, busy };
  });
  assert.deepEqual(starts, { count: 1, busy: true });
  assert.equal(await page.getAttribute('[data-generate]', 'data-reason'), 'done');
  assert.equal((await generated(page)).fresh, 5);
  assert.match(await page.textContent('[data-generate] [role="status"]'), /\b5\b/);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Stop pressed before the first token, while training pauses or not, cancels the generation: no token is made', async () => {
  const { page, problems, context } = await openTraining('#view=train');
  const status = () => page.textContent('[data-generate] .run-status');
  // Generate and Stop in one turn of the page: Stop lands in the pause before the first token.
  const generateThenStop = () =>
    page.evaluate(async () => {
      const panel = document.querySelector('[data-generate]');
      panel.querySelector('[data-action="generate"]').click();
      const busy = panel.dataset.running;
      panel.querySelector('[data-action="generate-stop"]').click();
      await new Promise((resolve) => {
        const done = () => (panel.dataset.running === 'false' ? resolve() : setTimeout(done, 20));
        setTimeout(done, 20);
      });
      return { busy, reason: panel.dataset.reason, tokens: panel.querySelector('[data-generated]').dataset.tokens };
    });
  await page.click('[data-action="train"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-training]').dataset.step) > 20);
  assert.deepEqual(await generateThenStop(), { busy: 'true', reason: 'cancelled', tokens: undefined });
  assert.equal(await status(), 'Stopped after 0 tokens.');
  assert.equal(await page.getAttribute('[data-training]', 'data-running'), 'false', 'training paused all the same');
  assert.deepEqual(await generateThenStop(), { busy: 'true', reason: 'cancelled', tokens: undefined });
  assert.equal(await status(), 'Stopped after 0 tokens.');
  // The panel is idle again: Generate runs to the end.
  await page.click('[data-action="generate"]');
  await finished(page);
  assert.equal((await generated(page)).fresh, 20);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('top-k and seed are brought into their fields’ ranges, and Generate uses what the fields show', async () => {
  const { page, problems, context } = await openTraining('#view=train');
  const panel = page.locator('[data-generate]');
  const topK = panel.getByLabel('Top-k');
  const seed = panel.getByLabel('Seed');
  await page.fill('[data-generate] input[type="number"] >> nth=0', '8');
  // The click on Generate ends the seed's edit: its field clamps what was typed, and the note
  // saying so must not move the button from under the pointer.
  const run = async (k, s) => {
    await topK.fill(k);
    await seed.fill(s);
    await page.click('[data-action="generate"]');
    await finished(page);
    assert.equal(await page.getAttribute('[data-generate]', 'data-reason'), 'done');
    return { topK: await topK.inputValue(), seed: await seed.inputValue(), tokens: (await generated(page)).tokens };
  };
  // 1e20 and 2^32 + 1 are past the fields' largest: top-k every token (never a wrapped small number).
  const huge = await run('1e20', String(2 ** 32 + 1));
  assert.deepEqual([huge.topK, huge.seed], ['100000', '99999']);
  // The notes sit below the run buttons, away from their fields: each names its field.
  assert.deepEqual(await notes(page), [
    'Top-k: 100000000000000000000 is not possible (100000 is the largest value): 100000 is used.',
    'Seed: 4294967297 is not possible (99999 is the largest value): 99999 is used.',
  ]);
  assert.deepEqual((await run('0', '99999')).tokens, huge.tokens, '0 = every token, and the seed shown');
  const rounded = await run('2.6', '7.4');
  assert.deepEqual([rounded.topK, rounded.seed], ['3', '7']);
  assert.deepEqual((await run('3', '7')).tokens, rounded.tokens);
  assert.notDeepEqual((await run('-4', '7')).tokens, rounded.tokens, 'top-k 0 (every token), not 3');
  assert.equal(await topK.inputValue(), '0');
  // An empty seed (nothing typed, or no number) is refused: nothing is generated.
  const before = (await generated(page)).tokens;
  await seed.fill('');
  await page.click('[data-action="generate"]');
  assert.equal(await page.textContent('[data-generate] .run-status'), 'Seed: type a number from 0 to 99999 first.');
  assert.equal(await page.getAttribute('[data-generate]', 'data-running'), 'false');
  assert.deepEqual((await generated(page)).tokens, before);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('new tokens and temperature are brought into their fields’ ranges, and Generate sends what the fields show', async () => {
  const { page, problems, context } = await openTraining('#view=train');
  const panel = page.locator('[data-generate]');
  const count = panel.getByLabel('New tokens');
  const temperature = panel.getByLabel('Temperature');
  // Every generate request as it is posted to the model's Worker (or its in-page port).
  await page.evaluate(() => {
    window.sentRequests = [];
    for (const proto of [Worker.prototype, MessagePort.prototype]) {
      const post = proto.postMessage;
      proto.postMessage = function postMessage(message, ...rest) {
        if (message?.type === 'generate') window.sentRequests.push(message);
        return post.call(this, message, ...rest);
      };
    }
  });
  const sent = () => page.evaluate(() => window.sentRequests.map((m) => [m.maxNewTokens, m.temperature]));
  const run = async (n, T) => {
    await count.fill(n);
    await temperature.fill(T);
    await page.click('[data-action="generate"]');
    await finished(page);
    assert.equal(await page.getAttribute('[data-generate]', 'data-reason'), 'done');
    const shown = [await count.inputValue(), await temperature.inputValue()];
    assert.deepEqual((await sent()).at(-1), shown.map(Number), `sent what the fields show (${shown})`);
    const out = await generated(page);
    assert.equal(out.fresh, Number(shown[0]));
    return { shown, tokens: out.tokens };
  };
  // 0 new tokens and a temperature below 0: the smallest of each, 1 and 0 (greedy).
  assert.deepEqual((await run('0', '-1')).shown, ['1', '0']);
  // 2.5 tokens and a temperature past the largest: 3 tokens at 5, as typed so.
  const clamped = await run('2.5', '7');
  assert.deepEqual(clamped.shown, ['3', '5']);
  assert.deepEqual(await notes(page), [
    'New tokens: 2.5 is not possible (only whole numbers): 3 is used.',
    'Temperature: 7 is not possible (5 is the largest value): 5 is used.',
  ]);
  assert.deepEqual((await run('3', '5')).tokens, clamped.tokens);
  // A temperature keeps two decimals; one too small for them is 0, greedy as the checkbox is.
  assert.deepEqual((await run('6', '0.456')).shown, ['6', '0.46']);
  assert.deepEqual(await notes(page), ['Temperature: 0.456 is not possible (at most 2 decimal places): 0.46 is used.']);
  const zero = await run('6', '0.0001');
  assert.deepEqual(zero.shown, ['6', '0']);
  await panel.getByLabel('Greedy').check();
  await page.click('[data-action="generate"]');
  await finished(page);
  assert.deepEqual((await generated(page)).tokens, zero.tokens);
  assert.deepEqual((await sent()).at(-1), [6, 0]);
  await panel.getByLabel('Greedy').uncheck();
  // An empty field is refused, naming it, and nothing is sent; Step makes one token without a count.
  const requests = (await sent()).length;
  for (const [field, message] of [
    [temperature, 'Temperature: type a number from 0 to 5 first.'],
    [count, 'New tokens: type a number from 1 to 512 first.'],
  ]) {
    await field.fill('');
    await page.click('[data-action="generate"]');
    assert.equal(await page.textContent('[data-generate] .run-status'), message);
    assert.equal((await sent()).length, requests);
    await field.fill(field === count ? '4' : '1');
  }
  await count.fill('');
  const length = (await generated(page)).tokens.length;
  await page.click('[data-action="generate-step"]');
  await finished(page);
  assert.equal((await generated(page)).tokens.length, length + 1);
  assert.deepEqual((await sent()).slice(requests), [[1, 1]]);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('positions, key/value heads and the window travel in the address and reach the model', async () => {
  const { page, problems, context } = await openTraining('#view=train', { width: 375 });
  await page.selectOption('[data-setting="positions"]', 'rope');
  await page.waitForFunction(() => /positions=rope/.test(window.location.hash));
  await page.selectOption('[data-setting="kvHeads"]', '2');
  await page.fill('[data-setting="windowSize"]', '6');
  await page.press('[data-setting="windowSize"]', 'Enter');
  await page.waitForFunction(() => /windowSize=6/.test(window.location.hash) && /kvHeads=2/.test(window.location.hash));
  const hash = await page.evaluate(() => window.location.hash);
  await context.close();
  const again = await openTraining(hash, { width: 375, colorScheme: 'light' });
  const p = again.page;
  assert.equal(await p.inputValue('[data-setting="positions"]'), 'rope');
  assert.equal(await p.inputValue('[data-setting="kvHeads"]'), '2');
  assert.equal(await p.inputValue('[data-setting="windowSize"]'), '6');
  await p.click('[data-action="step"]');
  await p.click('[data-action="generate"]');
  await finished(p);
  const c = await cache(p);
  // 2 layers · 2 key/value heads · head_dim 8 (d_model 32 / 4 heads) · at most 6 positions · 4 bytes
  assert.ok(c.length > 6);
  assert.equal(c.bytes, 2 * 2 * 2 * 8 * 6 * 4);
  const slots = await p.$$eval('[data-heatmap="gen-keys"] tbody th', (ths) => ths.length);
  assert.equal(slots, 6, 'the K cache is a ring buffer of 6 slots');
  const { scroll, client } = await p.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client + 1, `the view scrolls sideways at 375 px: ${scroll} > ${client}`);
  await p.$eval('[data-generate]', (e) => e.scrollIntoView());
  await screenshot(p, 'generate-window-375-light');
  await p.$eval('.model-settings', (e) => e.scrollIntoView());
  await screenshot(p, 'training-settings-375-light');
  assert.deepEqual(await collectProblems(p, [...problems, ...again.problems]), []);
  await again.context.close();
});
