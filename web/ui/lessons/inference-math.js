// The inference lessons' DOM-free arithmetic, which loads with the lessons, not with the first
// drawing: the KV-cache lesson's heads and memory, the tiny decoder it builds from the explorer's
// own q, k, v rows, and ALiBi's slopes. Their settings, which every state is reconciled to, are the
// model's (web/ui/model/inference-lessons.js).

/** The divisors of n, smallest first (the key/value head counts n query heads can share). */
export function divisors(n) {
  const out = [];
  for (let k = 1; k <= n; k++) if (n % k === 0) out.push(k);
  return out;
}

/**
 * The key/value heads and the decoded token the KV-cache lesson shows for `heads` query heads and
 * `tokens` tokens: the largest divisor of the heads not above the learner's pick (all heads
 * until one is picked), and the picked step (the last token until one is picked).
 */
export function kvLessonView(kv, heads, tokens) {
  const wanted = kv.kvHeads ?? heads;
  return {
    kvHeads: divisors(heads)
      .filter((x) => x <= wanted)
      .pop(),
    step: Math.min(tokens - 1, kv.step ?? tokens - 1),
  };
}

/**
 * Bytes of a key/value cache: 2 (keys and values) · layers · kvHeads · headDim · kept · bytes,
 * where kept = tokens, or the window when a sliding window caps the cache. Returns { kept, bytes }.
 */
export function kvCacheBytes({ layers, kvHeads, headDim, tokens, windowSize = 0, bytes }) {
  const kept = windowSize > 0 ? Math.min(tokens, windowSize) : tokens;
  return { kept, bytes: 2 * layers * kvHeads * headDim * kept * bytes };
}

/**
 * Press et al.'s ALiBi slopes as BLOOM computes them (build_alibi_tensor), the ones the core
 * applies with positions: 'alibi': 2^(−8(h+1)/H) for H a power of two; otherwise the slopes of the
 * largest power of two P < H, then every other slope of 2P heads.
 */
export function alibiSlopes(heads) {
  const P = 2 ** Math.floor(Math.log2(heads));
  const base = 2 ** (-8 / P);
  const slopes = Array.from({ length: P }, (_, h) => base ** (h + 1));
  if (P === heads) return slopes;
  const extra = 2 ** (-4 / P);
  for (let k = 0; k < heads - P; k++) slopes.push(extra ** (2 * k + 1));
  return slopes;
}

const column = (t, row, c) => (c < t.shape[1] ? t.data[row * t.shape[1] + c] : 0);

// The mean over the query heads of key/value group g (of kvHeads) of their `which` rows t, column c.
function groupMean(heads, kvHeads, g, which, t, c) {
  const per = heads.length / kvHeads;
  let sum = 0;
  for (let h = g * per; h < (g + 1) * per; h++) sum += column(heads[h][which], t, c);
  return sum / per;
}

/**
 * A one-layer attention-only transformer whose decoder replays the explorer's heads: token t (of
 * T) is a one-hot embedding, and c_attn maps it to head h's q row t (scaled so the model's 1/√d
 * gives the explorer's scale) and to its key/value head's k and v rows t. With fewer key/value
 * heads than query heads, a group's keys and values are the mean of its heads' (how Ainslie et
 * al. turn a multi-head checkpoint into grouped-query attention). c_proj is the identity.
 * heads: [{ q, k, v }] tensors [T, d_k] / [T, d_v]; returns { config, state, headDim } for
 * attn.transformer and loadState (headDim ≥ d_k, d_v, padded with zeros so that E = H·headDim ≥ T).
 */
export function kvModel({ heads, scale, kvHeads, windowSize = 0 }) {
  const H = heads.length;
  const T = heads[0].q.shape[0];
  const dk = heads[0].q.shape[1];
  const dv = heads[0].v.shape[1];
  const d = Math.max(dk, dv, Math.ceil(T / H));
  const E = H * d;
  const width = E + 2 * kvHeads * d;
  const qScale = scale * Math.sqrt(d);
  const wte = new Float32Array(T * E);
  const cAttn = new Float32Array(E * width);
  for (let t = 0; t < T; t++) {
    wte[t * E + t] = 1;
    const row = t * width;
    for (let h = 0; h < H; h++) for (let c = 0; c < dk; c++) cAttn[row + h * d + c] = column(heads[h].q, t, c) * qScale;
    for (let g = 0; g < kvHeads; g++) {
      for (let c = 0; c < dk; c++) cAttn[row + E + g * d + c] = groupMean(heads, kvHeads, g, 'k', t, c);
      for (let c = 0; c < dv; c++) cAttn[row + E + (kvHeads + g) * d + c] = groupMean(heads, kvHeads, g, 'v', t, c);
    }
  }
  const identity = new Float32Array(E * E);
  for (let e = 0; e < E; e++) identity[e * E + e] = 1;
  const lmHead = new Float32Array(T * E);
  for (let t = 0; t < T; t++) lmHead[t * E + t] = 1;
  const config = {
    vocabSize: T,
    contextLength: T,
    dModel: E,
    numLayers: 1,
    numHeads: H,
    numKVHeads: kvHeads,
    mlp: false,
    layerNorm: false,
    positions: 'none',
    tieEmbeddings: false,
    attentionWindow: windowSize > 0 ? windowSize : null,
  };
  const state = {
    'wte.weight': { data: wte, shape: [T, E] },
    'h.0.attn.c_attn.weight': { data: cAttn, shape: [E, width] },
    'h.0.attn.c_attn.bias': { data: new Float32Array(width), shape: [width] },
    'h.0.attn.c_proj.weight': { data: identity, shape: [E, E] },
    'h.0.attn.c_proj.bias': { data: new Float32Array(E), shape: [E] },
    'lm_head.weight': { data: lmHead, shape: [T, E] },
  };
  return { config, state, headDim: d };
}
