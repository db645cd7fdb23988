// Sideways scrolling of a wide editable matrix (ui/matrix-editor/scroll.js) in headless Chromium: the cell
// area is not user-scrollable (a scroller around a thousand inputs costs a frame), so a proxy
// scrollbar, the wheel, touch and focus must do what a native scroller did. X at n = 16,
// d_model = 64 is 16 × 64 inputs, several times wider than its card.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { afterRender, cellSelector, collectProblems, launch, openExplorer, setSize, unfold } from './helpers.mjs';

const SENTENCE = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen';
const AREA = '[data-matrix="X"] .matrix-scroll';
const BAR = '[data-matrix="X"] .matrix-hbar';
const cell = (i, j) => cellSelector('X', i, j);

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

/** The explorer with X at 16 × 64, unfolded. */
async function openWideX(options) {
  const opened = await openExplorer(env, options);
  const { page } = opened;
  await unfold(page);
  await afterRender(page, () => page.fill('#sentence', SENTENCE));
  await setSize(page, '#size-dModel', '64');
  await page.click('[data-matrix="X"] >> xpath=ancestor::details/summary');
  await page.waitForSelector(cell(15, 63));
  // The bar is measured by a ResizeObserver, one frame after the table is built.
  await page.waitForFunction((bar) => !document.querySelector(bar).hidden, BAR);
  return opened;
}

/** scrollLeft and ranges of the cell area and of its proxy bar. */
const scrollState = (page) => page.evaluate(([area, bar]) => {
  const a = document.querySelector(area);
  const b = document.querySelector(bar);
  return {
    area: a.scrollLeft, areaMax: a.scrollWidth - a.clientWidth,
    bar: b.scrollLeft, barMax: b.scrollWidth - b.clientWidth, barHidden: b.hidden,
    barHasInputs: b.querySelector('input') !== null,
  };
}, [AREA, BAR]);

/** Waits until the bar shows the area's position (the two follow each other on 'scroll'). */
const synced = (page) => page.waitForFunction(([area, bar]) =>
  document.querySelector(area).scrollLeft === document.querySelector(bar).scrollLeft, [AREA, BAR]);

async function noHorizontalOverflow(page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client + 1, `page scrolls sideways: ${scroll} > ${client}`);
}

