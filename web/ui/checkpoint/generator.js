// The Generate panel's model for the open checkpoint: prompts split by GPT-2's tokenizer, ids shown
// as GPT-2's vocabulary writes them, text decoded by it, generation in the checkpoint's Worker.
import { checkpointHost, decodeIds, openedCheckpoint, pieceTexts, splitSentence } from './host.js';

const PROMPT = 'When Mary and John went to the store, John gave a drink to';

/** null unless a checkpoint is open. */
export function checkpointGenerator() {
  const opened = openedCheckpoint();
  const host = checkpointHost();
  if (!opened || !host) return null;
  const c = opened.config;
  const limit = c.contextLength - 1;
  return {
    name: opened.name,
    config: {
      numLayers: c.numLayers, numHeads: c.numHeads, numKVHeads: c.numKVHeads ?? c.numHeads, dModel: c.dModel,
      vocabSize: c.vocabSize, contextLength: c.contextLength, attentionWindow: c.attentionWindow ?? null, positions: c.positions,
    },
    defaultPrompt: opened.gpt2 ? PROMPT : '0 1 2',
    read(text) {
      if (!opened.gpt2) {
        const ids = String(text).split(/[\s,]+/).filter((p) => /^\d+$/.test(p)).map(Number).filter((id) => id < c.vocabSize).slice(0, limit);
        return { ids, note: `${ids.length} token ids (this checkpoint has no GPT-2 vocabulary to split text with).` };
      }
      const split = splitSentence(text, limit);
      return { ids: split.ids, note: `${split.ids.length} GPT-2 tokens: ${split.pieces.slice(0, 40).join(' ')}${split.truncated ? ' \u2026 (cut to leave room for new tokens)' : ''}` };
    },
    labels: (ids) => (opened.gpt2 ? pieceTexts(ids) : ids.map(String)),
    text: (ids) => (opened.gpt2 ? decodeIds(ids) : ids.join(' ')),
    generate: (request, onToken) => host.generate(request, onToken),
    cancel: () => host.cancelGeneration().catch(() => {}),
    prepare: () => Promise.resolve(),
  };
}
