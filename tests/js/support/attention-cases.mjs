// Random attention problems for the property tests: fast-check draws a small, JSON-friendly case
// description (shapes, magnitudes, mask densities, options and a data seed; easy to shrink and to
// keep in the regression list), and materialize() turns it into tensors deterministically.
import fc from 'fast-check';

// Dimensions: mostly small, often around the SIMD width (4) and its multiples, sometimes larger.
const dim = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 9 }) },
  { weight: 3, arbitrary: fc.constantFrom(1, 3, 4, 5, 7, 8, 12, 15, 16, 17, 31, 32, 33) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 40 }) },
);
// Sizes that cross the streaming kernel's tiles (64 queries × 256 keys) with small feature dims.
const tiled = fc.record({
  n: fc.integer({ min: 60, max: 70 }),
  m: fc.integer({ min: 250, max: 270 }),
  dk: fc.integer({ min: 1, max: 5 }),
  dv: fc.integer({ min: 1, max: 5 }),
});
// Powers of ten for value magnitudes: subnormal, tiny, unit, large; 1e2 × 1e2 gives ±1e4 scores.
const magnitude = fc.constantFrom(-40, -30, -3, 0, 0, 0, 1, 2, 4);
const density = fc.constantFrom(0, 0.1, 0.5, 0.9, 1);
const scale = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) }, // default 1/√dk
  { weight: 1, arbitrary: fc.constant(1) },
  { weight: 2, arbitrary: fc.integer({ min: -40, max: 40 }).map((e) => 10 ** (e / 10)) },
);
const maybe = (arbitrary) => fc.option(arbitrary, { freq: 1, nil: null });

const sdpaShape = fc.oneof(
  { weight: 9, arbitrary: fc.record({ n: dim, m: dim, dk: dim, dv: dim }) },
  { weight: 1, arbitrary: tiled },
);

export const sdpaCase = fc.record({
  shape: sdpaShape,
  lead: fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    { weight: 2, arbitrary: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 2 }) },
  ),
  seed: fc.nat(),
  mag: fc.record({ q: magnitude, k: magnitude, v: magnitude }),
  scale,
  causal: fc.boolean(),
  mask: maybe(fc.record({ perBatch: fc.boolean(), density, fullRows: fc.constantFrom(0, 0.25, 1) })),
  bias: maybe(fc.record({ perBatch: fc.boolean(), mag: magnitude, negInf: fc.constantFrom(0, 0, 0.3, 1) })),
  keyPadding: maybe(fc.record({ perBatch: fc.boolean(), density })),
  needWeights: fc.boolean(),
  trace: fc.boolean(),
  form: fc.constantFrom('typed', 'typed', 'array', 'nested'),
});

// Scores around ±1e4 (and beyond): q, k of 1e2 with scale 1, or a bias of 1e4.
export const hugeScoreCase = sdpaCase.chain((c) =>
  fc
    .record({
      qk: fc.constantFrom(2, 3, 4),
      bias: fc.boolean(),
    })
    .map(({ qk, bias }) => ({
      ...c,
      mag: { ...c.mag, q: qk === 4 ? 2 : qk, k: 2 },
      scale: c.scale ?? 1,
      bias: bias ? { perBatch: false, mag: 4, negInf: 0 } : c.bias,
    })),
);

export const mhaCase = fc.record({
  numHeads: fc.integer({ min: 1, max: 4 }),
  headDim: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constantFrom(4, 8, 12, 16)),
  kdim: maybe(fc.integer({ min: 1, max: 12 })),
  vdim: maybe(fc.integer({ min: 1, max: 12 })),
  selfAttention: fc.boolean(),
  batch: maybe(fc.integer({ min: 1, max: 3 })), // null = unbatched [n, E]
  n: fc.oneof({ weight: 9, arbitrary: dim }, { weight: 1, arbitrary: fc.integer({ min: 60, max: 70 }) }),
  m: fc.oneof({ weight: 9, arbitrary: dim }, { weight: 1, arbitrary: fc.integer({ min: 250, max: 260 }) }),
  bias: fc.boolean(),
  init: fc.constantFrom('seed', 'random'),
  seed: fc.nat(),
  mag: fc.record({ x: fc.constantFrom(-30, -3, 0, 0, 1, 2), w: fc.constantFrom(-1, 0, 0, 1) }),
  causal: fc.boolean(),
  attnMask: maybe(
    fc.oneof(
      fc.record({ kind: fc.constant('bool'), density, fullRows: fc.constantFrom(0, 0.25, 1) }),
      fc.record({ kind: fc.constant('float'), mag: magnitude, negInf: fc.constantFrom(0, 0.3, 1) }),
    ),
  ),
  keyPadding: maybe(fc.record({ density })),
  needWeights: fc.boolean(),
  averageWeights: fc.boolean(),
  trace: fc.boolean(),
});

