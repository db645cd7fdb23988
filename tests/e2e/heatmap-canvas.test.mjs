// The heatmaps' canvas (ui/heatmap/paint.js, ui/heatmap/glyphs.js) against the table it lies under, in
// headless Chromium: every cell is filled edge to edge in one colour at the place the table gives
// it, the gaps between cells stay clear, digits are printed inside their cell and centred, compact
// maps print none, maps out of view catch up when scrolled to, and a new pixel ratio (zoom)
// repaints at the new resolution.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  afterFrames,
  afterRender,
  collectProblems,
  fillCell,
  launch,
  openExplorer,
  readHeatmap,
  readHeatmapCells,
  setSize,
  typeInCell,
} from './helpers.mjs';
import { formatCell } from '../../web/ui/model/format.js';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

function assertFilledAndAligned(cells, label) {
  for (const [k, c] of cells.entries()) {
    if (c.masked) continue;
    assert.ok(
      c.corners.every((x) => x === c.corners[0] && x !== 'outside'),
      `${label} cell ${k}: one colour to its edges (${c.corners})`,
    );
    assert.ok(c.corners[0].endsWith(',255'), `${label} cell ${k}: opaque`);
    if (c.gap !== null) assert.ok(c.gap.endsWith(',0'), `${label} cell ${k}: the gap before it is clear (${c.gap})`);
  }
}

describe('the canvas lines up with the table', () => {
  for (const deviceScaleFactor of [1, 2, 1.25]) {
    test(`pixel ratio ${deviceScaleFactor}: cells filled edge to edge, gaps clear, digits centred in their cell`, async () => {
      const { page, context, problems } = await openExplorer(env, { deviceScaleFactor });
      const cells = await readHeatmapCells(page, 'weights');
      assertFilledAndAligned(cells, 'weights');
      // The lesson example's weights, each printed: a few dozen pixels of ink, centred within a
      // pixel or two.
      for (const [k, c] of cells.entries()) {
        assert.ok(c.ink > 15 * deviceScaleFactor ** 2, `cell ${k} (${c.text}) has its digits: ${c.ink} ink pixels`);
        assert.ok(
          Math.abs(c.inkOffset[0]) < 2.5 && Math.abs(c.inkOffset[1]) < 2.5,
          `cell ${k} (${c.text}) digits centred: offset ${c.inkOffset}`,
        );
      }
      assert.deepEqual(await collectProblems(page, problems), []);
      await context.close();
    });
  }

  test('a wide map prints no digits; masked cells are hatched and name themselves hidden', async () => {
    const { page, context } = await openExplorer(env);
    await afterRender(page, () =>
      page.fill('#sentence', 'one two three four five six seven eight nine ten eleven twelve'),
    );
    for (const [id, value] of [
      ['#size-dModel', '64'],
      ['#size-heads', '4'],
    ])
      await setSize(page, id, value);
    const q = await readHeatmapCells(page, 'Q');
    assert.equal(q.length, 12 * 64);
    assertFilledAndAligned(q, 'Q');
    for (const [k, c] of q.entries()) assert.equal(c.ink, 0, `Q cell ${k} prints nothing`);

    await afterRender(page, () => page.check('input[name="mask"][value="causal"]'));
    const masked = await readHeatmapCells(page, 'masked');
    const [, m] = (await readHeatmap(page, 'masked')).shape;
    for (const [k, c] of masked.entries()) {
      const upper = k % m > Math.floor(k / m);
      assert.equal(c.colour === 'hatch', upper, `cell ${k} hatched exactly above the diagonal`);
      if (upper) assert.equal(c.text, '−∞, hidden');
    }
    await context.close();
  });
});

