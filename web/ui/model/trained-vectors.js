// Where sentence mode's token vectors come from: random per word (embeddings.js) or the trained
// character-level text model of web/trained/ (made by `npm run train-examples`). With the text
// model, the sentence is read character by character with the model's own vocabulary
// (char-tokens.js), X is what the chosen layer's attention really sees (the token and position
// embeddings, through the earlier layers, then that layer's LayerNorm ln_1) and W_Q, W_K, W_V are
// the chosen head's trained columns of c_attn, with their bias as one more row (X gets a column of
// ones): the explorer's weights are then the model's own attention probabilities for that text.
// The model loads only when chosen, from the same origin (example-files.js).
// A third source, 'trained-head', is what "Open in the explorer" hands over from the training
// view: one head of the model trained there, reading the probe sequence (open-head.js). Its X and
// W are in the state; the model itself is not, so it cannot be chosen here, only left: a change
// that X cannot follow (a new sentence, seed or size) returns to random vectors (state.js).
// state.vectors = { source: 'random' | 'text-model', layer, head } (absent: random), or
// { source: 'trained-head', layer, head, layers, heads, dModel, task, step, example? }; layers and
// heads are counted from 0 in the state and from 1 on the page.
// This module tells the sources apart and is all the first drawing of random vectors needs; what
// the trained sources say and build (trained-sources.js) loads, with its English text, only for an
// example that uses one (loadTrainedSources).
import { english, loadEnglishParts } from './i18n.js';
import { loadOnce } from './load-once.js';
import { usesCheckpoint } from './checkpoint-vectors.js';

export const SOURCES = [
  ['random', 'Random per word'],
  ['text-model', 'The trained text model'],
  ['trained-head', 'A trained head (layer, head, probe)'],
  ['checkpoint', 'The opened checkpoint (GPT-2)'],
];

export const usesTextModel = (state) => state?.vectors?.source === 'text-model';
export const usesTrainedHead = (state) => state?.vectors?.source === 'trained-head';
/** Whether the token vectors come from a trained source (the text model, a trained head, a checkpoint). */
export const usesTrainedSource = (state) => usesTextModel(state) || usesTrainedHead(state) || usesCheckpoint(state);

/**
 * Whether the sizes still are the trained head's (d_model = its E + 1, one head, d_k = d_v = its
 * head width). The caller also checks that X is still made from what it was (state.js).
 */
export function trainedHeadFits(state) {
  const v = state.vectors;
  const width = v.dModel / v.heads;
  return state.dModel === v.dModel + 1 && state.heads === 1 && state.dk === width && state.dv === width;
}

// "layer 2 · head 4": the page counts layers and heads from 1 (the state from 0).
export const headName = (layer, head, { t } = english) => t('common.headName', { layer: layer + 1, head: head + 1 });

// ---- the trained sources' code (trained-sources.js), loaded on first use ------------------------

/**
 * Loads what the trained sources say and build (trained-sources.js) with its English text, once
 * per page: before the first drawing of an example that uses one (initial-state.js), and before a
 * drawing of a state given later (the explorer waits for it). A failed load rejects and the next
 * call tries again.
 */
export const loadTrainedSources = loadOnce(() =>
  Promise.all([import('./trained-sources.js'), loadEnglishParts('explorer-trained')]).then(([m]) => m),
);

/** trained-sources.js once loaded, else null. */
export const trainedSources = () => loadTrainedSources.loaded();

// What follows is used only on states whose sources are loaded (or, for random vectors, needs none).
function loaded() {
  const sources = trainedSources();
  if (!sources) throw new Error('the trained sources are still loading (await loadTrainedSources())');
  return sources;
}

/** The text model once loaded ({ state, config, vocabulary, steps }), else null. */
export const textModel = () => trainedSources()?.textModel() ?? null;

/** Loads web/trained/text.safetensors once (later calls share the first); rejects with a readable Error. */
export async function loadTextModel() {
  return (await loadTrainedSources()).loadTextModel();
}

/** X for the text model (the embedder of reconcile), or null while the model is not loaded. */
export const textModelX = (state) => trainedSources()?.textModelX(state) ?? null;

/** The explorer state for the sentence read by the text model's head (trained-sources.js); once loadTextModel resolved. */
export const textModelState = (state, vectors) => loaded().textModelState(state, vectors);

/** The preset menu's line for a state no preset made: what is shown, when it is a trained head; else null. */
export const describeShown = (state, i18n = english) =>
  usesTrainedSource(state) ? loaded().describeShown(state, i18n) : null;

/** Why d_model is one more than the model's width, for the trained sources; '' otherwise. */
export const describeDModel = (state, i18n = english) =>
  usesTrainedSource(state) ? loaded().describeDModel(state, i18n) : '';

/** The vector-source note, the sentence help and the note on X, for a trained head. */
export const describeTrainedHead = (state, i18n = english) => loaded().describeTrainedHead(state, i18n);

/** The sentence field's help line and the note on X, for the text model. */
export const describeTextModel = (state, model, i18n = english) => loaded().describeTextModel(state, model, i18n);
