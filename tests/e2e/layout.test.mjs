// The page in the places it must work: light and dark themes, several heads, a phone (375 px),
// an 800 × 600 iframe, and large sizes. Writes screenshots to tests/e2e/screenshots/ for a person
// to look at; checks layout facts (no page-wide horizontal scrolling, all panels present).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  afterRender,
  assertClose,
  cellSelector,
  collectProblems,
  fillCell,
  launch,
  openExplorer,
  readHeatmap,
  screenshot,
  setSize,
} from './helpers.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const preset = (page, id) => afterRender(page, () => page.selectOption('#preset', id));
const scrollTo = (page, selector) => page.$eval(selector, (e) => e.scrollIntoView({ block: 'start' }));

async function noHorizontalOverflow(page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client + 1, `page scrolls sideways: ${scroll} > ${client}`);
}

test('light and dark themes, causal mask, and multi-head on a desktop', async () => {
  const { page, context, problems } = await openExplorer(env, { width: 1280, height: 900 });
  await page.focus(cellSelector('X', 1, 2));
  await screenshot(page, 'light-top');
  await scrollTo(page, '#pipeline');
  await page.hover('[data-heatmap="weights"] td[data-row="2"][data-col="2"]');
  await screenshot(page, 'light-pipeline');

  await afterRender(page, () => page.selectOption('#theme', 'dark'));
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  await scrollTo(page, '#pipeline');
  await page.hover('[data-heatmap="scores"] td[data-row="1"][data-col="3"]');
  await screenshot(page, 'dark-pipeline');
  await afterRender(page, () => page.selectOption('#theme', 'light'));

  await preset(page, 'causal');
  await scrollTo(page, '#pipeline');
  await page.hover('[data-heatmap="masked"] td[data-row="1"][data-col="4"]');
  await screenshot(page, 'causal');

  await preset(page, 'heads');
  await scrollTo(page, '.heads');
  await page.hover('[data-heatmap="head-1"] td[data-row="5"][data-col="4"]');
  await screenshot(page, 'multi-head');
  for (let h = 1; h <= 4; h++) assert.ok(await page.isVisible(`[data-heatmap="head-${h}"]`));
  await noHorizontalOverflow(page);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('desktop widths: the weights card shows its whole map with the rows’ Σ, H and max, none cut off at its edge', async () => {
  const { page, context, problems } = await openExplorer(env, { width: 1280, height: 800 });
  // How many pixels of each step card's map lie past its card's edge (scrolled out of sight).
  const cutOff = () =>
    page.$$eval('.pipeline .steps > .card', (cards) =>
      cards
        .filter((c) => c.getClientRects().length)
        .map((c) => [c.querySelector('[data-heatmap]')?.dataset.heatmap, c.querySelector('.heatmap-scroll')])
        .filter(([, s]) => s)
        .map(([name, s]) => `${name} ${s.scrollWidth - s.clientWidth}`),
    );
  for (const width of [1280, 1366, 1440, 1680, 1920]) {
    await page.setViewportSize({ width, height: 800 });
    for (const id of ['lesson', 'causal']) {
      await preset(page, id);
      const stats = await page.$$eval('[data-heatmap="weights"] tr:nth-child(2) td.stat', (cells) =>
        cells.map((td) => {
          const cell = td.getBoundingClientRect();
          const box = td.closest('.heatmap-scroll').getBoundingClientRect();
          return cell.right <= box.right + 0.5;
        }),
      );
      assert.deepEqual(stats, [true, true, true], `${width} px, ${id}: Σ, H and max inside the card`);
      const weights = (await cutOff()).find((x) => x.startsWith('weights '));
      assert.equal(weights, 'weights 0', `${width} px, ${id}: the weights map's pixels past its card's edge`);
    }
  }
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('axe-core finds no accessibility violations (light, dark, masks, heads)', async () => {
  const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  for (const [colorScheme, id] of [
    ['light', null],
    ['dark', 'heads'],
    ['light', 'fully-masked'],
    ['dark', 'padding'],
  ]) {
    const { page, context } = await openExplorer(env, { width: 1280, height: 900, colorScheme });
    if (id) await preset(page, id);
    await page.evaluate(axe); // evaluated over the DevTools protocol, so the page's CSP does not apply
    const violations = await page.evaluate(async () =>
      (await window.axe.run(document)).violations.map(
        (v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`,
      ),
    );
    assert.deepEqual(violations, [], `${colorScheme}, ${id ?? 'lesson'}`);
    await context.close();
  }
});

test('the open Export menu stays inside the window, so a click beside it lands where it is aimed', async () => {
  const { page, context, problems } = await openExplorer(env, { width: 1280, height: 900 });
  await page.click('.export-menu > summary');
  await noHorizontalOverflow(page);
  const before = await page.isChecked('#sqrt-dk');
  await afterRender(page, () => page.click('#sqrt-dk'));
  assert.equal(await page.isChecked('#sqrt-dk'), !before, 'the click beside the open menu toggled the checkbox');
  assert.equal(await page.isVisible('.export-panel'), false, 'and closed the menu');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('a 375 px phone: everything reachable without sideways page scrolling', async () => {
  const { page, context, problems } = await openExplorer(env, { width: 375, height: 740 });
  await noHorizontalOverflow(page);
  await screenshot(page, 'phone-top');
  await scrollTo(page, '#pipeline');
  await page.tap?.('[data-heatmap="weights"] td[data-row="1"][data-col="1"]').catch(() => {});
  await page.focus('[data-heatmap="weights"] td[data-row="1"][data-col="1"]');
  await screenshot(page, 'phone-pipeline');
  await page.click('.controls-toggle'); // folded on a phone
  await preset(page, 'heads');
  await noHorizontalOverflow(page);
  await scrollTo(page, '.heads');
  await screenshot(page, 'phone-heads');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('inside an 800 × 600 iframe', async () => {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.setContent(
    `<!doctype html><body style="margin:20px;background:#ccc"><iframe title="Attention explorer" src="${env.url}" width="800" height="600" style="border:1px solid #888;background:#fff"></iframe></body>`,
  );
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForSelector('#app[data-ready="true"]');
  const width = await frame.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  assert.ok(width[0] <= width[1] + 1, `iframe content scrolls sideways: ${width}`);
  const w = await frame.$$eval('[data-heatmap="weights"] td[data-col]', (tds) => tds.length);
  assert.equal(w, 16);
  await frame.$eval('#pipeline', (e) => e.scrollIntoView());
  await frame.hover('[data-heatmap="weights"] td[data-row="0"][data-col="2"]');
  await page.screenshot({ path: new URL('./screenshots/iframe-800x600.png', import.meta.url).pathname });
  assert.deepEqual(errors, []);
  await context.close();
});

test('n = 16, d_model = 64, h = 4: correct numbers, redraw time reported', async (t) => {
  const { page, context, problems } = await openExplorer(env, { width: 1280, height: 900 });
  const words = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen';
  await afterRender(page, () => page.fill('#sentence', words));
  for (const [id, v] of [
    ['#size-dModel', '64'],
    ['#size-heads', '4'],
  ])
    await setSize(page, id, v);
  assert.deepEqual((await readHeatmap(page, 'mha-output')).shape, [16, 64]);
  const unfold = async (name) => {
    await page.click(`[data-matrix="${name}"] >> xpath=ancestor::details/summary`);
    await page.waitForSelector(`[data-matrix="${name}"] .cell-input[data-row="0"]`);
  };
  await unfold('X');
  const times = [];
  for (const [k, v] of ['0.5', '-1.25', '2', '0.75', '-0.5', '1.5'].entries()) {
    await afterRender(page, () => fillCell(page, 'X', k, k * 7, v));
    times.push(Number(await page.getAttribute('#app', 'data-render-ms')));
  }
  times.sort((a, b) => a - b);
  t.diagnostic(
    `redraw after an edit (JS: compute + DOM updates), n=16 d_model=64 h=4: median ${times[times.length >> 1]} ms, min ${times[0]} ms`,
  );

  const X = await page.evaluate(() => {
    const inputs = [...document.querySelectorAll('[data-matrix="X"] .cell-input')];
    return { data: inputs.map((i) => Number(i.title.replace('−', '-'))), shape: [16, 64] };
  });
  // W matrices are folded at this size; open them to read them.
  for (const name of ['WQ', 'WK', 'WV', 'WO']) await unfold(name);
  const W = await page.evaluate(() =>
    Object.fromEntries(
      ['WQ', 'WK', 'WV', 'WO'].map((n) => {
        const inputs = [...document.querySelectorAll(`[data-matrix="${n}"] .cell-input`)];
        return [n, { data: inputs.map((i) => Number(i.title.replace('−', '-'))), shape: [64, 64] }];
      }),
    ),
  );
  const expected = await page.evaluate(
    async ({ X, W }) => {
      const { createAttention } = await import('/lib/attention.js');
      const attn = await createAttention();
      const mha = attn.multiHeadAttention({ embedDim: 64, numHeads: 4, bias: false });
      mha.setWeights({ wq: W.WQ, wk: W.WK, wv: W.WV, wo: W.WO });
      const r = mha.forward(X, X, X);
      return { average: Array.from(r.weights.data), output: Array.from(r.output.data) };
    },
    { X, W },
  );
  // The titles carry 8 significant digits of values the page drew at random.
  assertClose((await readHeatmap(page, 'average')).data, expected.average, {
    atol: 1e-5,
    rtol: 1e-4,
    label: 'average weights',
  });
  assertClose((await readHeatmap(page, 'mha-output')).data, expected.output, {
    atol: 1e-4,
    rtol: 1e-4,
    label: 'output',
  });
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the cells of an editable matrix tile without gaps (one simple region for the compositor)', async () => {
  const { page, context } = await openExplorer(env, { width: 1280, height: 900 });
  // Every cell paints as its own unit and hands the compositor its rectangle for the wheel and
  // touch handling around the matrix; with gaps between them the region has hundreds of pieces.
  const gaps = await page.$eval('[data-matrix="X"]', (block) => {
    const rect = (i, j) =>
      block.querySelector(`.cell-input[data-row="${i}"][data-col="${j}"]`)?.getBoundingClientRect();
    const out = [];
    for (let i = 0; rect(i, 0); i++) {
      for (let j = 0; rect(i, j); j++) {
        const r = rect(i, j);
        const right = rect(i, j + 1);
        const below = rect(i + 1, j);
        if (right && Math.abs(right.left - r.right) > 0.01)
          out.push(`(${i},${j}) to its right: ${right.left - r.right}px`);
        if (below && Math.abs(below.top - r.bottom) > 0.01) out.push(`(${i},${j}) below: ${below.top - r.bottom}px`);
      }
    }
    return out;
  });
  assert.deepEqual(gaps, []);
  await context.close();
});
