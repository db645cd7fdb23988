// The Cost tab's log-log plot: every label lies inside the plot's SVG box, and the markers' labels
// ("n = …", "equal at n = …") sit in their own band above the plot area, clear of the gridlines,
// the tick labels, each other and the other marker's line, at desktop and phone widths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterRender, useExplorer } from './helpers.mjs';

const { page } = useExplorer();
const ROOT = '[data-lesson="cost"]';

async function setSizes(values) {
  for (let k = 0; k < values.length; k++) {
    const sel = `${ROOT} input[type="number"] >> nth=${k}`;
    if ((await page.inputValue(sel)) === String(values[k])) continue;
    await afterRender(page, async () => {
      await page.fill(sel, String(values[k]));
      await page.press(sel, 'Enter');
    });
  }
}

// Boxes in screen px of the SVG, the plot area (from the axes), the marker labels and lines, the
// other texts and the horizontal gridlines.
const layout = () =>
  page.evaluate((root) => {
    const svg = document.querySelector(`${root} svg.plot`);
    const box = (e) => {
      const r = e.getBoundingClientRect();
      return { l: r.left, t: r.top, r: r.right, b: r.bottom, text: e.textContent };
    };
    const axes = [...svg.querySelectorAll('line.axis')].map(box);
    return {
      svg: box(svg),
      areaTop: Math.min(...axes.map((a) => a.t)),
      labels: [...svg.querySelectorAll('.vmark text')].map(box),
      markerLines: [...svg.querySelectorAll('.vmark line')].map(box),
      texts: [...svg.querySelectorAll('text')].map(box),
      others: [...svg.querySelectorAll('.tick text, .axis-label')].map(box),
    };
  }, ROOT);

const overlap = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
const show = (b) => `"${b.text}" at ${b.l.toFixed(1)}..${b.r.toFixed(1)} × ${b.t.toFixed(1)}..${b.b.toFixed(1)}`;

test('the cost plot’s labels stay inside the plot and above its area, clear of each other', async () => {
  await afterRender(page, () => page.click('.lesson-tab[data-panel="cost"]'));
  for (const width of [1400, 375]) {
    await page.setViewportSize({ width, height: 900 });
    for (const sizes of [
      [4, 4, 8, 1],
      [4096, 4096, 512, 8],
      [1, 1, 1, 1],
      [3000, 3000, 1024, 2],
      [1048576, 1048576, 65536, 1024],
    ]) {
      await setSizes(sizes);
      await page.$eval(`${ROOT} svg.plot`, (e) => e.scrollIntoView({ block: 'center' }));
      const L = await layout();
      const where = `${sizes.join('/')} at ${width} px`;
      assert.equal(L.labels.length, 2, where);
      for (const t of L.texts) {
        assert.ok(
          t.l >= L.svg.l - 0.5 && t.r <= L.svg.r + 0.5 && t.t >= L.svg.t - 0.5 && t.b <= L.svg.b + 0.5,
          `${show(t)} outside the plot ${show(L.svg)} (${where})`,
        );
      }
      for (const [k, label] of L.labels.entries()) {
        assert.ok(
          label.b <= L.areaTop + 0.5,
          `${show(label)} runs into the plot area (top ${L.areaTop.toFixed(1)}, ${where})`,
        );
        for (const other of L.others)
          assert.ok(!overlap(label, other), `${show(label)} overlaps ${show(other)} (${where})`);
        for (const [j, line] of L.markerLines.entries()) {
          if (j !== k)
            assert.ok(
              !overlap(label, { ...line, l: line.l - 0.5, r: line.r + 0.5 }),
              `${show(label)} crosses the other marker's line (${where})`,
            );
        }
      }
      assert.ok(!overlap(L.labels[0], L.labels[1]), `${show(L.labels[0])} overlaps ${show(L.labels[1])} (${where})`);
    }
    // The legend under the plot: each key on the line of its own words, just before them, however
    // the legend wraps.
    const keys = await page.$$eval(`${ROOT} .plot-legend .legend-key`, (spans) =>
      spans.map((span) => {
        const key = span.getBoundingClientRect();
        const range = document.createRange();
        range.setStart(span.nextSibling, 1); // the first letter after the space
        range.setEnd(span.nextSibling, 2);
        const word = range.getBoundingClientRect();
        return { label: span.nextSibling.textContent.trim(), gap: word.left - key.right, dy: word.top - key.top };
      }),
    );
    assert.equal(keys.length, 3);
    for (const { label, gap, dy } of keys)
      assert.ok(
        gap >= 0 && gap < 16 && Math.abs(dy) < 16,
        `the key of "${label}": ${gap} px before it, ${dy} px up/down (${width} px)`,
      );
  }
});
