// "Open a checkpoint" in headless Chromium under the strict CSP, with GPT-2-shaped checkpoints
// written at test time by the project's own writer (tests/js/support/gpt2-checkpoint.mjs) into a
// copy of the site (web/ linked, models/ added) and deleted afterwards: opened from the address
// (#view=train&checkpoint=models/small/) and from the file chooser; its tokens are GPT-2's; the
// sweep's grid, the generated text and the explorer's weights equal what the JS API computes in
// the page from the same file; refusals name their reason; Cancel stops an open; axe finds nothing
// and nothing scrolls sideways at 375 px. With ATTN_LONG=1 (npm run test:long) also a
// GPT-2-small-shaped checkpoint of 548 MB with its mask buffers: the 12 × 12 sweep and generation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertClose, collectProblems, launch, readHeatmap, recordProblems, screenshot } from './helpers.mjs';
import { GPT2_SMALL, writeGpt2Checkpoint } from '../js/support/gpt2-checkpoint.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const SMALL = { vocabSize: 50257, contextLength: 64, dModel: 32, numLayers: 3, numHeads: 4 };
const hfConfig = (c) => ({
  model_type: 'gpt2',
  vocab_size: c.vocabSize,
  n_positions: c.contextLength,
  n_embd: c.dModel,
  n_layer: c.numLayers,
  n_head: c.numHeads,
});
const LONG = process.env.ATTN_LONG === '1';
const GPT2_MEDIUM = { vocabSize: 50257, contextLength: 1024, dModel: 1024, numLayers: 24, numHeads: 16 };

let env;
let site;
before(async () => {
  // The site as served, plus models/: the checkpoints a teacher would host.
  site = mkdtempSync(path.join(tmpdir(), 'attention-site-'));
  for (const name of readdirSync(WEB)) symlinkSync(path.join(WEB, name), path.join(site, name));
  const put = (folder, config, options) => {
    mkdirSync(path.join(site, 'models', folder), { recursive: true });
    writeGpt2Checkpoint(path.join(site, 'models', folder, 'model.safetensors'), config, options);
    writeFileSync(path.join(site, 'models', folder, 'config.json'), JSON.stringify(hfConfig(config)));
  };
  put('small', SMALL);
  if (LONG) {
    put('gpt2', GPT2_SMALL);
    put('gpt2-medium', GPT2_MEDIUM, { dtype: 'F16' });
  }
  env = await launch({ root: site });
});
after(async () => {
  await env?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

async function openPage(hash, { width = 1280, colorScheme = 'light' } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height: 900 }, colorScheme });
  const page = await context.newPage();
  const problems = [];
  await recordProblems(page, problems);
  await page.goto(env.url + hash);
  await page.waitForSelector('[data-training][data-ready="true"]');
  return { page, problems, context };
}
const opened = (page, timeout = 60_000) =>
  page
    .waitForSelector('[data-checkpoint][data-state="opened"], [data-checkpoint][data-state="error"]', { timeout })
    .then(() => page.getAttribute('[data-checkpoint]', 'data-state'));
const status = (page) => page.textContent('[data-checkpoint-status]');
// Chooses files and waits for the panel to settle on a new outcome: 'opened' or 'error'.
async function choose(page, files) {
  const before = await status(page);
  await page.setInputFiles('[data-checkpoint-files]', files);
  await page.waitForFunction(
    (old) => {
      const panel = document.querySelector('[data-checkpoint]');
      const text = panel.querySelector('[data-checkpoint-status]').textContent;
      return panel.dataset.state === 'opened' || (panel.dataset.state === 'error' && text !== old);
    },
    before,
    { timeout: 60_000 },
  );
  return page.getAttribute('[data-checkpoint]', 'data-state');
}

// The model in the page, through the JS API, from the same file the panel opened (window.__model),
// with the tokenizer (window.__tokenizer) and the sweep's sequences (window.__sweepTokens).
const loadInPage = (page, folder) =>
  page.evaluate(async (f) => {
    const { createAttention } = await import('/lib/attention.js');
    window.__tokenizer = await import('/lib/gpt2-tokenizer.js');
    window.__sweepTokens = (await import('/lib/model-host-session.js')).sweepTokens;
    window.__attn ??= await createAttention();
    window.__model = await window.__attn.loadTransformer(`/models/${f}/model.safetensors`);
  }, folder);

