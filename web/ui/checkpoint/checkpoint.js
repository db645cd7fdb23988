// A real checkpoint in the page (web/ui/checkpoint/): the Open panel (open-panel.js), the head sweep
// (sweep-panel.js), the Generate panel's model (generator.js) and the shared host behind them
// (host.js), which the explorer also reads a head's inputs from. The folder's entry module.
import { el } from '../dom/dom.js';
import { createOpenPanel } from './open-panel.js';
import { createSweepPanel } from './sweep-panel.js';
import { onCheckpointChange, openedCheckpoint } from './host.js';

export { checkpointGenerator } from './generator.js';
export { explorerStateFor, onCheckpointChange, openedCheckpoint, splitSentence } from './host.js';
export { REPORTED } from './sweep-panel.js';

/**
 * The training view's checkpoint panels. display() → { palette, theme }; onOpenState(state): shows
 * an explorer state (a head of the checkpoint reading a sentence). Returns { el, openFromAddress(path), destroy() }.
 */
export function createCheckpointPanels({ display, onOpenState }) {
  const root = el('div', 'checkpoint-panels');
  const open = createOpenPanel({ onOpenState });
  const sweep = createSweepPanel({ display });
  sweep.reset(Boolean(openedCheckpoint()));
  root.append(open.el, sweep.el);
  const stop = onCheckpointChange((opened) => sweep.reset(Boolean(opened)));
  return { el: root, openFromAddress: (path) => open.openFromAddress(path), destroy: stop };
}