// mulberry32: small, fast, and identical everywhere, so a case's seed always gives the same data.
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Mostly uniform in ±10^mag, with exact zeros (both signs), small integers and ±1 to make ties.
export function values(rand, count, mag) {
  const out = new Float32Array(count);
  const s = 10 ** mag;
  for (let i = 0; i < count; i++) {
    const r = rand();
    let x;
    if (r < 0.05) x = 0;
    else if (r < 0.08) x = -0;
    else if (r < 0.16) x = Math.floor(rand() * 7) - 3;
    else if (r < 0.2) x = rand() < 0.5 ? -1 : 1;
    else x = 2 * rand() - 1;
    out[i] = x * s;
  }
  return out;
}

export function flags(rand, count, p) {
  const out = new Uint8Array(count);
  for (let i = 0; i < count; i++) out[i] = rand() < p ? 1 : 0;
  return out;
}

// Boolean (rows × m) blocks: each row is fully hidden with probability fullRows, else random.
export function maskRows(rand, blocks, rows, m, dens, fullRows) {
  const out = flags(rand, blocks * rows * m, dens);
  for (let r = 0; r < blocks * rows; r++) if (rand() < fullRows) out.fill(1, r * m, (r + 1) * m);
  return out;
}

export function biasValues(rand, count, mag, negInf) {
  const out = values(rand, count, mag);
  for (let i = 0; i < count; i++) if (rand() < negInf) out[i] = -Infinity;
  return out;
}

export const product = (shape) => shape.reduce((a, b) => a * b, 1);

export function nested(data, shape, leaf = (x) => x) {
  const build = (offset, dims) => {
    if (dims.length === 1) return Array.from(data.subarray(offset, offset + dims[0]), leaf);
    const stride = product(dims.slice(1));
    return Array.from({ length: dims[0] }, (_, i) => build(offset + i * stride, dims.slice(1)));
  };
  return build(0, shape);
}

/** A float tensor in the case's input form; small tensors only as nested arrays. */
export function floatInput(data, shape, form) {
  if (form === 'nested' && data.length <= 4096) return nested(data, shape);
  if (form === 'array') return { data: Array.from(data), shape };
  return { data, shape };
}

export function maskInput(data, shape, form) {
  if (form === 'nested' && data.length <= 4096) return nested(data, shape, (x) => x === 1);
  if (form === 'array') return { data: Array.from(data, (x) => x === 1), shape };
  return { data, shape };
}

/** Turns an SDPA case into tensors: flat data for the reference, API inputs for the call. */
export function materializeSdpa(c) {
  const { n, m, dk, dv } = c.shape;
  const lead = c.lead;
  const batch = product(lead);
  const rand = prng(c.seed);
  const t = {
    batch,
    n,
    m,
    dk,
    dv,
    lead,
    q: values(rand, batch * n * dk, c.mag.q),
    k: values(rand, batch * m * dk, c.mag.k),
    v: values(rand, batch * m * dv, c.mag.v),
    scale: c.scale ?? 1 / Math.sqrt(dk),
    causal: c.causal,
    mask: null,
    maskPerBatch: false,
    bias: null,
    biasPerBatch: false,
    keyPadding: null,
  };
  const options = { causal: c.causal, needWeights: c.needWeights, trace: c.trace };
  if (c.scale !== null) options.scale = c.scale;
  if (c.mask) {
    t.maskPerBatch = c.mask.perBatch && lead.length > 0;
    const blocks = t.maskPerBatch ? batch : 1;
    t.mask = maskRows(rand, blocks, n, m, c.mask.density, c.mask.fullRows);
    options.mask = maskInput(t.mask, t.maskPerBatch ? [...lead, n, m] : [n, m], c.form);
  }
  if (c.bias) {
    t.biasPerBatch = c.bias.perBatch && lead.length > 0;
    t.bias = biasValues(rand, (t.biasPerBatch ? batch : 1) * n * m, c.bias.mag, c.bias.negInf);
    options.bias = floatInput(
      t.bias,
      t.biasPerBatch ? [...lead, n, m] : [n, m],
      c.form === 'nested' ? 'typed' : c.form,
    );
  }
  if (c.keyPadding) {
    const perBatch = c.keyPadding.perBatch && lead.length > 0;
    const pad = flags(rand, (perBatch ? batch : 1) * m, c.keyPadding.density);
    t.keyPadding = new Uint8Array(batch * m);
    for (let b = 0; b < batch; b++) t.keyPadding.set(perBatch ? pad.subarray(b * m, (b + 1) * m) : pad, b * m);
    options.keyPaddingMask = maskInput(pad, perBatch ? [...lead, m] : [m], c.form);
  }
  const inputs = [
    floatInput(t.q, [...lead, n, dk], c.form),
    floatInput(t.k, [...lead, m, dk], c.form),
    floatInput(t.v, [...lead, m, dv], c.form),
  ];
  return { t, inputs, options };
}

