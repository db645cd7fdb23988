// "Open this head in the explorer": one trained head as the explorer's single-head example. X is
// the probe sequence's input to the head's layer after LayerNorm (ln_1), recomputed here in
// float64 from the trained parameters; W_Q, W_K, W_V are the head's columns of c_attn.weight.
// The explorer's projections have no bias, so each bias becomes one more row of its W and X gets
// a last column of ones: X·W + b = [X, 1]·[W; b], exactly. The explorer allows 24 tokens: the
// first 24 of the probe (causal attention of those queries never sees the later tokens).
const MAX_TOKENS = 24;
const MAX_D_MODEL = 64;

function layerNorm(x, T, E, weight, bias) {
  if (!weight) return x;
  const out = new Float64Array(T * E);
  for (let t = 0; t < T; t++) {
    let mean = 0;
    for (let e = 0; e < E; e++) mean += x[t * E + e];
    mean /= E;
    let variance = 0;
    for (let e = 0; e < E; e++) variance += (x[t * E + e] - mean) ** 2;
    const inv = 1 / Math.sqrt(variance / E + 1e-5);
    for (let e = 0; e < E; e++) out[t * E + e] = (x[t * E + e] - mean) * inv * weight.data[e] + bias.data[e];
  }
  return out;
}

// a [T, n] · W [n, m] (+ b), W read in row-major with `stride` columns starting at column `col`.
function linear(a, T, n, W, m, b, { col = 0, stride = m } = {}) {
  const out = new Float64Array(T * m);
  for (let t = 0; t < T; t++) {
    for (let j = 0; j < m; j++) {
      let s = b ? b.data[col + j] : 0;
      for (let k = 0; k < n; k++) s += a[t * n + k] * W.data[k * stride + col + j];
      out[t * m + j] = s;
    }
  }
  return out;
}

const gelu = (x) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));

function attentionBlock(a, T, E, H, P) {
  const qkv = linear(a, T, E, P('attn.c_attn.weight'), 3 * E, P('attn.c_attn.bias'));
  const d = E / H;
  const concat = new Float64Array(T * E);
  for (let h = 0; h < H; h++) {
    for (let i = 0; i < T; i++) {
      const s = [];
      for (let j = 0; j <= i; j++) {
        let dot = 0;
        for (let c = 0; c < d; c++) dot += qkv[i * 3 * E + h * d + c] * qkv[j * 3 * E + E + h * d + c];
        s.push(dot / Math.sqrt(d));
      }
      const max = Math.max(...s);
      const w = s.map((v) => Math.exp(v - max));
      const z = w.reduce((x, y) => x + y, 0);
      for (let j = 0; j <= i; j++) {
        for (let c = 0; c < d; c++) concat[i * E + h * d + c] += (w[j] / z) * qkv[j * 3 * E + 2 * E + h * d + c];
      }
    }
  }
  return linear(concat, T, E, P('attn.c_proj.weight'), E, P('attn.c_proj.bias'));
}

/** The residual stream entering layer `layer` for `tokens` ([T, E], float64). */
export function residualBefore(state, config, tokens, layer) {
  const E = config.dModel;
  const T = tokens.length;
  const x = new Float64Array(T * E);
  const wte = state['wte.weight'];
  const wpe = state['wpe.weight'];
  tokens.forEach((tok, t) => {
    for (let e = 0; e < E; e++) x[t * E + e] = wte.data[tok * E + e] + (wpe ? wpe.data[t * E + e] : 0);
  });
  for (let l = 0; l < layer; l++) {
    const P = (name) => state[`h.${l}.${name}`];
    const a = layerNorm(x, T, E, P('ln_1.weight'), P('ln_1.bias'));
    const out = attentionBlock(a, T, E, config.numHeads, P);
    for (let k = 0; k < x.length; k++) x[k] += out[k];
    if (P('mlp.c_fc.weight')) {
      const b = layerNorm(x, T, E, P('ln_2.weight'), P('ln_2.bias'));
      const hidden = linear(b, T, E, P('mlp.c_fc.weight'), 4 * E, P('mlp.c_fc.bias')).map(gelu);
      const m = linear(hidden, T, 4 * E, P('mlp.c_proj.weight'), E, P('mlp.c_proj.bias'));
      for (let k = 0; k < x.length; k++) x[k] += m[k];
    }
  }
  return x;
}

const matrix = (rows, cols, data) => ({ rows, cols, data: Array.from(data) });

/**
 * The explorer state (web/ui/model/state.js) for head `head` of layer `layer`: sentence mode, one head,
 * causal mask, the probe's first tokens as the sentence, and the vector source that says so
 * (`vectors`: source 'trained-head' with the model's sizes and, when known, the training task, the
 * step and the trained example the weights are; see trained-vectors.js).
 */
export function headState({ layer, head, state, config, tokens, labels, task = 'repeated', step = 0, example = null }) {
  const E = config.dModel;
  const d = E / config.numHeads;
  if (E + 1 > MAX_D_MODEL)
    throw new Error(
      `this model's d_model (${E}) is larger than the explorer shows (${MAX_D_MODEL - 1} with the bias column)`,
    );
  const T = Math.min(MAX_TOKENS, tokens.length);
  const x = residualBefore(state, config, tokens.slice(0, T), layer);
  const P = (name) => state[`h.${layer}.${name}`];
  const a = layerNorm(x, T, E, P('ln_1.weight'), P('ln_1.bias'));
  const X = new Array(T * (E + 1));
  for (let t = 0; t < T; t++) {
    for (let e = 0; e < E; e++) X[t * (E + 1) + e] = a[t * E + e];
    X[t * (E + 1) + E] = 1;
  }
  const W = P('attn.c_attn.weight');
  const bias = P('attn.c_attn.bias');
  const block = (which) => {
    const col = which * E + head * d;
    const out = new Array((E + 1) * d);
    for (let r = 0; r < E; r++) for (let c = 0; c < d; c++) out[r * d + c] = W.data[r * 3 * E + col + c];
    for (let c = 0; c < d; c++) out[E * d + c] = bias.data[col + c];
    return matrix(E + 1, d, out);
  };
  const names = labels.slice(0, T).map((s, i) => s || `t${i}`);
  const vectors = {
    source: 'trained-head',
    layer,
    head,
    layers: config.numLayers ?? layer + 1,
    heads: config.numHeads,
    dModel: E,
    task: task === 'text' ? 'text' : 'repeated',
    step: Math.max(0, Math.round(Number(step) || 0)),
    ...(example === 'induction' || example === 'text' ? { example } : {}),
  };
  return {
    mode: 'sentence',
    sentence: names.join(' '),
    tokens: names,
    dModel: E + 1,
    dk: d,
    dv: d,
    heads: 1,
    seed: 0,
    positional: 'none',
    scaling: { sqrtDk: true, temperature: 1 },
    mask: { kind: 'causal' },
    view: { head: 0 },
    matrices: { X: matrix(T, E + 1, X), WQ: block(0), WK: block(1), WV: block(2) },
    vectors,
  };
}
