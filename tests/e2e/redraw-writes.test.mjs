// What a redraw writes into the DOM after an edit of one number, in headless Chromium: nothing in
// the controls (none of them depends on the values), and in the pipeline text changed in place
// (the text node already there gets the new words) instead of replaced. Every write costs the
// browser style, layout or paint work in the frame that shows the edit, so a redraw that rewrites
// equal text or equal attributes is slower than it needs to be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterRender, cellSelector, useExplorer } from './helpers.mjs';

const { page } = useExplorer();

// Records the mutations under each of `roots` ({ name: selector }) until stop().
const record = (roots) => page.evaluate((list) => {
  window.__writes = [];
  const where = (node) => {
    const e = node.nodeType === 3 ? node.parentElement : node;
    return `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`;
  };
  window.__observers = Object.entries(list).map(([name, selector]) => {
    const observer = new MutationObserver((records) => {
      for (const r of records) window.__writes.push({ root: name, type: r.type, where: where(r.target), attribute: r.attributeName });
    });
    observer.observe(document.querySelector(selector), { subtree: true, childList: true, characterData: true, attributes: true });
    return observer;
  });
}, roots);
const stop = () => page.evaluate(() => {
  for (const observer of window.__observers) observer.disconnect();
  return window.__writes;
});

test('an edit of one number writes nothing into the controls, and changes the pipeline\'s text in place', async () => {
  await record({ controls: '.controls', pipeline: '#pipeline' });
  await afterRender(page, () => page.fill(cellSelector('X', 1, 2), '1.75'));
  // Past the work queued after the frame too (maps' values, the float64 check).
  await page.waitForFunction(() => !document.querySelector('[data-heatmap][data-pending], [data-stat="float64-check"][data-pending]'));
  const writes = await stop();
  assert.deepEqual(writes.filter((w) => w.root === 'controls'), [], 'the controls do not depend on the values');
  const pipeline = writes.filter((w) => w.root === 'pipeline');
  assert.ok(pipeline.some((w) => w.type === 'characterData' && w.where.startsWith('span.stat-value')), 'the row statistics changed');
  assert.deepEqual(pipeline.filter((w) => w.type === 'childList'), [], 'text nodes replaced instead of updated');
});
