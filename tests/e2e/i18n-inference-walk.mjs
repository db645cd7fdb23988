// The states of the inference lessons (FlashAttention, the KV cache, positions) and of the checkpoint
// panels that the translation tests look at: every tab, each step of the tile trace, the KV cache's
// steps, ring buffer and key/value heads, every explanation (a cell of each map focused), errors.
// After each state the walk calls check(label); the tests pass a check that lists the texts that
// did not go through a catalogue (untranslatedTexts). Used by i18n-inference.test.mjs (the page
// under ?lang=qps).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterFrames } from './helpers.mjs';
import { writeGpt2Checkpoint } from '../js/support/gpt2-checkpoint.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
export const SMALL = { vocabSize: 50257, contextLength: 64, dModel: 32, numLayers: 3, numHeads: 4 };
const hfConfig = (c) => ({
  model_type: 'gpt2',
  vocab_size: c.vocabSize,
  n_positions: c.contextLength,
  n_embd: c.dModel,
  n_layer: c.numLayers,
  n_head: c.numHeads,
});

/** A copy of the site (web/ linked) with models/small/ (a small GPT-2-shaped checkpoint); remove() deletes it. */
export function siteWithCheckpoint() {
  const root = mkdtempSync(path.join(tmpdir(), 'attention-i18n-'));
  for (const name of readdirSync(WEB)) symlinkSync(path.join(WEB, name), path.join(root, name));
  const dir = path.join(root, 'models', 'small');
  mkdirSync(dir, { recursive: true });
  writeGpt2Checkpoint(path.join(dir, 'model.safetensors'), SMALL);
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(hfConfig(SMALL)));
  const bogus = path.join(root, 'bogus.safetensors');
  writeFileSync(bogus, Buffer.from('not a safetensors file at all, just text'));
  return {
    root,
    weights: path.join(dir, 'model.safetensors'),
    config: path.join(dir, 'config.json'),
    bogus,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

// Waits until the page has drawn and every heatmap has its values.
async function settle(page) {
  await afterFrames(page, 2, 30);
  await page.waitForFunction(() => !document.querySelector('[data-heatmap][data-pending]'));
}

async function act(page, action) {
  await action();
  await settle(page);
}

const fill = (page, selector, value) =>
  act(page, async () => {
    await page.fill(selector, value);
    await page.press(selector, 'Enter');
  });

// Focuses the first of `selectors` that is there (a cell or an explained number), then checks.
async function explainEach(page, check, label, selectors) {
  for (const selector of selectors) {
    const found = await page.$(selector);
    if (!found) throw new Error(`${label}: nothing matches ${selector}`);
    await act(page, () => found.focus());
    await check(`${label}, ${selector} explained`);
  }
}

async function openTab(page, id) {
  await page.click(`#lesson-tab-${id}`);
  await page.waitForSelector(`#lesson-panel-${id}:not([hidden]) .lesson-panel`);
  await settle(page);
}

const cell = (map, r, c) => `[data-heatmap="${map}"] td[data-row="${r}"][data-col="${c}"]`;

/** FlashAttention: before the first tile, playing, every step (skipped tiles too), the end, every explanation. */
export async function walkFlash(page, check) {
  await openTab(page, 'flash-attention');
  await act(page, () => page.click('[data-action="flash-reset"]'));
  await check('flash: before the first tile');
  await explainEach(page, check, 'flash', [cell('flash-scores', 0, 0), cell('flash-scores', 0, 3)]);
  await act(page, () => page.click('#lesson-panel-flash-attention button[aria-pressed]'));
  await check('flash: playing');
  await act(page, () => page.click('#lesson-panel-flash-attention button[aria-pressed]'));
  await act(page, () => page.click('[data-action="flash-reset"]'));
  const steps = Number(await page.getAttribute('[data-flash-step]', 'data-steps'));
  for (let s = 1; s <= steps; s++) {
    await act(page, () => page.click('[data-action="flash-step"]'));
    await check(`flash: tile ${s} of ${steps}`);
    if (s <= 2 || s === steps) {
      await explainEach(page, check, `flash tile ${s}`, [
        cell('flash-state', 0, 0),
        cell('flash-state', 0, 1),
        cell('flash-partial', 0, 0),
      ]);
    }
  }
  await explainEach(page, check, 'flash end', [
    cell('flash-tiled', 0, 0),
    cell('flash-naive', 1, 1),
    '[data-flash-difference]',
    '[data-stat="flash-tile-bytes"]',
  ]);
}

/** The KV cache: each token, the ring buffer, a position out of the window, the memory table, GQA and MQA. */
export async function walkKvCache(page, check) {
  await openTab(page, 'kv-cache');
  await check('kv: the last token');
  await explainEach(page, check, 'kv', [
    cell('kv-weights', 0, 0),
    cell('kv-full', 0, 1),
    cell('kv-keys', 0, 0),
    cell('kv-values', 1, 0),
    '[data-stat="kv-cache-bytes"]',
    '[data-stat="kv-difference"]',
    'tr[data-config="mistral-7b"] output',
  ]);
  await act(page, () => page.click('#lesson-panel-kv-cache .lesson-controls button:first-child'));
  await check('kv: one token back');
  await fill(page, '[data-control="kv-window"]', '2');
  await check('kv: a window of 2 (ring buffer)');
  await explainEach(page, check, 'kv window', [cell('kv-weights', 0, 0)]);
  await fill(page, '[data-control="kv-window"]', '0');
  await fill(page, 'tr[data-config="gpt2"] [data-field="bytes"]', '3');
  await explainEach(page, check, 'kv table, 3-byte numbers', ['tr[data-config="gpt2"] output']);
  await act(page, () => page.click('#lesson-panel-kv-cache .kv-memory > button'));
  // Several heads (the "heads" example): grouped-query and multi-query attention.
  await act(page, () => page.selectOption('#preset', 'heads'));
  await check('kv: several heads');
  const kinds = await page.$$eval('[data-control="kv-heads"] option', (os) => os.map((o) => o.value));
  for (const value of kinds.slice(0, -1)) {
    await act(page, () => page.selectOption('[data-control="kv-heads"]', value));
    await check(`kv: ${value} key/value head(s)`);
    await explainEach(page, check, `kv ${value} key/value heads`, [cell('kv-keys', 0, 0), cell('kv-weights', 1, 0)]);
  }
}

/** Positions: the four maps, their spreads, ALiBi per head (a power of two and not), the clocks, an odd d_k. */
export async function walkPositions(page, check) {
  await openTab(page, 'positions');
  await check('positions');
  await explainEach(page, check, 'positions', [
    cell('pos-sinusoidal', 1, 2),
    cell('pos-learned', 2, 1),
    cell('pos-rope', 3, 1),
    cell('pos-alibi', 3, 1),
    cell('pos-alibi', 1, 3),
    '[data-stat="diagonal-spread-sinusoidal"]',
    '[data-stat="diagonal-spread-rope"]',
    cell('alibi-h0', 3, 1),
    cell('alibi-h1', 1, 3),
    '[data-rope-clock][data-pair="1"]',
  ]);
  await fill(page, '#lesson-panel-positions .lesson-controls label:nth-child(5) input', '3');
  await check('positions: 3 ALiBi heads');
  await explainEach(page, check, 'positions, 3 ALiBi heads', [cell('alibi-h2', 2, 0)]);
  if (await page.isEnabled('#size-dk')) {
    await fill(page, '#size-dk', '3');
    await check('positions: an odd d_k');
  }
}

/** The three inference lessons in turn. */
export async function walkInferenceLessons(page, check) {
  await walkFlash(page, check);
  await walkKvCache(page, check);
  await walkPositions(page, check);
}

// Chooses files and waits for the panel to settle on a new outcome: 'opened' or 'error'.
async function choose(page, files) {
  const before = await page.textContent('[data-checkpoint-status]');
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
  await settle(page);
  return page.getAttribute('[data-checkpoint]', 'data-state');
}

/**
 * The training view's checkpoint panels (`site` from siteWithCheckpoint): idle, a choice without its
 * weights, a file the core refuses, a small checkpoint opened, its sweep run and a cell explained.
 */
export async function walkCheckpoint(page, check, site) {
  await check('checkpoint: nothing open');
  if ((await choose(page, [site.config])) !== 'error') throw new Error('config.json alone was not refused');
  await check('checkpoint: the weights missing');
  if ((await choose(page, [site.bogus, site.config])) !== 'error') throw new Error('the bogus file was not refused');
  await check('checkpoint: a file the core refuses');
  if ((await choose(page, [site.weights, site.config])) !== 'opened')
    throw new Error('the small checkpoint did not open');
  await check('checkpoint: open');
  await page.click('[data-action="checkpoint-sweep"]');
  await page.waitForSelector('[data-sweep][data-state="done"]', { timeout: 120_000 });
  await settle(page);
  await check('checkpoint: swept');
  await explainEach(page, check, 'sweep', [cell('checkpoint-sweep', 1, 2)]);
  await act(page, () => page.selectOption('[data-sweep-score]', 'previousToken'));
  await check('checkpoint: previous-token scores');
}
