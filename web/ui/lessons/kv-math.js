// The KV-cache lesson's numbers, from the core: the explorer's heads as a one-layer model
// (inference-math.js kvModel), decoded one token at a time by model.decoder, and the
// same model's full causal pass (model.forward) to compare each step with. Nothing touches the DOM.
import { kvModel } from './inference-math.js';

// Columns [from, from + count) of a [rows, cols] tensor, first `rows` rows.
function columns(t, from, count, rows) {
  const cols = t.shape[1];
  const data = new Float32Array(rows * count);
  for (let r = 0; r < rows; r++) data.set(t.data.subarray(r * cols + from, r * cols + from + count), r * count);
  return { data, shape: [rows, count] };
}

/** The explorer's heads as [{ q, k, v }], each cut to the first T = min(n, m) rows. */
export function explorerHeads(result) {
  const d = result.dims;
  const T = Math.min(d.n, d.m);
  if (!d.multi) {
    const { q, k, v } = result.head;
    return [{ q: columns(q, 0, q.shape[1], T), k: columns(k, 0, k.shape[1], T), v: columns(v, 0, v.shape[1], T) }];
  }
  const hd = d.dk;
  return Array.from({ length: d.heads }, (_, h) => ({
    q: columns(result.proj.Q, h * hd, hd, T),
    k: columns(result.proj.K, h * hd, hd, T),
    v: columns(result.proj.V, h * hd, hd, T),
  }));
}

const maxAbsDifference = (a, b) => {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
};

/**
 * Decodes tokens 0 … step of the explorer's heads with a cache of `kvHeads` key/value heads (and a
 * sliding window when windowSize > 0). Returns the last step's weights [H, length] (the decoder's),
 * the full causal pass's row for the same token, the largest difference between the two (weights
 * and logits), the layer's cache (keys, values [kvHeads, kept, headDim], slot positions), the
 * cache's bytes as the core counts them, and the model's sizes.
 */
export function decodeSteps(attn, heads, { scale, kvHeads, windowSize, step }) {
  const built = kvModel({ heads, scale, kvHeads, windowSize });
  const model = attn.transformer(built.config);
  try {
    model.loadState(built.state);
    const dec = model.decoder();
    let out = null;
    for (let t = 0; t <= step; t++) out = dec.append([t]);
    const cache = dec.cache(0);
    const cacheBytes = dec.cacheBytes;
    const length = dec.length;
    dec.dispose();
    const tokens = Array.from({ length: step + 1 }, (_, t) => t);
    const full = model.forward(tokens);
    const H = heads.length;
    const T = step + 1;
    // The full pass's attention of query `step`, every head: [H, T].
    const fullRow = new Float32Array(H * T);
    for (let h = 0; h < H; h++)
      fullRow.set(full.attentions[0].data.subarray((h * T + step) * T, (h * T + step + 1) * T), h * T);
    const weights = out.attentions[0].data; // [H, 1, length]
    const V = built.config.vocabSize;
    const fullLogits = full.logits.data.subarray(step * V, (step + 1) * V);
    const difference = Math.max(maxAbsDifference(weights, fullRow), maxAbsDifference(out.logits.data, fullLogits));
    return {
      weights: { data: Float32Array.from(weights), shape: [H, length] },
      full: { data: fullRow, shape: [H, T] },
      difference,
      cache,
      cacheBytes,
      length,
      headDim: built.headDim,
      config: built.config,
    };
  } finally {
    model.dispose();
  }
}

/** The key/value head that query head h reads: ⌊h / (H / kvHeads)⌋ (Hugging Face's repeat_kv). */
export const kvHeadOf = (h, H, kvHeads) => Math.floor(h / (H / kvHeads));

/** Keys or values of one key/value head from the cache, cut to its real width: [kept, width]. */
export function cacheHead(tensor, g, width) {
  const [, kept, d] = tensor.shape;
  const data = new Float32Array(kept * width);
  for (let s = 0; s < kept; s++)
    data.set(tensor.data.subarray((g * kept + s) * d, (g * kept + s) * d + width), s * width);
  return { data, shape: [kept, width] };
}
