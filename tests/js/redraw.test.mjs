// The redraw scheduler (web/ui/redraw.js): one redraw per animation frame, debounced only while
// redraws keep costing more than a frame.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createRedraw } from '../../web/ui/redraw.js';

let frames;
let timers;
const saved = { raf: globalThis.requestAnimationFrame, timeout: globalThis.setTimeout };
beforeEach(() => {
  frames = [];
  timers = [];
  globalThis.requestAnimationFrame = (f) => frames.push(f);
  globalThis.setTimeout = (f, ms) => timers.push({ f, ms });
});
afterEach(() => {
  globalThis.requestAnimationFrame = saved.raf;
  globalThis.setTimeout = saved.timeout;
});

// A redraw whose renders cost the given milliseconds, one after the other ('r80': a rebuild).
function redrawCosting(costs) {
  const left = costs.map((c) =>
    typeof c === 'string' ? { ms: Number(c.slice(1)), rebuilt: true } : { ms: c, rebuilt: false },
  );
  return createRedraw(
    () => left.shift(),
    (err) => {
      throw err;
    },
  );
}

// Schedules a redraw and runs it; returns how it was run: 'frame' or 'timer'.
function editAndRun(redraw) {
  redraw.schedule();
  if (frames.length) {
    frames.shift()();
    return 'frame';
  }
  timers.shift().f();
  return 'timer';
}

test('slow rebuilds (new sizes, one after the other) leave the next edit in the next frame', () => {
  const redraw = redrawCosting(['r60', 'r80', 'r90', 4, 4]);
  redraw.now();
  assert.equal(editAndRun(redraw), 'frame', 'a size changed');
  assert.equal(editAndRun(redraw), 'frame', 'another size changed');
  assert.equal(editAndRun(redraw), 'frame', 'the first edit after the rebuilds');
  assert.equal(editAndRun(redraw), 'frame');
});

test('after a slow redraw of an edit the next waits for a pause in typing, until one is fast again', () => {
  const redraw = redrawCosting([5, 40, 40, 5, 'r70', 5]);
  redraw.now();
  assert.equal(editAndRun(redraw), 'frame', 'no slow edit so far');
  assert.equal(editAndRun(redraw), 'timer', 'the last edit was slow');
  assert.equal(timers.length, 0);
  assert.equal(editAndRun(redraw), 'timer', 'it was slow again');
  assert.equal(editAndRun(redraw), 'frame', 'a fast redraw ends the waiting');
  assert.equal(editAndRun(redraw), 'frame', 'a slow rebuild does not start it');
});

test('edits before the redraw runs make one redraw', () => {
  const redraw = redrawCosting([5, 5]);
  redraw.now();
  redraw.schedule();
  redraw.schedule();
  assert.equal(frames.length, 1);
});
