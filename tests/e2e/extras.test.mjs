// The bias matrix B, projection biases and cross-attention on the page, in headless Chromium: the
// numbers shown against a float64 recomputation in the test (from the state the address bar
// carries), −∞ typed into B (a whole row of it: weights 0, no NaN), the explanation naming the
// bias term, Escape and Reset, the link round trip, axe-core, and screenshots at 1400 and 375 px.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  afterRender,
  assertClose,
  cellSelector,
  cellText,
  collectProblems,
  openExplorer,
  readHeatmap,
  screenshot,
  setSize,
  unfold,
  useExplorer,
} from './helpers.mjs';
import { decodeState } from '../../web/ui/model/url-state.js';
import { reconcile } from '../../web/ui/model/state.js';
import { referenceAttention } from '../js/support/attention-f64.mjs';
import { hasPythonModule, PYTHON, runPythonScripts } from '../js/support/python.mjs';

const NUMPY = hasPythonModule('numpy');
const TORCH = NUMPY && hasPythonModule('torch');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const E = 8;

const { env, page, problems } = useExplorer({ width: 1400 });

const cell = cellSelector;
const edit = (matrix, i, j, text) => afterRender(page, () => page.fill(cell(matrix, i, j), text));
const explanation = () => page.textContent('#explain');

// The state the address bar carries once it has caught up with the page, reconciled as the page does.
async function pageState(p = page) {
  // The address bar follows 300 ms after the last change (later on a loaded machine): read it
  // once it has stayed the same for 400 ms.
  let hash = await p.evaluate(() => window.location.hash);
  for (let previous = null; hash !== previous;) {
    previous = hash;
    await p.waitForTimeout(400);
    hash = await p.evaluate(() => window.location.hash);
  }
  const r = await decodeState(hash.slice(3));
  assert.equal(r.ok, true, r.error);
  return reconcile(r.state);
}

// Every number the page shows for the selected head and the layer, against the float64 reference.
async function checkNumbers(p = page) {
  const s = await pageState(p);
  const ref = referenceAttention(s);
  const head = s.view.head;
  const masked = await readHeatmap(p, 'masked');
  masked.data.forEach((x, k) => {
    if (ref.masked[head][k] === -Infinity) assert.equal(x, -Infinity, `masked[${k}]`);
  });
  assertClose(
    masked.data.filter((x, k) => ref.masked[head][k] !== -Infinity),
    Array.from(ref.masked[head]).filter((x) => x !== -Infinity),
    { atol: 1e-4, label: 'masked scores' },
  );
  const w = await readHeatmap(p, 'weights');
  assert.ok(
    w.data.every((x) => !Number.isNaN(x)),
    'no NaN in the weights',
  );
  assertClose(w.data, Array.from(ref.weights[head]), { atol: 2e-6, label: 'weights' });
  const out = await readHeatmap(p, s.heads > 1 ? 'mha-output' : 'output');
  assertClose(out.data, Array.from(ref.output), { atol: 1e-4, label: 'output' });
  return s;
}

