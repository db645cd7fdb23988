// Redraws at most once per animation frame; when a redraw costs more than a frame, the next one
// waits for a pause in typing instead.

// Past this many milliseconds per redraw, typing is debounced instead of redrawn every frame.
const SLOW_RENDER_MS = 24;
const DEBOUNCE_MS = 90;

/** render() draws and returns its cost in ms; onError(err) hears a redraw that threw. */
export function createRedraw(render, onError) {
  let scheduled = false;
  let stopped = false;
  let lastMs = 0;
  const run = () => {
    scheduled = false;
    if (stopped) return;
    try {
      lastMs = render();
    } catch (err) {
      onError(err);
    }
  };
  return {
    /** Draws now (the first drawing). */
    now() {
      lastMs = render();
    },
    schedule() {
      if (scheduled || stopped) return;
      scheduled = true;
      if (lastMs > SLOW_RENDER_MS) setTimeout(run, DEBOUNCE_MS);
      else requestAnimationFrame(run);
    },
    stop() {
      stopped = true;
    },
  };
}
