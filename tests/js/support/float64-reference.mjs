// An independent float64 implementation of scaled dot-product and multi-head attention, written
// from the API contract (attention.d.ts), not from the C++ core: plain loops, the textbook
// softmax, no blocking or streaming. The property tests compare both WebAssembly builds against it.
//
// Besides each value it returns a first-order bound on the error a correct float32 computation
// may make (any summation order, any tiling), so tolerances follow the conditioning of the case:
// tight where the problem is well conditioned, loose only where float32 itself cannot do better
// (e.g. scores of ±1e4 whose float32 dot products carry absolute errors of ~1e-3).
//
// Error model, u = 2⁻²⁴ (float32 unit roundoff), inputs exact float32:
//   dot product of length d:  |err| ≤ d·(u·Σ|aᵢbᵢ| + 2⁻¹⁴⁹) + Σ(|Δaᵢ||bᵢ| + |aᵢ||Δbᵢ|)
//                             (2⁻¹⁴⁹: the absolute error of an operation that underflows, which a
//                             large weight downstream can make visible)
//   softmax:                  shift-invariant, so with x = z − max and δ = max error of the row's z,
//                             |Δlog p_j| ≤ L_j = 2δ + u·(|x_j| + Σₖ pₖ|xₖ|) + (m + 8)·u, hence
//                             |Δp_j| ≤ min(1, p_j·(e^L_j − 1))  (≈ p_j·L_j when the row is well conditioned)
//                             + 2⁻¹²⁶ (exp may flush weights below float32's normal range to 0)
//   weights · V:              |err| ≤ Σ_j (|Δp_j||v_j| + p_j|Δv_j|) + (m + 2)·u·Σ_j p_j|v_j|
// Tests allow a small multiple of the bound plus a floor for gradual underflow (subnormals).

export const U = 2 ** -24;
const FLOAT32_MIN_NORMAL = 2 ** -126;
const UNDERFLOW = 2 ** -149; // absolute error of a float32 operation whose result underflows

/**
 * One attention head on contiguous float64 arrays with error bounds.
 * q (n×d), k (m×d), v (m×dv); eq/ek/ev their error bounds (or null = exact).
 * `scaleRel`: relative error of `scale` itself as the implementation sees it.
 * `hidden(i, j)` → true when key j is masked for query i; `bias(i, j)` → additive bias (may be -∞).
 */
export function attendHead(args) {
  const { n, m, dv } = args;
  const nm = n * m;
  const r = {
    scores: new Float64Array(nm),
    eScores: new Float64Array(nm),
    scaled: new Float64Array(nm),
    eScaled: new Float64Array(nm),
    masked: new Float64Array(nm),
    eMasked: new Float64Array(nm),
    weights: new Float64Array(nm),
    eWeights: new Float64Array(nm),
    output: new Float64Array(n * dv),
    eOutput: new Float64Array(n * dv),
    fully: new Uint8Array(n),
  };
  for (let i = 0; i < n; i++) {
    const { rowMax, delta } = scoreRow(r, args, i);
    if (rowMax === -Infinity) {
      r.fully[i] = 1; // weights and output stay exactly 0
      continue;
    }
    softmaxRow(r, m, i * m, rowMax, delta);
    outputRow(r, args, i);
  }
  return r;
}

// Row i of the scores, scaled and masked scores with their bounds; returns the row's largest
// masked score and the largest error bound among them (δ of the softmax bound).
function scoreRow(r, { m, d, q, k, eq = null, ek = null, scale, scaleRel = 0, hidden = () => false, bias = null }, i) {
  let rowMax = -Infinity;
  let delta = 0;
  for (let j = 0; j < m; j++) {
    let dot = 0,
      mag = 0,
      inErr = 0;
    for (let c = 0; c < d; c++) {
      const a = q[i * d + c],
        b = k[j * d + c];
      dot += a * b;
      mag += Math.abs(a * b);
      if (eq) inErr += eq[i * d + c] * Math.abs(b);
      if (ek) inErr += Math.abs(a) * ek[j * d + c];
    }
    const x = i * m + j;
    r.scores[x] = dot;
    r.eScores[x] = d * (U * mag + UNDERFLOW) + inErr;
    r.scaled[x] = dot * scale;
    r.eScaled[x] = scale * r.eScores[x] + (U + scaleRel) * Math.abs(r.scaled[x]);
    const b = bias ? bias(i, j) : 0;
    if (hidden(i, j) || b === -Infinity) {
      r.masked[x] = -Infinity;
      r.eMasked[x] = 0;
      continue;
    }
    r.masked[x] = r.scaled[x] + b;
    r.eMasked[x] = r.eScaled[x] + U * Math.abs(r.masked[x]);
    rowMax = Math.max(rowMax, r.masked[x]);
    delta = Math.max(delta, r.eMasked[x]);
  }
  return { rowMax, delta };
}