describe('a 16 × 64 X on a desktop', () => {
  let page;
  let problems;
  before(async () => {
    ({ page, problems } = await openWideX({ width: 1280, height: 900 }));
    await page.$eval('[data-matrix="X"]', (e) => e.scrollIntoView({ block: 'start' }));
  });

  test('the cell area is not user-scrollable; a proxy bar holding no inputs spans the same range', async () => {
    const style = await page.$eval(AREA, (a) => {
      const s = getComputedStyle(a);
      return [s.overflowX, s.touchAction];
    });
    assert.deepEqual(style, ['hidden', 'pan-y']);
    const s = await scrollState(page);
    assert.equal(s.barHidden, false);
    assert.equal(s.barHasInputs, false);
    assert.ok(s.areaMax > 1000, `X should be much wider than its box (overflow ${s.areaMax})`);
    assert.ok(Math.abs(s.barMax - s.areaMax) <= 1, `bar range ${s.barMax} != area range ${s.areaMax}`);
    // The bar sits just under the cells.
    const [area, bar] = await Promise.all([page.locator(AREA).boundingBox(), page.locator(BAR).boundingBox()]);
    assert.ok(bar.y >= area.y + area.height - 1 && bar.y < area.y + area.height + 20, 'bar under the cells');
  });

  test('ArrowRight from the first to the last column keeps the focused cell in view', async () => {
    await page.focus(cell(3, 0));
    for (let j = 0; j < 63; j++) await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.col), '63');
    await synced(page);
    const [area, input] = await Promise.all([page.locator(AREA).boundingBox(), page.locator(cell(3, 63)).boundingBox()]);
    assert.ok(input.x >= area.x - 0.5 && input.x + input.width <= area.x + area.width + 0.5,
      `cell 63 at ${input.x}..${input.x + input.width}, area ${area.x}..${area.x + area.width}`);
    const s = await scrollState(page);
    assert.ok(s.area > 0 && s.bar === s.area, `area ${s.area}, bar ${s.bar}`);
    // ArrowDown then Home from the last column go to the next row's first cell, back in view.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Home');
    assert.equal(await page.evaluate(() => `${document.activeElement.dataset.row},${document.activeElement.dataset.col}`), '4,0');
    await synced(page);
    const first = await page.locator(cell(4, 0)).boundingBox();
    assert.ok(first.x >= area.x - 0.5 && first.x + first.width <= area.x + area.width + 0.5, 'column 0 back in view');
    // Tab from the very last cell skips the bar (hidden from screen readers, so no tab stop).
    await page.focus(cell(15, 63));
    await page.keyboard.press('Tab');
    assert.notEqual(await page.evaluate(() => document.activeElement.className), 'matrix-hbar');
  });

  // Maps far from the viewport are hidden and shown again when a scroll brings them near
  // (far-canvas.js), which measures cards; a sideways scroll brings nothing nearer, and measuring
  // after an arrow key scrolled X would lay the page out inside that key's frame.
  test('scrolling X sideways measures no card', async () => {
    const measured = await page.evaluate(async (area) => {
      const hidden = [...document.querySelectorAll('canvas')].filter((c) => c.style.visibility === 'hidden').length;
      const original = Element.prototype.getBoundingClientRect;
      let cards = 0;
      Element.prototype.getBoundingClientRect = function measure() {
        if (this.classList.contains('card')) cards += 1;
        return original.call(this);
      };
      try {
        const box = document.querySelector(area);
        for (const left of [300, 0]) {
          const scrolled = new Promise((done) => box.addEventListener('scroll', done, { once: true }));
          box.scrollLeft = left;
          await scrolled;
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        }
      } finally {
        Element.prototype.getBoundingClientRect = original;
      }
      return { hidden, cards };
    }, AREA);
    assert.ok(measured.hidden > 0, 'some maps are far away and hidden');
    assert.equal(measured.cards, 0, 'cards measured');
  });

  test('a sideways wheel scrolls the cells and the bar follows; a vertical one scrolls the page', async () => {
    await page.$eval(AREA, (a) => { a.scrollLeft = 0; });
    await synced(page);
    const box = await page.locator(AREA).boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(240, 0);
    await page.waitForFunction((area) => document.querySelector(area).scrollLeft > 0, AREA);
    await synced(page);
    const s = await scrollState(page);
    assert.equal(s.area, 240);
    assert.equal(s.bar, 240);

    const y = await page.evaluate(() => window.scrollY);
    await page.mouse.wheel(0, 120);
    await page.waitForFunction((y0) => window.scrollY !== y0, y);
    assert.equal((await scrollState(page)).area, 240, 'a vertical wheel leaves the cells where they are');
    await page.$eval('[data-matrix="X"]', (e) => e.scrollIntoView({ block: 'start' }));
  });

  test('dragging the bar scrolls the cells', async () => {
    await page.$eval(BAR, (b) => { b.scrollLeft = 700; });
    await page.waitForFunction((area) => document.querySelector(area).scrollLeft === 700, AREA);
    // A drag moves the bar a little every frame: the cells follow and never pull the bar back.
    const dragged = await page.$eval(BAR, async (b) => {
      const frame = () => new Promise((done) => requestAnimationFrame(done));
      const seen = [];
      for (let x = 720; x <= 1000; x += 20) {
        b.scrollLeft = x;
        await frame();
        seen.push(b.scrollLeft);
      }
      await frame();
      await frame();
      return seen;
    });
    assert.deepEqual(dragged, Array.from({ length: 15 }, (_, k) => 720 + 20 * k));
    const mid = await scrollState(page);
    assert.deepEqual([mid.area, mid.bar], [1000, 1000]);
    await page.$eval(BAR, (b) => { b.scrollLeft = b.scrollWidth; });
    await synced(page);
    const s = await scrollState(page);
    assert.ok(Math.abs(s.area - s.areaMax) <= 1, `bar at its end shows the last column (${s.area} of ${s.areaMax})`);
  });

  test('a sideways touch swipe pans the cells; a tap focuses a cell', async () => {
    await page.$eval(AREA, (a) => { a.scrollLeft = 0; });
    await synced(page);
    const box = await page.locator(AREA).boundingBox();
    const cdp = await page.context().newCDPSession(page);
    const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    const x0 = box.x + box.width * 0.8;
    const y0 = box.y + box.height / 2;
    await touch('touchStart', x0, y0);
    for (let k = 1; k <= 10; k++) await touch('touchMove', x0 - 30 * k, y0 + 2 * k);
    await page.waitForTimeout(150);  // a finger that stops does not fling
    await touch('touchEnd');
    await synced(page);
    const s = await scrollState(page);
    // The first move only takes up the slop; the content then follows the finger.
    assert.ok(s.area >= 260 && s.area <= 300, `panned by ${s.area}`);

    await page.evaluate(() => document.activeElement?.blur());
    const input = await page.locator(cell(5, 10)).boundingBox();
    await touch('touchStart', input.x + input.width / 2, input.y + input.height / 2);
    await touch('touchEnd');
    await page.waitForFunction(() => document.activeElement?.dataset.col === '10');
    assert.equal((await scrollState(page)).area, s.area, 'a tap does not scroll');
    await cdp.detach();
  });

  test('no console errors, failed requests or CSP violations', async () => {
    assert.deepEqual(await collectProblems(page, problems), []);
  });
});

test('the bar shows only when the matrix is wider than its box', async () => {
  // The default example's X is 4 × 8: it fits a desktop card.
  const { page, context } = await openExplorer(env, { width: 1280, height: 900 });
  const s = await scrollState(page);
  assert.equal(s.barHidden, true);
  assert.equal(s.areaMax, 0);
  await context.close();
});

test('on a 375 px phone the page never scrolls sideways and the bar fits the card', async () => {
  const { page, context, problems } = await openWideX({ width: 375, height: 812 });
  await noHorizontalOverflow(page);
  const s = await scrollState(page);
  assert.equal(s.barHidden, false);
  const [area, bar] = await Promise.all([page.locator(AREA).boundingBox(), page.locator(BAR).boundingBox()]);
  const vw = await page.evaluate(() => document.documentElement.clientWidth);
  assert.ok(area.x >= 0 && area.x + area.width <= vw, `cells ${area.x}..${area.x + area.width} within ${vw}`);
  assert.ok(Math.abs(bar.width - area.width) <= 1, `bar ${bar.width} wide, cells ${area.width}`);
  await page.focus(cell(0, 63));
  await synced(page);
  await noHorizontalOverflow(page);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
