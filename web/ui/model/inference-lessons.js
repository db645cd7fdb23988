// The inference lessons' settings, which every state is reconciled to: FlashAttention's tiles, the
// key/value cache (the memory table of real models) and the position encodings. The numbers the
// lessons show come from the core (attn.lessons.flashAttention, model.decoder, attn.rope); the
// arithmetic that decides what to ask it and lays out its inputs loads with the lessons
// (web/ui/lessons/inference-math.js).

export const INFERENCE_LIMITS = Object.freeze({
  block: [1, 24],
  windowSize: [0, 24],
  positions: [2, 32],
  base: [2, 1e6],
  alibiHeads: [1, 16],
});
/** The memory table's fields: [min, max] of each. */
export const KV_FIELD_LIMITS = Object.freeze({
  layers: [1, 1000],
  kvHeads: [1, 1024],
  headDim: [1, 4096],
  tokens: [1, 1 << 24],
  windowSize: [0, 1 << 24],
  bytes: [1, 8],
});

/** A KV-cache memory row: name, layers, KV heads, head dim, tokens, window (0 = none), bytes per number. */
export const KV_CONFIGS = Object.freeze([
  Object.freeze({
    id: 'gpt2',
    name: 'GPT-2 small',
    layers: 12,
    kvHeads: 12,
    headDim: 64,
    tokens: 1,
    windowSize: 0,
    bytes: 4,
  }),
  Object.freeze({
    id: 'llama-2-7b',
    name: 'Llama-2-7B',
    layers: 32,
    kvHeads: 32,
    headDim: 128,
    tokens: 2048,
    windowSize: 0,
    bytes: 2,
  }),
  Object.freeze({
    id: 'llama-2-70b',
    name: 'Llama-2-70B',
    layers: 80,
    kvHeads: 8,
    headDim: 128,
    tokens: 4096,
    windowSize: 0,
    bytes: 2,
  }),
  Object.freeze({
    id: 'mistral-7b',
    name: 'Mistral-7B',
    layers: 32,
    kvHeads: 8,
    headDim: 128,
    tokens: 8192,
    windowSize: 4096,
    bytes: 2,
  }),
]);
/** The editable fields of a memory row, in the table's order. */
export const KV_FIELDS = Object.freeze(['layers', 'kvHeads', 'headDim', 'tokens', 'windowSize', 'bytes']);

const clampInt = (v, [lo, hi], fallback) => {
  const x = Math.round(Number(v));
  return v !== null && v !== '' && Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : fallback;
};
const object = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {});

/** The number of tiles of an n × m score matrix in blocks of br × bc: FlashAttention's steps. */
export const tileCount = (n, m, br, bc) => Math.ceil(n / br) * Math.ceil(m / bc);

function reconcileFlash(f, d) {
  const L = INFERENCE_LIMITS.block;
  const blockRows = Math.min(d.n, clampInt(f.blockRows, L, 2));
  const blockCols = Math.min(d.m, clampInt(f.blockCols, L, 2));
  const steps = tileCount(d.n, d.m, blockRows, blockCols);
  return { blockRows, blockCols, causal: f.causal !== false, step: clampInt(f.step, [0, steps], 0) };
}

// The memory table's rows: the named configurations (a learner's edits kept) and the learner's own.
function reconcileTable(rows) {
  const given = Array.isArray(rows) ? rows : [];
  return KV_CONFIGS.map((c, r) => {
    const row = object(given[r]);
    const out = { id: c.id };
    for (const key of KV_FIELDS) out[key] = clampInt(row[key], KV_FIELD_LIMITS[key], c[key]);
    return out;
  });
}

// kvHeads and step stay null until the learner picks them: then the lesson follows the explorer
// (every head its own key/value head; the last token decoded) as its sizes change.
function reconcileKv(k, d) {
  const tokens = Math.min(d.n, d.m);
  const picked = (v) => v !== null && v !== undefined && v !== '' && Number.isFinite(Number(v));
  return {
    kvHeads: picked(k.kvHeads) ? clampInt(k.kvHeads, [1, 1024], 1) : null,
    windowSize: Math.min(tokens, clampInt(k.windowSize, INFERENCE_LIMITS.windowSize, 0)),
    step: picked(k.step) ? clampInt(k.step, [0, tokens - 1], tokens - 1) : null,
    table: reconcileTable(k.table),
  };
}

function reconcilePositions(p, d) {
  const L = INFERENCE_LIMITS;
  const count = clampInt(p.count, L.positions, 8);
  const alibiHeads = clampInt(p.alibiHeads, L.alibiHeads, 8);
  return {
    query: clampInt(p.query, [0, d.n - 1], 0),
    key: clampInt(p.key, [0, d.m - 1], Math.min(1, d.m - 1)),
    count,
    base: clampInt(p.base, L.base, 10000),
    position: clampInt(p.position, [0, count - 1], Math.min(3, count - 1)),
    alibiHeads,
    alibiHead: clampInt(p.alibiHead, [0, alibiHeads - 1], 0),
  };
}

/** The three lessons' settings within limits, for the explorer's sizes `d` (state.js dims()). */
export function reconcileInferenceLessons(lessons, d) {
  const l = object(lessons);
  return {
    flash: reconcileFlash(object(l.flash), d),
    kv: reconcileKv(object(l.kv), d),
    positions: reconcilePositions(object(l.positions), d),
  };
}
