// The heatmap canvas writer (web/ui/heatmap/pixels.js) with a recording 2D context: a redraw that
// changes a few cells puts back those cells only, and one with new colours (a new scale, a new
// theme) puts the whole canvas at once, without comparing every cell with what it shows first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHeatmapPixels } from '../../web/ui/heatmap/pixels.js';

globalThis.ImageData ??= class {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.data = new Uint8ClampedArray(width * height * 4);
  }
};

// A 4 x 4 map of 10 x 10 pixel cells with a 1 px gap.
const N = 4;
const edges = (k) => [k * 11, k * 11 + 10];
const geometry = {
  rows: N,
  cols: N,
  dpr: 1,
  W: N * 11,
  H: N * 11,
  X0: Int32Array.from({ length: N }, (_, k) => edges(k)[0]),
  X1: Int32Array.from({ length: N }, (_, k) => edges(k)[1]),
  Y0: Int32Array.from({ length: N }, (_, k) => edges(k)[0]),
  Y1: Int32Array.from({ length: N }, (_, k) => edges(k)[1]),
};
const looks = { muted: '#888', text: '#000', hatchA: '#eee', hatchB: '#fff', font: '10px sans-serif' };
const frame = (fills) => ({ rows: N, cols: N, fills, inks: fills.map(() => null), texts: null, hidden: null });
const grey = (k) => [k * 10, k * 10, k * 10];

function writer() {
  const puts = [];
  const ctx = {
    putImageData: (image, x, y, ...dirty) => puts.push(dirty.length ? dirty : [0, 0, image.width, image.height]),
    clearRect() {},
  };
  return { pixels: createHeatmapPixels({ width: geometry.W, height: geometry.H }, ctx), puts };
}

test('a redraw that changes two cells puts back those two cells', () => {
  const { pixels, puts } = writer();
  const fills = Array.from({ length: N * N }, (_, k) => grey(k));
  pixels.draw(frame(fills), geometry, looks, true);
  assert.deepEqual(puts, [[0, 0, geometry.W, geometry.H]]);
  puts.length = 0;
  const next = fills.slice();
  next[5] = [255, 0, 0];
  next[10] = [0, 255, 0];
  pixels.draw(frame(next), geometry, looks, true);
  assert.deepEqual(puts, [
    [11, 11, 10, 10],
    [22, 22, 10, 10],
  ]);
});

test('a redraw with new colours puts the whole canvas at once', () => {
  const { pixels, puts } = writer();
  const fills = Array.from({ length: N * N }, (_, k) => grey(k));
  pixels.draw(frame(fills), geometry, looks, true);
  puts.length = 0;
  const next = fills.slice();
  next[5] = [255, 0, 0];
  pixels.draw(frame(next), geometry, looks, true, true);
  assert.deepEqual(puts, [[0, 0, geometry.W, geometry.H]]);
});
