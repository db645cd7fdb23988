// Where sentence mode's token vectors come from: random per word (embeddings.js) or the trained
// character-level text model of web/trained/ (made by `npm run train-examples`). With the text
// model, the sentence is read character by character with the model's own vocabulary
// (char-tokens.js), X is what the chosen layer's attention really sees (the token and position
// embeddings, through the earlier layers, then that layer's LayerNorm ln_1) and W_Q, W_K, W_V are
// the chosen head's trained columns of c_attn, with their bias as one more row (X gets a column of
// ones): the explorer's weights are then the model's own attention probabilities for that text.
// The model loads only when chosen, from the same origin (example-files.js).
// state.vectors = { source: 'random' | 'text-model', layer, head } (absent: random).
import { charTokens, describeCharTokens } from './char-tokens.js';
import { headState } from './open-head.js';

export const SOURCES = [['random', 'Random per word'], ['text-model', 'The trained text model']];
// The explorer's token limit (state.js MAX_TOKENS), kept here so state.js needs no import from us.
const MAX_TOKENS = 24;

let loading = null;
let loaded = null;

/** The text model once loaded ({ state, config, vocabulary, steps }), else null. */
export const textModel = () => loaded;

/** Loads web/trained/text.safetensors once (later calls share the first); rejects with a readable Error. */
export function loadTextModel() {
  loading ??= (async () => {
    const [{ fetchExample }, { charVocabulary }, { TINY_CORPUS }] = await Promise.all([
      import('./example-files.js'), import('../../lib/training-data.js'), import('../../lib/tiny-corpus.js'),
    ]);
    const { state, settings, steps } = await fetchExample('text');
    // The model was trained on the bundled corpus: its vocabulary is the corpus's characters.
    const vocabulary = charVocabulary(TINY_CORPUS).chars;
    const [V, E] = state['wte.weight'].shape;
    if (V !== vocabulary.length) throw new Error(`the text model has ${V} tokens, the corpus ${vocabulary.length} characters`);
    const config = { dModel: E, numHeads: settings.heads, numLayers: settings.layers, contextLength: state['wpe.weight'].shape[0] };
    loaded = { state, config, vocabulary, steps };
    return loaded;
  })().catch((err) => {
    loading = null;
    throw err;
  });
  return loading;
}

/** state.vectors checked: { source, layer, head } within the model's sizes (when known). */
export function normalizeVectors(v, model = loaded) {
  const source = v?.source === 'text-model' ? 'text-model' : 'random';
  const clamp = (x, n) => Math.min(n - 1, Math.max(0, Number.isInteger(x) ? x : 0));
  if (source === 'random') return { source };
  return { source, layer: clamp(v.layer, model?.config.numLayers ?? 8), head: clamp(v.head, model?.config.numHeads ?? 8) };
}

export const usesTextModel = (state) => state?.vectors?.source === 'text-model';

/** The sentence as the model reads it (ids, labels, replacements), at most the explorer's 24 tokens. */
export function readSentence(sentence, model = loaded) {
  const limit = Math.min(MAX_TOKENS, model.config.contextLength);
  return { ...charTokens(sentence, model.vocabulary, limit), limit };
}

/**
 * The explorer state for `state`'s sentence read by the text model's `layer` and `head`: one
 * head, causal mask, d_model = E + 1 (the bias column), d_k = d_v = E / H; the display and the
 * lesson settings stay. Returns null for a sentence with no characters.
 */
export function textModelState(state, vectors, model = loaded) {
  const v = normalizeVectors(vectors, model);
  const read = readSentence(state.sentence ?? '', model);
  if (!read.ids.length) return null;
  const built = headState({ layer: v.layer, head: v.head, state: model.state, config: model.config, tokens: read.ids, labels: read.labels });
  const keep = { display: state.display, lessons: state.lessons, seed: state.seed };
  return { ...built, ...keep, sentence: state.sentence, headNames: [], vectors: v };
}

/**
 * X for the text model (the embedder of reconcile): rows for `state.tokens`, `state.dModel`
 * columns (the model's E inputs after LayerNorm and a 1 for the bias; other widths are cropped or
 * padded with zeros). null when the model is not loaded yet.
 */
export function textModelX(state, model = loaded) {
  if (!model) return null;
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
  const built = headState({ layer, head: 0, state: model.state, config: model.config, tokens: ids, labels: ids.map(String) });
  const E = model.config.dModel;
  const X = built.matrices.X.data;
  const out = new Float64Array(ids.length * E);
  for (let t = 0; t < ids.length; t++) for (let c = 0; c < E; c++) out[t * E + c] = X[t * (E + 1) + c];
  return out;
}

/** The sentence field's help line and the note on what X is, for the text model. */
export function describeTextModel(state, model = loaded) {
  const v = normalizeVectors(state.vectors, model);
  if (!model) return { help: 'Loading the trained text model\u2026', note: '' };
  const read = readSentence(state.sentence ?? '', model);
  const E = model.config.dModel;
  const where = v.layer === 0
    ? 'its token embedding plus its position\u2019s learned embedding'
    : `its token and position embeddings after layer${v.layer > 1 ? 's' : ''} 0${v.layer > 1 ? `\u2013${v.layer - 1}` : ''} (the residual stream)`;
  const help = `${read.ids.length} character${read.ids.length === 1 ? '' : 's'}, one token each (at most ${read.limit}). ${describeCharTokens(read, read.limit, `the explorer shows at most ${read.limit} tokens`)}`.trim();
  const note = `Trained vectors: each row of X is what layer ${v.layer}\u2019s attention sees for one character: ${where}, through the layer\u2019s LayerNorm (${E} columns), plus a last column of ones. W_Q, W_K and W_V are head ${v.head}\u2019s trained weights, their last row its bias, so the weights below are the model\u2019s own attention probabilities for your text (causal: a character sees only those before it). The model learned its own positions, so no position information is added.`;
  return { help, note };
}
