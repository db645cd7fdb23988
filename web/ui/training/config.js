// The training view's settings: defaults that grow an induction head in seconds, their limits,
// the trainer config they make, and their place in the address (the configuration and seed travel
// in the URL, never the weights). What the controls say about them is in the catalogues
// (web/ui/i18n/<lang>/training.js).
import { english } from '../model/model.js';

/** Settings as the controls show them. */
export const DEFAULTS = Object.freeze({
  task: 'repeated',
  layers: 2,
  heads: 4,
  dModel: 32,
  mlp: false,
  layerNorm: true,
  lr: 0.003,
  batch: 32,
  seed: 0,
  positions: 'learned',
  kvHeads: 4,
  windowSize: 0,
});

/** Where positions enter the model (attn.transformer's `positions`): the message naming each. */
export const POSITIONS = Object.freeze({
  learned: 'training.positions.learned',
  none: 'training.positions.none',
  rope: 'training.positions.rope',
  alibi: 'training.positions.alibi',
});

/** [min, max, step] of each number setting. */
export const LIMITS = Object.freeze({
  layers: [1, 4, 1],
  heads: [1, 8, 1],
  dModel: [16, 128, 8],
  lr: [0.0001, 0.03, 0.0001],
  batch: [1, 128, 1],
  seed: [0, 99999, 1],
  windowSize: [0, 32, 1],
});

// The repeated task: sequence length, vocabulary (0 = BOS, 1 = filler) and the repeat lengths
// trained on. Lengths 7 and 11 are never trained on: an induction head that works there has
// learned "copy what followed last time", not one period.
const SEQ_LENGTH = 32;
export const VOCAB_SIZE = 24;
export const HELD_OUT = Object.freeze([7, 11]);
export const TRAINED = Object.freeze([2, 3, 4, 5, 6, 8, 9, 10, 12, 13, 14, 15]);
const TEXT_LENGTH = 32;
// The probe batch's seed: its first sequence (the one the maps show) repeats 10 tokens.
const PROBE_SEED = 2;
const REPORT_EVERY = 10;
// Targets only in the second copy (training-data.js): the first copy is random, so training on it
// only delays the induction head (measured: the repeated half's loss still on its plateau at step
// 300 with every token as a target, and an induction score of 0.8 at step 400 without).
const ALL_TARGETS = false;

/**
 * A head's name as the page writes it: layers and heads counted from 1, as the explorer counts its
 * heads ("Layer 2 · head 4"; short: "L2H4"). The data- attributes, the heatmaps' names
 * (train-l1-h3) and the model's tensor names (h.1.attn…) count from 0.
 */
export const headTitle = (layer, head, i18n = english) =>
  i18n.t('training.head.title', { layer: layer + 1, head: head + 1 });
export const headShort = (layer, head) => `L${layer + 1}H${head + 1}`;

/** Scores above these name a head's job. */
export const THRESHOLDS = Object.freeze({ previousToken: 0.4, induction: 0.4, duplicateToken: 0.4 });

const clamp = (x, [lo, hi]) => Math.min(hi, Math.max(lo, x));

/** Settings checked and clamped; anything unknown or unreadable falls back to its default. */
export function normalizeSettings(raw = {}) {
  const s = { ...DEFAULTS };
  if (raw.task === 'text' || raw.task === 'repeated') s.task = raw.task;
  for (const key of ['layers', 'heads', 'dModel', 'lr', 'batch', 'seed']) {
    const v = Number(raw[key]);
    if (raw[key] === undefined || raw[key] === '' || !Number.isFinite(v)) continue;
    // Into its range, which the field then shows (a learning rate of 0 gives the smallest, as 0
    // layers gives one); every setting but the learning rate is a whole number.
    s[key] = clamp(key === 'lr' ? v : Math.round(v), LIMITS[key]);
  }
  for (const key of ['mlp', 'layerNorm']) {
    if (raw[key] === true || raw[key] === '1' || raw[key] === 'true') s[key] = true;
    if (raw[key] === false || raw[key] === '0' || raw[key] === 'false') s[key] = false;
  }
  normalizeAttention(s, raw);
  return s;
}

