// Editable matrices at the page's largest size (24 tokens, d_model = 64, h = 8, X and W_Q open):
// each matrix is one tab stop with a roving focus (the grid pattern), arrows and Home/End/PageUp/
// PageDown move inside it, F2/Enter and typing edit and the numbers follow, and the tints are
// painted under the cells instead of written into 1 536 inputs' styles. axe-core checks the grid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import {
  afterFrames,
  afterRender,
  cellSelector,
  cellText,
  collectProblems,
  readHeatmap,
  setSize,
  useExplorer,
} from './helpers.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const X = '[data-matrix="X"]';
const cell = (i, j, m = 'X') => cellSelector(m, i, j);

const { page, problems } = useExplorer({
  setup: async (p) => {
    await afterRender(p, () => p.fill('#sentence', Array.from({ length: 24 }, (_, i) => `w${i + 1}`).join(' ')));
    for (const [id, v] of [
      ['#size-dModel', '64'],
      ['#size-heads', '8'],
    ])
      await setSize(p, id, v);
    for (const name of ['X', 'WQ']) {
      await p.click(`[data-matrix="${name}"] >> xpath=ancestor::details/summary`);
      await p.waitForSelector(cell(name === 'X' ? 23 : 63, 63, name));
    }
  },
});

const at = () =>
  page.evaluate(() => {
    const a = document.activeElement;
    return `${a.closest('[data-matrix]')?.dataset.matrix ?? a.tagName}:${a.dataset.row},${a.dataset.col}`;
  });

test('the page has one tab stop per matrix, plus its controls', async () => {
  const stops = await page.evaluate(() => {
    const reachable = (e) =>
      e.tabIndex >= 0 && !e.disabled && !e.closest('[hidden], [inert]') && e.getClientRects().length > 0;
    const all = [...document.querySelectorAll('*')].filter(reachable);
    const perMatrix = {};
    for (const e of all) {
      const m = e.closest('[data-matrix]')?.dataset.matrix;
      if (m) perMatrix[m] = (perMatrix[m] ?? 0) + 1;
    }
    return { total: all.length, perMatrix };
  });
  assert.ok(stops.perMatrix.X && stops.perMatrix.WQ, 'X and W_Q are open');
  for (const [m, count] of Object.entries(stops.perMatrix)) assert.equal(count, 1, `tab stops in ${m}`);
  assert.ok(stops.total < 150, `${stops.total} tab stops on the page`);
  // Tab leaves the matrix from any cell, and Shift+Tab comes back to the cell last focused.
  await page.focus(cell(5, 7));
  await page.keyboard.press('Tab');
  assert.doesNotMatch(await at(), /^X:/);
  await page.keyboard.press('Shift+Tab');
  assert.equal(await at(), 'X:5,7');
});

test('arrows, Home/End, Ctrl+Home/End and PageUp/PageDown move inside a matrix', async () => {
  await page.focus(cell(0, 0));
  const steps = [
    ['ArrowRight', 'X:0,1'],
    ['ArrowDown', 'X:1,1'],
    ['ArrowLeft', 'X:1,0'],
    ['ArrowUp', 'X:0,0'],
    ['End', 'X:0,63'],
    ['Home', 'X:0,0'],
    ['PageDown', 'X:23,0'],
    ['PageUp', 'X:0,0'],
    ['Control+End', 'X:23,63'],
    ['Control+Home', 'X:0,0'],
  ];
  for (const [key, where] of steps) {
    await page.keyboard.press(key);
    assert.equal(await at(), where, `after ${key}`);
  }
});

// Moving through X outlines the row it feeds in Q, K and V and that row's label. A label that
// grew (bolder text) would lay out its whole table again on every arrow key: 5–9 ms at this size.
test('moving the outline to another row changes no label’s size', async () => {
  const labels = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('th.row-label .label-text, th.col-label span')].map((e) => ({
        text: e.textContent,
        lit: e.closest('th').classList.contains('hl'),
        width: e.getBoundingClientRect().width,
      })),
    );
  await page.focus(cell(0, 4));
  await afterFrames(page);
  const before = await labels();
  await page.keyboard.press('ArrowDown');
  await afterFrames(page);
  const after = await labels();
  assert.equal(after.length, before.length);
  const moved = after.filter((l, k) => l.lit !== before[k].lit);
  assert.ok(
    moved.length >= 6,
    `${moved.length} labels outlined or no longer outlined (the first two rows of Q, K and V)`,
  );
  const resized = after
    .filter((l, k) => l.width !== before[k].width)
    .map((l) => `${l.text} (${l.lit ? 'outlined' : 'not'})`);
  assert.deepEqual(resized, [], 'labels whose width changed');
});

