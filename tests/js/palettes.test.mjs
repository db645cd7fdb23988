// The colour scales (web/ui/model/palettes.js): a scale's range changes with nearly every edit, its
// colours do not, so scales of one colour list share their colours instead of working out up to
// 256 of them again for every map they colour; the colours stay those of the list's stops.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeScale } from '../../web/ui/model/palettes.js';

const hex = ([r, g, b]) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;

test('scales of one colour list with different ranges share their colours', () => {
  const a = makeScale({ kind: 'diverging', theme: 'light', min: -2, max: 2 });
  const b = makeScale({ kind: 'diverging', theme: 'light', min: -5, max: 5 });
  for (const t of [-1, -0.37, 0, 0.5, 1]) assert.equal(a.map(2 * t), b.map(5 * t), `position ${t}`);
  const w1 = makeScale({ kind: 'sequential', palette: 'cividis', min: 0, max: 1 });
  const w2 = makeScale({ kind: 'sequential', palette: 'cividis', min: 0, max: 1 });
  assert.equal(w1.map(0.3), w2.map(0.3));
  assert.equal(w1.gradient, w2.gradient);
});

test('the ends and the centre are the lists’ stops; out of range and NaN take an end', () => {
  const light = makeScale({ kind: 'diverging', theme: 'light', min: -3, max: 3 });
  assert.equal(hex(light.map(-3).rgb), '#053061');
  // 0 is level 128 of 0..255, just past the centre stop #f7f7f7.
  light.map(0).rgb.forEach((c) => assert.ok(Math.abs(c - 0xf7) <= 1, `centre ${hex(light.map(0).rgb)}`));
  assert.equal(hex(light.map(3).rgb), '#7f3b08');
  assert.equal(light.map(-30), light.map(-3));
  assert.equal(light.map(30), light.map(3));
  const viridis = makeScale({ kind: 'sequential', palette: 'viridis', min: 0, max: 1 });
  assert.equal(hex(viridis.map(0).rgb), '#440154');
  assert.equal(hex(viridis.map(1).rgb), '#fde725');
  assert.equal(viridis.map(Number.NaN), viridis.map(0));
  assert.equal(viridis.map(0).background, 'rgb(68, 1, 84)');
});

test('text on each colour is the more contrasting of black and white', () => {
  const dark = makeScale({ kind: 'diverging', theme: 'dark', min: -1, max: 1 });
  assert.equal(dark.map(0).text, '#fff'); // the dark theme's centre, #24272c
  assert.equal(dark.map(1).text, '#000'); // #ffb45c
  const viridis = makeScale({ kind: 'sequential', palette: 'viridis', min: 0, max: 1 });
  assert.equal(viridis.map(0).text, '#fff');
  assert.equal(viridis.map(1).text, '#000');
});
