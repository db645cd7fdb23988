// End-to-end behaviour of the explorer page in headless Chromium under the strict CSP: every
// number checked here is compared with the JS API (imported in the page) or with NumPy.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  afterRender,
  assertClose,
  cellSelector,
  cellText,
  collectProblems,
  fillCell,
  readHeatmap,
  readHeatmapCells,
  setSize,
  useExplorer,
} from './helpers.mjs';

// /usr/bin/python3 -c "import numpy as np; np.random.seed(42); X = np.random.randn(4, 8);
//   Wq, Wk, Wv = [np.random.randn(8, 4) for _ in range(3)]; Q, K, V = X @ Wq, X @ Wk, X @ Wv;
//   s = Q @ K.T / np.sqrt(4); w = np.exp(s - s.max(1, keepdims=True)); w /= w.sum(1, keepdims=True);
//   np.set_printoptions(precision=17); print(repr(w)); print(repr(w @ V))"
const LESSON_WEIGHTS = [
  1.1245373803705627e-1, 3.7760809522618742e-3, 4.5621653209744262e-1, 4.2755364891323921e-1, 2.4773766687604101e-2,
  6.1621924138768036e-1, 1.1026545605291582e-7, 3.5900688165925942e-1, 2.8418725545393335e-5, 1.4771671141026047e-1,
  8.5135777713330474e-1, 8.9709273088944515e-4, 9.9360501102512022e-1, 1.70190158463276e-4, 3.2141226560977641e-8,
  6.2247666751900736e-3,
];
const LESSON_OUTPUT = [
  -0.2656196228618171, 1.2469557763978896, -1.7113063043092787, -0.25977541744939137, -1.3262330312671435,
  2.6489976001257975, -4.731064678180034, 0.25271242240337144, -1.781954279572493, 0.4247917082264201,
  0.9401083576340231, 0.8661620145609814, 2.312301750938314, 0.29392222493243764, -0.45249372243364605,
  -2.814579252607603,
];

const { page, problems } = useExplorer();

const edit = (matrix, i, j, text) => afterRender(page, () => fillCell(page, matrix, i, j, text));
const preset = (id) => afterRender(page, () => page.selectOption('#preset', id));
const setMask = (kind) => afterRender(page, () => page.check(`input[name="mask"][value="${kind}"]`));
const meanEntropy = async () => Number(await page.getAttribute('[data-stat="summary"]', 'data-mean-entropy'));

// The values of an editable matrix as the page holds them (titles carry 8 significant digits,
// exact for the two-decimal presets used below).
const readMatrix = (name) =>
  page.evaluate((m) => {
    const inputs = [...document.querySelectorAll(`[data-matrix="${m}"] .cell-input`)];
    const rows = new Set(inputs.map((i) => i.dataset.row)).size;
    return { shape: [rows, inputs.length / rows], data: inputs.map((i) => Number(i.title.replace('−', '-'))) };
  }, name);

