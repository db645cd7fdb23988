// The Generate panel's model for the open checkpoint: prompts split by GPT-2's tokenizer, ids shown
// as GPT-2's vocabulary writes them, text decoded by it, generation in the checkpoint's Worker.
import { english } from '../model/model.js';
import { checkpointHost, decodeIds, openedCheckpoint, pieceTexts, splitSentence } from './host.js';

// A sample prompt for GPT-2 (an English model), the reader's to change.
const PROMPT = 'When Mary and John went to the store, John gave a drink to';

/** null unless a checkpoint is open; its notes in the language of `i18n` (English by default). */
export function checkpointGenerator({ t } = english) {
  const opened = openedCheckpoint();
  const host = checkpointHost();
  if (!opened || !host) return null;
  const c = opened.config;
  const limit = c.contextLength - 1;
  return {
    name: opened.name,
    config: {
      numLayers: c.numLayers,
      numHeads: c.numHeads,
      numKVHeads: c.numKVHeads ?? c.numHeads,
      dModel: c.dModel,
      vocabSize: c.vocabSize,
      contextLength: c.contextLength,
      attentionWindow: c.attentionWindow ?? null,
      positions: c.positions,
    },
    defaultPrompt: opened.gpt2 ? PROMPT : '0 1 2',
    read(text) {
      if (!opened.gpt2) {
        const ids = String(text)
          .split(/[\s,]+/)
          .filter((p) => /^\d+$/.test(p))
          .map(Number)
          .filter((id) => id < c.vocabSize)
          .slice(0, limit);
        return { ids, note: t('checkpoint.generate.ids', { count: ids.length }) };
      }
      const split = splitSentence(text, limit);
      const pieces = split.pieces.slice(0, 40).join(' ');
      return {
        ids: split.ids,
        note: t(split.truncated ? 'checkpoint.generate.cut' : 'checkpoint.generate.tokens', {
          count: split.ids.length,
          pieces,
        }),
      };
    },
    labels: (ids) => (opened.gpt2 ? pieceTexts(ids) : ids.map(String)),
    text: (ids) => (opened.gpt2 ? decodeIds(ids) : ids.join(' ')),
    generate: (request, onToken) => host.generate(request, onToken),
    cancel: () => host.cancelGeneration().catch(() => {}),
    prepare: () => Promise.resolve(),
  };
}