/** The divisors of n: the key/value head counts n query heads can share. */
export const divisorsOf = (n) => Array.from({ length: n }, (_, k) => k + 1).filter((k) => n % k === 0);

// positions, kvHeads (a divisor of the heads: the largest not above what was asked; all heads
// when not asked), windowSize (0 = none), and dModel a multiple of the heads (of twice the heads
// with RoPE, which turns each head's features in pairs).
function normalizeAttention(s, raw) {
  if (Object.hasOwn(POSITIONS, raw.positions)) s.positions = raw.positions;
  const unit = s.positions === 'rope' ? 2 * s.heads : s.heads;
  s.dModel = Math.min(LIMITS.dModel[1] - (LIMITS.dModel[1] % unit), Math.ceil(s.dModel / unit) * unit);
  const asked = Number(raw.kvHeads);
  const wanted =
    raw.kvHeads !== undefined && raw.kvHeads !== '' && Number.isFinite(asked)
      ? Math.max(1, Math.round(asked))
      : s.heads;
  s.kvHeads = divisorsOf(s.heads)
    .filter((k) => k <= wanted)
    .pop();
  const w = Number(raw.windowSize);
  s.windowSize =
    raw.windowSize !== undefined && raw.windowSize !== '' && Number.isFinite(w)
      ? clamp(Math.round(w), LIMITS.windowSize)
      : 0;
}

/** The trainer config (web/lib/trainer.js) for settings; `text` is the text task's text (default: the corpus). */
export function trainerConfig(settings, text) {
  const s = normalizeSettings(settings);
  const model = {
    contextLength: SEQ_LENGTH,
    dModel: s.dModel,
    numLayers: s.layers,
    numHeads: s.heads,
    mlp: s.mlp,
    layerNorm: s.layerNorm,
    tieEmbeddings: false,
    seed: s.seed,
    positions: s.positions,
    numKVHeads: s.kvHeads,
    attentionWindow: s.windowSize > 0 ? s.windowSize : null,
  };
  const common = { batchSize: s.batch, seed: s.seed, optimizer: { learningRate: s.lr }, reportEvery: REPORT_EVERY };
  if (s.task === 'text') {
    const data = { kind: 'text', seqLength: TEXT_LENGTH };
    if (text) data.text = text;
    return { ...common, model: { ...model, contextLength: TEXT_LENGTH }, data, probe: { batchSize: 8, seed: 12345 } };
  }
  return {
    ...common,
    model: { ...model, vocabSize: VOCAB_SIZE },
    data: { kind: 'repeated', seqLength: SEQ_LENGTH, repeatLengths: [...TRAINED], allTargets: ALL_TARGETS },
    probe: { batchSize: 8, seed: PROBE_SEED, excludeFiller: true },
  };
}

const KEYS = [
  'task',
  'layers',
  'heads',
  'dModel',
  'mlp',
  'layerNorm',
  'lr',
  'batch',
  'seed',
  'positions',
  'kvHeads',
  'windowSize',
];

/** Settings that differ from the defaults, as address parameters (with view=train first). */
export function settingsToParams(settings, extra = {}) {
  const p = new URLSearchParams({ view: 'train', ...extra });
  for (const key of KEYS) {
    const v = settings[key];
    // kvHeads is the default when it equals the heads, whatever their number.
    if (key === 'kvHeads' ? v === settings.heads : v === DEFAULTS[key]) continue;
    p.set(key, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  return p;
}

/** Settings from address parameters (a URLSearchParams or a hash such as "#view=train&heads=2"). */
export function settingsFromParams(params) {
  const p = typeof params === 'string' ? new URLSearchParams(params.replace(/^#/, '')) : params;
  const raw = {};
  for (const key of KEYS) if (p.has(key)) raw[key] = p.get(key);
  return normalizeSettings(raw);
}