describe('the lesson NumPy example', () => {
  test('loads by default and shows the weights NumPy prints', async () => {
    const w = await readHeatmap(page, 'weights');
    assert.deepEqual(w.shape, [4, 4]);
    assertClose(w.data, LESSON_WEIGHTS, { atol: 2e-5, rtol: 1e-3, label: 'lesson weights' });
    const out = await readHeatmap(page, 'output');
    assertClose(out.data, LESSON_OUTPUT, { atol: 1e-3, rtol: 1e-3, label: 'lesson output' });
    // The two rows the lesson quotes: 0.85 and 0.62.
    const cells = (await readHeatmapCells(page, 'weights')).map((c) => c.text);
    assert.equal(cells[10], '0.85');
    assert.equal(cells[5], '0.62');
    const sums = await page.$$eval('[data-heatmap="weights"] td[data-stat="sum"]', (tds) =>
      tds.map((td) => td.textContent),
    );
    assert.deepEqual(sums, ['1.000', '1.000', '1.000', '1.000']);
  });

  test('editing X changes weights and output to what the JS API computes', async () => {
    const before = await readHeatmap(page, 'weights');
    await edit('X', 1, 2, '0.75');
    const weights = await readHeatmap(page, 'weights');
    const output = await readHeatmap(page, 'output');
    assert.notDeepEqual(weights.data, before.data);
    const expected = await page.evaluate(async () => {
      const { createAttention } = await import('/lib/attention.js');
      const attn = await createAttention();
      const rng = attn.randomState(42);
      const X = rng.randn(4, 8).data;
      X[1 * 8 + 2] = 0.75;
      const W = [rng.randn(8, 4).data, rng.randn(8, 4).data, rng.randn(8, 4).data];
      // Projections in float64 here; attention itself from the API.
      const [Q, K, V] = W.map((w) => {
        const out = new Float64Array(16);
        for (let i = 0; i < 4; i++)
          for (let c = 0; c < 4; c++) for (let r = 0; r < 8; r++) out[i * 4 + c] += X[i * 8 + r] * w[r * 4 + c];
        return { data: out, shape: [4, 4] };
      });
      const r = attn.scaledDotProductAttention(Q, K, V);
      return { weights: Array.from(r.weights.data), output: Array.from(r.output.data) };
    });
    assertClose(weights.data, expected.weights, { atol: 1e-5, rtol: 1e-4, label: 'weights after edit' });
    assertClose(output.data, expected.output, { atol: 1e-4, rtol: 1e-4, label: 'output after edit' });
    const q = await readHeatmap(page, 'Q');
    assert.deepEqual(q.shape, [4, 4]);
  });
});

describe('Q, K, V mode', () => {
  test('editing Q matches scaledDotProductAttention on the same inputs', async () => {
    await preset('hand');
    assert.equal(await page.isChecked('input[name="mode"][value="qkv"]'), true);
    await edit('Q', 0, 1, '2');
    const shown = {
      weights: await readHeatmap(page, 'weights'),
      output: await readHeatmap(page, 'output'),
      scores: await readHeatmap(page, 'scores'),
    };
    const expected = await page.evaluate(async () => {
      const { createAttention } = await import('/lib/attention.js');
      const attn = await createAttention();
      const r = attn.scaledDotProductAttention(
        [
          [1, 2],
          [0, 1],
          [1, 1],
        ],
        [
          [1, 0],
          [0, 1],
          [1, 1],
        ],
        [
          [1, 0],
          [0, 1],
          [0.5, 0.5],
        ],
        { trace: true },
      );
      return {
        weights: Array.from(r.weights.data),
        output: Array.from(r.output.data),
        scores: Array.from(r.trace.scores.data),
      };
    });
    assertClose(shown.scores.data, expected.scores, { label: 'scores' });
    assertClose(shown.weights.data, expected.weights, { label: 'weights' });
    assertClose(shown.output.data, expected.output, { label: 'output' });
  });

  test('hovering a score explains it with its dot-product terms', async () => {
    await page.hover('[data-heatmap="scores"] td[data-row="0"][data-col="2"]');
    const text = await page.textContent('#explain');
    // q1 = (1, 2), k3 = (1, 1): 1×1 + 2×1 = 3.
    assert.match(text, /1×1 \+ 2×1/);
    assert.match(text, /= 3(?![\d.])/);
    await page.hover('[data-heatmap="weights"] td[data-row="0"][data-col="2"]');
    assert.match(await page.textContent('#explain'), /exp\(M\[1,3\]\)/);
    await page.hover('[data-heatmap="output"] td[data-row="0"][data-col="0"]');
    assert.match(await page.textContent('#explain'), /weighted average/);
  });
});

