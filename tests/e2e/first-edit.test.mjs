// The first keystroke after the page is built anew (new sizes), in headless Chromium: it is drawn
// in the next animation frame, as the ones after it are, not held back as if typing were slow (a
// rebuild of thousands of cells takes more than a frame, an edit does not); and the warm-up that
// drew an edit and its undoing behind the scenes (ui/warm-up.js) left nothing of that edit on the
// page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterRender, cellText, collectProblems, typeInCell, useExplorer } from './helpers.mjs';

const { page, problems } = useExplorer();

async function setSize(id, value) {
  await afterRender(page, async () => {
    await page.fill(id, value);
    await page.press(id, 'Enter');
  });
}

// How the redraws made while `action` runs were run: 'frame' for one inside an animation frame's
// callback, 'other' (a timer: typing was judged slow) for the rest.
async function redrawsDuring(action) {
  await page.evaluate(() => {
    const app = document.getElementById('app');
    const renders = () => Number(app.dataset.renders);
    window.__redraws = [];
    window.__inFrame = 0;
    window.__raf = window.requestAnimationFrame;
    window.requestAnimationFrame = (f) => window.__raf((t) => {
      const before = renders();
      f(t);
      window.__inFrame += renders() - before;
    });
    window.__seen = renders();
    window.__watch = new MutationObserver(() => {
      const added = renders() - window.__seen;
      window.__seen = renders();
      window.__redraws.push(added);
    });
    window.__watch.observe(app, { attributes: true, attributeFilter: ['data-renders'] });
  });
  await action();
  return page.evaluate(() => {
    window.requestAnimationFrame = window.__raf;
    window.__watch.disconnect();
    const all = window.__redraws.reduce((x, y) => x + y, 0);
    return [...Array(window.__inFrame).fill('frame'), ...Array(all - window.__inFrame).fill('other')];
  });
}

test('the first edit after a rebuild at the largest sizes is drawn in the next frame', async () => {
  const words = Array.from({ length: 24 }, (_, i) => `w${i + 1}`).join(' ');
  await afterRender(page, () => page.fill('#sentence', words));
  await setSize('#size-dModel', '64');
  await setSize('#size-heads', '8');
  const rebuildMs = Number(await page.getAttribute('#app', 'data-render-ms'));
  assert.ok(rebuildMs > 0, 'the page says how long its last drawing took');
  const original = await cellText(page, 'X', 0, 0);
  const redraws = await redrawsDuring(() => afterRender(page, () => typeInCell(page, 'X', 1, 2, '40')));
  assert.deepEqual(redraws, ['frame'], `the edit after a ${rebuildMs} ms rebuild`);
  assert.equal(await cellText(page, 'X', 0, 0), original, 'the warm-up edit is not shown');
  assert.deepEqual(await collectProblems(page, problems), []);
});
