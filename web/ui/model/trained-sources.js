// What the trained sources of sentence mode's token vectors say and build (trained-vectors.js
// tells the sources apart): the text model's loading, its X and its weights for a sentence, and the
// notes on a trained head, the text model or a checkpoint's head. It loads, with its English text,
// only for an example whose vectors come from one of them (trained-vectors.js
// loadTrainedSources): the first drawing of the default example needs none of it.
import { charTokens, describeCharTokens } from './char-tokens.js';
import { english } from './i18n.js';
import { normalizeCheckpointVectors, usesCheckpoint } from './checkpoint-vectors.js';
import { headName, usesTextModel, usesTrainedHead } from './trained-vectors.js';
import { loadOnce } from './load-once.js';

export { checkpointHeadState } from './checkpoint-head.js';

// The explorer's token limit (state.js MAX_TOKENS), kept here so state.js needs no import from us.
const MAX_TOKENS = 24;

// open-head.js, which builds a head's X and W from the model's parameters: it loads with the model
// (the first drawing needs neither).
let openHead = null;

/** Loads web/trained/text.safetensors once (later calls share the first); rejects with a readable Error. */
export const loadTextModel = loadOnce(async () => {
  const [{ fetchExample }, { charVocabulary }, { TINY_CORPUS }, head] = await Promise.all([
    import('./example-files.js'),
    import('../../lib/training-data.js'),
    import('../../lib/tiny-corpus.js'),
    import('./open-head.js'),
  ]);
  openHead = head;
  const { state, settings, steps } = await fetchExample('text');
  // The model was trained on the bundled corpus: its vocabulary is the corpus's characters.
  const vocabulary = charVocabulary(TINY_CORPUS).chars;
  const [V, E] = state['wte.weight'].shape;
  if (V !== vocabulary.length)
    throw new Error(`the text model has ${V} tokens, the corpus ${vocabulary.length} characters`);
  const config = {
    dModel: E,
    numHeads: settings.heads,
    numLayers: settings.layers,
    contextLength: state['wpe.weight'].shape[0],
  };
  return { state, config, vocabulary, steps };
});

/** The text model once loaded ({ state, config, vocabulary, steps }), else null. */
export const textModel = () => loadTextModel.loaded();

/** state.vectors checked: { source, layer, head } within the model's sizes (when known). */
function normalizeVectors(v, model = textModel()) {
  if (v?.source === 'checkpoint') return normalizeCheckpointVectors(v);
  const source = v?.source === 'text-model' || v?.source === 'trained-head' ? v.source : 'random';
  const clamp = (x, n) => Math.min(n - 1, Math.max(0, Number.isInteger(x) ? x : 0));
  if (source === 'random') return v?.left ? { source, left: String(v.left) } : { source };
  if (source === 'trained-head') {
    const count = (x, fallback) => (Number.isInteger(x) && x > 0 ? x : fallback);
    const out = {
      source,
      layers: count(v.layers, 1),
      heads: count(v.heads, 1),
      dModel: count(v.dModel, 1),
      task: v.task === 'text' ? 'text' : 'repeated',
      step: count(v.step, 0),
    };
    Object.assign(out, { layer: clamp(v.layer, out.layers), head: clamp(v.head, out.heads) });
    if (v.example === 'induction' || v.example === 'text') out.example = v.example;
    return out;
  }
  return {
    source,
    layer: clamp(v.layer, model?.config.numLayers ?? 8),
    head: clamp(v.head, model?.config.numHeads ?? 8),
  };
}

// What the trained head is, in words: the model it belongs to and what it read.
function trainedHeadOrigin(v, i18n) {
  const { t } = i18n;
  const model = t(
    v.example === 'induction'
      ? 'explorer.trained.model.induction'
      : v.example === 'text'
        ? 'explorer.trained.model.text'
        : 'explorer.trained.model.trained',
  );
  const task = t(v.task === 'text' ? 'explorer.trained.task.text' : 'explorer.trained.task.induction');
  const size = t('explorer.trained.size', { count: v.layers, heads: t('explorer.trained.heads', { count: v.heads }) });
  return t('explorer.trained.origin', { name: headName(v.layer, v.head, i18n), model, size, steps: v.step, task });
}

/** The preset menu's line for a state no preset made: what is shown, when it is a trained head. */
export function describeShown(state, i18n = english) {
  const { t } = i18n;
  if (usesTrainedHead(state)) {
    const v = normalizeVectors(state.vectors);
    return {
      option: t('explorer.vectors.trainedOption', { name: headName(v.layer, v.head, i18n) }),
      help: t('explorer.trained.shownHelp', { origin: trainedHeadOrigin(v, i18n) }),
    };
  }
  if (usesTextModel(state)) {
    const v = normalizeVectors(state.vectors);
    return {
      option: t('explorer.trained.textOption', { name: headName(v.layer, v.head, i18n) }),
      help: t('explorer.trained.textHelp'),
    };
  }
  if (usesCheckpoint(state)) {
    const v = normalizeCheckpointVectors(state.vectors);
    return {
      option: t('explorer.trained.checkpointOption', { name: headName(v.layer, v.head, i18n) }),
      help: t('explorer.trained.checkpointHelp', { model: v.name }),
    };
  }
  return null;
}

