// The page's whole state as one plain, JSON-serializable object, and the pure transitions that
// change it. Nothing here touches the DOM or the attention core, so the same object can later be
// written to a URL, posted to a parent frame or handed to a custom element.
import { isPad, tokenize } from './tokenizer.js';
import { subscript } from './format.js';
import { POSITIONAL, tokenVectorsKey } from './embeddings.js';
import { BIAS_PRESETS, biasPresetMatrix, reconcileExtras } from './extras-state.js';
import { trainedHeadFits, usesTrainedHead } from './trained-vectors.js';
import { mergeHeads, splitHeads } from './head-split.js';
import { reconcileInferenceLessons } from './inference-lessons.js';
import { checkpointFits, usesCheckpoint } from './checkpoint-vectors.js';

const STATE_VERSION = 1;

export const LIMITS = {
  n: [1, 24],
  m: [1, 24],
  dk: [1, 64],
  dv: [1, 64],
  dModel: [1, 64],
  heads: [1, 8],
  temperature: [0.05, 20],
  seed: [0, 0xffffffff],
};
export const MAX_TOKENS = LIMITS.n[1];

export const MASK_KINDS = ['none', 'causal', 'padding', 'custom'];

/** The lesson panels (web/ui/lessons/), in the order of their tabs. */
export const LESSON_PANELS = [
  'sqrt-dk',
  'pitfalls',
  'hull',
  'cost',
  'steps',
  'permutation',
  'gradients',
  'flash-attention',
  'kv-cache',
  'positions',
];
/** Mistakes the core can make on request; the last two need a multi-head layer. */
export const PITFALLS = ['mask-after-softmax', 'mask-value-zero', 'scale-by-dk', 'scale-by-dmodel', 'skip-wo'];
export const MULTI_HEAD_PITFALLS = ['scale-by-dmodel', 'skip-wo'];
export const LESSON_LIMITS = {
  dk: [1, 1024],
  count: [100, 50000],
  seed: [0, 0xffffffff],
  row: [2, 100],
  n: [1, 1 << 20],
  dModel: [1, 65536],
  heads: [1, 1024],
};

const clampInt = (v, [lo, hi], fallback) => {
  const x = Math.round(Number(v));
  return Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : fallback;
};

/** Sizes the computation actually uses (in multi-head mode d_k = d_v = d_model / heads). */
export function dims(state) {
  const sentence = state.mode === 'sentence';
  const heads = sentence ? state.heads : 1;
  // Cross-attention (sentence mode): the keys and values are the memory sequence's tokens.
  const cross = sentence && Boolean(state.cross?.on);
  const n = sentence ? state.tokens.length : state.n;
  const m = cross ? state.cross.tokens.length : sentence ? state.tokens.length : state.m;
  const multi = heads > 1;
  const headDim = multi ? state.dModel / heads : null;
  return {
    n,
    m,
    heads,
    multi,
    sentence,
    cross,
    biasMatrix: Boolean(state.biasMatrix?.on),
    biases: sentence && Boolean(state.biases),
    dModel: state.dModel,
    dk: multi ? headDim : state.dk,
    dv: multi ? headDim : state.dv,
    divisible: !multi || Number.isInteger(headDim),
  };
}

/** The editable matrices of the current mode and their shapes, in the order the page shows them. */
export function activeMatrices(state) {
  const d = dims(state);
  const bias = d.biasMatrix ? [['B', d.n, d.m]] : [];
  if (!d.sentence) return [['Q', d.n, d.dk], ['K', d.m, d.dk], ['V', d.m, d.dv], ...bias];
  const E = d.dModel;
  const x = d.cross
    ? [
        ['X', d.n, E],
        ['XM', d.m, E],
      ]
    : [['X', d.n, E]];
  const [qw, kw, vw] = d.multi ? [E, E, E] : [d.dk, d.dk, d.dv];
  const w = [['WQ', E, qw], ['WK', E, kw], ['WV', E, vw], ...(d.multi ? [['WO', E, E]] : [])];
  // Projection biases are 1-row matrices, each listed right after its W.
  const withB = d.biases ? w.flatMap((e) => [e, [`B${e[0][1]}`, 1, e[2]]]) : w;
  return [...x, ...withB, ...bias];
}

/** Row labels (queries) and column labels (keys) for the heatmaps. */
export function tokenLabels(state) {
  const d = dims(state);
  if (d.sentence) return { queries: state.tokens.slice(), keys: (d.cross ? state.cross.tokens : state.tokens).slice() };
  return {
    queries: Array.from({ length: d.n }, (_, i) => `q${subscript(i + 1)}`),
    keys: Array.from({ length: d.m }, (_, j) => `k${subscript(j + 1)}`),
  };
}

