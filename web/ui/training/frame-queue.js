// Redraws spread over animation frames: while the Worker trains, every progress message could
// redraw every head's heatmap and chart at once, one long task that misses frames. Jobs queued
// here run in requestAnimationFrame, a few milliseconds' worth per frame (at least one job), in
// the order first queued; a job queued again before it runs runs once, with its latest version.
const BUDGET_MS = 4;  // a quarter of a frame: style, layout and paint of what was drawn follow

export function createFrameQueue({ budgetMs = BUDGET_MS, now = () => performance.now(), frame = (cb) => requestAnimationFrame(cb) } = {}) {
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
    get pending() { return jobs.size; },
    /** Jobs run so far, and the most run in one frame. */
    stats: () => ({ ran, mostInFrame }),
  };
}

/** The training view's shared queue (one per page is enough: frames are shared too). */
let shared = null;
export const frameQueue = () => (shared ??= createFrameQueue());

/**
 * A heatmap's update queued on the shared queue. Its table carries data-pending from now on (the
 * heatmap's own "wait for me" hook, heatmap.js), so a reader never takes the old values for the
 * new; the heatmap sets it again itself if its redraw has more to write after the frame.
 */
export function queueHeatmap(map, args, onDraw = () => {}) {
  map.table.dataset.pending = '';
  frameQueue().put(map, () => {
    delete map.table.dataset.pending;
    onDraw();
    map.update(args);
  });
}