describe('masks', () => {
  test('causal: the upper triangle of the weights is exactly 0 and rows still sum to 1', async () => {
    await preset('lesson');
    await setMask('causal');
    const w = await readHeatmap(page, 'weights');
    const [n, m] = w.shape;
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let j = 0; j < m; j++) {
        if (j > i) assert.equal(w.data[i * m + j], 0, `weight [${i}, ${j}] must be exactly 0`);
        sum += w.data[i * m + j];
      }
      assert.ok(Math.abs(sum - 1) < 1e-5, `row ${i} sums to ${sum}`);
    }
    const masked = await readHeatmap(page, 'masked');
    assert.equal(masked.data[1], -Infinity);
    const shown = await readHeatmapCells(page, 'masked');
    assert.deepEqual({ colour: shown[1].colour, text: shown[1].text }, { colour: 'hatch', text: '−∞, hidden' });
    assert.match(shown[0].colour, /^rgb\(/);
  });

  test('padding: keys marked [PAD] get zero weight from every query', async () => {
    await preset('padding');
    assert.equal(await page.isChecked('input[name="mask"][value="padding"]'), true);
    const w = await readHeatmap(page, 'weights');
    const [n, m] = w.shape;
    assert.equal(m, 6);
    for (let i = 0; i < n; i++) for (const j of [4, 5]) assert.equal(w.data[i * m + j], 0);
    // Unmark one [PAD] key: it gets weight again.
    await afterRender(page, () => page.click('.pad-toggle >> nth=5'));
    const w2 = await readHeatmap(page, 'weights');
    assert.ok(w2.data[5] > 0);
  });

  test('custom: clicking a score hides that pair; a fully masked row is zeros, not NaN', async () => {
    await preset('hand');
    await setMask('custom');
    await afterRender(page, () => page.click('[data-heatmap="scores"] td[data-row="0"][data-col="1"]'));
    let w = await readHeatmap(page, 'weights');
    assert.equal(w.data[1], 0);
    assert.ok(Math.abs(w.data[0] + w.data[2] - 1) < 1e-6);
    for (const j of [0, 2])
      await afterRender(page, () => page.click(`[data-heatmap="scores"] td[data-row="0"][data-col="${j}"]`));
    w = await readHeatmap(page, 'weights');
    const out = await readHeatmap(page, 'output');
    assert.deepEqual(w.data.slice(0, 3), [0, 0, 0]);
    assert.deepEqual(out.data.slice(0, 2), [0, 0]);
    assert.ok(w.data.every((x) => !Number.isNaN(x)) && out.data.every((x) => !Number.isNaN(x)));
    assert.equal(await page.isVisible('[data-heatmap="weights"] tr.fully-masked .badge'), true);
    assert.match(await page.textContent('.pipeline'), /Fully masked row/);
    // "Show all pairs" clears the custom mask.
    await afterRender(page, () => page.click('text=Show all pairs'));
    w = await readHeatmap(page, 'weights');
    assert.ok(w.data.slice(0, 3).every((x) => x > 0));
  });
});

describe('scaling', () => {
  test('switching √d_k off lowers the entropy; a higher temperature raises it', async () => {
    await preset('saturation');
    const scaled = await meanEntropy();
    await afterRender(page, () => page.uncheck('#sqrt-dk'));
    const unscaled = await meanEntropy();
    assert.ok(unscaled < scaled, `entropy without √d_k (${unscaled}) should be below ${scaled}`);
    const s = await readHeatmap(page, 'scores');
    const sc = await readHeatmap(page, 'scaled');
    assertClose(sc.data, s.data, { label: 'scaled = scores when scaling is off' });
    await afterRender(page, () => page.check('#sqrt-dk'));
    await afterRender(page, async () => {
      await page.fill('#temperature', '4');
      await page.press('#temperature', 'Enter');
    });
    const hot = await meanEntropy();
    assert.ok(hot > scaled, `entropy at T = 4 (${hot}) should exceed ${scaled}`);
    assert.match(await page.textContent('.scale-out'), /0\.04419/); // 1 / (4·√32)
  });
});

