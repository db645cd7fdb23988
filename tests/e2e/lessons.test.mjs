// The lesson panels and the page follow-ups in headless Chromium under the strict CSP. Every value
// checked is compared with the JS API called inside the page (the same WebAssembly core), not only
// looked for. Screenshots of each panel at 1280 and 375 px, light and dark, go to screenshots/.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  afterRender,
  assertClose,
  collectProblems,
  openExplorer,
  readHeatmap,
  screenshot,
  linkWhere,
  unfold,
  useExplorer,
} from './helpers.mjs';

const PANELS = ['sqrt-dk', 'pitfalls', 'hull', 'cost', 'steps', 'permutation'];

const { env, page, problems } = useExplorer({
  // One API instance in the page for the expected values.
  setup: (page) =>
    page.evaluate(async () => {
      const { createAttention } = await import('/lib/attention.js');
      window.__attn = await createAttention();
    }),
});

const preset = (id) => afterRender(page, () => page.selectOption('#preset', id));
const openPanel = (id) => afterRender(page, () => page.click(`.lesson-tab[data-panel="${id}"]`));
const setMask = (kind) => afterRender(page, () => page.check(`input[name="mask"][value="${kind}"]`));
const typeInto = (selector, value) =>
  afterRender(page, async () => {
    await page.fill(selector, String(value));
    await page.press(selector, 'Enter');
  });
const statValue = async (root, name) => Number(await page.getAttribute(`${root} [data-stat="${name}"]`, 'data-value'));

// An editable matrix as the page holds it (input titles carry 8 significant digits).
const readMatrix = (name) =>
  page.evaluate((m) => {
    const inputs = [...document.querySelectorAll(`[data-matrix="${m}"] .cell-input`)];
    const rows = new Set(inputs.map((i) => i.dataset.row)).size;
    return { shape: [rows, inputs.length / rows], data: inputs.map((i) => Number(i.title.replace('−', '-'))) };
  }, name);

// q, k, v of the sentence mode: the API's matmul of the page's X and W matrices.
async function projections() {
  const M = {};
  for (const name of ['X', 'WQ', 'WK', 'WV']) M[name] = await readMatrix(name);
  return M;
}

// The causal mask applied after the softmax, by the API on the page's sentence: the right and the
// wrong weights, the wrong output and the wrong rows' sums.
async function maskAfterSoftmax() {
  const M = await projections();
  return page.evaluate((M) => {
    const a = window.__attn;
    const [q, k, v] = ['WQ', 'WK', 'WV'].map((w) => a.matmul(M.X, M[w]));
    const right = a.scaledDotProductAttention(q, k, v, { causal: true });
    const wrong = a.scaledDotProductAttention(q, k, v, { causal: true, pitfall: 'mask-after-softmax' });
    const sums = a.lessons.rowStats(wrong.weights).sum;
    return {
      right: Array.from(right.weights.data),
      wrong: Array.from(wrong.weights.data),
      wrongOut: Array.from(wrong.output.data),
      sums: Array.from(sums.data),
    };
  }, M);
}

// The rows the mistake leaves short of 1 are shown, counted and summarised; the cells that differ
// from the right weights are outlined.
async function checkShortRows(root, expected) {
  const sums = await page.$$eval('[data-heatmap="pitfall-wrong-weights"] td[data-stat="sum"]', (tds) =>
    tds.map((td) => Number(td.dataset.value)),
  );
  assertClose(sums, expected.sums, { atol: 1e-6, label: 'row sums' });
  assert.ok(
    sums.slice(0, 3).every((s) => s < 1 - 1e-4),
    `rows 1-3 sum below 1: ${sums}`,
  );
  const summary = await page.$eval(`${root} [data-stat="pitfall-summary"]`, (e) => ({
    ...e.dataset,
    text: e.textContent,
  }));
  assert.equal(summary.rowsShort, '3');
  assert.match(summary.text, /3 rows sum to less than 1/);
  const outlined = await page.$$eval('[data-heatmap="pitfall-wrong-weights"] td.cell.hl', (tds) => tds.length);
  const differ = expected.wrong.filter(
    (x, k) => Math.abs(x - expected.right[k]) > 1e-5 + 1e-4 * Math.abs(expected.right[k]),
  ).length;
  assert.equal(outlined, differ);
  assert.equal(summary.weightsDiffer, String(differ));
  assert.ok(differ > 0);
}

