// A float64 recomputation of the explorer's attention for tests, written from the formulas and
// sharing no code with the page or the core: projections x·W + b (keys and values from the memory
// X_mem in cross-attention), scores·scale + B (the bias matrix, −∞ allowed), boolean masks, a
// softmax that gives a row with no visible key all zeros, heads as column blocks, concat·W_O + b_O.

const mm = (a, n, k, b, m) => {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++)
    for (let p = 0; p < k; p++) for (let j = 0; j < m; j++) out[i * m + j] += a[i * k + p] * b[p * m + j];
  return out;
};

function hiddenFn(s, m) {
  if (s.mask.kind === 'causal') return (i, j) => j > i;
  if (s.mask.kind === 'padding') return (i, j) => Boolean(s.mask.pad[j]);
  if (s.mask.kind === 'custom') return (i, j) => Boolean(s.mask.custom[i * m + j]);
  return () => false;
}

// q, k, v of the state with their row width and one head's share of it: the matrices themselves in
// the matrix mode; in the sentence mode the projections of the sentence (keys and values of the
// memory in cross-attention), biased when the state has biases.
function queriesKeysValues(s, n, m, h) {
  const M = s.matrices;
  if (s.mode !== 'sentence') return { q: M.Q.data, k: M.K.data, v: M.V.data, width: s.dk, dk: s.dk };
  const E = s.dModel;
  const proj = (name, x, rows) => {
    const W = M[`W${name}`];
    const out = mm(x, rows, E, W.data, W.cols);
    if (s.biases) for (let t = 0; t < out.length; t++) out[t] += M[`B${name}`].data[t % W.cols];
    return out;
  };
  const xkv = s.cross?.on ? M.XM.data : M.X.data;
  const width = M.WQ.cols;
  return { q: proj('Q', M.X.data, n), k: proj('K', xkv, m), v: proj('V', xkv, m), width, dk: width / h };
}

// One head's masked scores and weights (n × m); its weighted values are added into its column
// block of concat (n × vWidth).
function attendHead(p, head, concat) {
  const { q, k, v, width, dk, dv, vWidth, n, m, scale, hidden, B } = p;
  const mk = new Float64Array(n * m);
  const w = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    let top = -Infinity;
    for (let j = 0; j < m; j++) {
      let dot = 0;
      for (let c = 0; c < dk; c++) dot += q[i * width + head * dk + c] * k[j * width + head * dk + c];
      const x = hidden(i, j) ? -Infinity : dot * scale + (B ? B[i * m + j] : 0);
      mk[i * m + j] = x;
      top = Math.max(top, x);
    }
    let sum = 0;
    for (let j = 0; j < m; j++) sum += w[i * m + j] = top === -Infinity ? 0 : Math.exp(mk[i * m + j] - top);
    for (let j = 0; j < m; j++) {
      w[i * m + j] = sum > 0 ? w[i * m + j] / sum : 0;
      for (let c = 0; c < dv; c++) concat[i * vWidth + head * dv + c] += w[i * m + j] * v[j * vWidth + head * dv + c];
    }
  }
  return { mk, w };
}

/**
 * { masked: per head (n × m, −∞ where hidden), weights: per head (n × m), output } for a
 * reconciled explorer state.
 */
export function referenceAttention(s) {
  const M = s.matrices;
  const sentence = s.mode === 'sentence';
  const cross = sentence && s.cross?.on;
  const n = sentence ? s.tokens.length : s.n;
  const m = cross ? s.cross.tokens.length : sentence ? s.tokens.length : s.m;
  const h = sentence ? s.heads : 1;
  const B = s.biasMatrix?.on ? M.B.data : null;
  const hidden = hiddenFn(s, m);
  const { q, k, v, width, dk } = queriesKeysValues(s, n, m, h);
  const dv = sentence ? M.WV.cols / h : s.dv;
  const scale = 1 / ((s.scaling.sqrtDk ? Math.sqrt(dk) : 1) * s.scaling.temperature);
  const vWidth = sentence ? M.WV.cols : s.dv;
  const masked = [];
  const weights = [];
  const concat = new Float64Array(n * vWidth);
  const problem = { q, k, v, width, dk, dv, vWidth, n, m, scale, hidden, B };
  for (let head = 0; head < h; head++) {
    const { mk, w } = attendHead(problem, head, concat);
    masked.push(mk);
    weights.push(w);
  }
  if (h === 1) return { masked, weights, output: concat };
  const E = s.dModel;
  const output = mm(concat, n, E, M.WO.data, E);
  if (s.biases) for (let t = 0; t < output.length; t++) output[t] += M.BO.data[t % E];
  return { masked, weights, output };
}