describe('bias matrix, projection biases and cross-attention', () => {
  test('switched on, every step matches a float64 recomputation', async () => {
    await setSize(page, '#size-heads', '2');
    await afterRender(page, () => page.check('#bias-matrix'));
    await afterRender(page, () => page.selectOption('#bias-preset', 'alibi'));
    await afterRender(page, () => page.check('#projection-biases'));
    await afterRender(page, () => page.check('#cross-attention'));
    const s = await checkNumbers();
    assert.equal(s.biasMatrix.preset, 'alibi');
    assert.equal(s.biases, true);
    assert.equal(s.cross.on, true);
    // Rows are the sentence's tokens, columns the memory's.
    const labels = await page.$$eval('[data-heatmap="weights"] thead th', (ths) =>
      ths.map((th) => th.textContent.trim()).filter(Boolean),
    );
    assert.deepEqual(labels.slice(0, s.cross.tokens.length), s.cross.tokens);
    assert.ok(!labels.includes(s.tokens[1]), 'no sentence token among the keys');
    const rows = await page.$$eval('[data-heatmap="weights"] tbody th', (ths) =>
      ths.map((th) => th.firstChild.textContent.trim()),
    );
    assert.deepEqual(rows.slice(0, s.tokens.length), s.tokens);
    // The layer's parameter count includes the biases.
    assert.equal(Number(await page.getAttribute('[data-stat="parameters-layer"]', 'data-value')), 4 * E * E + 4 * E);
    assert.match(await page.textContent('section.heads'), /This layer has the biases b_Q, b_K, b_V, b_O/);
    assert.deepEqual(await collectProblems(page, problems), []);
  });

  test('editing b_Q and the memory sentence moves the numbers with the reference', async () => {
    await edit('BQ', 0, 1, '0.9');
    await afterRender(page, () => page.fill('#memory-sentence', 'un chat noir dort'));
    const s = await checkNumbers();
    assert.deepEqual(s.cross.tokens, ['un', 'chat', 'noir', 'dort']);
    assert.equal(s.matrices.BQ.data[1], 0.9);
  });

  test('hovering a masked score explains score + bias = masked score', async () => {
    await page.hover('[data-heatmap="masked"] td[data-row="2"][data-col="0"]');
    const text = await explanation();
    assert.match(text, /score \+ bias = masked score/);
    assert.match(text, /\+ B\[3,1\] = .* \+ \(\u22121\)/);
  });

  test('-inf typed into a whole row of B: weights 0, explained, no NaN', async () => {
    const s0 = await pageState();
    const m = s0.cross.tokens.length;
    for (let j = 0; j < m; j++) await edit('B', 1, j, '-inf');
    const s = await checkNumbers();
    assert.ok(s.matrices.B.data.slice(m, 2 * m).every((x) => x === -Infinity));
    assert.equal(await page.getAttribute(cell('B', 1, 0), 'aria-invalid'), null, '-inf is a valid entry');
    assert.equal(await cellText(page, 'B', 1, 0), '-inf');
    const w = await readHeatmap(page, 'weights');
    assert.deepEqual(w.data.slice(m, 2 * m), new Array(m).fill(0));
    assert.match(await page.textContent('[data-card="bias-matrix"]'), /1 row of the scores is \u2212\u221e everywhere/);
    await page.hover('[data-heatmap="weights"] td[data-row="1"][data-col="0"]');
    const text = await explanation();
    assert.match(text, /B\[2,1\] = \u2212\u221e/);
    assert.match(text, /all-zero weights/);
    const values = await page.$$eval('table[data-heatmap]', (ts) => ts.map((t) => t.dataset.values ?? '').join(' '));
    assert.ok(!values.includes('NaN'), 'no heatmap holds NaN');
    assert.ok(
      !/\bNaN\b/.test(await page.$$eval('[data-heatmap] td', (tds) => tds.map((td) => td.textContent).join(' '))),
    );
  });

  test('Escape gives a B cell its value back; Reset restores the preset', async () => {
    const before = (await pageState()).matrices.B.data[0];
    await page.click(cell('B', 0, 0));
    await afterRender(page, () => page.keyboard.type('7'));
    await afterRender(page, () => page.keyboard.press('Escape'));
    assert.equal((await pageState()).matrices.B.data[0], before);
    await afterRender(page, () => page.click('[data-reset="B"]'));
    const s = await pageState();
    assert.ok(
      s.matrices.B.data.every((x) => Number.isFinite(x)),
      'the -inf edits are gone',
    );
    assert.equal(s.matrices.B.data[1], -0.5);
  });

  test('a link opens the same example with the same numbers', async () => {
    await edit('B', 0, 2, '-inf');
    const s = await pageState();
    const hash = await page.evaluate(() => window.location.hash);
    const other = await openExplorer(env, { width: 1400, path: `index.html${hash}`, problems: [] });
    const mine = await readHeatmap(page, 'weights');
    const theirs = await readHeatmap(other.page, 'weights');
    assert.deepEqual(theirs, mine);
    const s2 = await checkNumbers(other.page);
    assert.deepEqual(s2.matrices.B, s.matrices.B);
    assert.equal(await cellText(other.page, 'B', 0, 2), '-inf', 'a −∞ cell shows -inf');
    assert.equal(await other.page.isChecked('#cross-attention'), true);
    assert.equal(await other.page.isChecked('#projection-biases'), true);
    await other.context.close();
  });

  // The Export menu's scripts, run: they reproduce every head's weights and the layer output.
  test(
    'the exported NumPy and PyTorch scripts reproduce the page',
    { skip: !NUMPY && `${PYTHON} has no numpy` },
    async () => {
      const s = await pageState();
      const heads = [];
      for (let k = 1; k <= s.heads; k++) heads.push(...(await readHeatmap(page, `head-${k}`)).data);
      const output = (await readHeatmap(page, 'mha-output')).data;
      const jobs = [];
      for (const format of TORCH ? ['numpy', 'pytorch'] : ['numpy']) {
        if (!(await page.isVisible('.export-panel'))) await page.click('.export-menu > summary');
        const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-export="${format}"]`)]);
        const code = readFileSync(await download.path(), 'utf8');
        await page.click('.export-menu > summary');
        assert.match(
          code,
          format === 'pytorch'
            ? /'in_proj_bias'[\s\S]*mha\(x, memory_x, memory_x, attn_mask=attn_mask/
            : /raw \* scale \+ B/,
        );
        jobs.push({ name: format, code, names: ['weights', 'output'] });
      }
      for (const got of runPythonScripts(jobs)) {
        assert.equal(got.error, undefined, got.error);
        assertClose(got.weights.flat(Infinity), heads, { atol: 5e-6, label: 'weights' });
        assertClose(got.output.flat(Infinity), output, { atol: 5e-5, label: 'output' });
      }
    },
  );

  test('axe-core finds no violations with the new controls on', async () => {
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const cards = [...document.querySelectorAll('.card')];
      for (const c of cards) c.style.contentVisibility = 'visible';
      try {
        return (await window.axe.run(document)).violations.map(
          (v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`,
        );
      } finally {
        for (const c of cards) c.style.contentVisibility = '';
      }
    });
    assert.deepEqual(violations, []);
  });

  test('screenshots at 1400 and 375 px, light and dark; nothing wider than a phone', async () => {
    const hash = await page.evaluate(() => window.location.hash);
    for (const [width, scheme] of [
      [1400, 'light'],
      [1400, 'dark'],
      [375, 'light'],
      [375, 'dark'],
    ]) {
      const shot = await openExplorer(env, {
        width,
        height: width > 1000 ? 1000 : 800,
        colorScheme: scheme,
        path: `index.html${hash}`,
        problems: [],
      });
      await unfold(shot.page);
      await shot.page.locator('[data-card="bias-matrix"]').scrollIntoViewIfNeeded();
      await screenshot(shot.page, `extras-${width}-${scheme}`);
      await shot.page.locator('.controls .extras').scrollIntoViewIfNeeded();
      await screenshot(shot.page, `extras-controls-${width}-${scheme}`);
      const overflow = await shot.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${width}px ${scheme}: the page is ${overflow}px wider than the window`);
      await shot.context.close();
    }
  });
});
