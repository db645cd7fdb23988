// Ready-made examples. Each returns a state (or a patch of one); all random numbers come from the
// core's NumPy-compatible generator, so an example is the same everywhere and the lesson's NumPy
// code reproduces it exactly.
import { activeMatrices, dims } from './state.js';
import { tokenVectors } from './embeddings.js';

const matrix = (rows, cols, data) => ({ rows, cols, data: Array.from(data) });
const round2 = (x) => Math.round(x * 100) / 100;

function draw(rng, rows, cols, { scale = 1, round = false } = {}) {
  const { data } = rng.randn(rows, cols);
  return matrix(
    rows,
    cols,
    Array.from(data, (x) => (round ? round2(x * scale) : x * scale)),
  );
}

// Projection weights drawn with std 1/√d_model keep Q, K, V at roughly unit scale (as trained
// layers are initialised), so the effect of the √d_k scaling is the one the lesson describes.
const weightScale = (dModel) => 1 / Math.sqrt(dModel);

const BASE = {
  mode: 'sentence',
  n: 4,
  m: 4,
  dk: 4,
  dv: 4,
  dModel: 8,
  heads: 1,
  seed: 42,
  scaling: { sqrtDk: true, temperature: 1 },
  mask: { kind: 'none' },
  view: { head: 0 },
};

function withTokens(sentence, tokens) {
  return { sentence, tokens };
}

/** New random values for every active matrix, drawn in page order from one seeded generator. */
export function randomMatrices(attn, state, seed) {
  const rng = attn.randomState(seed);
  try {
    const d = dims(state);
    const out = {};
    // The projection biases are drawn last, so switching them on leaves every W's draw as it was;
    // the bias matrix B keeps its values (it is a designed mask, not a random input).
    const active = activeMatrices(state).filter(([name]) => name !== 'B' && name !== 'XM');
    const ordered = [...active.filter(([n]) => !isBiasVector(n)), ...active.filter(([n]) => isBiasVector(n))];
    for (const [name, rows, cols] of ordered) {
      if (!Number.isInteger(rows) || !Number.isInteger(cols)) continue;
      const small = name.startsWith('W') || isBiasVector(name);
      out[name] = draw(rng, rows, cols, { scale: small ? weightScale(d.dModel) : 1, round: true });
    }
    // A sentence's X comes from its words (drawn above all the same, so W stays as it was).
    if (d.sentence) out.X = tokenVectors(attn, { ...state, seed });
    if (d.cross) out.XM = tokenVectors(attn, { ...state, tokens: state.cross.tokens, seed });
    return out;
  } finally {
    rng.dispose();
  }
}

const isBiasVector = (name) => /^B[QKVO]$/.test(name);

/** X for a sentence state: each word's fixed random vector plus its position's (embeddings.js). */
export const makeEmbedder = (attn) => (state) => tokenVectors(attn, state);

/** Values for cells that appear when a matrix grows (deterministic per seed and matrix). */
export function makeFiller(attn, getSeed) {
  return (name, count) => {
    // (New names go at the end of the list, so the older matrices keep their values.)
    const rng = attn.randomState((getSeed() + 7919 * (1 + 'QKVXWQWKWVWO|XM|B|BQ|BK|BV|BO'.indexOf(name))) >>> 0);
    try {
      const { data } = rng.randn(count);
      const scale = name.startsWith('W') || isBiasVector(name) ? 0.35 : 1;
      return Array.from(data, (x) => round2(x * scale));
    } finally {
      rng.dispose();
    }
  };
}

// Four heads built by hand so each shows a pattern heads are known to learn. Token vectors hold a
// constant feature, four positional features (two rotations, turned by a and b per position), four
// word features (two rotations, turned by wa and wb per new word; head 2 reads them) and seven
// random "meaning" features.
const HAND_SENTENCE = 'the cat sat on the mat because it was tired';
const HAND_HEAD_NAMES = ['previous token', 'same word', 'first token', 'broad'];
// d_model E, each head's width hd, the angles a, b by which the positional rotations turn per
// position and wa, wb (40° and 120°) by which the word rotations turn per new word.
const HAND = { E: 16, hd: 4, a: 1.2, b: 0.3, wa: (2 * Math.PI) / 9, wb: (2 * Math.PI) / 3 };

// Writes v, rounded, at (r, c) of an E × E weight matrix.
const put = (M, r, c, v) => {
  M[r * HAND.E + c] = round2(v);
};

