// What a redraw writes into the DOM after an edit of one number, in headless Chromium: nothing in
// the controls (none of them depends on the values), and in the pipeline text changed in place
// (the text node already there gets the new words) instead of replaced. Every write costs the
// browser style, layout or paint work in the frame that shows the edit, so a redraw that rewrites
// equal text or equal attributes is slower than it needs to be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterFrames, afterRender, cellSelector, setSize, typeInCell, useExplorer } from './helpers.mjs';

const { page } = useExplorer();
const twoFrames = () => afterFrames(page);

// Records the mutations under each of `roots` ({ name: selector }) until stop().
const record = (roots) =>
  page.evaluate((list) => {
    window.__writes = [];
    const where = (node) => {
      const e = node.nodeType === 3 ? node.parentElement : node;
      return `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`;
    };
    window.__observers = Object.entries(list).map(([name, selector]) => {
      const observer = new MutationObserver((records) => {
        for (const r of records)
          window.__writes.push({ root: name, type: r.type, where: where(r.target), attribute: r.attributeName });
      });
      observer.observe(document.querySelector(selector), {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
      return observer;
    });
  }, roots);
const stop = () =>
  page.evaluate(() => {
    for (const observer of window.__observers) observer.disconnect();
    return window.__writes;
  });

test("an edit of one number writes nothing into the controls, and changes the pipeline's text in place", async () => {
  await record({ controls: '.controls', pipeline: '#pipeline' });
  await afterRender(page, () => page.fill(cellSelector('X', 1, 2), '1.75'));
  // Past the work queued after the frame too (maps' values, the float64 check).
  await page.waitForFunction(
    () => !document.querySelector('[data-heatmap][data-pending], [data-stat="float64-check"][data-pending]'),
  );
  const writes = await stop();
  assert.deepEqual(
    writes.filter((w) => w.root === 'controls'),
    [],
    'the controls do not depend on the values',
  );
  const pipeline = writes.filter((w) => w.root === 'pipeline');
  assert.ok(
    pipeline.some((w) => w.type === 'characterData' && w.where.startsWith('span.stat-value')),
    'the row statistics changed',
  );
  assert.deepEqual(
    pipeline.filter((w) => w.type === 'childList'),
    [],
    'text nodes replaced instead of updated',
  );
});

// The main thread's trace events from the redraw that follows `edit` (marked in the trace as it
// happens) on, in order. The redraw runs in an animation frame, or in a timer when the last one
// was slow (ui/redraw.js): the frame follows it either way. The first frame traced rebuilds the
// layers whatever changed, so it is let pass before the edit.
async function eventsFromRedraw(edit, categories) {
  const browser = page.context().browser();
  await page.evaluate(() => {
    window.__marker = new MutationObserver(() => console.timeStamp('redrawn'));
    window.__marker.observe(document.getElementById('app'), { attributes: true, attributeFilter: ['data-renders'] });
  });
  await browser.startTracing(page, { categories });
  await twoFrames();
  await edit();
  await twoFrames();
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  await page.evaluate(() => window.__marker.disconnect());
  const mark = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === 'redrawn');
  return events.filter((e) => e.tid === mark.tid && e.ts >= mark.ts).sort((x, y) => x.ts - y.ts);
}

// The browser's layouts in the frame that shows an edit: from the redraw to the next paint.
async function frameLayouts(edit) {
  const after = await eventsFromRedraw(edit, ['devtools.timeline']);
  const paint = after.findIndex((e) => e.name === 'Paint');
  return after.slice(0, paint).filter((e) => e.name === 'Layout' && e.ph === 'X');
}

// (Text that flows, as the weights' summary sentence, is laid out with the page when it changes in
// view; out of view it waits until after the frame. A short window keeps the weights out of view.)
test('an edit that changes a colour range lays out only the lines it rewrites, not the page', async () => {
  const size = page.viewportSize();
  await page.setViewportSize({ width: size.width, height: 420 });
  const cell = cellSelector('X', 1, 2);
  const before = await page.textContent(cell);
  // As a person who clicked a cell of X, then scrolled down to watch the steps while typing.
  await page.focus(cell);
  await page.$eval('#pipeline', (e) => e.scrollIntoView({ block: 'start' }));
  await twoFrames();
  for (const text of ['40', before]) {
    // to a value that widens the scale, and back (the reset button too)
    const layouts = await frameLayouts(() => afterRender(page, () => typeInCell(page, 'X', 1, 2, text)));
    assert.ok(layouts.length > 0, 'the frame lays out the numbers it changed');
    for (const l of layouts)
      assert.equal(
        l.args.beginData.partialLayout,
        true,
        `a layout from the page's root, of ${l.args.beginData.dirtyObjects} objects`,
      );
  }
  await page.setViewportSize(size);
});

// Records, during `action`, every attribute written with the value it already had: each record's
// new value is the next record's old value for that attribute, or the value now.
async function sameValueWrites(action) {
  await page.evaluate(() => {
    window.__same = [];
    window.__sameObserver = new MutationObserver((records) => {
      const next = new Map();
      for (const r of [...records].reverse()) {
        const byName = next.get(r.target) ?? new Map();
        next.set(r.target, byName);
        const now = byName.has(r.attributeName) ? byName.get(r.attributeName) : r.target.getAttribute(r.attributeName);
        if (now === r.oldValue)
          window.__same.push(
            `${r.target.tagName.toLowerCase()}.${[...r.target.classList].join('.')} ${r.attributeName}="${r.oldValue}"`,
          );
        byName.set(r.attributeName, r.oldValue);
      }
    });
    window.__sameObserver.observe(document, { subtree: true, attributes: true, attributeOldValue: true });
  });
  await action();
  await page.waitForFunction(
    () => !document.querySelector('[data-heatmap][data-pending], [data-stat="float64-check"][data-pending]'),
  );
  return page.evaluate(() => {
    window.__sameObserver.disconnect();
    return [...new Set(window.__same)];
  });
}

// The edits include a number typed again as it was (a redraw of equal values, where every write
// would have the value already there) and, with one head, a d_k that changes the columns of the
// maps of Q and K but not their rows.
test('a redraw writes no attribute with the value it already has (one head, and h = 2 with d_k fields disabled)', async (t) => {
  t.after(() => setSize(page, '#size-heads', '1')); // the tests after this one expect one head
  for (const h of ['2', '1']) {
    await setSize(page, '#size-heads', h);
    const dk = await page.inputValue('#size-dk');
    const edits = async () => {
      for (const text of ['2.5', '-1', '-1']) await afterRender(page, () => page.fill(cellSelector('X', 0, 1), text));
      if (h === '1') for (const value of [String(Number(dk) - 1), dk]) await setSize(page, '#size-dk', value);
    };
    assert.deepEqual(await sameValueWrites(edits), [], `h = ${h}: attributes written with the value they had`);
  }
});

// Whether the browser rebuilt its layers (a full PaintArtifactCompositor::Update, 1.5-2.5 ms at
// the largest sizes) in the frame that shows `edit`, rather than only repainting the ones changed:
// it does when a drawn box changes its bounds, as a clipped line of text whose width follows its
// numbers, or a paragraph whose height does and so moves everything below it.
async function frameRebuildsLayers(edit) {
  const after = await eventsFromRedraw(edit, ['devtools.timeline', 'blink']);
  // The frame's layer step (Layerize) holds the full update when there is one.
  const layerize = after.find((e) => e.name === 'Layerize' && e.ph === 'X');
  assert.ok(layerize, 'the frame has a layer step');
  return after.some(
    (e) => e.name === 'PaintArtifactCompositor::Update' && e.ts >= layerize.ts && e.ts <= layerize.ts + layerize.dur,
  );
}

test("a temperature-slider edit repaints what changed without rebuilding the page's layers", async () => {
  await page.$eval('#pipeline', (e) => e.scrollIntoView({ block: 'start' }));
  const slide = (value) =>
    afterRender(page, () =>
      page.$eval(
        '#temperature-range',
        (r, v) => {
          r.value = v;
          r.dispatchEvent(new Event('input', { bubbles: true }));
        },
        value,
      ),
    );
  const settled = () =>
    page.waitForFunction(
      () => !document.querySelector('[data-heatmap][data-pending], [data-stat="float64-check"][data-pending]'),
    );
  await slide('0.3'); // the first change of T shows notes that were hidden: that frame may rebuild
  await settled();
  for (const value of ['-0.4', '0.5', '-0.2']) {
    // values that move every colour range and the float64 check
    assert.equal(await frameRebuildsLayers(() => slide(value)), false, `T = 10^${value}: the frame rebuilt the layers`);
    await settled();
  }
  await slide('0');
  await settled();
});

// Every canvas the browser paints is a layer of its own, and a frame that rebuilds the layers (as
// every keystroke into a cell does) copies each one's pixels for the compositor, changed or not.
// Cards up to a viewport and a half away are painted (content-visibility: auto): their canvases
// are hidden while the card is farther than half a viewport, so the frame copies only those near
// the view. Run with two heads too, where one card holds maps far apart.
async function onlyNearCanvasesCopied() {
  const cell = cellSelector('X', 1, 2);
  const before = await page.textContent(cell);
  await page.focus(cell);
  await page.$eval('#pipeline', (e) => e.scrollIntoView({ block: 'start' }));
  await twoFrames();
  const canvases = () =>
    page.evaluate(() => {
      const margin = window.innerHeight / 2;
      const painted = [...document.querySelectorAll('canvas.heatmap-paint, canvas.matrix-tint')].filter(
        (c) => !c.hidden && c.checkVisibility({ contentVisibilityAuto: true }),
      );
      // Decided per card (the box content-visibility may skip), as a card's maps scroll in together.
      const unit = (c) => {
        for (let e = c; e; e = e.parentElement) if (getComputedStyle(e).contentVisibility === 'auto') return e;
        return c;
      };
      const near = (c) => {
        const r = unit(c).getBoundingClientRect();
        return r.bottom > -margin && r.top < window.innerHeight + margin;
      };
      return painted.map((c) => ({ near: near(c), shown: getComputedStyle(c).visibility === 'visible' }));
    });
  const list = await canvases();
  assert.ok(
    list.some((c) => !c.near),
    'the page paints canvases far from the view (the case under test)',
  );
  for (const [k, c] of list.entries())
    assert.equal(c.shown, c.near, `canvas ${k} of ${list.length}: shown ${c.shown}, near ${c.near}`);
  const near = list.filter((c) => c.near).length;
  const after = await eventsFromRedraw(
    () => afterRender(page, () => typeInCell(page, 'X', 1, 2, '40')),
    ['devtools.timeline', 'blink', 'toplevel'],
  );
  // The copies are made in the commit that ends the frame's task, after its layer step.
  const layerize = after.find((e) => e.name === 'Layerize' && e.ph === 'X');
  assert.ok(layerize, 'the frame has a layer step');
  const next = after.find((e) => e.name === 'ThreadControllerImpl::RunTask' && e.ts > layerize.ts + layerize.dur);
  const copies = after.filter(
    (e) =>
      e.name === 'Canvas2DResourceProvider::ProduceCanvasResource' && e.ts > layerize.ts && (!next || e.ts < next.ts),
  ).length;
  assert.ok(copies <= near, `the frame copied ${copies} canvases for the compositor; ${near} are near the view`);
  await afterRender(page, () => typeInCell(page, 'X', 1, 2, before));
  await page.emulateMedia({ media: 'print' });
  assert.ok(
    (await canvases()).every((c) => c.shown),
    'a printout shows every map',
  );
  await page.emulateMedia({ media: 'screen' });
}

test('a typed edit hands the compositor only the canvases near the view', async (t) => {
  t.after(() => setSize(page, '#size-heads', '1'));
  for (const h of ['1', '2']) {
    await setSize(page, '#size-heads', h);
    await onlyNearCanvasesCopied();
  }
});

test('a map that a jump brings into view shows its colours in the first frame', async () => {
  // Maps shown on the page but far from its top are hidden once the browser has said where they are.
  await page.evaluate(() => {
    window.scrollTo(0, 0);
    window.__farMaps = () =>
      [...document.querySelectorAll('canvas.heatmap-paint')].filter(
        (c) => c.style.visibility === 'hidden' && c.closest('.card')?.checkVisibility(),
      );
  });
  await page.waitForFunction(() => window.__farMaps().length > 0);
  const shown = await page.evaluate(async () => {
    const canvas = window.__farMaps().pop();
    canvas.parentElement.scrollIntoView({ block: 'center' });
    await new Promise((done) => requestAnimationFrame(done)); // before that frame is painted
    return getComputedStyle(canvas).visibility;
  });
  assert.equal(shown, 'visible', 'the map was still hidden in the frame that scrolled to it');
});
