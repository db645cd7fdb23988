// What the Generate panel needs to know of the model the training view holds: its sizes, how a
// prompt becomes its token ids (characters for a text model, numbers for the repeated-tokens task),
// how ids are shown, and how it generates (the trainer's Worker).
import { charLabel, charTokens, english } from '../model/model.js';
import { describeTokens } from './char-notes.js';

// A prompt the induction task can continue: BOS, a run of tokens, then the run again from its start.
const REPEATED_PROMPT = 'B 3 9 14 7 20 11 3 9';
const TEXT_PROMPT = 'Oskar went to the ';

/** The sizes the panel shows, with the transformer's defaults filled in. */
function generationConfig(c) {
  return {
    numLayers: c.numLayers,
    numHeads: c.numHeads,
    numKVHeads: c.numKVHeads ?? c.numHeads,
    dModel: c.dModel,
    vocabSize: c.vocabSize,
    contextLength: c.contextLength,
    attentionWindow: c.attentionWindow ?? null,
    positions: c.positions ?? 'learned',
  };
}

// Repeated-token prompts: numbers (and B for the start token 0), separated by spaces or commas.
function readNumbers(text, vocabSize, limit, { t }) {
  const parts = String(text)
    .split(/[\s,]+/)
    .filter(Boolean);
  const ids = [];
  const bad = [];
  for (const p of parts) {
    const id = /^b$/i.test(p) ? 0 : /^\d+$/.test(p) ? Number(p) : NaN;
    if (Number.isInteger(id) && id < vocabSize) ids.push(id);
    else bad.push(p);
  }
  const kept = ids.slice(0, limit);
  const notes = [t('training.prompt.ids', { count: kept.length, last: vocabSize - 1 })];
  if (bad.length) notes.push(t('training.prompt.leftOut', { tokens: bad.slice(0, 8).join(' ') }));
  if (ids.length > limit) notes.push(t('training.prompt.clamped', { max: limit }));
  return { ids: kept, note: notes.join(' ') };
}

/**
 * The Generate panel's model for a trainer (web/lib/trainer.js): `prepare()` is called before a
 * generation (the view pauses training then); i18n: the view's translator (its name and notes).
 */
export function trainerGenerator(trainer, { prepare, i18n = english }) {
  const { t } = i18n;
  const c = generationConfig(trainer.config.model);
  const vocabulary = trainer.vocabulary;
  const limit = c.contextLength - 1;
  const read = vocabulary
    ? (text) => {
        try {
          const r = charTokens(text, vocabulary, limit);
          return {
            ids: r.ids,
            note:
              describeTokens(r, limit, { why: 'room', i18n }) || t('training.prompt.chars', { count: r.ids.length }),
          };
        } catch (err) {
          return { ids: [], note: t('training.prompt.unreadable', { reason: err.message }) };
        }
      }
    : (text) => readNumbers(text, c.vocabSize, limit, i18n);
  const labels = vocabulary
    ? (ids) => ids.map((id) => charLabel(vocabulary[id]))
    : (ids) => ids.map((id) => (id === 0 ? 'B' : String(id)));
  return {
    name: t(vocabulary ? 'training.generate.name.text' : 'training.generate.name.repeated'),
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
