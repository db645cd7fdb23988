// Printing, checked on the PDF itself: Chromium prints the page (page.pdf, A4), poppler-utils read
// it back (pdftotext -bbox-layout for the words and where they are, pdftoppm for the pixels). The
// controls are not printed; every heatmap card is whole on one page; a table's header is printed
// once; the row and column labels of the attention weights sit on their own cells (the colour
// under label q_i in column k_j is the value the page holds for that cell); the explanation and the
// lesson text are printed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { launch, openExplorer, readHeatmap } from './helpers.mjs';
import { toBase64Url } from '../../web/ui/model/url-state.js';

const POPPLER = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let env;
let dir;
before(async () => {
  env = await launch();
  dir = mkdtempSync(join(tmpdir(), 'ae-print-'));
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Query i looks hardest at key PERM[i]: Q's rows are 4·e_PERM[i], K is the identity. A label a row
// off (the printing bug) would read another row's brightest cell.
const PERM = [2, 0, 3, 1];
function example() {
  const Q = PERM.flatMap((p) => [0, 1, 2, 3].map((j) => (j === p ? 4 : 0)));
  const K = [0, 1, 2, 3].flatMap((i) => [0, 1, 2, 3].map((j) => (i === j ? 1 : 0)));
  const state = {
    mode: 'qkv',
    n: 4,
    m: 4,
    dk: 4,
    dv: 2,
    mask: { kind: 'none' },
    lessons: { panel: 'pitfalls' },
    matrices: {
      Q: { rows: 4, cols: 4, data: Q },
      K: { rows: 4, cols: 4, data: K },
      V: { rows: 4, cols: 2, data: [1, 2, 3, 4, 5, 6, 7, 8] },
    },
  };
  return `v1.${toBase64Url(deflateRawSync(Buffer.from(JSON.stringify(state))))}`;
}

// Every page's words with their boxes, in PDF points from the page's top left.
function words(pdf) {
  const html = execFileSync('pdftotext', ['-bbox-layout', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return html
    .split('<page ')
    .slice(1)
    .map((page) =>
      [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map(
        ([, x0, y0, x1, y1, text]) => ({
          text,
          x0: +x0,
          y0: +y0,
          x1: +x1,
          y1: +y1,
          x: (+x0 + +x1) / 2,
          y: (+y0 + +y1) / 2,
        }),
      ),
    );
}

// The pages as pixels (pdftoppm's PPM, 144 dpi: 2 px per point): { width, height, rgb(x, y) } in points.
function pixels(pdf) {
  execFileSync('pdftoppm', ['-r', '144', pdf, join(dir, 'page')]);
  return readdirSync(dir)
    .filter((f) => f.startsWith('page') && f.endsWith('.ppm'))
    .sort((a, b) => Number(a.match(/(\d+)\.ppm$/)[1]) - Number(b.match(/(\d+)\.ppm$/)[1]))
    .map((f) => {
      const buf = readFileSync(join(dir, f));
      const [, w, h, headerLength] = buf
        .toString('latin1', 0, 64)
        .match(/^P6\s+(\d+)\s+(\d+)\s+255\s/)
        .map(Number)
        .concat(0);
      const start = buf.toString('latin1', 0, 64).match(/^P6\s+\d+\s+\d+\s+255\s/)[0].length;
      return {
        width: w / 2,
        height: h / 2,
        headerLength,
        rgb(x, y) {
          const p = start + 3 * (Math.round(y * 2) * w + Math.round(x * 2));
          return [buf[p], buf[p + 1], buf[p + 2]];
        },
      };
    });
}

const text = (page) => page.map((w) => w.text).join(' ');
const luminance = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

// Where the words of `sequence` stand side by side on one line of a page (a title such as
// "4 Attention weights"): its first word, or null.
function find(page, sequence) {
  const next = (prev, s) =>
    page.find((w) => w.text === s && Math.abs(w.y - prev.y) < 3 && w.x0 > prev.x0 && w.x0 - prev.x1 < 20);
  for (const first of page.filter((w) => w.text === sequence[0])) {
    let prev = first;
    for (const s of sequence.slice(1)) prev = prev && next(prev, s);
    if (prev) return first;
  }
  return null;
}

test(
  'the printed explorer: no controls, whole cards, one header per table, labels on their cells, the explanation and the lesson kept',
  { skip: !POPPLER && 'pdftotext and pdftoppm (poppler-utils) are not installed' },
  async () => {
    const { page, context, problems } = await openExplorer(env, { width: 1280, height: 900, path: `#s=${example()}` });
    await page.focus('[data-heatmap="weights"] td[data-row="0"][data-col="0"]');
    await page.waitForSelector('[data-lesson="pitfalls"]');
    const weights = await readHeatmap(page, 'weights');
    const pdf = join(dir, 'explorer.pdf');
    await page.pdf({ path: pdf, format: 'A4', printBackground: true });
    const pages = words(pdf);
    const all = pages.map(text).join(' ');

    for (const control of ['Randomize', 'Copy link', 'Show the controls', 'Start here', 'Temperature'])
      assert.ok(!all.includes(control), `the controls are not printed (found ${control})`);
    assert.match(all, /Weight: how much “q₁” attends to “k₁”/, 'the explanation is printed');
    assert.match(all, /computed right and computed with one classic mistake/, 'the lesson text is printed');
    assert.ok(pages.length <= 4, `${pages.length} pages`);

    // Each card of the steps on one page: its title and the end of its legend together.
    for (const [title, end] of [
      [['1', 'Scores'], 'values'],
      [['2', 'Scaled', 'scores'], 'values'],
      [['4', 'Attention', 'weights'], 'Mean'],
      [['5', 'Output'], 'values'],
    ]) {
      const at = pages.findIndex((p) => find(p, title));
      assert.ok(at >= 0, `${title.join(' ')} is printed`);
      const head = find(pages[at], title);
      const tail = pages[at].find((w) => w.text === end && w.y > head.y && Math.abs(w.x0 - head.x0) < 20);
      assert.ok(tail, `${title.join(' ')}: its card ends on the same page`);
    }

    // The weights card: its labels once each, and the brightest cell under each row label is the one
    // the page's values say.
    const at = pages.findIndex((p) => find(p, ['4', 'Attention', 'weights']));
    const head = find(pages[at], ['4', 'Attention', 'weights']);
    const end = pages[at].find((w) => w.text === 'Mean' && w.y > head.y);
    const inCard = (w) => w.y > head.y && w.y < end.y && w.x0 > head.x0 - 20 && w.x0 < head.x0 + 400;
    const labels = (prefix) =>
      [1, 2, 3, 4].map((i) => pages[at].filter((w) => inCard(w) && w.text === `${prefix}${'₁₂₃₄'[i - 1]}`));
    const cols = labels('k');
    const rows = labels('q');
    for (const list of [...cols, ...rows])
      assert.equal(list.length, 1, `a label printed ${list.length} times in the card`);
    const image = pixels(pdf)[at];
    const dx = cols[1][0].x - cols[0][0].x;
    const dy = rows[1][0].y - rows[0][0].y;
    rows.forEach(([row], i) => {
      // A point in the cell's upper left, clear of the digits painted at its centre.
      const shades = cols.map(([col]) => luminance(image.rgb(col.x - 0.35 * dx, row.y - 0.35 * dy)));
      const brightest = shades.indexOf(Math.max(...shades));
      const values = weights.data.slice(i * 4, i * 4 + 4);
      assert.equal(brightest, values.indexOf(Math.max(...values)), `row q${i + 1}: the brightest cell under its label`);
      assert.equal(brightest, PERM[i]);
    });
    assert.deepEqual(problems, []);
    await context.close();
  },
);
