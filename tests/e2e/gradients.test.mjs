// The "Gradients" lesson panel in headless Chromium under the strict CSP: its heatmaps are the JS
// API's backward pass of the explorer's own Q, K, V (called inside the page), hidden cells of dS
// are exactly 0, the nudge check agrees to first order, a gradient step lowers the loss and moves
// Q by −lr·dQ, and unscaled scores starve the keys of gradient. Screenshots at 1280 and 375 px,
// light and dark, go to screenshots/; axe finds nothing on the panel.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  afterFrames,
  afterRender,
  assertClose,
  collectProblems,
  launch,
  openExplorer,
  readHeatmap,
  screenshot,
  unfold,
} from './helpers.mjs';

let env;
let page;
let problems;

before(async () => {
  env = await launch();
  ({ page, problems } = await openExplorer(env));
  await page.evaluate(async () => {
    const { createAttention } = await import('/lib/attention.js');
    window.__attn = await createAttention();
  });
  await afterRender(page, () => page.click('.lesson-tab[data-panel="gradients"]'));
  await afterRender(page, () => page.click('[data-control="grad-use-qkv"]'));
});
after(async () => {
  await env?.close();
});

const PANEL = '#lesson-panel-gradients';
async function setMask(kind) {
  if (!(await page.isChecked(`input[name="mask"][value="${kind}"]`)))
    await afterRender(page, () => page.check(`input[name="mask"][value="${kind}"]`));
}
const stat = async (name, key = 'value') =>
  Number(await page.getAttribute(`${PANEL} [data-stat="${name}"]`, `data-${key}`));
const readMatrix = (name) =>
  page.evaluate((m) => {
    const inputs = [...document.querySelectorAll(`[data-matrix="${m}"] .cell-input`)];
    const rows = new Set(inputs.map((i) => i.dataset.row)).size;
    return { shape: [rows, inputs.length / rows], data: inputs.map((i) => Number(i.title.replace('−', '-'))) };
  }, name);

// The panel's maps recomputed in the page by the API from the explorer's Q, K, V and T = 0.
async function expectedGradients(causal) {
  const M = { Q: await readMatrix('Q'), K: await readMatrix('K'), V: await readMatrix('V') };
  return page.evaluate(
    ({ M, causal }) => {
      const a = window.__attn;
      const options = causal ? { causal: true } : {};
      const o = a.scaledDotProductAttention(M.Q, M.K, M.V, options).output;
      const g = a.scaledDotProductAttentionGrad(M.Q, M.K, M.V, o, options); // dO = O − 0
      const plain = (t) => Array.from(t.data);
      return {
        dO: plain(o),
        dS: plain(g.gradScores),
        dQ: plain(g.gradQ),
        dK: plain(g.gradK),
        dV: plain(g.gradV),
        loss: plain(o).reduce((s, x) => s + 0.5 * x * x, 0),
      };
    },
    { M, causal },
  );
}