// Layer 3 · head 2 shown in the explorer: its weights are the model's attention, also for a sentence typed there.
async function checkExplorerHead(page, sentence) {
  await page.selectOption('[data-checkpoint-layer]', '2');
  await page.selectOption('[data-checkpoint-head]', '1');
  await page.click('[data-action="checkpoint-explorer"]');
  await page.waitForSelector('#app[data-ready="true"] [data-vector-source]');
  assert.equal(await page.inputValue('[data-vector-source]'), 'checkpoint');
  const attention = (text) =>
    page.evaluate((t) => {
      const ids = window.__tokenizer.encode(t).slice(0, 24);
      const a = window.__model.forward(ids).attentions[2];
      const T = ids.length;
      return { T, data: Array.from(a.data.subarray(T * T, 2 * T * T)) };
    }, text);
  const first = await attention(sentence);
  const weights = await readHeatmap(page, 'weights');
  assert.deepEqual(weights.shape, [first.T, first.T]);
  assertClose(weights.data, first.data, { atol: 1e-4, rtol: 0, label: 'explorer weights vs layer 3 head 2' });
  assert.match(await page.textContent('.vectors-note'), /layer 3 \u00b7 head 2 of small/);
  // A new sentence is read again by the checkpoint.
  const text = 'The cat sat on the mat because it was tired';
  await page.fill('input#sentence', text);
  await page.waitForFunction(
    (n) =>
      document.querySelector('[data-heatmap="weights"]')?.dataset.rows === String(n) &&
      !document.querySelector('.vectors-note').textContent.includes('Reading'),
    10,
  );
  await page.waitForFunction(() => !/stale|Reading/.test(document.querySelector('#sentence-help').textContent));
  const second = await attention(text);
  assertClose((await readHeatmap(page, 'weights')).data, second.data, {
    atol: 1e-4,
    rtol: 0,
    label: 'after typing a new sentence',
  });
}

test(
  '#checkpoint= opens a folder of the site: GPT-2 tokens, the sweep, generation and the explorer are the model’s',
  { timeout: 300_000 },
  async () => {
    const { page, problems, context } = await openPage('#view=train&checkpoint=models/small/');
    assert.equal(await opened(page), 'opened', await status(page));
    assert.match(
      await page.textContent('.checkpoint-summary'),
      /small is open: 3 layers of 4 heads, d_model 32, .* a context of 64 tokens/,
    );
    const bar = await page.$eval('[data-checkpoint-progress]', (p) => [p.value, p.max]);
    assert.equal(bar[0], bar[1], 'the progress bar ends full');
    const size = readFileSync(path.join(site, 'models/small/model.safetensors')).length;
    assert.equal(bar[1], size);
    // The sentence in GPT-2's pieces, as GPT-2's vocabulary writes them.
    const sentence = await page.inputValue('.checkpoint-sentence');
    const pieces = await page.$$eval('[data-checkpoint-tokens] li', (ls) => ls.map((l) => l.textContent));
    await loadInPage(page, 'small');
    const want = await page.evaluate(
      (text) => window.__tokenizer.tokenPieces(window.__tokenizer.encode(text)),
      sentence,
    );
    assert.deepEqual(pieces, want);
    assert.ok(pieces.includes('ĠMary'));

    await page.click('[data-action="checkpoint-sweep"]');
    await page.waitForSelector('[data-sweep][data-state="done"]', { timeout: 120_000 });
    const grid = await readHeatmap(page, 'checkpoint-sweep');
    assert.deepEqual(grid.shape, [3, 4]);
    const expected = await page.evaluate(() => {
      const { __attn: attn, __model: model, __sweepTokens: sweepTokens } = window;
      const sums = new Float64Array(12);
      const counts = new Float64Array(12);
      for (const tokens of sweepTokens(attn, 50257, { repeat: 24, count: 8, seed: 0 })) {
        model.forward(tokens).attentions.forEach((a, l) => {
          const s = attn.headScores(tokens, a);
          for (let h = 0; h < 4; h++) {
            sums[l * 4 + h] += s.induction[h] * s.queries.induction[h];
            counts[l * 4 + h] += s.queries.induction[h];
          }
        });
      }
      return Array.from(sums, (x, i) => x / counts[i]);
    });
    assertClose(grid.data, expected, { atol: 1e-6, rtol: 0, label: 'induction scores' });

    assert.equal(await page.getAttribute('[data-generate]', 'data-model'), 'checkpoint');
    await page.click('[data-action="generate"]');
    await page.waitForFunction(() => document.querySelector('[data-generate]').dataset.running === 'false', null, {
      timeout: 120_000,
    });
    const tokens = (await page.getAttribute('[data-generated]', 'data-tokens')).split(' ').map(Number);
    const prompt = await page.inputValue('[data-generate] textarea');
    const generated = await page.evaluate(
      (text) =>
        Array.from(
          window.__model.generate(window.__tokenizer.encode(text), { maxNewTokens: 20, temperature: 0.8, seed: 0 })
            .tokens,
        ),
      prompt,
    );
    assert.deepEqual(tokens, generated);
    assert.ok(Number(await page.getAttribute('[data-cache-difference]', 'data-value')) < 1e-4);
    assert.equal(
      await page.textContent('[data-generated]'),
      await page.evaluate((ids) => window.__tokenizer.decode(ids), generated),
    );
    await page.$eval('[data-checkpoint]', (e) => e.scrollIntoView());
    await screenshot(page, 'checkpoint-open-1280-light');
    await page.$eval('[data-sweep]', (e) => e.scrollIntoView());
    await screenshot(page, 'checkpoint-sweep-1280-light');

    await checkExplorerHead(page, sentence);
    await screenshot(page, 'checkpoint-explorer-1280-light');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  },
);

