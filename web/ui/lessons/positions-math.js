// The positions lesson's numbers: one query vector and one key vector of the explorer, placed at
// every position m and n, scored four ways. Absolute encodings (sinusoidal, learned-style random)
// add a position vector to q and k; RoPE turns them (attn.rope); ALiBi adds −slope·(m − n) to the
// scaled score. The dot products are the core's (attn.matmul), as are the rotations.
import { positionVector } from '../model/model.js';
import { alibiSlopes } from './inference-math.js';

const transpose = ({ data, shape: [r, c] }) => {
  const out = new Float32Array(r * c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) out[j * r + i] = data[i * c + j];
  return { data: out, shape: [c, r] };
};

// `vector` (length d) at P positions, plus each position's vector of `kind` (none: repeated).
function placed(attn, vector, P, kind, seed) {
  const d = vector.length;
  const data = new Float32Array(P * d);
  for (let p = 0; p < P; p++) {
    const pos = kind === 'none' ? null : positionVector(attn, kind, p, d, seed);
    for (let c = 0; c < d; c++) data[p * d + c] = vector[c] + (pos ? pos[c] : 0);
  }
  return { data, shape: [P, d] };
}

/** The largest spread (max − min) of a [P, P] matrix along any diagonal m − n = δ (cells with `hidden` left out). */
export function diagonalSpread({ data, shape: [P] }, hidden = null) {
  let worst = 0;
  for (let delta = -(P - 1); delta < P; delta++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let m = Math.max(0, delta); m < Math.min(P, P + delta); m++) {
      const k = m * P + (m - delta);
      if (hidden?.[k]) continue;
      lo = Math.min(lo, data[k]);
      hi = Math.max(hi, data[k]);
    }
    if (hi >= lo) worst = Math.max(worst, hi - lo);
  }
  return worst;
}

/**
 * q, k: the content vectors (length d, even for RoPE); P positions; base (RoPE); heads (ALiBi);
 * seed (the learned-style table). Returns { sinusoidal, learned, rope, alibi } each [P, P] (ALiBi:
 * scale·q·k − slope_h·(m − n) for the chosen head, future keys hidden), the rotated rows, the
 * ALiBi slopes and biases, and each map's largest spread along a diagonal.
 */
export function positionScores(attn, { q, k, P, base, heads, head, scale, seed }) {
  const score = (a, b) => attn.matmul(a, transpose(b));
  const maps = {};
  const inputs = {};
  for (const kind of ['sinusoidal', 'learned']) {
    inputs[kind] = { q: placed(attn, q, P, kind, seed), k: placed(attn, k, P, kind, seed) };
    maps[kind] = score(inputs[kind].q, inputs[kind].k);
  }
  const positions = Array.from({ length: P }, (_, p) => p);
  const plain = { q: placed(attn, q, P, 'none'), k: placed(attn, k, P, 'none') };
  inputs.rope = { q: attn.rope(plain.q, { base, positions }), k: attn.rope(plain.k, { base, positions }) };
  maps.rope = score(inputs.rope.q, inputs.rope.k);
  const content = score(plain.q, plain.k);
  const slopes = alibiSlopes(heads);
  const bias = slopes.map((slope) => alibiBias(slope, P));
  const alibiHidden = new Uint8Array(P * P);
  const alibi = new Float32Array(P * P);
  for (let m = 0; m < P; m++) {
    for (let n = 0; n < P; n++) {
      alibiHidden[m * P + n] = n > m ? 1 : 0;
      alibi[m * P + n] = n > m ? -Infinity : scale * content.data[m * P + n] + bias[head].data[m * P + n];
    }
  }
  maps.alibi = { data: alibi, shape: [P, P] };
  const spread = {
    sinusoidal: diagonalSpread(maps.sinusoidal),
    learned: diagonalSpread(maps.learned),
    rope: diagonalSpread(maps.rope),
    alibi: diagonalSpread(maps.alibi, alibiHidden),
  };
  return { maps, inputs, content, slopes, bias, alibiHidden, spread };
}

/** ALiBi's bias for one head: −slope·(m − n) where n ≤ m, −∞ above the diagonal (causal). */
function alibiBias(slope, P) {
  const data = new Float32Array(P * P);
  for (let m = 0; m < P; m++) for (let n = 0; n < P; n++) data[m * P + n] = n > m ? -Infinity : -slope * (m - n);
  return { data, shape: [P, P] };
}

/**
 * RoPE's clock hands at position p: pair i of a head of d features (d even) turns by p·θ_i with
 * θ_i = base^(−2i/d). The hands are attn.rope applied to the unit vectors e_i: row i comes back as
 * cos(p·θ_i) at column i and sin(p·θ_i) at column i + d/2. Returns [{ theta, cos, sin }].
 */
export function ropeHands(attn, d, p, base) {
  const half = d / 2;
  const units = new Float32Array(half * d);
  for (let i = 0; i < half; i++) units[i * d + i] = 1;
  const turned = attn.rope({ data: units, shape: [half, d] }, { base, positions: new Array(half).fill(p) });
  return Array.from({ length: half }, (_, i) => ({
    theta: base ** ((-2 * i) / d),
    cos: turned.data[i * d + i],
    sin: turned.data[i * d + i + half],
  }));
}