describe('multi-head', () => {
  test('switching heads changes the weights heatmap, and every panel matches the API', async () => {
    await preset('heads');
    const h1 = await readHeatmap(page, 'weights');
    const tile1 = await readHeatmap(page, 'head-1');
    assert.deepEqual(tile1.data, h1.data);
    await afterRender(page, () => page.click('.head-select button[aria-label="Head 2"]'));
    const h2 = await readHeatmap(page, 'weights');
    assert.notDeepEqual(h2.data, h1.data);
    assert.deepEqual(h2.data, (await readHeatmap(page, 'head-2')).data);
    assert.match(await page.textContent('.pipeline .section-sub'), /head 2 of 4/);

    // Head 1 is the previous-token head: each row after the first peaks at the previous token.
    const m = h1.shape[1];
    for (let i = 1; i < h1.shape[0]; i++) {
      const row = h1.data.slice(i * m, (i + 1) * m);
      assert.equal(row.indexOf(Math.max(...row)), i - 1, `head 1, row ${i}`);
    }

    const M = {};
    for (const name of ['X', 'WQ', 'WK', 'WV', 'WO']) M[name] = await readMatrix(name);
    const expected = await page.evaluate(async (M) => {
      const { createAttention } = await import('/lib/attention.js');
      const attn = await createAttention();
      const mha = attn.multiHeadAttention({ embedDim: 16, numHeads: 4, bias: false });
      mha.setWeights({ wq: M.WQ, wk: M.WK, wv: M.WV, wo: M.WO });
      const r = mha.forward(M.X, M.X, M.X, { trace: true });
      const n = M.X.shape[0];
      return {
        average: Array.from(r.weights.data),
        output: Array.from(r.output.data),
        head2: Array.from(r.trace.weights.data.slice(n * n, 2 * n * n)),
      };
    }, M);
    assertClose((await readHeatmap(page, 'average')).data, expected.average, { label: 'head average' });
    assertClose((await readHeatmap(page, 'mha-output')).data, expected.output, {
      atol: 1e-4,
      label: 'multi-head output',
    });
    assertClose(h2.data, expected.head2, { label: 'head 2 weights' });
  });

  test('the hand-built heads keep their names only while their hand-built vectors are there', async () => {
    await preset('heads');
    const title = () => page.$eval('[data-heatmap="scores"]', (e) => e.closest('section.card, div.card').textContent);
    assert.match(await title(), /head 1 \(previous token\)/);
    assert.match(await page.textContent('.controls'), /Written by hand for this example/);
    assert.doesNotMatch(await page.textContent('.controls'), /mean nothing yet/);
    // Another sentence makes X random per word: the heads no longer do what the names said.
    await afterRender(page, () => page.fill('#sentence', 'a dog ran to the park and it was happy'));
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-heatmap="weights"] th.col-label')].some((th) => th.textContent === 'dog'),
    );
    assert.doesNotMatch(await title(), /previous token/);
    assert.match(await page.textContent('.controls'), /mean nothing yet/);
  });

  test('a head count that does not divide d_model shows the error instead of breaking', async () => {
    await preset('lesson');
    const lessonW = {};
    for (const name of ['WQ', 'WK', 'WV']) lessonW[name] = (await readMatrix(name)).data;
    await setSize(page, '#size-heads', '3');
    assert.match(await page.textContent('.pipeline .error'), /divisible/);
    await setSize(page, '#size-heads', '2');
    assert.equal(await page.isVisible('.pipeline .error'), false);
    // The lesson's head is split, not widened: head 1 holds its columns 1–2, head 2 its columns
    // 3–4, each followed by two zero columns (head-split.js); the Sizes say so.
    for (const name of ['WQ', 'WK', 'WV']) {
      const w = (await readMatrix(name)).data;
      const want = Array.from({ length: 64 }, (_, k) => {
        const [r, c] = [Math.floor(k / 8), k % 8];
        const from = [0, 1, null, null, 2, 3, null, null][c];
        return from === null ? 0 : lessonW[name][r * 4 + from];
      });
      assertClose(w, want, { atol: 0, rtol: 0, label: `${name} split between 2 heads` });
    }
    assert.match(
      await page.textContent('.sizes'),
      /The single head\u2019s 4 columns of W_Q and W_K and 4 of W_V were split among the 2 heads/,
    );
    // Back to one head: the lesson again, exactly.
    await setSize(page, '#size-heads', '1');
    const w1 = await readHeatmap(page, 'weights');
    assertClose(w1.data, LESSON_WEIGHTS, { atol: 2e-5, rtol: 1e-3, label: 'the lesson head again' });
  });
});