// Keeps the overlapping block of a matrix; new cells come from fill(count) (or zeros).
function resize(matrix, rows, cols, fill) {
  if (matrix && matrix.rows === rows && matrix.cols === cols) return matrix;
  const fresh = fill ? fill(rows * cols) : null;
  const data = new Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const keep = matrix && i < matrix.rows && j < matrix.cols;
      data[i * cols + j] = keep ? matrix.data[i * matrix.cols + j] : fresh ? fresh[i * cols + j] : 0;
    }
  }
  return { rows, cols, data };
}

function resizeGrid(flat, oldRows, oldCols, rows, cols) {
  const out = new Array(rows * cols).fill(0);
  if (!Array.isArray(flat)) return out;
  for (let i = 0; i < Math.min(rows, oldRows); i++)
    for (let j = 0; j < Math.min(cols, oldCols); j++) out[i * cols + j] = flat[i * oldCols + j] ? 1 : 0;
  return out;
}

/**
 * Brings a state into a consistent shape: sizes within limits, every active matrix the right
 * size, masks as long as the keys. `fill(name, count)` supplies values for new matrix cells;
 * `embed(state)` (optional) the token vectors X of a sentence, used whenever what X is made from
 * (tokens, seed, d_model, positional encoding) changed since X was last set (state.xKey).
 */
export function reconcile(state, fill, embed) {
  const s = { ...state };
  reconcileSizes(s);
  Object.assign(
    s,
    reconcileExtras(s, (text) => tokenize(text, MAX_TOKENS).tokens),
  );
  const d = dims(s);
  const matrices = { ...(s.matrices ?? {}) };
  const had = { X: Boolean(matrices.X), XM: Boolean(matrices.XM) };
  s.matrices = resizeMatrices(s, matrices, fill);
  s.positional = POSITIONAL.includes(s.positional) ? s.positional : 'none';
  if (leaveTrainedHeadIfChanged(s)) had.X = false; // X is made again, from the words
  if (d.sentence) embedTokens(s, d, had, embed);
  s.mask = reconcileMask(s, d);
  reconcileView(s, d);
  return s;
}

// Sizes, tokens and scaling, in place on the fresh copy `s`.
function reconcileSizes(s) {
  s.version = STATE_VERSION;
  s.mode = s.mode === 'qkv' ? 'qkv' : 'sentence';
  s.n = clampInt(s.n, LIMITS.n, 4);
  s.m = clampInt(s.m, LIMITS.m, 4);
  s.dk = clampInt(s.dk, LIMITS.dk, 4);
  s.dv = clampInt(s.dv, LIMITS.dv, 4);
  s.dModel = clampInt(s.dModel, LIMITS.dModel, 8);
  s.heads = clampInt(s.heads, LIMITS.heads, 1);
  s.seed = clampInt(s.seed, LIMITS.seed, 42);
  if (!Array.isArray(s.tokens) || s.tokens.length === 0) {
    const { tokens } = tokenize(s.sentence ?? '', MAX_TOKENS);
    s.tokens = tokens.length ? tokens : ['token'];
  }
  s.tokens = s.tokens.slice(0, MAX_TOKENS).map(String);

  const scaling = s.scaling ?? {};
  const t = Number(scaling.temperature);
  s.scaling = {
    sqrtDk: scaling.sqrtDk !== false,
    temperature: Number.isFinite(t) ? Math.min(LIMITS.temperature[1], Math.max(LIMITS.temperature[0], t)) : 1,
  };
}

// Every active matrix at its shape (in `matrices`, a copy the state owns).
function resizeMatrices(s, matrices, fill) {
  for (const [name, rows, cols] of activeMatrices(s)) {
    if (!Number.isInteger(rows) || !Number.isInteger(cols)) continue; // heads do not divide d_model
    // The bias matrix follows its preset when its shape changes (an ALiBi ramp cannot be padded).
    if (name === 'B')
      matrices.B =
        matrices.B?.rows === rows && matrices.B?.cols === cols
          ? matrices.B
          : biasPresetMatrix(s.biasMatrix.preset, rows, cols, fill && ((count) => fill('B', count)));
    else matrices[name] = resize(matrices[name], rows, cols, fill && ((count) => fill(name, count)));
  }
  return matrices;
}

