// The page's one frame scheduler, for the explorer and the training view alike. Two lanes:
// - afterFrame(job): work that must happen soon but not before the next frame is drawn (maps out
//   of view, data-values, the address bar), in slices of half a frame between frames;
// - frameQueue().put(key, job): redraws spread over animation frames (the training view's maps
//   and charts while the Worker trains), a quarter frame's worth in each.

// ---- after the frame ----

// Work that must happen soon but not before the next frame: a message posted now runs after the
// current task, and a redraw inside requestAnimationFrame is followed by style, layout and paint
// in that same task, so whatever is queued here runs once the frame with the edit is drawn. Each
// function queued more than once before it runs, runs once, in the order first queued.
//
// The queue is worked through in slices of a few milliseconds, one task each, so a keystroke that
// arrives meanwhile waits for one slice, not for every map out of view to be redrawn.
const SLICE_MS = 8; // half a frame: the next frame still has room for the next keystroke
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

// ---- in the frames ----

// Redraws spread over animation frames: while the Worker trains, every progress message could
// redraw every head's heatmap and chart at once, one long task that misses frames. Jobs queued
// here run in requestAnimationFrame, a few milliseconds' worth per frame (at least one job), in
// the order first queued; a job queued again before it runs runs once, with its latest version.
const BUDGET_MS = 4; // a quarter of a frame: style, layout and paint of what was drawn follow

export function createFrameQueue({
  budgetMs = BUDGET_MS,
  now = () => performance.now(),
  frame = (cb) => requestAnimationFrame(cb),
} = {}) {
  const jobs = new Map();
  let scheduled = false;
  let ran = 0;
  let mostInFrame = 0;

  function run() {
    scheduled = false;
    const start = now();
    let count = 0;
    for (const [key, job] of jobs) {
      jobs.delete(key);
      job();
      count++;
      if (now() - start >= budgetMs) break;
    }
    ran += count;
    mostInFrame = Math.max(mostInFrame, count);
    if (jobs.size) schedule();
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    frame(run);
  }

  return {
    /** Queues `job` under `key` (a later put with the same key replaces it if it has not run). */
    put(key, job) {
      jobs.set(key, job);
      schedule();
    },
    /** Drops queued jobs (a new model). */
    clear: () => jobs.clear(),
    get pending() {
      return jobs.size;
    },
    /** Jobs run so far, and the most run in one frame. */
    stats: () => ({ ran, mostInFrame }),
  };
}

/** The page's shared queue of frame jobs (one per page is enough: frames are shared too). */
let shared = null;
export const frameQueue = () => (shared ??= createFrameQueue());

// ---- code that loads later ----

/**
 * Resolves when the browser is next idle (at the latest after 2 s): for code and text that load
 * after the first drawing (lessons, explanations, the export files) without delaying it.
 */
export const browserIdle = () =>
  new Promise((resolve) => {
    if (globalThis.requestIdleCallback) globalThis.requestIdleCallback(() => resolve(), { timeout: 2000 });
    else setTimeout(resolve, 200);
  });
