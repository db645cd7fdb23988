// The page as a new user and a teacher meet it, in headless Chromium under the strict CSP: the
// exported NumPy and PyTorch scripts print the page's own data-values for every head, scale and
// mistake; sentences with other words give other numbers; side-by-side maps share one colour
// scale; one parameter count everywhere; number fields never show a value that is not used.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterRender, assertClose, collectProblems, launch, openExplorer, readHeatmap } from './helpers.mjs';
import { hasPythonModule, PYTHON, runPythonScripts } from '../js/support/python.mjs';
import { niceBound } from '../../web/ui/palettes.js';

const NUMPY = hasPythonModule('numpy');
const TORCH = NUMPY && hasPythonModule('torch');

let env;
let page;
let problems;

before(async () => {
  env = await launch();
  ({ page, problems } = await openExplorer(env));
});
after(async () => { await env?.close(); });

const preset = (id) => afterRender(page, () => page.selectOption('#preset', id));
const typeInto = (selector, value) => afterRender(page, async () => {
  await page.fill(selector, String(value));
  await page.press(selector, 'Enter');
});
const openPanel = (id) => afterRender(page, () => page.click(`.lesson-tab[data-panel="${id}"]`));

async function exportCode(format) {
  if (!(await page.isVisible('.export-panel'))) await page.click('.export-menu > summary');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-export="${format}"]`)]);
  const text = readFileSync(await download.path(), 'utf8');
  await page.click('.export-menu > summary');
  return text;
}

async function pageValues(multi, pitfall) {
  const read = async (name) => (await readHeatmap(page, name)).data;
  const out = {};
  if (multi) {
    const heads = await page.$$eval('[data-heatmap^="head-"]', (ts) => ts.map((t) => t.dataset.heatmap));
    out.weights = [];
    for (const h of heads) out.weights.push(...(await read(h)));
    out.average = await read('average');
    out.output = await read('mha-output');
  } else {
    out.weights = await read('weights');
    out.output = await read('output');
  }
  if (pitfall) {
    out[multi ? 'mistake_average' : 'mistake_weights'] = await read('pitfall-wrong-weights');
    out.mistake_output = await read('pitfall-wrong-output');
  }
  return out;
}

async function checkExports(label, { multi, pitfall = false }) {
  const expected = await pageValues(multi, pitfall);
  const formats = TORCH ? ['numpy', 'pytorch'] : ['numpy'];
  const jobs = [];
  for (const f of formats) jobs.push({ name: `${label} ${f}`, code: await exportCode(f), names: Object.keys(expected) });
  runPythonScripts(jobs).forEach((got, k) => {
    assert.equal(got.error, undefined, `${jobs[k].name}: ${got.error}`);
    for (const [key, want] of Object.entries(expected))
      assertClose([got[key]].flat(Infinity), want, { atol: key.endsWith('output') ? 5e-5 : 5e-6, rtol: 1e-5, label: `${jobs[k].name} ${key}` });
  });
}

describe('exported code', () => {
  test('lesson example, h = 2, T = 2, √d_k off, a clicked cell, the pitfalls panel open: NumPy and PyTorch print the page\u2019s numbers', { skip: !NUMPY && `${PYTHON} has no numpy` }, async () => {
    await preset('lesson');
    await typeInto('#size-heads', 2);
    await typeInto('#temperature', 2);
    await checkExports('h=2 T=2', { multi: true });
    await afterRender(page, () => page.uncheck('#sqrt-dk'));
    await afterRender(page, () => page.check('input[name="mask"][value="custom"]'));
    await afterRender(page, () => page.click('[data-heatmap="scores"] td[data-row="0"][data-col="1"]'));
    await openPanel('pitfalls');
    await afterRender(page, () => page.selectOption('[data-control="pitfall"]', 'scale-by-dmodel'));
    await checkExports('h=2 sqrtDk off custom pitfall', { multi: true, pitfall: true });
    await typeInto('#size-heads', 1);
    await afterRender(page, () => page.check('input[name="mask"][value="causal"]'));
    await afterRender(page, () => page.selectOption('[data-control="pitfall"]', 'mask-value-zero'));
    await checkExports('h=1 causal pitfall', { multi: false, pitfall: true });
  });
});

describe('sentences', () => {
  test('other words give other weights; the same word the same row of X; positions can be added', async () => {
    await preset('causal');
    await afterRender(page, () => page.check('input[name="mask"][value="none"]'));
    const weightsFor = async (text) => {
      await afterRender(page, () => page.fill('#sentence', text));
      return (await readHeatmap(page, 'weights')).data;
    };
    const a = await weightsFor('the cat sat on the mat');
    const b = await weightsFor('my dog ate in a box');
    const c = await weightsFor('the the the the the the');
    assert.notDeepEqual(a, b);
    assert.notDeepEqual(a, c);
    for (const w of c) assert.ok(Math.abs(w - 1 / 6) < 1e-6, `six equal tokens: uniform weights, got ${w}`);
    await weightsFor('the cat sat on the mat');
    const row = (r) => page.$$eval(`[data-matrix="X"] input[data-row="${r}"]`, (inputs) => inputs.map((i) => i.title));
    assert.deepEqual(await row(0), await row(4), 'both "the" rows');
    assert.match(await page.textContent('#vectors-note'), /random but fixed.*same word.*same vector/s);
    await afterRender(page, () => page.selectOption('#positional', 'sinusoidal'));
    assert.notDeepEqual(await row(0), await row(4), 'positions make the two "the" rows differ');
    await afterRender(page, () => page.selectOption('#positional', 'none'));
  });

  test('swapping tokens: without positions the output rows only swap; with positions added to X they change', async () => {
    await preset('causal');
    await afterRender(page, () => page.check('input[name="mask"][value="none"]'));
    await openPanel('permutation');
    const verdict = () => page.getAttribute('[data-stat="perm-verdict"]', 'data-equal');
    assert.equal(await verdict(), 'true');
    for (const kind of ['sinusoidal', 'learned']) {
      await afterRender(page, () => page.selectOption('#positional', kind));
      assert.equal(await verdict(), 'false', kind);
      assert.match(await page.textContent('[data-lesson="permutation"] .lesson-note'), /each position keeps its own vector/);
    }
    await afterRender(page, () => page.selectOption('#positional', 'none'));
    assert.equal(await verdict(), 'true');
  });
});

describe('editing', () => {
  test('Escape gives a cell back its value in full precision; Reset gives a matrix back the example\u2019s values', async () => {
    await preset('lesson');
    const q = async () => (await readHeatmap(page, 'Q')).data;
    const original = await q();
    const cell = '[data-matrix="X"] input[data-row="0"][data-col="0"]';
    await page.focus(cell);
    await afterRender(page, () => page.keyboard.type('1.5'));
    assert.notDeepEqual(await q(), original);
    await afterRender(page, () => page.keyboard.press('Escape'));
    assert.deepEqual(await q(), original, 'the exact value is back, not its rounded text');
    assert.equal(await page.isDisabled('[data-reset="X"]'), true);
    await afterRender(page, async () => { await page.keyboard.type('2'); await page.keyboard.press('Enter'); });
    await afterRender(page, async () => { await page.keyboard.type('-3'); await page.keyboard.press('Enter'); });
    assert.notDeepEqual(await q(), original);
    assert.equal(await page.isDisabled('[data-reset="X"]'), false);
    await afterRender(page, () => page.click('[data-reset="X"]'));
    assert.deepEqual(await q(), original);
    assert.equal(await page.isDisabled('[data-reset="X"]'), true);
  });
});

describe('what the page says', () => {
  test('the pitfalls panel colours its correct and mistaken outputs on one scale', async () => {
    await preset('lesson');
    await afterRender(page, () => page.check('input[name="mask"][value="causal"]'));
    await openPanel('pitfalls');
    const ownBounds = [];
    for (const mistake of ['mask-after-softmax', 'scale-by-dk']) {
      await afterRender(page, () => page.selectOption('[data-control="pitfall"]', mistake));
      const scales = await page.$$eval('[data-heatmap^="pitfall-"][data-heatmap$="-output"]', (ts) => ts.map((t) => t.dataset.scaleMax));
      assert.equal(scales.length, 2);
      assert.ok(Number(scales[0]) > 0, `${mistake}: a scale is shown (${scales})`);
      assert.equal(scales[0], scales[1], `${mistake}: ${scales}`);
      const largest = async (side) => Math.max(...(await readHeatmap(page, `pitfall-${side}-output`)).data.map(Math.abs));
      ownBounds.push([await largest('correct'), await largest('wrong')].map(niceBound));
      assert.ok(Number(scales[0]) >= Math.max(...ownBounds.at(-1)), `${mistake}: the scale covers both maps`);
    }
    // The check means something: on its own scale, at least one side would have been coloured differently.
    assert.ok(ownBounds.some(([a, b]) => a !== b), JSON.stringify(ownBounds));
  });

  test('one parameter count: heads panel and Cost tab agree, with and without biases, next to the wrong h \u00d7 4d\u00b2', async () => {
    await preset('heads');
    await openPanel('cost');
    const stats = (root) => page.$$eval(`${root} [data-stat^="parameters-"]`, (bs) => Object.fromEntries(bs.map((b) => [b.dataset.stat, Number(b.dataset.value)])));
    const heads = await stats('section.heads');
    const cost = await stats('[data-lesson="cost"]');
    assert.deepEqual(heads, { 'parameters-weights': 1024, 'parameters-biases': 1088, 'parameters-wrong': 4096 });
    assert.deepEqual(cost, heads);
    assert.equal(Number(await page.getAttribute('[data-lesson="cost"] output[data-stat="parameters"]', 'data-value')), 1088);
  });

  test('number fields show the value used: out of range is clamped in the field, with a note', async () => {
    await preset('lesson');
    await typeInto('#temperature', 100);
    assert.equal(await page.inputValue('#temperature'), '20');
    assert.match(await page.textContent('#temperature ~ [data-clamp-note], .temp-row + [data-clamp-note]'), /100 is not possible.*20 is used/);
    assert.match(await page.textContent('.scale-out'), /0\.025/);  // 1 / (20 · √4)
    await typeInto('#size-dModel', 1000);
    assert.equal(await page.inputValue('#size-dModel'), '64');
    assert.deepEqual(await page.evaluate(() => document.querySelectorAll('[data-matrix="X"] input[data-row="0"]').length), 64);
    await typeInto('#size-dModel', 8);
    assert.equal(await page.isHidden('#size-dModel ~ [data-clamp-note], .field:has(#size-dModel) + [data-clamp-note]'), true);
  });

  test('no console errors, failed requests or CSP violations', async () => {
    assert.deepEqual(await collectProblems(page, problems), []);
  });
});