// A trained head's X (open-head.js) is the model's input for the probe's tokens at its sizes: once
// the tokens, the seed, the positions or the sizes change, it cannot be made again, so the source
// becomes random per word (its note says why) and X is made from the words like any other.
// Returns whether it did.
function leaveTrainedHeadIfChanged(s) {
  // A checkpoint's head stays the source: the page reads the new sentence with the checkpoint and
  // replaces X and W (web/ui/vector-source.js); until then X is random per word.
  if (usesCheckpoint(s)) {
    if (checkpointFits(s) && (s.xKey === undefined || s.xKey === tokenVectorsKey(s))) return false;
    s.vectors = { ...s.vectors, stale: true };
    return true;
  }
  if (!usesTrainedHead(s)) return false;
  if (trainedHeadFits(s) && (s.xKey === undefined || s.xKey === tokenVectorsKey(s))) return false;
  s.vectors = { source: 'random', left: 'trained-head' };
  return true;
}

// The token vectors X (and the memory's XM) of a sentence, made again when what they are made
// from changed; `had` tells which of them the state brought.
function embedTokens(s, d, had, embed) {
  const matrices = s.matrices;
  // A state without a key (a preset, an older link) keeps the X it brings.
  const key = tokenVectorsKey(s);
  if (embed && (!had.X || (s.xKey !== undefined && s.xKey !== key))) {
    matrices.X = embed(s);
    // Head names (the hand-built heads example) told what the replaced X made each head do.
    if (had.X) s.headNames = [];
  }
  s.xKey = key;
  if (d.cross) {
    // The memory's vectors follow the same rule as X's (the same word gets the same vector).
    const memory = { ...s, tokens: s.cross.tokens };
    const mKey = tokenVectorsKey(memory);
    if (embed && (!had.XM || (s.cross.xKey !== undefined && s.cross.xKey !== mKey))) matrices.XM = embed(memory);
    s.cross = { ...s.cross, xKey: mKey };
  }
}

// The mask as long as the keys; a sentence's padding marks follow its [PAD] tokens.
function reconcileMask(s, d) {
  const mask = s.mask ?? {};
  const prevM = Array.isArray(mask.pad) ? mask.pad.length : d.m;
  const prevN = Number.isInteger(mask.customRows) ? mask.customRows : d.n;
  let pad = Array.from({ length: d.m }, (_, j) => Boolean(mask.pad?.[j]));
  const keyTokens = d.cross ? s.cross.tokens : s.tokens;
  if (d.sentence && (mask.padTokens === undefined || mask.padTokens.join('\u0000') !== keyTokens.join('\u0000'))) {
    // A new sentence: its [PAD] tokens are the padding.
    pad = keyTokens.map(isPad);
  }
  const out = {
    kind: MASK_KINDS.includes(mask.kind) ? mask.kind : 'none',
    pad,
    padTokens: d.sentence ? keyTokens.slice() : undefined,
    custom: resizeGrid(mask.custom, prevN, prevM, d.n, d.m),
    customRows: d.n,
  };
  if (!d.sentence) delete out.padTokens;
  return out;
}

// Head names, the shown head, the lesson panels and the display, in place on `s`.
function reconcileView(s, d) {
  // Optional names for the heads of a hand-built example; dropped once they no longer fit.
  s.headNames =
    Array.isArray(s.headNames) && s.headNames.length === d.heads && d.multi
      ? s.headNames.map((t) => String(t).slice(0, 40))
      : [];
  const view = s.view ?? {};
  s.view = { head: clampInt(view.head, [0, Math.max(0, d.heads - 1)], 0) };
  s.lessons = reconcileLessons(s.lessons, d);
  const display = s.display ?? {};
  s.display = {
    theme: ['light', 'dark'].includes(display.theme) ? display.theme : 'auto',
    palette: ['viridis', 'cividis', 'blues'].includes(display.palette) ? display.palette : 'viridis',
  };
}

// The lesson panels' settings: which panel is open and each panel's own inputs.
function reconcileLessons(lessons, d) {
  const l = lessons !== null && typeof lessons === 'object' ? lessons : {};
  const L = LESSON_LIMITS;
  const sqrt = l.sqrtDk ?? {};
  const cost = l.cost ?? {};
  let pitfall = PITFALLS.includes(l.pitfall) ? l.pitfall : 'mask-after-softmax';
  if (!d.multi && MULTI_HEAD_PITFALLS.includes(pitfall)) pitfall = 'mask-after-softmax';
  const tokens = Math.min(d.n, d.m);
  const swap = Array.isArray(l.swap) ? l.swap : [];
  const a = clampInt(swap[0], [0, tokens - 1], 0);
  let b = clampInt(swap[1], [0, tokens - 1], Math.min(1, tokens - 1));
  if (b === a && tokens > 1) b = a === 0 ? 1 : 0;
  return {
    panel: LESSON_PANELS.includes(l.panel) ? l.panel : LESSON_PANELS[0],
    sqrtDk: {
      dk: clampInt(sqrt.dk, L.dk, 64),
      count: clampInt(sqrt.count, L.count, 10000),
      seed: clampInt(sqrt.seed, L.seed, 0),
      row: clampInt(sqrt.row, L.row, 64), // keys in the softmax row (the lessons' exercise uses 64)
    },
    pitfall,
    cost: {
      follow: cost.follow !== false,
      n: clampInt(cost.n, L.n, 4096),
      m: clampInt(cost.m, L.n, 4096),
      dModel: clampInt(cost.dModel, L.dModel, 512),
      heads: clampInt(cost.heads, L.heads, 8),
    },
    step: clampInt(l.step, [0, d.n - 1], Math.min(2, d.n - 1)),
    swap: [a, b],
    ...reconcileInferenceLessons(l, d),
  };
}

