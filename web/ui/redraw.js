// Redraws at most once per animation frame; when a redraw of an edit costs more than a frame, the
// next one waits for a pause in typing instead.

// Past this many milliseconds per redraw, typing is debounced instead of redrawn every frame.
const SLOW_RENDER_MS = 24;
const DEBOUNCE_MS = 90;

/**
 * render() draws and returns { ms, rebuilt }: its cost, and whether it built the page anew (new
 * sizes or another kind of page), a cost that says nothing of the next edit's, so it neither
 * starts nor ends the debouncing. onError(err) hears a redraw that threw.
 */
export function createRedraw(render, onError) {
  let scheduled = false;
  let stopped = false;
  let slow = false; // the last redraw of an edit cost more than SLOW_RENDER_MS
  const measure = ({ ms, rebuilt }) => {
    if (!rebuilt) slow = ms > SLOW_RENDER_MS;
  };
  const run = () => {
    scheduled = false;
    if (stopped) return;
    try {
      measure(render());
    } catch (err) {
      onError(err);
    }
  };
  return {
    /** Draws now (the first drawing). */
    now() {
      measure(render());
    },
    schedule() {
      if (scheduled || stopped) return;
      scheduled = true;
      if (slow) setTimeout(run, DEBOUNCE_MS);
      else requestAnimationFrame(run);
    },
    stop() {
      stopped = true;
    },
  };
}
