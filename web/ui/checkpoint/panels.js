// The training view's checkpoint panels, Open a checkpoint and the head sweep: loaded with the
// training view (loadCheckpointPanels in checkpoint.js), not with the explorer, which only reads
// the opened checkpoint's heads (host.js).
import { el } from '../dom/dom.js';
import { english } from '../model/model.js';
import { createOpenPanel } from './open-panel.js';
import { createSweepPanel } from './sweep-panel.js';
import { onCheckpointChange, openedCheckpoint } from './host.js';

export { REPORTED } from './sweep-panel.js';
export { checkpointGenerator } from './generator.js';

/**
 * The training view's checkpoint panels. display() → { palette, theme }; onOpenState(state): shows
 * an explorer state (a head of the checkpoint reading a sentence); i18n: the view's translator
 * (English by default). Returns { el, openFromAddress(path), destroy() }.
 */
export function createCheckpointPanels({ display, onOpenState, i18n = english }) {
  const root = el('div', 'checkpoint-panels');
  const open = createOpenPanel({ onOpenState, i18n });
  const sweep = createSweepPanel({ display, i18n });
  sweep.reset(Boolean(openedCheckpoint()));
  root.append(open.el, sweep.el);
  const stop = onCheckpointChange((opened) => sweep.reset(Boolean(opened)));
  return { el: root, openFromAddress: (path) => open.openFromAddress(path), destroy: stop };
}