// Multi-head: W_O skipped gives the concatenated heads, exactly what the heads panel shows; scaling
// by √d_model gives the weights of the API's layer with that pitfall.
async function checkMultiHeadPitfalls(root) {
  await preset('heads');
  await afterRender(page, () => page.selectOption(`${root} select`, 'skip-wo'));
  const concat = await readHeatmap(page, 'concat');
  assertClose((await readHeatmap(page, 'pitfall-wrong-output')).data, concat.data, {
    atol: 1e-5,
    label: 'skip-wo = concat',
  });
  assertClose((await readHeatmap(page, 'pitfall-wrong-weights')).data, (await readHeatmap(page, 'average')).data, {
    atol: 1e-6,
    label: 'skip-wo weights unchanged',
  });
  await afterRender(page, () => page.selectOption(`${root} select`, 'scale-by-dmodel'));
  const X = await readMatrix('X');
  const W = {};
  for (const name of ['WQ', 'WK', 'WV', 'WO']) W[name] = await readMatrix(name);
  const dmodel = await page.evaluate(
    ({ X, W }) => {
      const mha = window.__attn.multiHeadAttention({ embedDim: 16, numHeads: 4, bias: false });
      mha.setWeights({ wq: W.WQ, wk: W.WK, wv: W.WV, wo: W.WO });
      const r = mha.forward(X, X, X, { pitfall: 'scale-by-dmodel' });
      mha.dispose();
      return Array.from(r.weights.data);
    },
    { X, W },
  );
  assertClose((await readHeatmap(page, 'pitfall-wrong-weights')).data, dmodel, {
    atol: 1e-5,
    label: 'scale by √d_model',
  });
}

describe('page follow-ups', () => {
  test('Q, K, V = X·W are the API’s matmul of the page’s X and W', async () => {
    const M = await projections();
    const expected = await page.evaluate((M) => {
      const a = window.__attn;
      return ['WQ', 'WK', 'WV'].map((w) => Array.from(a.matmul(M.X, M[w]).data));
    }, M);
    for (const [k, name] of ['Q', 'K', 'V'].entries()) {
      const shown = await readHeatmap(page, name);
      assert.deepEqual(shown.shape, [4, 4]);
      assertClose(shown.data, expected[k], { atol: 1e-5, label: `${name} = X·W_${name}` });
    }
  });

  test('row sums, entropies, maxima and their means are attn.lessons.rowStats of the weights', async () => {
    await setMask('causal');
    const w = await readHeatmap(page, 'weights');
    const shown = await page.evaluate(() =>
      Object.fromEntries(
        ['sum', 'entropy', 'max'].map((k) => [
          k,
          [...document.querySelectorAll(`[data-heatmap="weights"] td[data-stat="${k}"]`)].map((td) =>
            Number(td.dataset.value),
          ),
        ]),
      ),
    );
    const expected = await page.evaluate((w) => {
      const st = window.__attn.lessons.rowStats(w);
      return { sum: Array.from(st.sum.data), entropy: Array.from(st.entropy.data), max: Array.from(st.max.data) };
    }, w);
    for (const k of ['sum', 'entropy', 'max']) assert.deepEqual(shown[k], expected[k], k); // the same float32 numbers
    const mean = Number(await page.getAttribute('[data-stat="summary"]', 'data-mean-entropy'));
    const plainMean = expected.entropy.reduce((a, b) => a + b, 0) / expected.entropy.length;
    assert.ok(Math.abs(mean - plainMean) < 1e-6, `mean entropy ${mean} vs ${plainMean}`);
    assert.match(await page.textContent('[data-stat="summary"]'), /ln 4 = 1\.39/);
    await setMask('none');
  });

  test('multi-head: the scaling controls are live, and the temperature changes the entropy as the API does', async () => {
    await preset('heads');
    assert.equal(await page.isDisabled('#temperature'), false);
    assert.equal(await page.isDisabled('#sqrt-dk'), false);
    const cold = Number(await page.getAttribute('[data-stat="summary"]', 'data-mean-entropy'));
    await typeInto('#temperature', 3);
    const hot = Number(await page.getAttribute('[data-stat="summary"]', 'data-mean-entropy'));
    assert.ok(hot > cold, `entropy at T = 3 (${hot}) should exceed T = 1 (${cold})`);
    const M = {};
    for (const name of ['X', 'WQ', 'WK', 'WV', 'WO']) M[name] = await readMatrix(name);
    const expected = await page.evaluate((M) => {
      const mha = window.__attn.multiHeadAttention({ embedDim: 16, numHeads: 4, bias: false });
      mha.setWeights({ wq: M.WQ, wk: M.WK, wv: M.WV, wo: M.WO });
      const r = mha.forward(M.X, M.X, M.X, { scale: 1 / (3 * Math.sqrt(4)), trace: true });
      mha.dispose();
      const n = M.X.shape[0];
      return { head1: Array.from(r.trace.weights.data.slice(0, n * n)), output: Array.from(r.output.data) };
    }, M);
    assertClose((await readHeatmap(page, 'weights')).data, expected.head1, { label: 'head 1 weights at T = 3' });
    assertClose((await readHeatmap(page, 'mha-output')).data, expected.output, {
      atol: 1e-4,
      label: 'output at T = 3',
    });
    assert.match(await page.textContent('.scale-out'), /0\.1667/); // 1 / (3·√4)
    await afterRender(page, () => page.click('.scaling button')); // T = 1
  });
});

