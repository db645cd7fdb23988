// The first keystroke after the page is built anew (new sizes), in headless Chromium: it is drawn
// in the next animation frame, as the ones after it are, not held back as if typing were slow (a
// rebuild of thousands of cells takes more than a frame, an edit does not); and the warm-up that
// drew an edit and its undoing behind the scenes (ui/warm-up.js) left nothing of that edit on the
// page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterRender, cellText, collectProblems, setSize, typeInCell, useExplorer } from './helpers.mjs';

const { page, problems } = useExplorer();

// How the redraws made while `action` runs were run: 'frame' for one inside an animation frame's
// callback, 'other' (a timer: typing was judged slow) for the rest.
async function redrawsDuring(action) {
  const renders = () => page.evaluate(() => Number(document.getElementById('app').dataset.renders));
  const before = await renders();
  await page.evaluate(() => {
    const app = document.getElementById('app');
    window.__inFrame = 0;
    window.__raf = window.requestAnimationFrame;
    window.requestAnimationFrame = (f) =>
      window.__raf((t) => {
        const was = Number(app.dataset.renders);
        f(t);
        window.__inFrame += Number(app.dataset.renders) - was;
      });
  });
  await action();
  const inFrame = await page.evaluate(() => {
    window.requestAnimationFrame = window.__raf;
    return window.__inFrame;
  });
  const all = (await renders()) - before;
  return [...Array(inFrame).fill('frame'), ...Array(all - inFrame).fill('other')];
}

test('the first edit after a rebuild at the largest sizes is drawn in the next frame', async () => {
  const words = Array.from({ length: 24 }, (_, i) => `w${i + 1}`).join(' ');
  await afterRender(page, () => page.fill('#sentence', words));
  await setSize(page, '#size-dModel', '64');
  await setSize(page, '#size-heads', '8');
  const rebuildMs = Number(await page.getAttribute('#app', 'data-render-ms'));
  assert.ok(rebuildMs > 0, 'the page says how long its last drawing took');
  const original = await cellText(page, 'X', 0, 0);
  const redraws = await redrawsDuring(() => afterRender(page, () => typeInCell(page, 'X', 1, 2, '40')));
  assert.deepEqual(redraws, ['frame'], `the edit after a ${rebuildMs} ms rebuild`);
  assert.equal(await cellText(page, 'X', 0, 0), original, 'the warm-up edit is not shown');
  assert.deepEqual(await collectProblems(page, problems), []);
});