describe('keyboard', () => {
  test('arrows move between cells, Enter commits and moves down, Escape restores', async () => {
    await preset('hand');
    await page.focus(cellSelector('Q', 0, 0));
    const at = () =>
      page.evaluate(() => {
        const a = document.activeElement;
        return `${a.closest('[data-matrix],[data-heatmap]')?.dataset.matrix ?? a.closest('[data-heatmap]')?.dataset.heatmap}:${a.dataset.row},${a.dataset.col}`;
      });
    await page.keyboard.press('ArrowRight');
    assert.equal(await at(), 'Q:0,1');
    await page.keyboard.press('ArrowDown');
    assert.equal(await at(), 'Q:1,1');
    const before = await readHeatmap(page, 'scores');
    await afterRender(page, () => page.keyboard.type('3'));
    await page.keyboard.press('Enter');
    assert.equal(await at(), 'Q:2,1');
    const after = await readHeatmap(page, 'scores');
    assert.deepEqual(after.data.slice(3, 6), [0, 3, 3]); // q2 = (0, 3) against k = (1,0), (0,1), (1,1)
    assert.notDeepEqual(after.data, before.data);
    // An invalid entry is flagged and Escape restores the value.
    await page.keyboard.type('abc');
    assert.equal(await page.getAttribute(cellSelector('Q', 2, 1), 'aria-invalid'), 'true');
    assert.equal(await cellText(page, 'Q', 2, 1), 'abc', 'the bad entry stays visible');
    await page.keyboard.press('Escape');
    assert.equal(await cellText(page, 'Q', 2, 1), '1');
    await page.keyboard.press('Tab');
    assert.equal(await at(), 'K:0,0');
    // Heatmap cells: focusable, arrows move, the explanation follows.
    await page.focus('[data-heatmap="weights"] td[data-row="0"][data-col="0"]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    assert.equal(await at(), 'weights:1,1');
    assert.match(await page.textContent('#explain-title'), /Weight/);
    await page.keyboard.press('End');
    assert.equal(await at(), 'weights:1,2');
  });

  test('every form control has an accessible name', async () => {
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, button')]
        .filter(
          (e) => !e.closest('[hidden]') && !(e.labels?.length || e.getAttribute('aria-label') || e.textContent.trim()),
        )
        .map((e) => e.outerHTML.slice(0, 80)),
    );
    assert.deepEqual(unnamed, []);
  });
});

describe('sentence input', () => {
  test('tokens label rows and columns and are rendered as text, never as HTML', async () => {
    await preset('lesson');
    const hostile = '<img src=x onerror="window.__pwned=1"> cats & dogs';
    await afterRender(page, () => page.fill('#sentence', hostile));
    // A redraw queued before the typing may be the one afterRender saw: wait for the sentence's.
    await page.waitForFunction(
      () => document.querySelector('[data-heatmap="weights"] th.col-label')?.textContent === '<',
    );
    assert.equal(await page.$('#app img'), null);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    const labels = await page.$$eval('[data-heatmap="weights"] th.col-label', (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(labels.slice(0, 3), ['<', 'img', 'src']);
    assert.ok(labels.includes('&'));
    const rows = await page.$$eval('[data-heatmap="weights"] th.row-label .label-text', (ths) =>
      ths.map((th) => th.textContent),
    );
    assert.deepEqual(rows, labels);
    const [n] = (await readHeatmap(page, 'weights')).shape;
    assert.equal(n, labels.length);
  });
});

test('no console errors, failed requests or CSP violations', async () => {
  assert.deepEqual(await collectProblems(page, problems), []);
});