test(
  'the file chooser opens both files; refusals say why; Cancel stops an open; axe and 375 px',
  { timeout: 300_000 },
  async () => {
    const { page, problems, context } = await openPage('#view=train', { width: 375, colorScheme: 'dark' });
    const dir = path.join(site, 'models/small');
    const weights = path.join(dir, 'model.safetensors');
    assert.equal(await choose(page, [weights]), 'error');
    assert.match(await status(page), /config\.json as well/);
    const config = (extra) => ({
      name: 'config.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ ...hfConfig(SMALL), ...extra })),
    });
    const file = { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: readFileSync(weights) };
    assert.equal(await choose(page, [file, config({ model_type: 'llama' })]), 'error');
    assert.match(await status(page), /not a GPT-2 checkpoint this page can open: config\.model_type must be 'gpt2'/);
    assert.equal(await choose(page, [file, config({ n_embd: 8192, n_layer: 40, n_head: 64 })]), 'error');
    assert.match(await status(page), /too large for this tab\u2019s memory/);
    assert.equal(await choose(page, [file, config({})]), 'opened', await status(page));
    // A slow server: Cancel while the file is on its way.
    const slow = await context.newPage();
    const slowProblems = [];
    await recordProblems(slow, slowProblems);
    await slow.route('**/models/slow/**', async (route) => {
      await new Promise((resolve) => {
        setTimeout(resolve, 3000);
      });
      const file = route.request().url().endsWith('config.json') ? 'config.json' : 'model.safetensors';
      try {
        await route.fulfill({ body: readFileSync(path.join(dir, file)) });
      } catch {
        // the page (or the whole test) is gone by now
      }
    });
    await slow.goto(`${env.url}#view=train&checkpoint=models/slow/`);
    await slow.waitForSelector('[data-checkpoint][data-state="opening"]');
    await slow.click('[data-action="checkpoint-cancel"]');
    await slow.waitForSelector('[data-checkpoint][data-state="error"]', { timeout: 30_000 });
    assert.match(await status(slow), /cancelled; nothing is open/);
    // The one request Cancel aborted is expected to fail; nothing else may.
    assert.deepEqual(
      slowProblems.filter((p) => !/models\/slow\/.* net::ERR_ABORTED/.test(p)),
      [],
    );
    await slow.close();
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () =>
      (await window.axe.run(document.querySelector('.checkpoint-panels'))).violations.map(
        (v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`,
      ),
    );
    assert.deepEqual(violations, []);
    const { scroll, client } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    assert.ok(scroll <= client + 1, `sideways scrolling at 375 px: ${scroll} > ${client}`);
    await page.$eval('[data-checkpoint]', (e) => e.scrollIntoView());
    await screenshot(page, 'checkpoint-375-dark');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  },
);

test('a second choice while one opens: the panel shows only the newest open, never the first one’s cancel', async () => {
  const { page, problems, context } = await openPage('#view=train');
  const weights = readFileSync(path.join(site, 'models/small/model.safetensors'));
  const files = [
    { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: weights },
    { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(hfConfig(SMALL))) },
  ];
  await page.evaluate(() => {
    const panel = document.querySelector('[data-checkpoint]');
    window.__states = [];
    new MutationObserver(() => window.__states.push(panel.dataset.state)).observe(panel, {
      attributes: true,
      attributeFilter: ['data-state'],
    });
  });
  await page.setInputFiles('[data-checkpoint-files]', files);
  await page.setInputFiles('[data-checkpoint-files]', files);
  assert.equal(await opened(page), 'opened', await status(page));
  assert.ok(!(await page.evaluate(() => window.__states)).includes('error'), await status(page));
  assert.equal(await status(page), '');
  assert.match(await page.textContent('.checkpoint-summary'), /3 layers of 4 heads/);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test(
  'a GPT-2-small-shaped checkpoint (548 MB with its masks): the 12 × 12 sweep and generation',
  { skip: !LONG && 'ATTN_LONG=1 (npm run test:long) writes and opens the 548 MB file', timeout: 1_800_000 },
  async () => {
    const { page, problems, context } = await openPage('#view=train&checkpoint=models/gpt2/');
    assert.equal(await opened(page, 900_000), 'opened', await status(page));
    assert.match(
      await page.textContent('.checkpoint-summary'),
      /12 layers of 12 heads, d_model 768, 124[\u2009, ]?439[\u2009, ]?808 parameters/,
    );
    await page.click('[data-action="checkpoint-sweep"]');
    await page.waitForSelector('[data-sweep][data-state="done"]', { timeout: 900_000 });
    const grid = await readHeatmap(page, 'checkpoint-sweep');
    assert.deepEqual(grid.shape, [12, 12]);
    const outlined = await page.$$eval('[data-heatmap="checkpoint-sweep"] td.hl', (tds) =>
      tds.map((td) => `${td.dataset.row}.${td.dataset.col}`),
    );
    assert.deepEqual(
      outlined.sort(),
      ['5.1', '5.5', '6.9', '7.10', '7.2'].sort(),
      'the induction heads reported for GPT-2 small',
    );
    await page.fill('[data-generate] input[type="number"] >> nth=0', '3');
    await page.click('[data-action="generate"]');
    await page.waitForFunction(() => document.querySelector('[data-generate]').dataset.running === 'false', null, {
      timeout: 900_000,
    });
    assert.equal(await page.getAttribute('[data-generated]', 'data-new'), '3');
    assert.ok(Number(await page.getAttribute('[data-cache-difference]', 'data-value')) < 1e-3);
    const bytes = Number(await page.getAttribute('[data-kv-cache]', 'data-bytes'));
    const length = Number(await page.getAttribute('[data-kv-cache]', 'data-length'));
    assert.equal(bytes, 73728 * length, 'GPT-2 small keeps 73 728 bytes per token');
    await page.$eval('[data-sweep]', (e) => e.scrollIntoView());
    await screenshot(page, 'checkpoint-gpt2-sweep');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  },
);

test(
  'a GPT-2-medium-shaped checkpoint (355 M parameters, F16 on disk) opens in the tab’s 4 GiB and generates',
  { skip: !LONG && 'ATTN_LONG=1 (npm run test:long)', timeout: 1_800_000 },
  async () => {
    const { page, problems, context } = await openPage('#view=train&checkpoint=models/gpt2-medium/');
    assert.equal(await opened(page, 1_200_000), 'opened', await status(page));
    assert.match(
      await page.textContent('.checkpoint-summary'),
      /24 layers of 16 heads, d_model 1024, 354[\u2009, ]?823[\u2009, ]?168 parameters/,
    );
    await page.fill('[data-generate] input[type="number"] >> nth=0', '2');
    await page.click('[data-action="generate"]');
    await page.waitForFunction(() => document.querySelector('[data-generate]').dataset.running === 'false', null, {
      timeout: 900_000,
    });
    assert.equal(await page.getAttribute('[data-generated]', 'data-new'), '2');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  },
);
