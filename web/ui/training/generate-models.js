// What the Generate panel needs to know of the model the training view holds: its sizes, how a
// prompt becomes its token ids (characters for a text model, numbers for the repeated-tokens task),
// how ids are shown, and how it generates (the trainer's Worker).
import { charLabel, charTokens, describeCharTokens } from '../model/model.js';

// A prompt the induction task can continue: BOS, a run of tokens, then the run again from its start.
const REPEATED_PROMPT = 'B 3 9 14 7 20 11 3 9';
const TEXT_PROMPT = 'Oskar went to the ';

/** The sizes the panel shows, with the transformer's defaults filled in. */
export function generationConfig(c) {
  return {
    numLayers: c.numLayers, numHeads: c.numHeads, numKVHeads: c.numKVHeads ?? c.numHeads, dModel: c.dModel,
    vocabSize: c.vocabSize, contextLength: c.contextLength, attentionWindow: c.attentionWindow ?? null,
    positions: c.positions ?? 'learned',
  };
}

// Repeated-token prompts: numbers (and B for the start token 0), separated by spaces or commas.
function readNumbers(text, vocabSize, limit) {
  const parts = String(text).split(/[\s,]+/).filter(Boolean);
  const ids = [];
  const bad = [];
  for (const p of parts) {
    const id = /^b$/i.test(p) ? 0 : /^\d+$/.test(p) ? Number(p) : NaN;
    if (Number.isInteger(id) && id < vocabSize) ids.push(id);
    else bad.push(p);
  }
  const kept = ids.slice(0, limit);
  const notes = [`${kept.length} token${kept.length === 1 ? '' : 's'}: ids from 0 to ${vocabSize - 1} (B = 0, the start token; 1 is the filler).`];
  if (bad.length) notes.push(`Left out, not a token of this model: ${bad.slice(0, 8).join(' ')}.`);
  if (ids.length > limit) notes.push(`Only the first ${limit} are read: the prompt must leave room for new tokens.`);
  return { ids: kept, note: notes.join(' ') };
}

/**
 * The Generate panel's model for a trainer (web/lib/trainer.js): `prepare()` is called before a
 * generation (the view pauses training then).
 */
export function trainerGenerator(trainer, { prepare }) {
  const c = generationConfig(trainer.config.model);
  const vocabulary = trainer.vocabulary;
  const limit = c.contextLength - 1;
  const read = vocabulary
    ? (text) => {
      try {
        const r = charTokens(text, vocabulary, limit);
        return { ids: r.ids, note: describeCharTokens(r, limit, 'the prompt must leave room for new tokens') || `${r.ids.length} characters, one token each.` };
      } catch (err) {
        return { ids: [], note: err.message };
      }
    }
    : (text) => readNumbers(text, c.vocabSize, limit);
  const labels = vocabulary ? (ids) => ids.map((id) => charLabel(vocabulary[id])) : (ids) => ids.map((id) => (id === 0 ? 'B' : String(id)));
  return {
    name: vocabulary ? 'the character-level model of this view' : 'the repeated-tokens model of this view',
    config: c,
    defaultPrompt: vocabulary ? TEXT_PROMPT : REPEATED_PROMPT,
    read,
    labels,
    text: vocabulary ? (ids) => ids.map((id) => vocabulary[id]).join('') : (ids) => labels(ids).join(' '),
    generate: (request, onToken) => trainer.generate(request, onToken),
    cancel: () => trainer.cancelGeneration().catch(() => {}),
    prepare,
  };
}