// Transitions: each returns a new state and never mutates the old one (matrices are replaced,
// not edited, so views can skip work for matrices whose object did not change).

export function setCell(state, name, i, j, value) {
  const old = state.matrices[name];
  const data = old.data.slice();
  data[i * old.cols + j] = value;
  return { ...state, matrices: { ...state.matrices, [name]: { ...old, data } } };
}

export function toggleCustom(state, i, j) {
  const d = dims(state);
  const custom = state.mask.custom.slice();
  custom[i * d.m + j] = custom[i * d.m + j] ? 0 : 1;
  return { ...state, mask: { ...state.mask, custom } };
}

export function togglePad(state, j) {
  const pad = state.mask.pad.slice();
  pad[j] = !pad[j];
  return { ...state, mask: { ...state.mask, pad } };
}

/**
 * A new number of heads (sentence mode). From one head to several, the head's W_Q, W_K, W_V are
 * shared out among the heads and W_O put back the single head's order (head-split.js); back to
 * one, a split is merged again. Otherwise the matrices are resized as for any size.
 */
export function setHeads(state, value) {
  const heads = clampInt(value, LIMITS.heads, state.heads);
  const next = { ...state, heads, headNames: [] };
  delete next.headsBefore;
  if (state.mode !== 'sentence' || heads === state.heads || !state.matrices?.WQ) return next;
  const E = state.dModel;
  // The last head count that fitted d_model (a count that does not leaves the weights unsplit).
  const from = E % state.heads === 0 ? state.heads : (state.headsBefore ?? 1);
  if (E % heads !== 0) return { ...next, headsBefore: from };
  if (heads > 1 && from === 1) return splitHeads(next, heads);
  if (heads === 1 && from > 1 && state.heads === from)
    return { ...(mergeHeads(state) ?? state), heads: 1, headNames: [] };
  return next;
}

export function setSentence(state, sentence) {
  const { tokens } = tokenize(sentence, MAX_TOKENS, { chars: state.vectors?.source === 'text-model' });
  if (tokens.length === 0) return null;
  return { ...state, sentence, tokens };
}

export { BIAS_PRESETS };

/** The boolean mask options for the core, from the chosen mask kind. */
export function maskOptions(state) {
  const d = dims(state);
  switch (state.mask.kind) {
    case 'causal':
      return { causal: true };
    case 'padding':
      return { keyPaddingMask: { data: Uint8Array.from(state.mask.pad, Number), shape: [d.m] } };
    case 'custom':
      return { mask: { data: Uint8Array.from(state.mask.custom), shape: [d.n, d.m] } };
    default:
      return {};
  }
}

/** The scale factor applied to QKᵀ: 1/(T·√d_k), or 1/T when √d_k is switched off. */
export function scaleFactor(state) {
  const { dk } = dims(state);
  const root = state.scaling.sqrtDk ? Math.sqrt(dk) : 1;
  return 1 / (root * state.scaling.temperature);
}

export const usesDefaultScale = (state) => state.scaling.sqrtDk && state.scaling.temperature === 1;

/** Changes one lesson setting: setLesson(s, 'pitfall', 'skip-wo') or setLesson(s, 'cost', { n: 64 }). */
export function setLesson(state, key, value) {
  const old = state.lessons[key];
  const next =
    old !== null && typeof old === 'object' && !Array.isArray(old) && typeof value === 'object' && !Array.isArray(value)
      ? { ...old, ...value }
      : value;
  return { ...state, lessons: { ...state.lessons, [key]: next } };
}

/** A tiny observable store: one current state, listeners told after each change. */
export function createStore(initial, fill, embed) {
  let current = reconcile(initial, fill, embed);
  const listeners = new Set();
  return {
    get: () => current,
    /** `next` as set() would make it current, without setting it. */
    reconciled: (next) => reconcile(next, fill, embed),
    set(next, meta = {}) {
      if (!next || next === current) return;
      const prev = current;
      current = reconcile(next, fill, embed);
      for (const l of listeners) l(current, prev, meta);
    },
    update(fn, meta) {
      this.set(fn(current), meta);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
