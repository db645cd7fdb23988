// The page as a new user and a teacher meet it, in headless Chromium under the strict CSP: the
// exported NumPy and PyTorch scripts print the page's own data-values for every head, scale and
// mistake; sentences with other words give other numbers; side-by-side maps share one colour
// scale; one parameter count everywhere; number fields never show a value that is not used.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../scripts/serve.mjs';
import {
  afterRender,
  assertClose,
  cellSelector,
  collectProblems,
  openExplorer,
  readHeatmap,
  useExplorer,
} from './helpers.mjs';
import { hasPythonModule, PYTHON, runPythonScripts } from '../js/support/python.mjs';
import { niceBound } from '../../web/ui/model/palettes.js';

const NUMPY = hasPythonModule('numpy');
const TORCH = NUMPY && hasPythonModule('torch');

const { env, page, problems } = useExplorer();

const preset = (id) => afterRender(page, () => page.selectOption('#preset', id));
const typeInto = (selector, value) =>
  afterRender(page, async () => {
    await page.fill(selector, String(value));
    await page.press(selector, 'Enter');
  });
const openPanel = (id) => afterRender(page, () => page.click(`.lesson-tab[data-panel="${id}"]`));

async function exportCode(format) {
  if (!(await page.isVisible('.export-panel'))) await page.click('.export-menu > summary');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-export="${format}"]`)]);
  const text = readFileSync(await download.path(), 'utf8');
  await page.click('.export-menu > summary');
  return text;
}

async function pageValues(multi, pitfall) {
  const read = async (name) => (await readHeatmap(page, name)).data;
  const out = {};
  if (multi) {
    const heads = await page.$$eval('[data-heatmap^="head-"]', (ts) => ts.map((t) => t.dataset.heatmap));
    out.weights = [];
    for (const h of heads) out.weights.push(...(await read(h)));
    out.average = await read('average');
    out.output = await read('mha-output');
  } else {
    out.weights = await read('weights');
    out.output = await read('output');
  }
  if (pitfall) {
    out[multi ? 'mistake_average' : 'mistake_weights'] = await read('pitfall-wrong-weights');
    out.mistake_output = await read('pitfall-wrong-output');
  }
  return out;
}

async function checkExports(label, { multi, pitfall = false }) {
  const expected = await pageValues(multi, pitfall);
  const formats = TORCH ? ['numpy', 'pytorch'] : ['numpy'];
  const jobs = [];
  for (const f of formats)
    jobs.push({ name: `${label} ${f}`, code: await exportCode(f), names: Object.keys(expected) });
  runPythonScripts(jobs).forEach((got, k) => {
    assert.equal(got.error, undefined, `${jobs[k].name}: ${got.error}`);
    for (const [key, want] of Object.entries(expected))
      assertClose([got[key]].flat(Infinity), want, {
        atol: key.endsWith('output') ? 5e-5 : 5e-6,
        rtol: 1e-5,
        label: `${jobs[k].name} ${key}`,
      });
  });
}

describe('exported code', () => {
  test(
    'lesson example, h = 2, T = 2, √d_k off, a clicked cell, the pitfalls panel open: NumPy and PyTorch print the page’s numbers',
    { skip: !NUMPY && `${PYTHON} has no numpy` },
    async () => {
      await preset('lesson');
      await typeInto('#size-heads', 2);
      await typeInto('#temperature', 2);
      await checkExports('h=2 T=2', { multi: true });
      await afterRender(page, () => page.uncheck('#sqrt-dk'));
      await afterRender(page, () => page.check('input[name="mask"][value="custom"]'));
      await afterRender(page, () => page.click('[data-heatmap="scores"] td[data-row="0"][data-col="1"]'));
      await openPanel('pitfalls');
      await afterRender(page, () => page.selectOption('[data-control="pitfall"]', 'scale-by-dmodel'));
      await checkExports('h=2 sqrtDk off custom pitfall', { multi: true, pitfall: true });
      await typeInto('#size-heads', 1);
      await afterRender(page, () => page.check('input[name="mask"][value="causal"]'));
      await afterRender(page, () => page.selectOption('[data-control="pitfall"]', 'mask-value-zero'));
      await checkExports('h=1 causal pitfall', { multi: false, pitfall: true });
    },
  );
});

describe('sentences', () => {
  test('other words give other weights; the same word the same row of X; positions can be added', async () => {
    await preset('causal');
    await afterRender(page, () => page.check('input[name="mask"][value="none"]'));
    const weightsFor = async (text) => {
      await afterRender(page, () => page.fill('#sentence', text));
      return (await readHeatmap(page, 'weights')).data;
    };
    const a = await weightsFor('the cat sat on the mat');
    const b = await weightsFor('my dog ate in a box');
    const c = await weightsFor('the the the the the the');
    assert.notDeepEqual(a, b);
    assert.notDeepEqual(a, c);
    for (const w of c) assert.ok(Math.abs(w - 1 / 6) < 1e-6, `six equal tokens: uniform weights, got ${w}`);
    await weightsFor('the cat sat on the mat');
    const row = (r) =>
      page.$$eval(`[data-matrix="X"] .cell-input[data-row="${r}"]`, (inputs) => inputs.map((i) => i.title));
    assert.deepEqual(await row(0), await row(4), 'both "the" rows');
    assert.match(await page.textContent('#vectors-note'), /random but fixed.*same word.*same vector/s);
    await afterRender(page, () => page.selectOption('#positional', 'sinusoidal'));
    assert.notDeepEqual(await row(0), await row(4), 'positions make the two "the" rows differ');
    await afterRender(page, () => page.selectOption('#positional', 'none'));
  });

  test('swapping tokens: without positions the output rows only swap; with positions added to X they change', async () => {
    await preset('causal');
    await afterRender(page, () => page.check('input[name="mask"][value="none"]'));
    await openPanel('permutation');
    const verdict = () => page.getAttribute('[data-stat="perm-verdict"]', 'data-equal');
    assert.equal(await verdict(), 'true');
    for (const kind of ['sinusoidal', 'learned']) {
      await afterRender(page, () => page.selectOption('#positional', kind));
      assert.equal(await verdict(), 'false', kind);
      assert.match(
        await page.textContent('[data-lesson="permutation"] .lesson-note'),
        /each position keeps its own vector/,
      );
    }
    await afterRender(page, () => page.selectOption('#positional', 'none'));
    assert.equal(await verdict(), 'true');
  });
});

describe('editing', () => {
  test('Escape gives a cell back its value in full precision; Reset gives a matrix back the example’s values', async () => {
    await preset('lesson');
    const q = async () => (await readHeatmap(page, 'Q')).data;
    const original = await q();
    const cell = cellSelector('X', 0, 0);
    await page.focus(cell);
    await afterRender(page, () => page.keyboard.type('1.5'));
    assert.notDeepEqual(await q(), original);
    await afterRender(page, () => page.keyboard.press('Escape'));
    assert.deepEqual(await q(), original, 'the exact value is back, not its rounded text');
    assert.equal(await page.isDisabled('[data-reset="X"]'), true);
    await afterRender(page, async () => {
      await page.keyboard.type('2');
      await page.keyboard.press('Enter');
    });
    await afterRender(page, async () => {
      await page.keyboard.type('-3');
      await page.keyboard.press('Enter');
    });
    assert.notDeepEqual(await q(), original);
    assert.equal(await page.isDisabled('[data-reset="X"]'), false);
    await afterRender(page, () => page.click('[data-reset="X"]'));
    assert.deepEqual(await q(), original);
    assert.equal(await page.isDisabled('[data-reset="X"]'), true);
  });
});

describe('links', () => {
  test('a new #preset= hash on the open page loads that example without a reload', async () => {
    await preset('lesson');
    await page.evaluate(() => {
      window.__sameDocument = true;
    });
    await afterRender(page, () =>
      page.evaluate(() => {
        window.location.hash = '#preset=saturation';
      }),
    );
    assert.deepEqual((await readHeatmap(page, 'weights')).shape, [5, 5]);
    assert.equal(await page.inputValue('#preset'), 'saturation');
    assert.equal(await page.evaluate(() => window.__sameDocument), true, 'no reload');
    await page.evaluate(() => {
      window.location.hash = '#preset=nonsense';
    });
    await page.waitForSelector('.notice:not([hidden])');
    assert.match(await page.textContent('.notice'), /no example called \u201cnonsense\u201d/);
    assert.deepEqual((await readHeatmap(page, 'weights')).shape, [5, 5]);
    await page.click('.notice button');
  });
});

describe('teachers embedding it', () => {
  test('Copy iframe code gives a frame of this example that works from another site and reports its height', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1000, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
    const p = await context.newPage();
    await p.goto(env.url);
    await p.waitForSelector('#app[data-ready="true"]');
    await afterRender(p, () => p.selectOption('#preset', 'padding'));
    await p.click('[data-action="copy-embed"]');
    await p.waitForFunction(() => /hosted on your lesson/.test(document.querySelector('.share-status').textContent));
    await p.click('[data-action="copy-iframe"]');
    await p.waitForFunction(() => /iframe code copied/.test(document.querySelector('.share-status').textContent));
    const snippet = await p.evaluate(() => navigator.clipboard.readText());
    assert.match(
      snippet,
      new RegExp(
        `^<iframe src="${env.url}embed\\.html#s=v1\\.[A-Za-z0-9_-]+" title="Attention explorer" width="100%" height="900"`,
      ),
    );
    const weights = await readHeatmap(p, 'weights');
    // A lesson on another origin (127.0.0.1 vs localhost) with the snippet pasted in, and a script
    // that sizes the frame from its height messages.
    const dir = mkdtempSync(join(tmpdir(), 'ae-lesson-'));
    const lesson = await startServer({
      root: dir,
      csp: `default-src 'self'; script-src 'self'; frame-src ${env.url.replace(/\/$/, '')}`,
    });
    writeFileSync(
      join(dir, 'lesson.html'),
      `<!doctype html><html lang="en"><head><title>lesson</title><script src="sizer.js"></script></head><body>${snippet}</body></html>`,
    );
    writeFileSync(
      join(dir, 'sizer.js'),
      `window.heights = [];
      window.addEventListener('message', (e) => { if (e.data && e.data.type === 'attention-explorer:height') window.heights.push(e.data.height); });`,
    );
    await p.goto(`http://localhost:${new URL(lesson.url).port}/lesson.html`);
    const frame = p.frameLocator('iframe');
    await frame.locator('#app[data-ready="true"]').waitFor();
    const framed = await frame
      .locator('[data-heatmap="weights"]:not([data-pending])')
      .evaluate((t) => t.dataset.values.split(' ').map(Number));
    assert.deepEqual(framed, weights.data);
    await p.waitForFunction(() => window.heights.length > 0);
    // The frame's document can still grow after its first report (maps drawn after the frame):
    // the latest report must catch up with the document's height.
    const read = () =>
      Promise.all([
        p.evaluate(() => window.heights.at(-1)),
        frame.locator('html').evaluate((h) => Math.ceil(h.getBoundingClientRect().height)),
      ]);
    let [reported, actual] = await read();
    for (let tries = 0; Math.abs(reported - actual) > 1 && tries < 50; tries++) {
      await p.waitForTimeout(100);
      [reported, actual] = await read();
    }
    assert.ok(reported > 900 && Math.abs(reported - actual) <= 1, `reported ${reported}, document ${actual}`);
    await context.close();
    await lesson.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('exported images', () => {
  test('an exported map carries its colour scale: the SVG and the PNG draw the legend under the cells', async () => {
    await preset('causal');
    if (!(await page.isVisible('.export-panel'))) await page.click('.export-menu > summary');
    await page.selectOption('#export-target', 'scaled');
    const save = async (format) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-export="${format}"]`)]);
      return readFileSync(await download.path());
    };
    const svgText = (await save('svg')).toString('utf8');
    const png = (await save('png')).toString('base64');
    await page.click('.export-menu > summary');
    const r = await page.evaluate(
      async ({ svgText, png }) => {
        const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
        const rects = [...doc.querySelectorAll('g.legend rect')];
        const labels = [...doc.querySelectorAll('g.legend text')].map((t) => t.textContent);
        const bitmap = await createImageBitmap(
          new Blob([Uint8Array.from(atob(png), (c) => c.charCodeAt(0))], { type: 'image/png' }),
        );
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const ctx = canvas.getContext('2d');
        ctx.drawImage(bitmap, 0, 0);
        const pixels = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data; // one readback
        const at = (rect) => {
          const px = Math.floor((Number(rect.getAttribute('x')) + 1) * 2);
          const py = Math.floor((Number(rect.getAttribute('y')) + 4) * 2);
          const p = 4 * (py * bitmap.width + px);
          return `rgb(${pixels[p]}, ${pixels[p + 1]}, ${pixels[p + 2]})`;
        };
        return {
          count: rects.length,
          labels,
          ends: [rects[0], rects.at(-1)].map((e) => [e.getAttribute('fill'), at(e)]),
        };
      },
      { svgText, png },
    );
    assert.equal(r.count, 40);
    assert.equal(r.labels.length, 3, r.labels.join(' '));
    assert.ok(r.labels.includes('0'), r.labels.join(' '));
    for (const [fill, pixel] of r.ends) assert.equal(pixel, fill);
    assert.notEqual(r.ends[0][0], r.ends[1][0], 'the two ends of the scale differ');
  });
});

describe('on a phone', () => {
  test('the explanation panel starts folded to its title line, opens, and folds again', async () => {
    const { page: phone, context } = await openExplorer(env, { width: 375, height: 700 });
    try {
      const height = () => phone.$eval('#explain', (e) => e.getBoundingClientRect().height);
      assert.equal(await phone.getAttribute('.explain-toggle', 'aria-expanded'), 'false');
      assert.equal(await phone.isHidden('#explain-body'), true);
      const folded = await height();
      assert.ok(folded < 60, `folded: ${folded}px of 700`);
      await phone.focus('[data-heatmap="weights"] td[data-row="2"][data-col="0"]');
      // The weights' card starts out of view: its map is drawn, and the cell explained, a frame or
      // two after the focus brings it into view.
      await phone.waitForFunction(() => /Weight/.test(document.getElementById('explain-title').textContent));
      await phone.click('.explain-toggle');
      assert.equal(await phone.isVisible('#explain-body'), true);
      assert.match(await phone.textContent('#explain-body'), /softmax|exp/);
      const open = await height();
      assert.ok(open > 100, `open: ${open}px`);
      await phone.click('.explain-toggle');
      assert.equal(await phone.isHidden('#explain-body'), true);
    } finally {
      await context.close();
    }
  });
});

describe('what the page says', () => {
  test('the pitfalls panel colours its correct and mistaken outputs on one scale', async () => {
    await preset('lesson');
    await afterRender(page, () => page.check('input[name="mask"][value="causal"]'));
    await openPanel('pitfalls');
    const ownBounds = [];
    for (const mistake of ['mask-after-softmax', 'scale-by-dk']) {
      await afterRender(page, () => page.selectOption('[data-control="pitfall"]', mistake));
      const scales = await page.$$eval('[data-heatmap^="pitfall-"][data-heatmap$="-output"]', (ts) =>
        ts.map((t) => t.dataset.scaleMax),
      );
      assert.equal(scales.length, 2);
      assert.ok(Number(scales[0]) > 0, `${mistake}: a scale is shown (${scales})`);
      assert.equal(scales[0], scales[1], `${mistake}: ${scales}`);
      const largest = async (side) =>
        Math.max(...(await readHeatmap(page, `pitfall-${side}-output`)).data.map(Math.abs));
      ownBounds.push([await largest('correct'), await largest('wrong')].map(niceBound));
      assert.ok(Number(scales[0]) >= Math.max(...ownBounds.at(-1)), `${mistake}: the scale covers both maps`);
    }
    // The check means something: on its own scale, at least one side would have been coloured differently.
    assert.ok(
      ownBounds.some(([a, b]) => a !== b),
      JSON.stringify(ownBounds),
    );
  });

  test('one parameter count: heads panel and Cost tab agree, with and without biases, next to the wrong h × 4d²', async () => {
    await preset('heads');
    await openPanel('cost');
    const stats = (root) =>
      page.$$eval(`${root} [data-stat^="parameters-"]`, (bs) =>
        Object.fromEntries(bs.map((b) => [b.dataset.stat, Number(b.dataset.value)])),
      );
    const heads = await stats('section.heads');
    const cost = await stats('[data-lesson="cost"]');
    // The heads panel also says which of the two counts its layer has (no biases here).
    assert.deepEqual(heads, {
      'parameters-layer': 1024,
      'parameters-weights': 1024,
      'parameters-biases': 1088,
      'parameters-wrong': 4096,
    });
    const { 'parameters-layer': layer, ...counts } = heads;
    assert.deepEqual(cost, counts);
    assert.equal(
      Number(await page.getAttribute('[data-lesson="cost"] output[data-stat="parameters"]', 'data-value')),
      1088,
    );
  });

  test('heads: the page says every head sees all n tokens and heads are a reshape', async () => {
    await preset('heads');
    const text = await page.textContent('[data-stat="heads-see-all"]');
    assert.match(text, /Every head sees all 10 tokens/);
    assert.match(text, /4 of the 16 columns/);
    assert.match(text, /reshape of Q \(10 \u00d7 16 \u2192 4 \u00d7 10 \u00d7 4\)/);
    assert.deepEqual((await readHeatmap(page, 'head-2')).shape, [10, 10]);
  });

  test('why √d_k: the softmax row has 64 keys unless the learner picks another length; the variance is printed', async () => {
    await openPanel('sqrt-dk');
    const root = '[data-lesson="sqrt-dk"]';
    await page.waitForSelector(`${root}[data-shown$=",64"]`);
    assert.equal(await page.$$eval(`${root} svg.bars.scaled rect.bar`, (rs) => rs.length), 64);
    // 64 names do not fit under the bars: some are left out rather than drawn over each other.
    const names = await page.$$eval(`${root} svg.bars.scaled text`, (ts) => {
      const bottom = Math.max(...ts.map((t) => Number(t.getAttribute('y'))));
      return ts
        .filter((t) => Number(t.getAttribute('y')) === bottom)
        .map((t) => {
          const b = t.getBBox();
          return { x: b.x, width: b.width };
        });
    });
    assert.ok(names.length < 64 && names.length > 4, `${names.length} names`);
    names
      .slice(1)
      .forEach((b, k) => assert.ok(b.x >= names[k].x + names[k].width, `name ${k + 1} overlaps the one before`));
    await typeInto(`${root} [data-control="row-length"]`, 10);
    await page.waitForSelector(`${root}[data-shown$=",10"]`);
    assert.equal(await page.$$eval(`${root} svg.bars.scaled rect.bar`, (rs) => rs.length), 10);
    assert.match(await page.textContent(root), /equal weights over 10 keys/);
    for (const side of ['raw', 'scaled']) {
      const std = Number(await page.getAttribute(`${root} [data-stat="${side}-std"]`, 'data-value'));
      const variance = Number(await page.getAttribute(`${root} [data-stat="${side}-var"]`, 'data-value'));
      assert.ok(Math.abs(variance - std * std) <= 1e-12 * variance, `${side}: variance ${variance}, std ${std}`);
    }
  });

  test('two implementations agree: the page next to plain float64 JavaScript, live, with the largest difference', async () => {
    await preset('heads');
    const check = '[data-stat="float64-check"]:not([data-pending])';
    const diff = async () => Number(await page.getAttribute(check, 'data-max-diff'));
    assert.ok((await diff()) < 1e-6, `heads: ${await diff()}`);
    assert.match(await page.textContent(check), /Two implementations agree.*float64 JavaScript.*over 400 weights/);
    await preset('lesson');
    const cell = cellSelector('X', 1, 2);
    await page.focus(cell);
    await afterRender(page, () => page.keyboard.type('2.5'));
    await page.waitForSelector(check);
    assert.ok((await diff()) < 1e-6);
    assert.match(await page.textContent(check), /over 16 weights/);
    await afterRender(page, () => page.keyboard.press('Escape'));
  });

  test('mixing: converting the example to dᵥ = 2 keeps Q and K exactly, so the weights stay the same', async () => {
    await preset('lesson');
    const before = await readHeatmap(page, 'weights');
    await openPanel('hull');
    await afterRender(page, () => page.click('[data-lesson="hull"] button:has-text("Use this example")'));
    assert.deepEqual(await readHeatmap(page, 'weights'), before);
  });

  test('mixing: output names do not overlap when outputs land close together', async () => {
    await preset('mixing');
    await openPanel('hull');
    const boxes = await page.$$eval('[data-lesson="hull"] .output-point text', (ts) =>
      ts.map((t) => {
        const r = t.getBoundingClientRect();
        return { l: r.left, r: r.right, t: r.top, b: r.bottom };
      }),
    );
    assert.equal(boxes.length, 4);
    for (let a = 0; a < boxes.length; a++)
      for (let b = a + 1; b < boxes.length; b++) {
        const [p, q] = [boxes[a], boxes[b]];
        assert.ok(p.r <= q.l || q.r <= p.l || p.b <= q.t || q.b <= p.t, `names ${a + 1} and ${b + 1} overlap`);
      }
  });

  test('number fields show the value used: out of range is clamped in the field, with a note', async () => {
    await preset('lesson');
    await typeInto('#temperature', 100);
    assert.equal(await page.inputValue('#temperature'), '20');
    assert.match(
      await page.textContent('#temperature ~ [data-clamp-note], .temp-row + [data-clamp-note]'),
      /100 is not possible.*20 is used/,
    );
    assert.match(await page.textContent('.scale-out'), /0\.025/); // 1 / (20 · √4)
    await typeInto('#size-dModel', 1000);
    assert.equal(await page.inputValue('#size-dModel'), '64');
    assert.deepEqual(
      await page.evaluate(() => document.querySelectorAll('[data-matrix="X"] .cell-input[data-row="0"]').length),
      64,
    );
    await typeInto('#size-dModel', 8);
    assert.equal(
      await page.isHidden('#size-dModel ~ [data-clamp-note], .field:has(#size-dModel) + [data-clamp-note]'),
      true,
    );
  });

  test('no console errors, failed requests or CSP violations', async () => {
    assert.deepEqual(await collectProblems(page, problems), []);
  });
});