// The token vectors X (n × E); a word's number k (0 for the first different word, 1 for the next…)
// and its meaning features are given when it first appears.
function handBuiltX(rng, tokens) {
  const { E, a, b, wa, wb } = HAND;
  const words = new Map();
  const X = new Array(tokens.length * E).fill(0);
  tokens.forEach((t, p) => {
    if (!words.has(t)) {
      const k = words.size;
      const word = [Math.cos(wa * k), Math.sin(wa * k), Math.cos(wb * k), Math.sin(wb * k)];
      words.set(t, [...word, ...Array.from(rng.randn(E - 9).data, (x) => round2(x))]);
    }
    const row = [1, Math.cos(a * p), Math.sin(a * p), Math.cos(b * p), Math.sin(b * p), ...words.get(t)];
    row.forEach((v, c) => {
      X[p * E + c] = round2(v);
    });
  });
  return X;
}

// Head 1 (columns 0-3): previous token. q_i = pos(i − 1) (a rotation back by one step), k_j = pos(j).
function previousTokenHead(WQ, WK) {
  const { a, b } = HAND;
  const c1 = 3.5;
  for (const [w, cosRow, sinRow, col] of [
    [a, 1, 2, 0],
    [b, 3, 4, 2],
  ]) {
    put(WQ, cosRow, col, c1 * Math.cos(w));
    put(WQ, sinRow, col, c1 * Math.sin(w));
    put(WQ, cosRow, col + 1, -c1 * Math.sin(w));
    put(WQ, sinRow, col + 1, c1 * Math.cos(w));
    put(WK, cosRow, col, c1);
    put(WK, sinRow, col + 1, c1);
  }
}

// Head 2 (columns 4-7): same word. W_Q = W_K = c·I read the word features, which have the same
// length √2 for every word (to 2 decimals), so q_i·k_j = 2c²·cos θ_ij is largest, by Cauchy–Schwarz,
// exactly when j is an occurrence of word i. How clearly depends on how far apart the words'
// directions are: the closest two of nine random directions in four dimensions are typically 26°
// apart, while turning by 40° and 120° per word keeps any two of the nine words at least 75° apart
// (cos θ ≤ 0.26). With c = 1.8 (scores c²·cos θ after the √4) a word holds about three quarters of
// its row.
function sameWordHead(WQ, WK) {
  const c = 1.8;
  for (let r = 0; r < HAND.hd; r++) {
    put(WQ, 5 + r, 4 + r, c);
    put(WK, 5 + r, 4 + r, c);
  }
}

// Head 3 (columns 8-11): first token. Every query is the same; keys decrease with position.
function firstTokenHead(WQ, WK) {
  put(WQ, 0, 8, 4);
  put(WK, 3, 8, 4);
  put(WK, 4, 8, -4);
}

// Head 4 (columns 12-15): broad. Tiny weights give nearly uniform attention.
function broadHead(WQ, WK, rng) {
  const { E, hd } = HAND;
  const S = rng.randn(E, hd).data;
  for (let r = 0; r < E; r++)
    for (let c = 0; c < hd; c++) {
      put(WQ, r, 12 + c, 0.05 * S[r * hd + c]);
      put(WK, r, 12 + c, 0.05 * S[(E - 1 - r) * hd + c]);
    }
}

// The four heads' example, drawn in a fixed order from one generator (seed 3).
function handBuiltHeads(attn) {
  const tokens = HAND_SENTENCE.split(' ');
  const n = tokens.length;
  const { E } = HAND;
  const rng = attn.randomState(3);
  try {
    const X = handBuiltX(rng, tokens);
    const W = () => new Array(E * E).fill(0);
    const WQ = W();
    const WK = W();
    const WV = W();
    previousTokenHead(WQ, WK);
    sameWordHead(WQ, WK);
    firstTokenHead(WQ, WK);
    broadHead(WQ, WK, rng);
    const V = rng.randn(E, E).data;
    for (let k = 0; k < E * E; k++) WV[k] = round2(V[k] * 0.3);
    const WO = Array.from(rng.randn(E, E).data, (x) => round2(x * 0.25));
    return {
      ...BASE,
      ...withTokens(HAND_SENTENCE, tokens),
      dModel: E,
      heads: 4,
      seed: 3,
      headNames: [...HAND_HEAD_NAMES],
      matrices: {
        X: matrix(n, E, X),
        WQ: matrix(E, E, WQ),
        WK: matrix(E, E, WK),
        WV: matrix(E, E, WV),
        WO: matrix(E, E, WO),
      },
    };
  } finally {
    rng.dispose();
  }
}

function randomSentence(attn, { sentence, tokens, dModel, dk, dv, heads = 1, seed, mask }) {
  const state = { ...BASE, ...withTokens(sentence, tokens), dModel, dk, dv, heads, seed, mask };
  return { ...state, matrices: randomMatrices(attn, state, seed) };
}

// A sentence with random weights (d_model 8, d_k = d_v = 4) and a mask; tokens are its words.
const sentencePreset = (id, label, description, sentence, seed, mask) => ({
  id,
  label,
  description,
  build: (attn) =>
    randomSentence(attn, {
      sentence,
      tokens: sentence.split(' '),
      dModel: 8,
      dk: 4,
      dv: 4,
      seed,
      mask: { kind: mask },
    }),
});

