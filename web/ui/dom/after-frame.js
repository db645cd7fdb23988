// Work that must happen soon but not before the next frame: a message posted now runs after the
// current task, and a redraw inside requestAnimationFrame is followed by style, layout and paint
// in that same task, so whatever is queued here runs once the frame with the edit is drawn. Each
// function queued more than once before it runs, runs once, in the order first queued.
//
// The queue is worked through in slices of a few milliseconds, one task each, so a keystroke that
// arrives meanwhile waits for one slice, not for every map out of view to be redrawn.
const SLICE_MS = 8;  // half a frame: the next frame still has room for the next keystroke
const queued = new Set();
let posted = false;
// Made on first use, not at import: an open port keeps Node's event loop alive, and jsdom has no
// MessageChannel (importing the element module must do nothing there).
let channel = null;

function run() {
  posted = false;
  const start = performance.now();
  for (const job of queued) {
    queued.delete(job);
    job();
    if (queued.size && performance.now() - start > SLICE_MS) {
      post();
      return;
    }
  }
}

function post() {
  if (posted) return;
  posted = true;
  if (typeof MessageChannel !== 'function') {
    setTimeout(run, 0);
    return;
  }
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = run;
  }
  channel.port2.postMessage(0);
}

export function afterFrame(job) {
  queued.add(job);
  post();
}