// The softmax of the row starting at `row`, with the bound on each weight (see the error model).
function softmaxRow({ masked, weights, eWeights }, m, row, rowMax, delta) {
  let sum = 0;
  for (let j = 0; j < m; j++) sum += weights[row + j] = Math.exp(masked[row + j] - rowMax);
  let meanShift = 0;
  for (let j = 0; j < m; j++) {
    weights[row + j] /= sum;
    if (weights[row + j] > 0) meanShift += weights[row + j] * (rowMax - masked[row + j]);
  }
  const logSum = Math.log(sum);
  for (let j = 0; j < m; j++) {
    if (masked[row + j] === -Infinity) continue; // hidden: exactly 0, no error allowed
    const p = weights[row + j];
    const x = masked[row + j] - rowMax;
    // Bound on the error of log p_j; exp of it, not its first-order term, so that badly
    // conditioned rows (δ of 1 or more: scores near 1e8) are judged fairly too.
    const logErr = 2 * delta + U * (-x + meanShift) + (m + 8) * U;
    const err = p > 1e-300 ? p * Math.expm1(logErr) : Math.exp(x - logSum + logErr);
    eWeights[row + j] = FLOAT32_MIN_NORMAL + Math.min(1, err);
  }
}

// Row i of weights · V with its bounds.
function outputRow({ masked, weights, eWeights, output, eOutput }, { m, dv, v, ev = null }, i) {
  const row = i * m;
  for (let c = 0; c < dv; c++) {
    let acc = 0,
      err = 0,
      mag = 0;
    for (let j = 0; j < m; j++) {
      const p = weights[row + j];
      if (masked[row + j] === -Infinity) continue;
      const val = v[j * dv + c];
      acc += p * val;
      mag += p * Math.abs(val);
      err += eWeights[row + j] * Math.abs(val) + (ev ? p * ev[j * dv + c] : 0);
    }
    output[i * dv + c] = acc;
    eOutput[i * dv + c] = err + (m + 2) * (U * mag + UNDERFLOW);
  }
}

function slice(src, offset, length) {
  return Float64Array.from(src.subarray ? src.subarray(offset, offset + length) : src.slice(offset, offset + length));
}

/**
 * Batched SDPA exactly as the API defines it. Masks are flat: mask/bias either (n, m) shared or
 * (batch, n, m) per batch item; keyPadding (batch, m) (already broadcast); all optional.
 * Returns flat Float64Arrays over (batch, …) and their bounds, plus fullyMasked (batch·n flags).
 */
export function referenceAttention({
  batch,
  n,
  m,
  dk,
  dv,
  q,
  k,
  v,
  scale,
  causal = false,
  mask = null,
  maskPerBatch = false,
  bias = null,
  biasPerBatch = false,
  keyPadding = null,
}) {
  const nm = n * m;
  const keys = ['scores', 'eScores', 'scaled', 'eScaled', 'masked', 'eMasked', 'weights', 'eWeights'];
  const out = Object.fromEntries(keys.map((key) => [key, new Float64Array(batch * nm)]));
  out.output = new Float64Array(batch * n * dv);
  out.eOutput = new Float64Array(batch * n * dv);
  out.fullyMasked = new Uint8Array(batch * n);
  for (let b = 0; b < batch; b++) {
    const maskAt = maskPerBatch ? b * nm : 0;
    const biasAt = biasPerBatch ? b * nm : 0;
    const head = attendHead({
      n,
      m,
      d: dk,
      dv,
      scale,
      q: slice(q, b * n * dk, n * dk),
      k: slice(k, b * m * dk, m * dk),
      v: slice(v, b * m * dv, m * dv),
      hidden: (i, j) =>
        (causal && j > i) ||
        (mask !== null && mask[maskAt + i * m + j] !== 0) ||
        (keyPadding !== null && keyPadding[b * m + j] !== 0),
      bias: bias === null ? null : (i, j) => bias[biasAt + i * m + j],
    });
    for (const key of keys) out[key].set(head[key], b * nm);
    out.output.set(head.output, b * n * dv);
    out.eOutput.set(head.eOutput, b * n * dv);
    out.fullyMasked.set(head.fully, b * n);
  }
  return out;
}

// y (rows × out) = x (rows × in) · w (in × out) + b, with x's error bound ex (or null).
function linear(x, ex, rows, inDim, w, b, outDim) {
  const y = new Float64Array(rows * outDim),
    ey = new Float64Array(rows * outDim);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < outDim; c++) {
      let acc = b ? b[c] : 0,
        mag = b ? Math.abs(b[c]) : 0,
        err = 0;
      for (let p = 0; p < inDim; p++) {
        const wv = w[p * outDim + c];
        acc += x[r * inDim + p] * wv;
        mag += Math.abs(x[r * inDim + p] * wv);
        if (ex) err += ex[r * inDim + p] * Math.abs(wv);
      }
      y[r * outDim + c] = acc;
      ey[r * outDim + c] = err + (inDim + 1) * (U * mag + UNDERFLOW);
    }
  return { y, ey };
}