describe('gradients lesson', () => {
  test('the maps are the API’s backward pass of the explorer’s Q, K, V; hidden dS cells are exactly 0', async () => {
    for (const causal of [false, true]) {
      await setMask(causal ? 'causal' : 'none');
      const want = await expectedGradients(causal);
      for (const key of ['dO', 'dS', 'dQ', 'dK', 'dV'])
        assertClose((await readHeatmap(page, `grad-${key}`)).data, want[key], {
          atol: 1e-4,
          rtol: 1e-4,
          label: `${key} (causal ${causal})`,
        });
      assert.ok(Math.abs((await stat('grad-loss')) - want.loss) <= 1e-4 * (1 + want.loss));
      if (causal) {
        const dS = await readHeatmap(page, 'grad-dS');
        const [n, m] = dS.shape;
        for (let i = 0; i < n; i++)
          for (let j = i + 1; j < m; j++) assert.equal(dS.data[i * m + j], 0, `dS[${i}][${j}] is hidden`);
      }
    }
    await setMask('none');
  });

  test('one output cell as the loss: dO is 1 at that cell and 0 elsewhere, L is that output', async () => {
    await page.selectOption('[data-control="grad-goal"]', 'cell');
    await page.fill('[data-control="grad-cell-row"]', '2');
    await page.dispatchEvent('[data-control="grad-cell-row"]', 'change');
    await page.fill('[data-control="grad-cell-col"]', '3');
    await page.dispatchEvent('[data-control="grad-cell-col"]', 'change');
    await page.waitForFunction(
      () => document.querySelector('#lesson-panel-gradients [data-lesson]').dataset.goal === 'cell',
    );
    const dO = await readHeatmap(page, 'grad-dO');
    const [, dv] = dO.shape;
    dO.data.forEach((x, k) => assert.equal(x, k === 1 * dv + 2 ? 1 : 0, `dO[${k}]`));
    const M = { Q: await readMatrix('Q'), K: await readMatrix('K'), V: await readMatrix('V') };
    const o = await page.evaluate(
      (M) => Array.from(window.__attn.scaledDotProductAttention(M.Q, M.K, M.V).output.data),
      M,
    );
    assert.ok(Math.abs((await stat('grad-loss')) - o[1 * dv + 2]) <= 1e-4);
    await page.selectOption('[data-control="grad-goal"]', 'target');
    await page.waitForFunction(
      () => document.querySelector('#lesson-panel-gradients [data-lesson]').dataset.goal === 'target',
    );
  });

  test('hovering a dS cell explains it with the value the map shows', async () => {
    const dS = await readHeatmap(page, 'grad-dS');
    await page.hover('[data-heatmap="grad-dS"] td[data-row="1"][data-col="2"]');
    await page.waitForFunction(() => document.querySelector('.grad-explain .explain-title').textContent.includes('dS'));
    const text = await page.textContent('.grad-explain .explain-body');
    const shown = Number(text.match(/= ([\u2212\-\d.e]+)\s*The softmax/)?.[1]?.replace('−', '-'));
    assert.ok(Math.abs(shown - dS.data[1 * dS.shape[1] + 2]) <= 1e-3 * (1 + Math.abs(shown)), `${text}`);
  });

  test('nudge check: the loss changes by ε × gradient to first order', async () => {
    // A control of the panel redraws the panel only, not the explorer.
    await page.fill('[data-control="grad-eps"]', '0.0001');
    await page.dispatchEvent('[data-control="grad-eps"]', 'change');
    await page.waitForFunction(
      () => Math.abs(Number(document.querySelector('[data-stat="grad-nudge"]').dataset.eps) - 1e-4) < 1e-6,
    );
    const change = await stat('grad-nudge', 'change');
    const predicted = await stat('grad-nudge', 'predicted');
    assert.ok(predicted !== 0);
    assert.ok(Math.abs(change - predicted) <= 0.02 * Math.abs(predicted), `change ${change}, predicted ${predicted}`);
  });

  test('one gradient step on Q moves Q by −lr·dQ and lowers the loss', async () => {
    const before = await stat('grad-loss');
    const Q = await readMatrix('Q');
    const dQ = (await readHeatmap(page, 'grad-dQ')).data;
    await page.fill('[data-control="grad-lr"]', '0.05');
    await page.dispatchEvent('[data-control="grad-lr"]', 'change');
    await page.fill('[data-control="grad-steps"]', '1');
    await page.dispatchEvent('[data-control="grad-steps"]', 'change');
    assert.equal(await page.textContent('[data-control="grad-step"]'), 'Take one step');
    await afterRender(page, () => page.click('[data-control="grad-step"]'));
    const after = await stat('grad-loss');
    assert.ok(after < before, `loss ${before} -> ${after}`);
    const moved = await readMatrix('Q');
    assertClose(
      moved.data,
      Q.data.map((x, i) => x - 0.05 * dQ[i]),
      { atol: 1e-4, rtol: 1e-4, label: 'Q after the step' },
    );
    assert.match(await page.textContent(`${PANEL} [data-stat="grad-steps-taken"]`), /1 step on Q: loss/);
  });

  test('by default a click visibly lowers the loss: 10 steps of lr 0.5, each from a new backward pass, the numbers shown', async (t) => {
    // Back to the defaults of a fresh panel (the test above changed them).
    await page.fill('[data-control="grad-lr"]', '0.5');
    await page.dispatchEvent('[data-control="grad-lr"]', 'change');
    await page.fill('[data-control="grad-steps"]', '10');
    await page.dispatchEvent('[data-control="grad-steps"]', 'change');
    const M = { Q: await readMatrix('Q'), K: await readMatrix('K'), V: await readMatrix('V') };
    const before = await stat('grad-loss');
    // Independently, with the JS API: ten steps, a backward pass each (dO = O for T = 0).
    const want = await page.evaluate((M) => {
      const a = window.__attn;
      let q = Float64Array.from(M.Q.data);
      const losses = [];
      for (let k = 0; k <= 10; k++) {
        const Q = { data: Float32Array.from(q), shape: M.Q.shape };
        const o = a.scaledDotProductAttention(Q, M.K, M.V).output;
        losses.push(Array.from(o.data).reduce((s, x) => s + 0.5 * x * x, 0));
        if (k === 10) break;
        const g = a.scaledDotProductAttentionGrad(Q, M.K, M.V, o).gradQ.data;
        q = q.map((x, i) => x - 0.5 * g[i]);
      }
      return { q: Array.from(q), losses };
    }, M);
    assert.equal(await page.textContent('[data-control="grad-step"]'), 'Take 10 steps');
    await afterRender(page, () => page.click('[data-control="grad-step"]'));
    const after = await stat('grad-loss');
    assert.ok(Math.abs(want.losses[0] - before) < 1e-5 * (1 + before));
    assert.ok(
      Math.abs(want.losses[10] - after) < 1e-4 * (1 + after),
      `loss after 10 steps: page ${after}, API ${want.losses[10]}`,
    );
    assert.ok(after < 0.9 * before, `a visible change: ${before} → ${after}`);
    assertClose((await readMatrix('Q')).data, want.q, { atol: 1e-4, rtol: 1e-4, label: 'Q after 10 steps' });
    const shown = (await page.getAttribute(`${PANEL} [data-stat="grad-steps-taken"]`, 'data-losses'))
      .split(' ')
      .map(Number);
    assertClose(shown, want.losses, { atol: 1e-5, rtol: 1e-4, label: 'the losses listed' });
    const text = await page.textContent(`${PANEL} [data-stat="grad-steps-taken"]`);
    const change = ((want.losses[10] - want.losses[0]) / want.losses[0]) * 100;
    assert.match(text, new RegExp(`^10 steps on Q: loss .*\\(−${Math.abs(change).toFixed(1)} %\\)$`));
    t.diagnostic?.(text);
  });

  test('which keys learn: scaled scores pass gradient to most keys, raw ones to few', async () => {
    const scaled = await stat('keys-scaled');
    const unscaled = await stat('keys-unscaled');
    assert.ok(scaled >= 40 && scaled <= 64, `scaled ${scaled}`);
    assert.ok(unscaled <= 16, `unscaled ${unscaled}`);
    assert.ok((await stat('norm-scaled')) > 0 && (await stat('norm-unscaled')) > 0);
  });

  test('several heads: the panel shows the selected head’s backward pass; a fully masked row gets zero gradient', async () => {
    await afterRender(page, () => page.selectOption('#preset', 'heads'));
    await page.waitForFunction(() => !document.querySelector('#lesson-panel-gradients p.lesson-note').hidden);
    assert.match(await page.textContent('#lesson-panel-gradients p.lesson-note'), /head 1/);
    assert.equal(await page.isVisible('#lesson-panel-gradients .error'), false);
    const dQ = await readHeatmap(page, 'grad-dQ');
    assert.ok(dQ.data.every(Number.isFinite) && dQ.data.some((x) => x !== 0));
    await afterRender(page, () => page.selectOption('#preset', 'fully-masked'));
    const dS = await readHeatmap(page, 'grad-dS');
    const rows = await page.$$eval('[data-heatmap="grad-dS"] tbody tr.fully-masked', (trs) => trs.length);
    assert.ok(rows > 0, 'the preset has a fully masked row');
    const [n, m] = dS.shape;
    const full = await page.$$eval('[data-heatmap="grad-dS"] tbody tr', (trs) =>
      trs.map((tr) => tr.classList.contains('fully-masked')),
    );
    for (let i = 0; i < n; i++) if (full[i]) for (let j = 0; j < m; j++) assert.equal(dS.data[i * m + j], 0);
    await afterRender(page, () => page.selectOption('#preset', 'lesson'));
    await afterRender(page, () => page.click('[data-control="grad-use-qkv"]'));
  });

  test('at 1280 and 375 px, light and dark: screenshots, no sideways scrolling, axe clean, no console errors', async () => {
    const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    for (const [width, height, scheme] of [
      [1280, 900, 'light'],
      [1280, 900, 'dark'],
      [375, 740, 'light'],
      [375, 740, 'dark'],
    ]) {
      await page.setViewportSize({ width, height });
      await unfold(page);
      if ((await page.inputValue('#theme')) !== scheme)
        await afterRender(page, () => page.selectOption('#theme', scheme));
      await page.$eval(PANEL, (e) => e.scrollIntoView({ block: 'start' }));
      await page.waitForFunction(() => !document.querySelector('#lesson-panel-gradients [data-heatmap][data-pending]'));
      await afterFrames(page);
      await screenshot(page, `lesson-gradients-${width}-${scheme}`);
      const { scroll, client } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      assert.ok(scroll <= client + 1, `${width}px scrolls sideways: ${scroll} > ${client}`);
      const errors = await page.$$eval(`${PANEL} .error`, (es) =>
        es.filter((e) => e.offsetParent).map((e) => e.textContent),
      );
      assert.deepEqual(errors, []);
    }
    await page.evaluate(axe);
    const violations = await page.evaluate(async () => {
      const all = await window.axe.run(document.querySelector('#lesson-panel-gradients'), {
        rules: { 'color-contrast': { enabled: false } },
      });
      const contrast = await window.axe.run(
        { include: [['#lesson-panel-gradients']], exclude: [['#lesson-panel-gradients table.heatmap']] },
        { runOnly: ['color-contrast'] },
      );
      return [...all.violations, ...contrast.violations].map(
        (v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`,
      );
    });
    assert.deepEqual(violations, []);
    assert.deepEqual(await collectProblems(page, problems), []);
  });
});
