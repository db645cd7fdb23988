// The inference lessons (FlashAttention, the KV cache, positions) in headless Chromium under the
// strict CSP: every number checked is recomputed inside the page by the JS API on the explorer's
// own Q, K, V (the same WebAssembly core), the test hooks move as documented, the tabs open from
// the keyboard and from a link, and each panel is axe-clean without sideways scrolling at 1280 and
// 375 px, light and dark (screenshots in screenshots/).
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

const PANELS = ['flash-attention', 'kv-cache', 'positions'];

const { env, page, problems } = useExplorer({
  setup: (page) =>
    page.evaluate(async () => {
      const { createAttention } = await import('/lib/attention.js');
      window.__attn = await createAttention();
    }),
});

const openPanel = (id) => afterRender(page, () => page.click(`#lesson-tab-${id}`));
const statValue = async (name) => Number(await page.getAttribute(`[data-stat="${name}"]`, 'data-value'));
// The explorer's single head as the pipeline shows it (sentence mode: the projections).
const head = async () => ({
  Q: await readHeatmap(page, 'Q'),
  K: await readHeatmap(page, 'K'),
  V: await readHeatmap(page, 'V'),
});
const explanation = () =>
  page.evaluate(() =>
    [...document.querySelectorAll('.lesson-holder:not([hidden]) .lesson-explain')].map((b) => b.textContent).join('\n'),
  );

describe('FlashAttention, tile by tile', () => {
  test('Step walks every tile; the row state and the final difference are attn.lessons.flashAttention’s', async () => {
    await openPanel('flash-attention');
    await afterRender(page, () => page.click('[data-action="flash-reset"]'));
    const { Q, K, V } = await head();
    const steps = Number(await page.getAttribute('[data-flash-step]', 'data-steps'));
    const expected = await page.evaluate(
      ({ Q, K, V }) => {
        const a = window.__attn;
        const f = a.lessons.flashAttention(Q, K, V, { blockRows: 2, blockCols: 2, causal: true });
        const n = a.scaledDotProductAttention(Q, K, V, { causal: true });
        const difference = f.output.data.reduce((m, x, i) => Math.max(m, Math.abs(x - n.output.data[i])), 0);
        return {
          steps: f.steps.map((s) => ({
            rowMax: Array.from(s.rowMax),
            rowSum: Array.from(s.rowSum),
            partial: Array.from(s.partialOutput.data),
            skipped: s.skipped,
          })),
          difference,
        };
      },
      { Q, K, V },
    );
    assert.equal(steps, expected.steps.length);
    assert.equal(await page.getAttribute('[data-flash-step]', 'data-step'), '0');
    for (let s = 1; s <= steps; s++) {
      await afterRender(page, () => page.click('[data-action="flash-step"]'));
      assert.equal(Number(await page.getAttribute('[data-flash-step]', 'data-step')), s);
      const want = expected.steps[s - 1];
      const state = await readHeatmap(page, 'flash-state');
      assert.deepEqual(
        state.data.filter((_, i) => i % 2 === 1),
        want.rowSum,
        `ℓ after tile ${s}`,
      );
      assert.deepEqual(
        state.data.filter((_, i) => i % 2 === 0).filter(Number.isFinite),
        want.rowMax.filter(Number.isFinite),
        `m after tile ${s}`,
      );
      assertClose((await readHeatmap(page, 'flash-partial')).data, want.partial, {
        atol: 0,
        rtol: 0,
        label: `Õ after tile ${s}`,
      });
      if (want.skipped) assert.match(await page.textContent('[data-flash-step]'), /skipped/);
    }
    assert.equal(await page.isDisabled('[data-action="flash-step"]'), true);
    await page.focus('[data-flash-difference]');
    assert.match(await explanation(), /max \|O_tiled − O_naive\|/);
    assert.equal(await statValue('flash-difference'), expected.difference);
    assert.ok(expected.difference < 1e-5);
    assert.equal(await page.getAttribute('[data-flash-difference]', 'data-value'), String(expected.difference));
    assert.ok(await page.isVisible('[data-heatmap="flash-tiled"]'));
  });

  test('block sizes change the tiling; a score cell explains itself on focus', async () => {
    await afterRender(page, async () => {
      await page.fill('[data-control="flash-block-rows"]', '3');
      await page.press('[data-control="flash-block-rows"]', 'Enter');
    });
    assert.equal(await page.getAttribute('[data-flash-step]', 'data-step'), '0');
    assert.equal(await page.getAttribute('[data-flash-step]', 'data-steps'), String(2 * 2));
    await page.focus('[data-heatmap="flash-scores"] td[data-row="1"][data-col="0"]');
    assert.match(await explanation(), /S′\[2,1\] = scale × q₂·k₁/);
  });
});