/**
 * Where d_model is shown: why it is one more than the model's width (the column of ones that
 * carries the biases), for the trained sources; '' otherwise.
 */
export function describeDModel(state, { t } = english) {
  if (usesCheckpoint(state)) {
    const v = normalizeCheckpointVectors(state.vectors);
    return t('explorer.trained.dModelCheckpoint', { dModel: state.dModel, rank: v.rank, width: v.dModel });
  }
  if (!(usesTrainedHead(state) || usesTextModel(state)) || state.dModel < 2) return '';
  return t('explorer.trained.dModel', { dModel: state.dModel, features: state.dModel - 1 });
}

// X and W of a trained head, said once for both trained sources ('token' or 'char': what a row is).
function trainedInputsNote(v, E, { t }, unit = 'token') {
  const where =
    v.layer === 0
      ? t('explorer.trained.where.first')
      : t('explorer.trained.where.later', { count: v.layer, range: v.layer > 1 ? `1–${v.layer}` : '1' });
  return t(`explorer.trained.inputs.${unit}`, { layer: v.layer + 1, where, columns: E, head: v.head + 1 });
}

/** The vector-source note, and the sentence field's help line and the note on what X is, for a trained head. */
export function describeTrainedHead(state, i18n = english) {
  const { t } = i18n;
  const v = normalizeVectors(state.vectors);
  const E = v.dModel;
  const probe = t(v.task === 'text' ? 'explorer.trained.probe.text' : 'explorer.trained.probe.induction');
  return {
    source: t('explorer.trained.source', { origin: trainedHeadOrigin(v, i18n) }),
    help: t('explorer.trained.help', { probe }),
    note: t('explorer.trained.note', { inputs: trainedInputsNote(v, E, i18n) }),
  };
}
/** The sentence as the model reads it (ids, labels, replacements), at most the explorer's 24 tokens. */
export function readSentence(sentence, model = textModel()) {
  const limit = Math.min(MAX_TOKENS, model.config.contextLength);
  return { ...charTokens(sentence, model.vocabulary, limit), limit };
}

/**
 * The explorer state for `state`'s sentence read by the text model's `layer` and `head`: one
 * head, causal mask, d_model = E + 1 (the bias column), d_k = d_v = E / H; the display and the
 * lesson settings stay. Returns null for a sentence with no characters. Once loadTextModel resolved.
 */
export function textModelState(state, vectors, model = textModel()) {
  const v = normalizeVectors(vectors, model);
  const read = readSentence(state.sentence ?? '', model);
  if (!read.ids.length) return null;
  const built = openHead.headState({
    layer: v.layer,
    head: v.head,
    state: model.state,
    config: model.config,
    tokens: read.ids,
    labels: read.labels,
  });
  const keep = { display: state.display, lessons: state.lessons, seed: state.seed };
  return { ...built, ...keep, sentence: state.sentence, headNames: [], vectors: v };
}

/**
 * X for the text model (the embedder of reconcile): rows for `state.tokens`, `state.dModel`
 * columns (the model's E inputs after LayerNorm and a 1 for the bias; other widths are cropped or
 * padded with zeros). null when the model is not loaded yet.
 */
export function textModelX(state, model = textModel()) {
  if (!model || !openHead) return null;
  const v = normalizeVectors(state.vectors, model);
  const E = model.config.dModel;
  const read = readSentence(state.sentence ?? '', model);
  const ids = read.ids.slice(0, state.tokens.length);
  while (ids.length < state.tokens.length) ids.push(model.vocabulary.indexOf(' '));
  const x = layerInput(model, ids, v.layer);
  const cols = state.dModel;
  const data = new Array(ids.length * cols).fill(0);
  for (let t = 0; t < ids.length; t++) {
    for (let c = 0; c < Math.min(cols, E); c++) data[t * cols + c] = x[t * E + c];
    if (cols > E) data[t * cols + E] = 1;
  }
  return { rows: ids.length, cols, data };
}

// ln_1 of layer `layer` applied to the residual stream entering it ([T, E], float64), as
// open-head.js computes it for "Open in the explorer" (one code path for both).
function layerInput(model, ids, layer) {
  const built = openHead.headState({
    layer,
    head: 0,
    state: model.state,
    config: model.config,
    tokens: ids,
    labels: ids.map(String),
  });
  const E = model.config.dModel;
  const X = built.matrices.X.data;
  const out = new Float64Array(ids.length * E);
  for (let t = 0; t < ids.length; t++) for (let c = 0; c < E; c++) out[t * E + c] = X[t * (E + 1) + c];
  return out;
}

/** The sentence field's help line and the note on what X is, for the text model. */
export function describeTextModel(state, model = textModel(), i18n = english) {
  const { t } = i18n;
  const v = normalizeVectors(state.vectors, model);
  if (!model) return { help: t('explorer.vectors.loadingModel'), note: '' };
  const read = readSentence(state.sentence ?? '', model);
  const E = model.config.dModel;
  const chars = describeCharTokens(read, read.limit, t('explorer.trained.explorerLimit', { max: read.limit }), i18n);
  const help = `${t('explorer.trained.chars', { count: read.ids.length, max: read.limit })} ${chars}`.trim();
  const note = t('explorer.trained.textNote', { inputs: trainedInputsNote(v, E, i18n, 'char') });
  return { help, note };
}