export const PRESETS = [
  {
    id: 'lesson',
    label: 'Lesson NumPy example (seed 42, X 4×8, W 8×4)',
    description:
      'np.random.seed(42); X = randn(4, 8); Wq, Wk, Wv = three randn(8, 4). The weights match the lesson’s printout (0.85 and 0.62 rows).',
    build(attn) {
      const rng = attn.randomState(42);
      try {
        const X = draw(rng, 4, 8);
        const WQ = draw(rng, 8, 4);
        const WK = draw(rng, 8, 4);
        const WV = draw(rng, 8, 4);
        // W_O comes after the lesson's draws, so they stay exactly the lesson's numbers.
        const WO = draw(rng, 8, 8, { scale: weightScale(8), round: true });
        return {
          ...BASE,
          ...withTokens('the cat sat down', ['the', 'cat', 'sat', 'down']),
          matrices: { X, WQ, WK, WV, WO },
        };
      } finally {
        rng.dispose();
      }
    },
  },
  {
    id: 'hand',
    label: 'By hand: 3 tokens, dₖ = 2',
    description: 'Small whole numbers you can check on paper.',
    build: () => ({
      ...BASE,
      mode: 'qkv',
      n: 3,
      m: 3,
      dk: 2,
      dv: 2,
      matrices: {
        Q: matrix(3, 2, [1, 0, 0, 1, 1, 1]),
        K: matrix(3, 2, [1, 0, 0, 1, 1, 1]),
        V: matrix(3, 2, [1, 0, 0, 1, 0.5, 0.5]),
      },
    }),
  },
  sentencePreset(
    'causal',
    'Causal mask (GPT-style decoder)',
    'Each token sees only itself and earlier tokens: the upper triangle of the weights is exactly 0.',
    'the cat sat on the mat',
    7,
    'causal',
  ),
  sentencePreset(
    'padding',
    'Padding mask ([PAD] tokens)',
    'A short sentence padded to length 6; nobody attends to the [PAD] keys.',
    'I like green tea [PAD] [PAD]',
    11,
    'padding',
  ),
  {
    id: 'saturation',
    label: 'Why √dₖ: unit-variance Q and K with dₖ = 32',
    description: 'Switch √dₖ off: the scores spread to about ±√32 and the weights saturate towards one-hot.',
    build(attn) {
      const rng = attn.randomState(5);
      try {
        const Q = draw(rng, 5, 32, { round: true });
        const K = draw(rng, 5, 32, { round: true });
        const V = draw(rng, 5, 4, { round: true });
        return { ...BASE, mode: 'qkv', n: 5, m: 5, dk: 32, dv: 4, seed: 5, matrices: { Q, K, V } };
      } finally {
        rng.dispose();
      }
    },
  },
  {
    id: 'heads',
    label: 'Four heads, four jobs (d_model = 16, h = 4)',
    description: 'Hand-built heads: previous token, same word, first token, and a broad average.',
    build: handBuiltHeads,
  },
  {
    id: 'mixing',
    label: 'Mixing in the plane: 4 tokens, dᵥ = 2',
    description:
      'Each value is a point in the plane; every output is a weighted average of them and lands inside their hull. Drag the points in the “Mixing” lesson below.',
    build(attn) {
      const rng = attn.randomState(21);
      try {
        const Q = draw(rng, 4, 2, { scale: 1.5, round: true });
        const K = draw(rng, 4, 2, { scale: 1.5, round: true });
        const V = matrix(4, 2, [2, 0.5, 0.5, 2, -1.5, 1, 0, -1.5]);
        return { ...BASE, mode: 'qkv', n: 4, m: 4, dk: 2, dv: 2, seed: 21, matrices: { Q, K, V } };
      } finally {
        rng.dispose();
      }
    },
  },
  {
    id: 'fully-masked',
    label: 'A fully masked row (custom mask)',
    description: 'Query 2 may see no key at all: its weights are 0, not NaN, and its output is 0.',
    build: (attn) => {
      const rng = attn.randomState(13);
      try {
        const Q = draw(rng, 3, 2, { round: true });
        const K = draw(rng, 3, 2, { round: true });
        const V = draw(rng, 3, 2, { round: true });
        return {
          ...BASE,
          mode: 'qkv',
          n: 3,
          m: 3,
          dk: 2,
          dv: 2,
          seed: 13,
          mask: { kind: 'custom', custom: [0, 0, 0, 1, 1, 1, 0, 0, 1], customRows: 3 },
          matrices: { Q, K, V },
        };
      } finally {
        rng.dispose();
      }
    },
  },
];

export const presetById = (id) => PRESETS.find((p) => p.id === id);