describe('the KV cache', () => {
  test('each decoded token’s weights are the causal row of the explorer’s head, equal to the full pass', async () => {
    await openPanel('kv-cache');
    const { Q, K, V } = await head();
    const causal = await page.evaluate(
      ({ Q, K, V }) => Array.from(window.__attn.scaledDotProductAttention(Q, K, V, { causal: true }).weights.data),
      { Q, K, V },
    );
    const T = Q.shape[0];
    assert.equal(await page.getAttribute('[data-kv-step]', 'data-step'), String(T - 1));
    for (let s = T - 1; s >= 0; s--) {
      const w = await readHeatmap(page, 'kv-weights');
      assert.deepEqual(w.shape, [1, s + 1]);
      assertClose(w.data, causal.slice(s * T, s * T + s + 1), { atol: 1e-6, label: `token ${s + 1}` });
      assert.ok((await statValue('kv-difference')) < 1e-6);
      assert.equal(await statValue('kv-cache-bytes'), 2 * 1 * 1 * 4 * (s + 1) * 4);
      if (s > 0) await afterRender(page, () => page.click('#lesson-panel-kv-cache button:has-text("Previous")'));
    }
  });

  test('a sliding window turns the cache into a ring buffer of W slots (slot p mod W)', async () => {
    await afterRender(page, () => page.click('[data-action="kv-step"]'));
    await afterRender(page, () => page.click('[data-action="kv-step"]'));
    await afterRender(page, () => page.click('[data-action="kv-step"]'));
    await afterRender(page, async () => {
      await page.fill('[data-control="kv-window"]', '2');
      await page.press('[data-control="kv-window"]', 'Enter');
    });
    const slots = await page.$$eval('[data-kv-ring] li', (ls) =>
      ls.map((l) => [Number(l.dataset.slot), Number(l.dataset.position)]),
    );
    assert.deepEqual(slots, [
      [0, 2],
      [1, 3],
    ]);
    assert.equal(await statValue('kv-cache-bytes'), 2 * 4 * 2 * 4);
    const w = await readHeatmap(page, 'kv-weights');
    assert.deepEqual(w.data.slice(0, 2), [0, 0], 'positions outside the window get weight 0');
    await afterRender(page, async () => {
      await page.fill('[data-control="kv-window"]', '0');
      await page.press('[data-control="kv-window"]', 'Enter');
    });
  });

  test('the memory table gives the named models’ figures and follows every edited field', async () => {
    const bytes = (id) =>
      page.getAttribute(`[data-table="kv-memory"] tr[data-config="${id}"] output`, 'data-value').then(Number);
    assert.equal(await bytes('gpt2'), 73728);
    assert.equal(await bytes('llama-2-7b'), 1073741824);
    assert.match(await page.textContent('tr[data-config="llama-2-7b"] output'), /1\.07 GB/);
    assert.equal(await bytes('llama-2-70b'), 1342177280);
    assert.equal(await bytes('mistral-7b'), 2 * 32 * 8 * 128 * 4096 * 2);
    const field = 'tr[data-config="llama-2-70b"] [data-field="kvHeads"]';
    await afterRender(page, async () => {
      await page.fill(field, '64');
      await page.press(field, 'Enter');
    });
    assert.equal(await bytes('llama-2-70b'), 8 * 1342177280);
    await page.focus('tr[data-config="llama-2-70b"] output');
    assert.match(await explanation(), /2 · 80 · 64 · 128 · 4096 · 2/);
    await afterRender(page, () => page.click('#lesson-panel-kv-cache button:has-text("Reset the table")'));
    assert.equal(await bytes('llama-2-70b'), 1342177280);
  });
});

describe('positions', () => {
  test('RoPE’s map is attn.rope’s scores and constant along diagonals; the absolute ones are not', async () => {
    await openPanel('positions');
    const { Q, K } = await head();
    const rope = await readHeatmap(page, 'pos-rope');
    const P = rope.shape[0];
    const expected = await page.evaluate(
      ({ Q, K, P }) => {
        const a = window.__attn;
        const d = Q.shape[1];
        const rows = (t, r) => ({
          data: Float32Array.from({ length: P * d }, (_, i) => t.data[r * d + (i % d)]),
          shape: [P, d],
        });
        const positions = Array.from({ length: P }, (_, p) => p);
        const q = a.rope(rows(Q, 0), { positions }).data;
        const k = a.rope(rows(K, 1), { positions }).data;
        const out = [];
        for (let m = 0; m < P; m++)
          for (let n = 0; n < P; n++) {
            let s = 0;
            for (let c = 0; c < d; c++) s += q[m * d + c] * k[n * d + c];
            out.push(s);
          }
        return out;
      },
      { Q, K, P },
    );
    assertClose(rope.data, expected, { atol: 1e-5, label: 'rope(q, m)·rope(k, n)' });
    assert.ok((await statValue('diagonal-spread-rope')) < 1e-4);
    assert.ok((await statValue('diagonal-spread-sinusoidal')) > 0.1);
    assert.ok((await statValue('diagonal-spread-learned')) > 0.1);
    const hands = await page.$$eval('[data-rope-clock]', (fs) =>
      fs.map((f) => [Number(f.dataset.cos), Number(f.dataset.sin)]),
    );
    const d = Q.shape[1];
    hands.forEach(([c, s], i) => {
      const angle = 3 * 10000 ** ((-2 * i) / d);
      assert.ok(Math.abs(c - Math.cos(angle)) < 1e-6 && Math.abs(s - Math.sin(angle)) < 1e-6, `pair ${i + 1}`);
    });
    const alibi = await readHeatmap(page, 'alibi-h0');
    assert.equal(alibi.data[P * 3 + 1], -0.5 * 2); // head 1 of 8: slope 2^(−1), distance 2
  });
});