// The layer's own weights (in, out) scaled down by √in, and its biases when the case has them,
// drawn from `rand` in this order.
function randomWeights(rand, c, E, kdim, vdim) {
  const w = (inDim) => ({ data: values(rand, inDim * E, c.mag.w - Math.log10(Math.sqrt(inDim))), shape: [inDim, E] });
  const weights = { wq: w(E), wk: w(kdim), wv: w(vdim), wo: w(E) };
  if (c.bias)
    for (const name of ['bq', 'bk', 'bv', 'bo']) weights[name] = { data: values(rand, E, c.mag.w - 1), shape: [E] };
  return weights;
}

// Draws an MHA case's attention mask (boolean or float) and key padding after its inputs, into
// the reference's view `t` and the call's `options`.
function drawMhaMasks(rand, c, t, options) {
  const { B, n, m } = t;
  if (c.attnMask?.kind === 'bool') {
    t.mask = maskRows(rand, 1, n, m, c.attnMask.density, c.attnMask.fullRows);
    options.attnMask = { data: t.mask, shape: [n, m] };
  } else if (c.attnMask?.kind === 'float') {
    t.bias = biasValues(rand, n * m, c.attnMask.mag, c.attnMask.negInf);
    options.attnMask = { data: t.bias, shape: [n, m] };
  }
  if (c.keyPadding) {
    t.keyPadding = flags(rand, B * m, c.keyPadding.density);
    options.keyPaddingMask = { data: t.keyPadding, shape: c.batch === null ? [m] : [B, m] };
  }
}

/** Turns an MHA case into a layer configuration, weights, inputs and options. */
export function materializeMha(c) {
  const H = c.numHeads,
    E = H * c.headDim;
  const self = c.selfAttention;
  const kdim = self ? E : (c.kdim ?? E);
  const vdim = self ? E : (c.vdim ?? E);
  const n = c.n,
    m = self ? c.n : c.m;
  const B = c.batch ?? 1;
  const lead = c.batch === null ? [] : [B];
  const rand = prng(c.seed);
  const config = { embedDim: E, numHeads: H, bias: c.bias, seed: c.seed % 2 ** 32 };
  if (kdim !== E) config.kdim = kdim;
  if (vdim !== E) config.vdim = vdim;
  const weights = c.init === 'random' ? randomWeights(rand, c, E, kdim, vdim) : null;
  const query = values(rand, B * n * E, c.mag.x);
  const key = self ? query : values(rand, B * m * kdim, c.mag.x);
  const value = self ? query : values(rand, B * m * vdim, c.mag.x);
  const t = {
    B,
    n,
    m,
    E,
    H,
    kdim,
    vdim,
    lead,
    query,
    key,
    value,
    causal: c.causal,
    mask: null,
    bias: null,
    keyPadding: null,
  };
  const options = { causal: c.causal, needWeights: c.needWeights, averageWeights: c.averageWeights, trace: c.trace };
  drawMhaMasks(rand, c, t, options);
  const args = self
    ? [{ data: query, shape: [...lead, n, E] }]
    : [
        { data: query, shape: [...lead, n, E] },
        { data: key, shape: [...lead, m, kdim] },
        { data: value, shape: [...lead, m, vdim] },
      ];
  return { t, config, weights, args, options };
}