// Columns [c0, c0 + width) of a (rows × cols) matrix, contiguous.
function columns(src, rows, cols, c0, width) {
  const out = new Float64Array(rows * width);
  for (let r = 0; r < rows; r++) for (let c = 0; c < width; c++) out[r * width + c] = src[r * cols + c0 + c];
  return out;
}

// Head h of batch item b: its columns of Q, K and V (values and error bounds) through attendHead,
// a key hidden where the causal mask, the shared mask or item b's key padding says so.
function multiHeadHead({ n, m, E, d, scale, Q, K, V, causal, mask, bias, keyPadding }, b, h) {
  const rowsQ = (t) => t.subarray(b * n * E, (b + 1) * n * E);
  const rowsK = (t) => t.subarray(b * m * E, (b + 1) * m * E);
  return attendHead({
    n,
    m,
    d,
    dv: d,
    scale,
    scaleRel: U,
    q: columns(rowsQ(Q.y), n, E, h * d, d),
    eq: columns(rowsQ(Q.ey), n, E, h * d, d),
    k: columns(rowsK(K.y), m, E, h * d, d),
    ek: columns(rowsK(K.ey), m, E, h * d, d),
    v: columns(rowsK(V.y), m, E, h * d, d),
    ev: columns(rowsK(V.ey), m, E, h * d, d),
    hidden: (i, j) =>
      (causal && j > i) ||
      (mask !== null && mask[i * m + j] !== 0) ||
      (keyPadding !== null && keyPadding[b * m + j] !== 0),
    bias: bias === null ? null : (i, j) => bias[i * m + j],
  });
}

// Files head h of batch item b into the gathered results: its weights, its share of the average
// over heads (with the rounding of the division and the sum in the bound), its output columns of
// concat, and (from the first head, as every head hides the same keys) the fully masked rows.
function gatherHead(all, { n, m, E, H, d }, head, b, h) {
  const nm = n * m;
  all.headWeights.set(head.weights, (b * H + h) * nm);
  all.eHeadWeights.set(head.eWeights, (b * H + h) * nm);
  for (let x = 0; x < nm; x++) {
    all.averaged[b * nm + x] += head.weights[x] / H;
    all.eAveraged[b * nm + x] += head.eWeights[x] / H + 2 * U * head.weights[x];
  }
  for (let i = 0; i < n; i++)
    for (let c = 0; c < d; c++) {
      all.concat[(b * n + i) * E + h * d + c] = head.output[i * d + c];
      all.eConcat[(b * n + i) * E + h * d + c] = head.eOutput[i * d + c];
    }
  if (h === 0) all.fullyMasked.set(head.fully, b * n);
}

/**
 * torch.nn.MultiheadAttention (batch_first) in x·W + b layout: W are (in, out), biases (E) or null.
 * query (B, n, E), key (B, m, kdim), value (B, m, vdim); mask/bias (n, m) shared; keyPadding (B, m).
 * Each head scales by the float32 value of 1/√d, as the core does, with its rounding in the bound.
 */
export function referenceMultiHead({
  B,
  n,
  m,
  E,
  H,
  kdim,
  vdim,
  weights,
  query,
  key,
  value,
  causal = false,
  mask = null,
  bias = null,
  keyPadding = null,
}) {
  const d = E / H,
    nm = n * m;
  const { wq, wk, wv, wo, bq = null, bk = null, bv = null, bo = null } = weights;
  const Q = linear(query, null, B * n, E, wq, bq, E);
  const K = linear(key, null, B * m, kdim, wk, bk, E);
  const V = linear(value, null, B * m, vdim, wv, bv, E);
  const scale = 1 / Math.sqrt(d);
  const all = {
    headWeights: new Float64Array(B * H * nm),
    eHeadWeights: new Float64Array(B * H * nm),
    averaged: new Float64Array(B * nm),
    eAveraged: new Float64Array(B * nm),
    concat: new Float64Array(B * n * E),
    eConcat: new Float64Array(B * n * E),
    fullyMasked: new Uint8Array(B * n),
  };
  const problem = { n, m, E, H, d, scale, Q, K, V, causal, mask, bias, keyPadding };
  for (let b = 0; b < B; b++) for (let h = 0; h < H; h++) gatherHead(all, problem, multiHeadHead(problem, b, h), b, h);
  const { headWeights, eHeadWeights, averaged, eAveraged, concat, eConcat, fullyMasked } = all;
  const O = linear(concat, eConcat, B * n, E, wo, bo, E);
  return {
    q: Q.y,
    eQ: Q.ey,
    k: K.y,
    eK: K.ey,
    v: V.y,
    eV: V.ey,
    headWeights,
    eHeadWeights,
    averaged,
    eAveraged,
    concat,
    eConcat,
    output: O.y,
    eOutput: O.ey,
    fullyMasked,
  };
}
