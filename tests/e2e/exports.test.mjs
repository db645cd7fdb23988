// Exports in headless Chromium under the strict CSP: CSV and JSON parse back to exactly the numbers
// the heatmaps hold, SVG and PNG show the same cells and colours, and the NumPy and PyTorch scripts
// run under /usr/bin/python3 and print the page's numbers (skipped, with the reason, when Python,
// NumPy or PyTorch is missing).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  afterRender,
  assertClose,
  collectProblems,
  readHeatmap,
  readHeatmapCells,
  screenshot,
  useExplorer,
} from './helpers.mjs';

const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';
const hasModule = (name) => spawnSync(PYTHON, ['-c', `import ${name}`], { encoding: 'utf8' }).status === 0;
const NUMPY = hasModule('numpy');
const TORCH = NUMPY && hasModule('torch');
const whyNot = (mod) => `${PYTHON} with ${mod} is not available on this machine`;

// Runs a generated script, then prints its variables as JSON (after the script's own output).
function runPython(code, names) {
  const dump =
    `\nimport json as _json\n_v = {k: globals()[k] for k in ${JSON.stringify(names)} if k in globals()}\n` +
    "print('@@JSON@@' + _json.dumps({k: (v.tolist() if hasattr(v, 'tolist') else v) for k, v in _v.items()}))\n";
  const r = spawnSync(PYTHON, ['-'], { input: code + dump, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `python failed:\n${r.stderr}`);
  const line = r.stdout.split('\n').find((l) => l.startsWith('@@JSON@@'));
  assert.ok(line, `no values printed:\n${r.stdout}`);
  assert.match(r.stdout, /weights/, 'the script prints its weights');
  return JSON.parse(line.slice(8));
}

const flat = (x) => (Array.isArray(x) ? x.flat(Infinity) : [x]);

const { page, problems } = useExplorer();

const preset = (id) => afterRender(page, () => page.selectOption('#preset', id));

async function exportFile(target, format) {
  if (!(await page.isVisible('.export-panel'))) await page.click('.export-menu > summary');
  if (target) await page.selectOption('#export-target', target);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-export="${format}"]`)]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

// Parses the CSV this page writes (quoted fields allowed), as rows of strings.
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      row.push(field.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  return rows;
}

describe('numbers out', () => {
  test('CSV of the weights and of the masked scores parse back to the exact heatmap values', async () => {
    await preset('fully-masked');
    for (const name of ['weights', 'masked', 'output']) {
      const { name: file, bytes } = await exportFile(name, 'csv');
      assert.equal(file, `attention-${name}.csv`);
      const rows = parseCsv(bytes.toString('utf8'));
      const shown = await readHeatmap(page, name);
      assert.equal(rows.length, shown.shape[0] + 1);
      assert.equal(rows[0].length, shown.shape[1] + 1);
      const values = rows.slice(1).flatMap((r) => r.slice(1).map(Number));
      assert.deepEqual(values, shown.data, `${name}: CSV values`);
      if (name === 'masked') assert.ok(values.includes(-Infinity));
      if (name === 'weights') assert.deepEqual(rows.map((r) => r[0]).slice(1), ['q₁', 'q₂', 'q₃']);
    }
  });

  test('JSON of a matrix (null for −∞) and of a whole panel', async () => {
    const { bytes } = await exportFile('masked', 'json');
    const m = JSON.parse(bytes.toString('utf8'));
    const shown = await readHeatmap(page, 'masked');
    assert.deepEqual(m.shape, shown.shape);
    assert.deepEqual(
      m.data.flat().map((v) => (v === null ? -Infinity : v)),
      shown.data,
    );
    assert.match(m.note, /null marks -Infinity/);
    const panel = JSON.parse((await exportFile('panel-pipeline', 'json')).bytes.toString('utf8'));
    assert.deepEqual(
      panel.matrices.map((x) => x.name),
      ['scores', 'scaled', 'masked', 'weights', 'output'],
    );
    assert.deepEqual(panel.matrices[3].data.flat(), (await readHeatmap(page, 'weights')).data);
  });

  test('CSV labels that a spreadsheet would run as formulas are quoted as text', async () => {
    await preset('lesson');
    await afterRender(page, () => page.fill('#sentence', '=HYPERLINK("x") +1 @a , "q"'));
    const rows = parseCsv((await exportFile('weights', 'csv')).bytes.toString('utf8'));
    const labels = rows.slice(1).map((r) => r[0]);
    assert.ok(
      labels.every((l) => !/^[=+\-@]/.test(l)),
      labels.join(' | '),
    );
    assert.ok(labels.includes("'=") && labels.includes(',') && labels.includes('"'), labels.join(' | '));
  });
});

describe('images out', () => {
  test('SVG: one rect per cell with the heatmap colour, the cell text, no script', async () => {
    await preset('causal');
    const { name, bytes } = await exportFile('weights', 'svg');
    assert.equal(name, 'attention-weights.svg');
    const text = bytes.toString('utf8');
    const shown = await readHeatmapCells(page, 'weights');
    const check = await page.evaluate((svgText) => {
      const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
      if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
      const rects = [...doc.querySelectorAll('svg > rect')].slice(1); // after the background
      const texts = [...doc.querySelectorAll('svg > text')].map((t) => t.textContent);
      return {
        rects: rects.length,
        fills: rects.map((r) => r.getAttribute('fill')),
        texts,
        scripts: doc.querySelectorAll('script, foreignObject').length,
        size: [doc.documentElement.getAttribute('width'), doc.documentElement.getAttribute('height')],
      };
    }, text);
    assert.equal(check.error, undefined);
    assert.equal(check.rects, shown.length);
    assert.deepEqual(
      check.fills.map((f) => (f.startsWith('url(') ? 'hatch' : f)),
      shown.map((c) => c.colour),
    );
    for (const { text: t } of shown)
      assert.ok(check.texts.includes(t.replace(', hidden', '')), `cell text ${t} in the SVG`);
    assert.equal(check.scripts, 0);
  });

  test('PNG of a panel: a real PNG whose first cell has the heatmap colour', async () => {
    await preset('hand');
    const { name, bytes } = await exportFile('weights', 'png');
    assert.equal(name, 'attention-weights.png');
    assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    const svg = (await exportFile('weights', 'svg')).bytes.toString('utf8');
    const r = await page.evaluate(
      async ({ png, svgText }) => {
        const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
        const rect = doc.querySelectorAll('svg > rect')[1];
        const [x, y] = ['x', 'y'].map((a) => Number(rect.getAttribute(a)));
        const bitmap = await createImageBitmap(
          new Blob([Uint8Array.from(atob(png), (c) => c.charCodeAt(0))], { type: 'image/png' }),
        );
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const ctx = canvas.getContext('2d');
        ctx.drawImage(bitmap, 0, 0);
        const px = ctx.getImageData((x + 2) * 2, (y + 2) * 2, 1, 1).data;
        return {
          pixel: `rgb(${px[0]}, ${px[1]}, ${px[2]})`,
          fill: rect.getAttribute('fill'),
          svgSize: [
            Number(doc.documentElement.getAttribute('width')),
            Number(doc.documentElement.getAttribute('height')),
          ],
        };
      },
      { png: bytes.toString('base64'), svgText: svg },
    );
    assert.equal(r.pixel, r.fill);
    assert.deepEqual(
      [width, height],
      r.svgSize.map((s) => s * 2),
    );
    const panel = await exportFile('panel-pipeline', 'png');
    assert.equal(panel.name, 'attention-panel-pipeline.png');
    assert.ok(panel.bytes.readUInt32BE(20) > height * 4, 'the panel image holds all five steps');
    await screenshot(page, 'export-menu');
    // A menu: Escape closes it and gives the focus back to its button.
    await page.focus('#export-target');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('.export-panel'), false);
    assert.equal(await page.evaluate(() => document.activeElement.matches('.export-menu > summary')), true);
  });
});

describe('code out', () => {
  async function compareSingle(code) {
    const py = runPython(code, ['weights', 'output']);
    assertClose(flat(py.weights), (await readHeatmap(page, 'weights')).data, {
      atol: 2e-6,
      rtol: 1e-5,
      label: 'weights',
    });
    assertClose(flat(py.output), (await readHeatmap(page, 'output')).data, { atol: 2e-5, rtol: 1e-5, label: 'output' });
  }

  test(
    'NumPy: the lesson example, and a custom mask with a fully masked row, √d_k off, T = 0.5',
    { skip: !NUMPY && whyNot('numpy') },
    async () => {
      await preset('lesson');
      const lesson = (await exportFile(null, 'numpy')).bytes.toString('utf8');
      assert.match(lesson, /^import numpy as np$/m);
      await compareSingle(lesson);
      await preset('fully-masked');
      await afterRender(page, () => page.uncheck('#sqrt-dk'));
      await afterRender(page, async () => {
        await page.fill('#temperature', '0.5');
        await page.press('#temperature', 'Enter');
      });
      const { name, bytes } = await exportFile(null, 'numpy');
      assert.equal(name, 'attention_numpy.py');
      await compareSingle(bytes.toString('utf8'));
    },
  );

  test('PyTorch: single head with a padding mask', { skip: !TORCH && whyNot('torch') }, async () => {
    await preset('padding');
    const { name, bytes } = await exportFile(null, 'pytorch');
    assert.equal(name, 'attention_pytorch.py');
    await compareSingle(bytes.toString('utf8'));
  });

  test(
    'four heads with a causal mask: NumPy and torch.nn.MultiheadAttention give every head, the average and the output',
    { skip: !NUMPY && whyNot('numpy') },
    async () => {
      await preset('heads');
      await afterRender(page, () => page.check('input[name="mask"][value="causal"]'));
      const heads = [];
      for (let h = 1; h <= 4; h++) heads.push(...(await readHeatmap(page, `head-${h}`)).data);
      const average = (await readHeatmap(page, 'average')).data;
      const output = (await readHeatmap(page, 'mha-output')).data;
      const scripts = [['numpy', (await exportFile(null, 'numpy')).bytes.toString('utf8')]];
      if (TORCH) scripts.push(['pytorch', (await exportFile(null, 'pytorch')).bytes.toString('utf8')]);
      for (const [lib, code] of scripts) {
        const py = runPython(code, ['weights', 'average', 'output']);
        assertClose(flat(py.weights), heads, { atol: 2e-6, rtol: 1e-5, label: `${lib} head weights` });
        assertClose(flat(py.average), average, { atol: 2e-6, rtol: 1e-5, label: `${lib} average` });
        assertClose(flat(py.output), output, { atol: 2e-5, rtol: 1e-5, label: `${lib} output` });
      }
      if (TORCH) assert.match(scripts[1][1], /nn\.MultiheadAttention\(d_model, h, bias=False, batch_first=True\)/);
    },
  );
});

test('no console errors, failed requests or CSP violations', async () => {
  assert.deepEqual(await collectProblems(page, problems), []);
});
