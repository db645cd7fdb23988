// "Two implementations agree": the example recomputed in plain float64 JavaScript, with no code
// shared with the WebAssembly core (its own matrix product, softmax and masks, written from the
// formula), and the largest difference from the numbers the page shows. The page computes in
// float32, so differences of about 1e-7 are rounding; the lessons ask for agreement to < 1e-6,
// which holds unless the scores are large (see `bound`).
import { dims, scaleFactor } from './state.js';

export const AGREE = 1e-6;

// a (n × k) · b (k × m), row-major plain arrays, in float64.
function matmul(a, n, k, b, m) {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++)
    for (let p = 0; p < k; p++) {
      const x = a[i * k + p];
      for (let j = 0; j < m; j++) out[i * m + j] += x * b[p * m + j];
    }
  return out;
}

// Which query-key pairs the state's mask hides, as a function (i, j) -> bool.
function hiddenPairs(state, m) {
  switch (state.mask.kind) {
    case 'causal':
      return (i, j) => j > i;
    case 'padding':
      return (i, j) => Boolean(state.mask.pad[j]);
    case 'custom':
      return (i, j) => Boolean(state.mask.custom[i * m + j]);
    default:
      return () => false;
  }
}

// Weights (n × m) of one head from columns [off, off + d) of row-major q (n × ld) and k (m × ld).
// A row with every key hidden gets zeros, as on the page.
// `bias` is the bias matrix's data (n × m, −∞ allowed) or null.
function weightsOf(q, k, ld, off, d, n, m, scale, hidden, bias) {
  const w = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    let top = -Infinity;
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += q[i * ld + off + c] * k[j * ld + off + c];
      w[i * m + j] = hidden(i, j) ? -Infinity : s * scale + (bias ? bias[i * m + j] : 0);
      top = Math.max(top, w[i * m + j]);
    }
    let sum = 0;
    for (let j = 0; j < m; j++) sum += w[i * m + j] = top === -Infinity ? 0 : Math.exp(w[i * m + j] - top);
    for (let j = 0; j < m; j++) w[i * m + j] = sum > 0 ? w[i * m + j] / sum : 0;
  }
  return w;
}

/**
 * The float64 recomputation of `state`: { weights: per head (n × m), output } where output is the
 * single head's A·V or the multi-head layer's concat·W_O. Null when the sizes do not fit.
 */
export function recompute(state) {
  const d = dims(state);
  if (!d.divisible) return null;
  const M = state.matrices;
  const { n, m } = d;
  const hidden = hiddenPairs(state, m);
  const scale = scaleFactor(state);
  const B = d.biasMatrix ? M.B.data : null;
  if (!d.sentence) {
    const w = weightsOf(M.Q.data, M.K.data, d.dk, 0, d.dk, n, m, scale, hidden, B);
    return { weights: [w], output: matmul(w, n, m, M.V.data, d.dv) };
  }
  const E = d.dModel;
  // x·W + b; the keys and values read the memory's vectors in cross-attention.
  const proj = (name, cols) => {
    const [x, rows] = name !== 'Q' && d.cross ? [M.XM.data, m] : [M.X.data, n];
    const out = matmul(x, rows, E, M[`W${name}`].data, cols);
    if (d.biases) for (let t = 0; t < out.length; t++) out[t] += M[`B${name}`].data[t % cols];
    return out;
  };
  if (!d.multi) {
    const w = weightsOf(proj('Q', d.dk), proj('K', d.dk), d.dk, 0, d.dk, n, m, scale, hidden, B);
    return { weights: [w], output: matmul(w, n, m, proj('V', d.dv), d.dv) };
  }
  const q = proj('Q', E);
  const k = proj('K', E);
  const v = proj('V', E);
  // Head h reads columns h·d_k .. (h+1)·d_k − 1 and writes the same columns of concat.
  const concat = new Float64Array(n * E);
  const weights = [];
  for (let h = 0; h < d.heads; h++) {
    const off = h * d.dk;
    const w = weightsOf(q, k, E, off, d.dk, n, m, scale, hidden, B);
    weights.push(w);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < m; j++)
        for (let c = 0; c < d.dk; c++) concat[i * E + off + c] += w[i * m + j] * v[j * E + off + c];
  }
  const output = matmul(concat, n, E, M.WO.data, E);
  if (d.biases) for (let t = 0; t < output.length; t++) output[t] += M.BO.data[t % E];
  return { weights, output };
}

// The largest |a − b|, and the same relative to the matrix's largest |b| (at least 1): float32
// rounding in a sum grows with the size of its terms, not of its result.
function largestDifference(a, b) {
  let worst = 0;
  let size = 1;
  for (let k = 0; k < a.length; k++) {
    const diff = Math.abs(a[k] - b[k]);
    if (!(diff <= worst)) worst = Number.isNaN(diff) ? Infinity : diff;
    size = Math.max(size, Math.abs(b[k]));
  }
  return { abs: worst, rel: worst / size };
}

/**
 * The page's result against recompute(state): the largest differences of the weights and of the
 * output ({ abs, rel }), the larger relative one (`worst`) and how many numbers were compared.
 */
export function agreement(state, result) {
  if (result.error) return null;
  const ref = recompute(state);
  if (!ref) return null;
  const pageWeights = result.multi ? result.multi.heads : [result.head.weights];
  const pageOutput = result.multi ? result.multi.output : result.head.output;
  const weights = { abs: 0, rel: 0 };
  pageWeights.forEach((t, h) => {
    const d = largestDifference(t.data, ref.weights[h]);
    weights.abs = Math.max(weights.abs, d.abs);
    weights.rel = Math.max(weights.rel, d.rel);
  });
  const output = largestDifference(pageOutput.data, ref.output);
  // float32 keeps about 7 significant digits of each score, and exp() turns an absolute error in
  // a score into a relative error in its weight: large scores cost precision however it is coded.
  let scores = 0;
  for (const x of result.head.masked.data) if (Number.isFinite(x)) scores = Math.max(scores, Math.abs(x));
  const bound = AGREE + 8 * 2 ** -24 * scores;
  return {
    weights,
    output,
    worst: Math.max(weights.rel, output.rel),
    bound,
    scores,
    weightCount: pageWeights.length * pageWeights[0].data.length,
    outputCount: pageOutput.data.length,
  };
}