describe('redrawing after edits', () => {
  // The canvas's pixels, as a digest of its bytes (identical pictures give identical digests).
  const pixels = (page, name) =>
    page.$eval(`[data-heatmap="${name}"]`, async (t) => {
      const canvas = t.parentElement.querySelector('canvas');
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      const digest = await crypto.subtle.digest('SHA-256', data);
      return `${canvas.width}x${canvas.height} ${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
    });

  test('maps repainted cell by cell and whole look exactly as a fresh page with the same numbers', async () => {
    const { page, context } = await openExplorer(env);
    await afterRender(page, () => page.check('input[name="mode"][value="qkv"]'));
    const initial = await page.evaluate(() => location.hash);
    // One query changes one row of the scores (a few cells repainted), a large value changes
    // every cell's colour (the whole map repainted), then a small edit again.
    await afterRender(page, () => fillCell(page, 'Q', 0, 0, '0.7'));
    await afterRender(page, () => fillCell(page, 'K', 1, 0, '9'));
    await afterRender(page, () => fillCell(page, 'Q', 2, 1, '-0.4'));
    await page.waitForFunction(() => !document.querySelector('[data-heatmap][data-pending]'));
    // The address bar follows the state a moment after the last edit: wait until it has changed
    // and then stayed the same for a while.
    await page.waitForFunction((h) => location.hash !== h, initial);
    let link = '';
    while (link !== (link = await page.evaluate(() => location.hash))) await page.waitForTimeout(700);
    const fresh = await openExplorer(env, { path: link });
    for (const name of ['scores', 'scaled', 'weights', 'output']) {
      assert.equal(
        (await readHeatmap(page, name)).data.join(' '),
        (await readHeatmap(fresh.page, name)).data.join(' '),
        `${name}: the same numbers`,
      );
      assert.equal(
        await pixels(page, name),
        await pixels(fresh.page, name),
        `${name}: the redrawn canvas equals a fresh one`,
      );
    }
    await fresh.context.close();
    await context.close();
  });
});

describe('maps out of view', () => {
  test('are brought up to date after the frame, and when scrolled into view show the new values', async () => {
    const { page, context } = await openExplorer(env);
    await afterRender(page, () => page.selectOption('#preset', 'causal'));
    const before = await readHeatmapCells(page, 'output');
    // (The steps come before the matrices: the lessons below are far from the output.)
    await page.$eval('#lessons', (e) => e.scrollIntoView({ block: 'start' }));
    assert.ok(
      await page.$eval('[data-heatmap="output"]', (t) => t.getBoundingClientRect().bottom < -300),
      'the output is out of view',
    );
    // Edited while the output is out of view (typed where the page is, not scrolled to): its
    // values follow once the frame is drawn...
    await afterRender(page, () => typeInCell(page, 'X', 0, 0, '3.5'));
    const values = (await readHeatmap(page, 'output')).data;
    // ...and its canvas and cell names show them when a person scrolls to it.
    const after = await readHeatmapCells(page, 'output');
    assert.notDeepEqual(
      after.map((c) => c.colour),
      before.map((c) => c.colour),
    );
    const expected = values.map(formatCell);
    assert.deepEqual(
      after.map((c) => c.text),
      expected,
    );
    assertFilledAndAligned(after, 'output');
    await context.close();
  });
});

// The canvas writes of one map during `action`: [x, y, width, height] of each putImageData.
async function canvasWrites(page, name, action) {
  await page.$eval(`[data-heatmap="${name}"]`, (table) => {
    const canvas = table.parentElement.querySelector('canvas');
    const put = CanvasRenderingContext2D.prototype.putImageData;
    window.__writes = [];
    window.__restorePut = () => {
      CanvasRenderingContext2D.prototype.putImageData = put;
    };
    CanvasRenderingContext2D.prototype.putImageData = function (image, dx, dy, ...dirty) {
      if (this.canvas === canvas)
        window.__writes.push(
          dirty.length ? [dirty[0], dirty[1], dirty[2], dirty[3]] : [0, 0, image.width, image.height],
        );
      return put.call(this, image, dx, dy, ...dirty);
    };
  });
  await action();
  await readHeatmap(page, name);
  return page.evaluate(() => {
    window.__restorePut();
    return window.__writes;
  });
}

const typeX = (page, i, j, text) => afterRender(page, () => typeInCell(page, 'X', i, j, text));

describe('maps scrolled into view', () => {
  test('keep their pixels after the frame, so the next small edit repaints only the cells it changes', async () => {
    const { page, context } = await openExplorer(env);
    await afterRender(page, () => page.fill('#sentence', 'a b c d e f g h')); // n = 8: an edit of one token changes 15 of 64 scores
    await readHeatmapCells(page, 'scores');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    assert.ok(
      await page.$eval('[data-heatmap="scores"]', (t) => t.getBoundingClientRect().bottom < 0),
      'the scores are out of view',
    );
    await typeX(page, 2, 1, '0.75'); // drawn out of view, after the frame
    await readHeatmap(page, 'scores');
    await page.$eval('[data-heatmap="scores"]', (t) => t.scrollIntoView({ block: 'center' }));
    await afterFrames(page, 2, 100);
    const [width, height] = await page.$eval('[data-heatmap="scores"]', (t) => {
      const c = t.parentElement.querySelector('canvas');
      return [c.width, c.height];
    });
    const before = Number(await page.textContent('[data-matrix="X"] .cell-input[data-row="2"][data-col="1"]'));
    const writes = await canvasWrites(page, 'scores', () => typeX(page, 2, 1, String(before + 0.05)));
    assert.ok(writes.length > 0, 'the edit changed some scores');
    for (const [, , w, h] of writes)
      assert.ok(w < width || h < height, `a write of the whole ${width} x ${height} canvas`);
    await context.close();
  });
});

describe('maps shown', () => {
  // Chromium allocates a new copy of a changed canvas for the compositor while the only one it has
  // is on screen: a change that changes nothing, made a frame after the map is shown, moves that
  // allocation out of the next keystroke's frame (see heatmap-paint.js).
  test('are changed once more, by one pixel and unseen, a frame after they are drawn', async () => {
    const { page, context } = await openExplorer(env);
    await afterRender(page, () => page.fill('#sentence', 'a b c d e f g h'));
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    assert.ok(
      await page.$eval('[data-heatmap="scores"]', (t) => t.getBoundingClientRect().bottom < 0),
      'the scores are out of view',
    );
    await typeX(page, 2, 1, '0.75'); // drawn out of view, after the frame
    await readHeatmap(page, 'scores');
    const writes = await canvasWrites(page, 'scores', async () => {
      await page.$eval('[data-heatmap="scores"]', (t) => t.scrollIntoView({ block: 'center' }));
      await afterFrames(page, 3, 100);
    });
    const [width, height] = await page.$eval('[data-heatmap="scores"]', (t) => {
      const c = t.parentElement.querySelector('canvas');
      return [c.width, c.height];
    });
    assert.deepEqual(
      writes,
      [
        [0, 0, width, height],
        [0, 0, 1, 1],
      ],
      'the map drawn whole as it comes into view, then one pixel',
    );
    assertFilledAndAligned(await readHeatmapCells(page, 'scores'), 'scores');
    await context.close();
  });
});

describe('zoom', () => {
  test('a new device pixel ratio (zoom) repaints the maps at the new resolution', async () => {
    const { page, context } = await openExplorer(env);
    const width1 = await page.$eval('[data-heatmap="weights"]', (t) => t.parentElement.querySelector('canvas').width);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setDeviceMetricsOverride', {
      width: 1280,
      height: 900,
      deviceScaleFactor: 2,
      mobile: false,
    });
    await page.waitForFunction(() => window.devicePixelRatio === 2);
    // Emulation changes the ratio without the events a real zoom brings; send the window's one.
    await page.evaluate(() => window.dispatchEvent(new Event('resize')));
    await page.waitForFunction(
      (w) =>
        document.querySelector('[data-heatmap="weights"]').parentElement.querySelector('canvas').width >= 2 * w - 2,
      width1,
    );
    assertFilledAndAligned(await readHeatmapCells(page, 'weights'), 'weights at 2x');
    await context.close();
  });
});