test('typing and F2 edit a cell, the numbers follow, Escape restores, the tints follow the range', async () => {
  await page.focus(cell(2, 3));
  const before = await cellText(page, 'X', 2, 3);
  const {
    data: q,
    shape: [, qCols],
  } = await readHeatmap(page, 'Q');
  const bound = await page.getAttribute(X, 'data-tint-bound');
  // Typing replaces the selected number (one input event, so one redraw to wait for).
  await afterRender(page, () => page.keyboard.insertText('40'));
  assert.equal(await cellText(page, 'X', 2, 3), '40');
  const q2 = (await readHeatmap(page, 'Q')).data;
  const changedRows = new Set(q.map((v, k) => (v === q2[k] ? -1 : Math.floor(k / qCols))).filter((r) => r >= 0));
  assert.deepEqual([...changedRows], [2], 'Q changes in the edited token’s row only');
  assert.notEqual(await page.getAttribute(X, 'data-tint-bound'), bound, 'a new colour range');
  // The edited cell is painted orange (large positive), a cell near zero nearly white; no cell
  // carries a colour of its own.
  const paint = await page.evaluate(() => {
    const canvas = document.querySelector('[data-matrix="X"] canvas');
    const px = (i, j) => [...canvas.getContext('2d').getImageData(j, i, 1, 1).data];
    const styled = [...document.querySelectorAll('[data-matrix="X"] .cell-input')].filter(
      (e) => e.style.backgroundColor,
    ).length;
    return { edited: px(2, 3), size: [canvas.width, canvas.height], styled, shown: !canvas.hidden };
  });
  assert.deepEqual(paint.size, [64, 24]);
  assert.equal(paint.shown, true);
  assert.equal(paint.styled, 0);
  assert.ok(paint.edited[0] > paint.edited[2] + 60, `edited cell's tint ${paint.edited}`);
  // ArrowDown commits and moves on; F2 edits with the caret at the end (digits are appended).
  await page.keyboard.press('ArrowDown');
  assert.equal(await at(), 'X:3,3');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('F2');
  await afterRender(page, () => page.keyboard.type('5'));
  assert.equal(await cellText(page, 'X', 2, 3), '405');
  // While editing, Left moves the caret, not the focus.
  await page.keyboard.press('ArrowLeft');
  assert.equal(await at(), 'X:2,3');
  // Escape gives back the value the cell had when it was focused.
  await afterRender(page, () => page.keyboard.press('Escape'));
  assert.equal(await cellText(page, 'X', 2, 3), '40');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await afterRender(page, async () => {
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(before);
  });
  await page.keyboard.press('Enter');
  assert.equal(await at(), 'X:3,3', 'Enter while editing commits and moves down');
  assert.equal(await page.getAttribute(X, 'data-tint-bound'), bound, 'the range is back');
});

test('a matrix scrolled out of view is tinted after the frame, not inside it', async () => {
  await page.focus(cell(5, 5));
  const before = await cellText(page, 'X', 5, 5);
  await page.$eval('#pipeline', (e) => e.scrollIntoView({ block: 'start' }));
  // The page learns that X left the view from an IntersectionObserver, whose report comes in a
  // task after the next frame: two frames and a pause later it has arrived.
  await afterFrames(page, 2, 50);
  // The tint of the edited cell when the edit's redraw has just been drawn, and a moment later.
  const seen = await page.evaluate(
    async (selector) => {
      const app = document.getElementById('app');
      const input = document.querySelector(selector);
      const canvas = document.querySelector('[data-matrix="X"] canvas');
      // Read through a copy, so the page's own canvas is not read back again and again.
      const copy = new OffscreenCanvas(canvas.width, canvas.height).getContext('2d', { willReadFrequently: true });
      const px = () => {
        copy.clearRect(0, 0, canvas.width, canvas.height);
        copy.drawImage(canvas, 0, 0);
        return [...copy.getImageData(5, 5, 1, 1).data];
      };
      const old = px();
      const n = Number(app.dataset.renders);
      const drawn = new Promise((done) => {
        const watch = new MutationObserver(() => {
          if (Number(app.dataset.renders) > n) {
            watch.disconnect();
            done(px());
          }
        });
        watch.observe(app, { attributes: true, attributeFilter: ['data-renders'] });
      });
      input.textContent = '40';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const inFrame = await drawn;
      // Soon after the frame (a loaded machine may take a while): the new tint.
      const until = performance.now() + 3000;
      while (performance.now() < until && px().join() === old.join()) await new Promise((done) => setTimeout(done, 20));
      return { old, inFrame, later: px() };
    },
    cell(5, 5),
  );
  assert.deepEqual(seen.inFrame, seen.old, 'not tinted inside the frame');
  assert.ok(seen.later[0] > seen.later[2] + 60, `tinted after it: ${seen.later}`);
  await afterRender(page, async () => {
    await page.focus(cell(5, 5));
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(before);
  });
  await page.$eval(X, (e) => e.scrollIntoView({ block: 'start' }));
});

test('axe-core finds no violations in the inputs with X and W_Q open', async () => {
  await page.evaluate(AXE); // over the DevTools protocol: the page's CSP does not apply
  const violations = await page.evaluate(async () =>
    (await window.axe.run(document.querySelector('[data-matrix="X"]').closest('section'))).violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`,
    ),
  );
  assert.deepEqual(violations, []);
  assert.deepEqual(await collectProblems(page, problems), []);
});