describe('explanations', () => {
  test('a number explained is explained again from the new numbers when the example changes', async () => {
    const result = () =>
      page.$eval('.lesson-holder:not([hidden]) .lesson-explain .explain-result', (p) =>
        Number(p.textContent.replace(/.*=\s*/, '').replace('\u2212', '-')),
      );
    for (const [id, map] of [
      ['flash-attention', 'flash-scores'],
      ['positions', 'pos-rope'],
      ['kv-cache', 'kv-keys'],
    ]) {
      await afterRender(page, () => page.selectOption('#preset', 'lesson'));
      await openPanel(id);
      const cell = `[data-heatmap="${map}"] td[data-row="2"][data-col="0"]`;
      await page.mouse.move(0, 0); // no cell under the pointer: the focused one is explained
      await page.focus(cell);
      const before = await readHeatmap(page, map);
      assertClose([await result()], [before.data[2 * before.shape[1]]], {
        atol: 1e-3,
        rtol: 1e-3,
        label: `${id} before`,
      });
      await afterRender(page, () => page.selectOption('#preset', 'heads'));
      const after = await readHeatmap(page, map);
      assert.notEqual(after.data[2 * after.shape[1]], before.data[2 * before.shape[1]], `${id}: another number`);
      assertClose([await result()], [after.data[2 * after.shape[1]]], { atol: 1e-3, rtol: 1e-3, label: `${id} after` });
    }
  });
});

describe('access and looks', () => {
  test('the tabs open with the arrow keys and travel in the link', async () => {
    await page.focus('#lesson-tab-gradients');
    await afterRender(page, () => page.keyboard.press('ArrowRight'));
    assert.equal(await page.getAttribute('#lesson-tab-flash-attention', 'aria-selected'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'lesson-tab-flash-attention');
    await openPanel('kv-cache');
    const url = await linkWhere(page, (s) => s.lessons.panel === 'kv-cache', 'the KV-cache tab');
    const other = await openExplorer(env, { path: new URL(url).hash });
    assert.equal(await other.page.getAttribute('#lesson-tab-kv-cache', 'aria-selected'), 'true');
    // The lesson open in the first drawing loads when the page is idle (lessons/index.js).
    await other.page.waitForSelector('#lesson-panel-kv-cache [data-table="kv-memory"]', { state: 'visible' });
    await other.context.close();
  });

  test('each panel at 1280 and 375 px, light and dark: no sideways scrolling, axe clean', async () => {
    const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    const opened = await openExplorer(env, { width: 1280, height: 900 });
    const p = opened.page;
    await afterRender(p, () => p.selectOption('#preset', 'heads'));
    for (const [width, height, colorScheme] of [
      [1280, 900, 'light'],
      [1280, 900, 'dark'],
      [375, 740, 'dark'],
      [375, 740, 'light'],
    ]) {
      await p.setViewportSize({ width, height });
      await unfold(p); // a phone's header tools wait behind the Tools button
      if ((await p.inputValue('#theme')) !== colorScheme)
        await afterRender(p, () => p.selectOption('#theme', colorScheme));
      for (const id of PANELS) {
        if ((await p.getAttribute(`#lesson-tab-${id}`, 'aria-selected')) !== 'true')
          await afterRender(p, () => p.click(`#lesson-tab-${id}`));
        await p.$eval(`#lesson-panel-${id}`, (e) => e.scrollIntoView({ block: 'start' }));
        await screenshot(p, `lesson-${id}-${width}-${colorScheme}`);
        const errors = await p.$$eval(`#lesson-panel-${id} .error`, (es) =>
          es.filter((e) => e.offsetParent).map((e) => e.textContent),
        );
        assert.deepEqual(errors, [], `${id} at ${width}px shows an error`);
        const { scroll, client } = await p.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        assert.ok(scroll <= client + 1, `${id} at ${width}px scrolls sideways: ${scroll} > ${client}`);
        if (width === 375) continue;
        await p.evaluate(axe);
        const violations = await p.evaluate(async (panel) => {
          const all = await window.axe.run(document.getElementById(panel), {
            rules: { 'color-contrast': { enabled: false } },
          });
          const contrast = await window.axe.run(
            { include: [[`#${panel}`]], exclude: [[`#${panel} table.heatmap`]] },
            { runOnly: ['color-contrast'] },
          );
          return [...all.violations, ...contrast.violations].map(
            (v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`,
          );
        }, `lesson-panel-${id}`);
        assert.deepEqual(violations, [], `${id}, ${colorScheme}`);
      }
    }
    assert.deepEqual(await collectProblems(p, opened.problems), []);
    await opened.context.close();
  });

  test('no console errors, failed requests or CSP violations', async () => {
    assert.deepEqual(await collectProblems(page, problems), []);
  });
});
