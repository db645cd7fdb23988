// A heatmap of the training view redrawn in an animation frame of the page's frame queue
// (dom/frames.js), not inside the progress message that brought its numbers.
import { frameQueue } from '../dom/dom.js';

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