describe('lesson panels', () => {
  test('tabs: one panel open at a time, arrow keys move between them', async () => {
    await preset('lesson');
    await openPanel('pitfalls');
    assert.equal(await page.getAttribute('.lesson-tab[data-panel="pitfalls"]', 'aria-selected'), 'true');
    assert.equal(await page.isVisible('#lesson-panel-pitfalls'), true);
    assert.equal(await page.isVisible('#lesson-panel-sqrt-dk'), false);
    await page.focus('.lesson-tab[data-panel="pitfalls"]');
    await afterRender(page, () => page.keyboard.press('ArrowRight'));
    assert.equal(await page.getAttribute('.lesson-tab[data-panel="hull"]', 'aria-selected'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.panel), 'hull');
    await afterRender(page, () => page.keyboard.press('ArrowLeft'));
    assert.equal(await page.getAttribute('.lesson-tab[data-panel="pitfalls"]', 'aria-selected'), 'true');
  });

  test('why √d_k: histograms and spreads are the core’s sample; the softmax row and its entropy too', async () => {
    await openPanel('sqrt-dk');
    const root = '[data-lesson="sqrt-dk"]';
    await typeInto(`${root} input[type="number"] >> nth=0`, 256);
    await page.waitForSelector(`${root}[data-shown="256,10000,0,64"]`);
    const shown = {
      rawStd: await statValue(root, 'raw-std'),
      scaledStd: await statValue(root, 'scaled-std'),
      rawMean: await statValue(root, 'raw-mean'),
      scaledMean: await statValue(root, 'scaled-mean'),
      hRaw: await statValue(root, 'entropy-raw'),
      hScaled: await statValue(root, 'entropy-scaled'),
      maxRaw: await statValue(root, 'max-raw'),
      uniform: await statValue(root, 'entropy-uniform'),
      rawCounts: await page.$$eval(`${root} svg.histogram.raw rect.bar`, (rs) =>
        rs.map((r) => Number(r.dataset.count)),
      ),
      scaledCounts: await page.$$eval(`${root} svg.histogram.scaled rect.bar`, (rs) =>
        rs.map((r) => Number(r.dataset.count)),
      ),
      scaledBars: await page.$$eval(`${root} svg.bars.scaled rect.bar`, (rs) => rs.map((r) => Number(r.dataset.value))),
    };
    const expected = await page.evaluate(() => {
      const a = window.__attn;
      const r = a.lessons.sampleDotProducts({ dk: 256, count: 10000, seed: 0, bins: 41 });
      const row = { data: Float32Array.from(r.raw.values.subarray(0, 64)), shape: [1, 64] };
      const plain = a.lessons.softmax(row, { scale: 1 });
      const soft = a.lessons.softmax(row, { scale: 1 / 16 });
      return {
        rawStd: r.raw.std,
        scaledStd: r.scaled.std,
        rawMean: r.raw.mean,
        scaledMean: r.scaled.mean,
        rawCounts: Array.from(r.raw.histogram.counts),
        scaledCounts: Array.from(r.scaled.histogram.counts),
        hRaw: plain.entropy.data[0],
        hScaled: soft.entropy.data[0],
        maxRaw: plain.max.data[0],
        scaledBars: Array.from(soft.weights.data),
        uniform: a.lessons.softmax({ data: new Float32Array(64), shape: [1, 64] }).entropy.data[0],
      };
    });
    assert.deepEqual(shown, expected);
    // The lesson's claim, measured: spread ≈ √256 = 16 before, ≈ 1 after; saturation without scaling.
    assert.ok(Math.abs(shown.rawStd / 16 - 1) < 0.05, `raw std ${shown.rawStd}`);
    assert.ok(Math.abs(shown.scaledStd - 1) < 0.05, `scaled std ${shown.scaledStd}`);
    assert.ok(shown.hRaw < shown.hScaled, 'the unscaled row has less entropy');
    assert.match(await page.textContent(root), /√256 = 16/);
  });

  test('pitfalls: the mistakes are the core’s (pitfall option), differences outlined, short rows shown', async () => {
    await openPanel('pitfalls');
    const root = '[data-lesson="pitfalls"]';
    assert.equal(await page.isVisible(`${root} .lesson-callout`), true); // no mask yet: a hint to choose one
    await afterRender(page, () => page.click(`${root} button:has-text("Use the causal mask")`));
    assert.equal(await page.isChecked('input[name="mask"][value="causal"]'), true);
    const expected = await maskAfterSoftmax();
    assertClose((await readHeatmap(page, 'pitfall-correct-weights')).data, expected.right, {
      atol: 1e-5,
      label: 'correct weights',
    });
    assertClose((await readHeatmap(page, 'pitfall-wrong-weights')).data, expected.wrong, {
      atol: 1e-5,
      label: 'weights, mask after softmax',
    });
    assertClose((await readHeatmap(page, 'pitfall-wrong-output')).data, expected.wrongOut, {
      atol: 1e-4,
      label: 'output, mask after softmax',
    });
    await checkShortRows(root, expected);
    await checkMultiHeadPitfalls(root);
  });

  test('mixes, never invents: outputs inside the hull; dragging a value point (keys, pointer) edits V', async () => {
    await preset('lesson');
    await openPanel('hull');
    const root = '[data-lesson="hull"]';
    // The lesson example has d_v = 4: copy it into Q, K, V mode with two value dimensions.
    await afterRender(page, () => page.click(`${root} button:has-text("dᵥ = 2")`));
    assert.equal(await page.isChecked('input[name="mode"][value="qkv"]'), true);
    assert.deepEqual((await readMatrix('V')).shape, [4, 2]);
    const check = async (label) => {
      const Q = await readMatrix('Q');
      const K = await readMatrix('K');
      const V = await readMatrix('V');
      const shown = await page.$$eval(`${root} .output-point`, (gs) =>
        gs.flatMap((g) => [Number(g.dataset.x), Number(g.dataset.y)]),
      );
      const values = await page.$$eval(`${root} .value-point`, (gs) =>
        gs.flatMap((g) => [Number(g.dataset.x), Number(g.dataset.y)]),
      );
      const expected = await page.evaluate(
        ({ Q, K, V }) => Array.from(window.__attn.scaledDotProductAttention(Q, K, V).output.data),
        { Q, K, V },
      );
      assertClose(values, V.data, { atol: 1e-6, label: `${label}: value points = V` });
      assertClose(shown, expected, { atol: 1e-5, label: `${label}: output points` });
      assert.equal(await page.getAttribute(root, 'data-outside'), '0', `${label}: every output inside`);
      return V;
    };
    const V0 = await check('copied example');
    // Keyboard: value 2 moves right by 0.1 twice and up by 0.01 (Shift).
    await page.focus(`${root} .value-point[data-index="1"]`);
    await afterRender(page, () => page.keyboard.press('ArrowRight'));
    await afterRender(page, () => page.keyboard.press('ArrowRight'));
    await afterRender(page, () => page.keyboard.press('Shift+ArrowUp'));
    const V1 = await check('after arrow keys');
    assertClose([V1.data[2], V1.data[3]], [V0.data[2] + 0.2, V0.data[3] + 0.01], {
      atol: 1e-9,
      label: 'V row 2 moved',
    });
    // Pointer: drag value 1 by (+40, −30) screen pixels (the plot at the top of the view, clear of
    // the explanation panel docked at the bottom).
    await page.$eval(`${root} svg.hull-plot`, (e) => e.scrollIntoView({ block: 'start' }));
    const box = await page.$eval(`${root} .value-point[data-index="0"] circle`, (c) => {
      const r = c.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    await page.mouse.move(box.x, box.y);
    await page.mouse.down();
    await page.mouse.move(box.x + 20, box.y - 15, { steps: 2 });
    await afterRender(page, () => page.mouse.move(box.x + 40, box.y - 30, { steps: 2 }));
    await page.mouse.up();
    // The last pointer moves may still be on their way to a redraw (slow under load): wait until the
    // matrix and the point agree before comparing everything.
    await page.waitForFunction(() => {
      const g = document.querySelector('[data-lesson="hull"] .value-point[data-index="0"]');
      const input = document.querySelector('[data-matrix="V"] .cell-input[data-row="0"][data-col="0"]');
      return g && input && Math.abs(Number(g.dataset.x) - Number(input.title.replace('−', '-'))) < 1e-6;
    });
    const V2 = await check('after dragging');
    assert.ok(
      V2.data[0] > V1.data[0] && V2.data[1] > V1.data[1],
      `value 1 moved right and up: ${V1.data.slice(0, 2)} -> ${V2.data.slice(0, 2)}`,
    );
    // The explorer's own output heatmap follows the dragged values.
    const Q = await readMatrix('Q');
    const K = await readMatrix('K');
    const out = await page.evaluate(
      ({ Q, K, V }) => Array.from(window.__attn.scaledDotProductAttention(Q, K, V).output.data),
      { Q, K, V: V2 },
    );
    assertClose((await readHeatmap(page, 'output')).data, out, { atol: 1e-5, label: 'explorer output after drag' });
  });

  test('cost and size: every number is attn.lessons.attentionCost; the crossover is where the quadratic term wins', async () => {
    await openPanel('cost');
    const root = '[data-lesson="cost"]';
    const inputs = `${root} input[type="number"]`;
    await typeInto(`${inputs} >> nth=0`, 4096);
    assert.equal(await page.isChecked(`${root} input[type="checkbox"]`), false); // typing stops following
    await typeInto(`${inputs} >> nth=1`, 4096);
    await typeInto(`${inputs} >> nth=2`, 512);
    await typeInto(`${inputs} >> nth=3`, 8);
    const names = ['parameters', 'projectionFlops', 'scoreFlops', 'softmaxFlops', 'totalFlops', 'attentionMatrixBytes'];
    const shown = {};
    for (const k of names) shown[k] = await statValue(root, k);
    const star = await statValue(root, 'crossover');
    const expected = await page.evaluate((star) => {
      const c = (n) => window.__attn.lessons.attentionCost({ n, m: n, dModel: 512, numHeads: 8 });
      const q = (x) => x.scoreFlops + x.softmaxFlops;
      return {
        cost: window.__attn.lessons.attentionCost({ n: 4096, m: 4096, dModel: 512, numHeads: 8 }),
        wins: q(c(star)) >= c(star).projectionFlops,
        before: q(c(star - 1)) < c(star - 1).projectionFlops,
      };
    }, star);
    for (const k of names) assert.equal(shown[k], expected.cost[k], k);
    assert.equal(shown.parameters, 4 * 512 * 512 + 4 * 512);
    assert.equal(shown.attentionMatrixBytes, 8 * 4096 * 4096 * 4);
    assert.ok(expected.wins && expected.before, `crossover n = ${star}`);
    assert.ok(star > 512 && star < 1024, `crossover near 2·d_model: ${star}`);
    assert.match(await page.textContent(root), /512 MiB/);
    assert.equal(await page.$$eval(`${root} svg path.line`, (p) => p.length), 2);
    // Back to the explorer's sizes.
    await afterRender(page, () => page.check(`${root} input[type="checkbox"]`));
    assert.equal(await page.inputValue(`${inputs} >> nth=0`), '4');
  });

  test('cost and size at one head: the explorer’s single head (no W_O) is counted from its own matrices, and nothing is struck out', async () => {
    await preset('lesson');
    await openPanel('cost');
    const root = '[data-lesson="cost"]';
    assert.equal(await page.isChecked(`${root} input[type="checkbox"]`), true, 'following the explorer');
    // Independently: the entries of the explorer's W_Q, W_K, W_V (8 × 4 each; no W_O at h = 1).
    const sizes = {};
    for (const name of ['WQ', 'WK', 'WV']) sizes[name] = (await readMatrix(name)).shape;
    const weights = Object.values(sizes).reduce((n, [r, c]) => n + r * c, 0);
    assert.equal(weights, 96);
    const [E, dk] = sizes.WQ;
    const dv = sizes.WV[1];
    const n = 4;
    assert.equal(await statValue(root, 'parameters'), weights);
    assert.equal(await statValue(root, 'parameters-head'), weights);
    assert.equal(await statValue(root, 'projectionFlops'), 2 * E * (n * dk + n * dk + n * dv));
    assert.equal(await statValue(root, 'scoreFlops'), 2 * n * n * (dk + dv));
    assert.equal(await statValue(root, 'attentionMatrixBytes'), 4 * n * n);
    // Where the quadratic terms (scores, weights·V, softmax: 2N²(d_k + d_v) + 5N²) pass the
    // projections (2·d·N·(2d_k + d_v)) at m = N: the smallest such N.
    let N = 1;
    while (2 * N * N * (dk + dv) + 5 * N * N < 2 * E * N * (2 * dk + dv)) N++;
    assert.equal(await statValue(root, 'crossover'), N);
    // The one-head layer it is not: 4·d² (W_O included), the 256 the page reported before.
    assert.equal(await statValue(root, 'parameters-layer-one-head'), 4 * E * E);
    assert.equal(await page.$$eval(`${root} .parameter-count s`, (x) => x.length), 0, 'no struck-out count');
    assert.match(await page.textContent(`${root} .parameter-count`), /no W_O/);
    // Typed sizes (d_model 16, the explorer's h = 1): a layer of one head, which has W_O,
    // 4·d² + 4·d; its sentence states that one count, struck nowhere.
    await typeInto(`${root} input[type="number"] >> nth=2`, 16);
    assert.equal(await page.isChecked(`${root} input[type="checkbox"]`), false);
    assert.equal(await page.inputValue(`${root} input[type="number"] >> nth=3`), '1');
    assert.equal(await statValue(root, 'parameters'), 4 * 16 * 16 + 4 * 16);
    assert.equal(
      await page.$$eval(`${root} .parameter-count s, ${root} [data-stat="parameters-wrong"]`, (x) => x.length),
      0,
    );
    assert.match(await page.textContent(`${root} .parameter-count`), /with one head that is d_model = 16 wide/);
    // Q, K, V typed directly: no projections at all.
    await afterRender(page, () => page.check(`${root} input[type="checkbox"]`));
    await afterRender(page, () => page.check('input[name="mode"][value="qkv"]'));
    assert.equal(await statValue(root, 'parameters'), 0);
    assert.equal(await statValue(root, 'projectionFlops'), 0);
    await afterRender(page, () => page.check('input[name="mode"][value="sentence"]'));
  });

  test('token by token: row i of causal attention equals query i over keys 1..i (two calls, shown equal)', async () => {
    await preset('lesson');
    await openPanel('steps');
    const root = '[data-lesson="steps"]';
    await afterRender(page, () => page.click(`${root} button:has-text("Previous")`));
    assert.equal(await page.textContent(`${root} output`), '2 of 4');
    const M = await projections();
    const expected = await page.evaluate((M) => {
      const a = window.__attn;
      const [q, k, v] = ['WQ', 'WK', 'WV'].map((w) => a.matmul(M.X, M[w]));
      const rows = (t, from, to) => ({
        data: t.data.slice(from * t.shape[1], to * t.shape[1]),
        shape: [to - from, t.shape[1]],
      });
      const full = a.scaledDotProductAttention(q, k, v, { causal: true });
      const prefix = a.scaledDotProductAttention(rows(q, 1, 2), rows(k, 0, 2), rows(v, 0, 2));
      return {
        full: Array.from(full.weights.data),
        prefix: Array.from(prefix.weights.data),
        out: Array.from(prefix.output.data),
      };
    }, M);
    assertClose((await readHeatmap(page, 'steps-causal')).data, expected.full, { atol: 1e-5, label: 'causal weights' });
    assertClose((await readHeatmap(page, 'steps-prefix-weights')).data, expected.prefix, {
      atol: 1e-5,
      label: 'prefix weights',
    });
    assertClose((await readHeatmap(page, 'steps-prefix-output')).data, expected.out, {
      atol: 1e-4,
      label: 'prefix output',
    });
    const row = (await readHeatmap(page, 'steps-causal-weights')).data;
    assert.deepEqual(row.slice(2), [0, 0]);
    const verdict = await page.$eval(`${root} [data-stat="steps-verdict"]`, (e) => ({ ...e.dataset }));
    assert.equal(verdict.equal, 'true');
    assert.ok(Number(verdict.maxDiff) < 1e-5);
    // The whole multi-head layer: one query over a prefix of keys.
    await preset('heads');
    assert.equal(await page.getAttribute(`${root} [data-stat="steps-verdict"]`, 'data-equal'), 'true');
  });

  test('permutation: swapped tokens give swapped output rows; a causal mask breaks it', async () => {
    await preset('lesson');
    await openPanel('permutation');
    const root = '[data-lesson="permutation"]';
    await afterRender(page, () => page.selectOption(`${root} select >> nth=1`, '2'));
    const original = await readHeatmap(page, 'perm-original');
    const swapped = await readHeatmap(page, 'perm-swapped');
    const perm = [2, 1, 0, 3];
    const d = original.shape[1];
    assertClose(
      swapped.data,
      perm.flatMap((r) => original.data.slice(r * d, (r + 1) * d)),
      { atol: 1e-6, label: 'rows swapped' },
    );
    const M = await projections();
    const expected = await page.evaluate(
      ({ M, perm }) => {
        const a = window.__attn;
        const X = { data: perm.flatMap((r) => M.X.data.slice(r * 8, (r + 1) * 8)), shape: [4, 8] };
        const [q, k, v] = ['WQ', 'WK', 'WV'].map((w) => a.matmul(X, M[w]));
        return Array.from(a.scaledDotProductAttention(q, k, v).output.data);
      },
      { M, perm },
    );
    assertClose(swapped.data, expected, { atol: 1e-4, label: 'swapped output = API on swapped X' });
    assert.equal(await page.getAttribute(`${root} [data-stat="perm-verdict"]`, 'data-equal'), 'true');
    const lit = await page.$$eval('[data-heatmap="perm-swapped"] th.row-label.hl .label-text', (ths) =>
      ths.map((th) => th.textContent),
    );
    assert.deepEqual(lit, ['sat', 'the']);
    await setMask('causal');
    assert.equal(await page.getAttribute(`${root} [data-stat="perm-verdict"]`, 'data-equal'), 'false');
    await setMask('none');
  });

  test('lesson settings round-trip through the link in the address bar', async () => {
    await openPanel('cost');
    await typeInto('[data-lesson="cost"] input[type="number"] >> nth=2', 1024);
    const link = await linkWhere(
      page,
      (s) => s.lessons.panel === 'cost' && s.lessons.cost?.dModel === 1024,
      'the Cost tab with d_model 1024',
    );
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const other = await context.newPage();
    await other.goto(link);
    await other.waitForSelector('#app[data-ready="true"]');
    assert.equal(await other.getAttribute('.lesson-tab[data-panel="cost"]', 'aria-selected'), 'true');
    assert.equal(await other.inputValue('[data-lesson="cost"] input[type="number"] >> nth=2'), '1024');
    assert.equal(await other.isChecked('[data-lesson="cost"] input[type="checkbox"]'), false);
    await context.close();
  });

  test('no console errors, failed requests or CSP violations', async () => {
    assert.deepEqual(await collectProblems(page, problems), []);
  });
});

describe('how the panels look', () => {
  test('every panel at 1280 and 375 px, light and dark: screenshots, no sideways scrolling, axe clean', async () => {
    const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    // One page, resized and re-themed between rounds (a fresh page per round costs seconds).
    const opened = await openExplorer(env, { width: 1280, height: 900 });
    const p = opened.page;
    await afterRender(p, () => p.selectOption('#preset', 'mixing')); // d_v = 2: the hull panel has points
    for (const [width, height, colorScheme] of [
      [1280, 900, 'light'],
      [1280, 900, 'dark'],
      [375, 740, 'dark'],
      [375, 740, 'light'],
    ]) {
      await p.setViewportSize({ width, height });
      await unfold(p); // (on a phone the header's tools fold behind a button)
      if ((await p.inputValue('#theme')) !== colorScheme)
        await afterRender(p, () => p.selectOption('#theme', colorScheme));
      for (const id of PANELS) {
        if ((await p.getAttribute(`.lesson-tab[data-panel="${id}"]`, 'aria-selected')) !== 'true')
          await afterRender(p, () => p.click(`.lesson-tab[data-panel="${id}"]`));
        // The pitfalls and the autoregressive view with the causal mask on, the others without.
        const causal = id === 'pitfalls' || id === 'steps';
        if (causal !== (await p.isChecked('input[name="mask"][value="causal"]')))
          await afterRender(p, () => p.check(`input[name="mask"][value="${causal ? 'causal' : 'none'}"]`));
        if (id === 'sqrt-dk') await p.waitForSelector('[data-lesson="sqrt-dk"][data-shown]');
        await p.$eval(`#lesson-panel-${id}`, (e) => e.scrollIntoView({ block: 'start' }));
        await screenshot(p, `lesson-${id}-${width}-${colorScheme}`);
        const errors = await p.$$eval(`#lesson-panel-${id} .error, #lesson-panel-${id} .lesson-status.error`, (es) =>
          es.filter((e) => e.offsetParent).map((e) => e.textContent),
        );
        assert.deepEqual(errors, [], `${id} at ${width}px shows an error`);
        const { scroll, client } = await p.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        assert.ok(scroll <= client + 1, `${id} at ${width}px scrolls sideways: ${scroll} > ${client}`);
      }
      if (width === 1280) {
        // Every panel has been built by now: show them all at once for one axe run, then hide them again.
        await p.evaluate(() =>
          document.querySelectorAll('.lesson-holder').forEach((h) => {
            h.dataset.wasHidden = String(h.hidden);
            h.hidden = false;
          }),
        );
        await p.evaluate(axe);
        // Every rule on the panels; colour contrast without the heatmap cells, whose palette
        // contrast the page's own axe run already covers (and which make that rule slow).
        const violations = await p.evaluate(async () => {
          const all = await window.axe.run(document.getElementById('lessons'), {
            rules: { 'color-contrast': { enabled: false } },
          });
          const contrast = await window.axe.run(
            { include: [['#lessons']], exclude: [['#lessons table.heatmap']] },
            { runOnly: ['color-contrast'] },
          );
          return [...all.violations, ...contrast.violations].map(
            (v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`,
          );
        });
        assert.deepEqual(violations, [], `lesson panels, ${colorScheme}`);
        await p.evaluate(() =>
          document.querySelectorAll('.lesson-holder').forEach((h) => {
            h.hidden = h.dataset.wasHidden === 'true';
            delete h.dataset.wasHidden;
          }),
        );
      }
    }
    assert.deepEqual(await collectProblems(p, opened.problems), []);
    await opened.context.close();
  });
});
