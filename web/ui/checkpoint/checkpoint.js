// A real checkpoint in the page (web/ui/checkpoint/): the shared host (host.js), which the
// explorer reads a head's inputs from, and the Open panel, the head sweep (panels.js) and the
// Generate panel's model (generator.js), which load with the training view: the explorer's first
// drawing does not wait for them. The folder's entry module.
import { loadEnglishParts } from '../model/model.js';

export { explorerStateFor, onCheckpointChange, openedCheckpoint, splitSentence } from './host.js';

/**
 * The panels module ({ createCheckpointPanels, REPORTED, checkpointGenerator }, panels.js) with its
 * English text (also every language's fallback); a failed load rejects and the next call tries
 * again.
 */
export async function loadCheckpointPanels() {
  const [panels] = await Promise.all([import('./panels.js'), loadEnglishParts('checkpoint-later')]);
  return panels;
}
