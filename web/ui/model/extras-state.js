// The state of what the core computes beyond the basic example: an additive bias matrix B added to
// the scaled scores (state.biasMatrix, values in matrices.B, −∞ allowed), projection biases
// b_Q, b_K, b_V, b_O (state.biases, values in matrices.BQ … BO) and cross-attention, whose keys and
// values come from a second "memory" sentence (state.cross, its token vectors in matrices.XM).
// Pure: no DOM, no attention core.

/** Presets of the bias matrix, [id, label]. */
export const BIAS_PRESETS = [
  ['zeros', 'zeros (no effect)'],
  ['alibi', 'ALiBi-style: −0.5 × |i − j|'],
  ['causal-inf', 'causal, −∞ above the diagonal'],
  ['causal-large', 'causal, −10000 above the diagonal'],
  ['random', 'random (seeded)'],
];
const PRESET_IDS = BIAS_PRESETS.map(([id]) => id);

/** The slope of the ALiBi-style preset: B[i, j] = −ALIBI_SLOPE · |i − j|. */
const ALIBI_SLOPE = 0.5;
/** The "large negative" of the causal preset: exp(−10000) is 0 in float32 and float64 alike. */
const LARGE_NEGATIVE = -10000;

const DEFAULT_MEMORY = 'le chat était assis sur le tapis';

/**
 * B (rows × cols) for a preset; `fill(count)` supplies the random preset's values (seeded by
 * the page), zeros without it.
 */
export function biasPresetMatrix(kind, rows, cols, fill) {
  const fresh = kind === 'random' && fill ? fill(rows * cols) : null;
  const data = new Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const k = i * cols + j;
      if (kind === 'alibi') data[k] = -ALIBI_SLOPE * Math.abs(i - j) + 0;
      else if (kind === 'causal-inf') data[k] = j > i ? -Infinity : 0;
      else if (kind === 'causal-large') data[k] = j > i ? LARGE_NEGATIVE : 0;
      else data[k] = fresh ? fresh[k] : 0;
    }
  }
  return { rows, cols, data };
}

/**
 * The repaired extra fields of state `s`: { biasMatrix, biases, cross }. `tokenize(text)` gives
 * the memory sentence's tokens.
 */
export function reconcileExtras(s, tokenize) {
  const bm = s.biasMatrix !== null && typeof s.biasMatrix === 'object' ? s.biasMatrix : {};
  const c = s.cross !== null && typeof s.cross === 'object' ? s.cross : {};
  const sentence = typeof c.sentence === 'string' ? c.sentence : DEFAULT_MEMORY;
  let tokens = Array.isArray(c.tokens) && c.tokens.length ? c.tokens.map(String) : tokenize(sentence);
  if (!tokens.length) tokens = ['memory'];
  const cross = { on: c.on === true, sentence, tokens: tokens.slice(0, 24) };
  if (typeof c.xKey === 'string') cross.xKey = c.xKey;
  return {
    biasMatrix: { on: bm.on === true, preset: PRESET_IDS.includes(bm.preset) ? bm.preset : 'zeros' },
    biases: s.biases === true,
    cross,
  };
}

/** Switches the bias matrix on or off, or picks a preset (which replaces B's values). */
export function setBiasMatrix(state, { on = state.biasMatrix.on, preset } = {}) {
  const matrices = { ...state.matrices };
  if (preset !== undefined) delete matrices.B; // reconcile builds it from the preset
  return { ...state, biasMatrix: { on, preset: preset ?? state.biasMatrix.preset }, matrices };
}

/** The memory sentence of cross-attention (null when it has no token). */
export function setMemory(state, sentence, tokenize) {
  const tokens = tokenize(sentence);
  if (!tokens.length) return null;
  const { xKey, ...rest } = state.cross;
  return { ...state, cross: { ...rest, sentence, tokens, xKey } };
}
