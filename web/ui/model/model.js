// The page's model: everything about the explorer's numbers that needs no DOM (its state and
// presets, the link codec (loaded on first use), the computation and its float64 check, token
// vectors and tokenizers, number formats and colour scales). Runs in Node and in Workers; the page's other folders use it
// only through this module.
export { AGREE, agreement } from './float64-check.js';
export { BIAS_PRESETS, setBiasMatrix, setMemory } from './extras-state.js';
export { DEFAULT_PRESET, initialState } from './initial-state.js';
export { HOST_PLACEHOLDER, NO_PAGE_MESSAGE, packageUrls } from './package-urls.js';
export {
  LESSON_LIMITS,
  LESSON_PANELS,
  LIMITS,
  MAX_TOKENS,
  MULTI_HEAD_PITFALLS,
  PITFALLS,
  activeMatrices,
  createStore,
  dims,
  maskOptions,
  setCell,
  setHeads,
  setLesson,
  setSentence,
  toggleCustom,
  togglePad,
  tokenLabels,
} from './state.js';
export { describeHeadSplit, keepsSplitOutput } from './head-split.js';
export { PRESETS, makeEmbedder, makeFiller, presetById, randomMatrices } from './presets.js';
export { PAD, isPad, tokenize } from './tokenizer.js';
export {
  SOURCES,
  describeDModel,
  describeShown,
  describeTextModel,
  describeTrainedHead,
  headName,
  loadTextModel,
  loadTrainedSources,
  textModel,
  textModelState,
  trainedHeadFits,
  trainedSources,
  usesTextModel,
  usesTrainedHead,
  usesTrainedSource,
} from './trained-vectors.js';
export { createComputer } from './compute.js';
export { createHighlighter } from './highlight.js';
export { decodeState, encodeState, preloadLinkCodec } from './link-codec.js';
export { linkFor, presetFromHash, stateFromHash } from './url-hash.js';
export { validateState } from './state-check.js';
export { factor, formatCell, formatInput, formatNumber, parseNumber, subscript } from './format.js';
export { makeScale, niceBound } from './palettes.js';
export { positionVector } from './embeddings.js';
export { charLabel, charTokens, describeCharTokens } from './char-tokens.js';
export { trackOrigins } from './matrix-origins.js';
export {
  checkpointTokens,
  describeCheckpoint,
  normalizeCheckpointVectors,
  setCheckpointTokenizer,
  usesCheckpoint,
} from './checkpoint-vectors.js';
export { INFERENCE_LIMITS, KV_CONFIGS, KV_FIELDS, KV_FIELD_LIMITS, tileCount } from './inference-lessons.js';

/** A trained example's weights and metadata (example-files.js, with the safetensors reader, loads when first asked). */
export async function fetchExample(id) {
  return (await import('./example-files.js')).fetchExample(id);
}
export {
  CONTROL_GROUPS,
  PIPELINE_STEPS,
  allLessonIds,
  controlGroups,
  controlLevel,
  lessonIds,
  lessonSpec,
  predictKind,
  lessonTitle,
  unknownLessonMessage,
} from './lesson-registry.js';
export { STARTING_FIELDS, startingFields } from './starting-fields.js';
export { loadOnce } from './load-once.js';
export { LANGUAGES, PSEUDO, createTranslator, english, loadEnglishParts, pickLanguage, translator } from './i18n.js';

/**
 * "Open in the explorer": a trained head as the explorer's example (open-head.js headState), its
 * code loaded on use.
 */
export async function headState(head) {
  return (await import('./open-head.js')).headState(head);
}
