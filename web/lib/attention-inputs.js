// The arguments of the attention calls, read and checked once for the forward and the backward of
// each family: scaled dot-product attention (q, k, v and the mask, bias and key-padding options)
// and the multi-head layer (query, key, value, attnMask, keyPaddingMask). Every message names the
// argument; the caller reads its own extra options (trace, pitfall, …).
import { checkBoolean, checkScale, fail, formatShape, product, sameShape, show } from './checks.js';
import { toMask, toTensor } from './read-input.js';
import { readAttnMask } from './attn-mask.js';

const given = (x) => x !== undefined && x !== null;

/**
 * options.causal (true, false or 'lower-right') and options.window (a positive integer): `{ causal,
 * lowerRight, window }` with window 0 for none. Lower-right puts query i at key position i + m − n
 * (PyTorch's causal_lower_right); the window is aligned as the causal mask is.
 */
export function readAlignment(opts) {
  const { causal = false, window } = opts;
  if (causal !== true && causal !== false && causal !== 'lower-right')
    fail(`options.causal must be true or false (or 'lower-right'), got ${show(causal)}`);
  if (window !== undefined && window !== null && (!Number.isSafeInteger(window) || window <= 0 || window > 2 ** 31 - 1))
    fail(`options.window must be a positive integer (keys i − window < j seen by query i), got ${show(window)}`);
  return { causal: causal !== false, lowerRight: causal === 'lower-right', window: window ?? 0 };
}

// A mask or bias of shape [n, m] (shared) or [...lead, n, m] (per batch item): true when per item.
function perBatch(t, lead, n, m, name) {
  if (sameShape(t.shape, [n, m])) return false;
  if (lead.length && sameShape(t.shape, [...lead, n, m])) return true;
  const full = lead.length ? ` or ${formatShape([...lead, n, m])}` : '';
  return fail(`${name} must have shape [n, m] = [${n}, ${m}]${full}, got ${formatShape(t.shape)}`);
}

function sdpaTensors(q, k, v, readFloat) {
  const Q = readFloat(q, 'q');
  const K = readFloat(k, 'k');
  const V = readFloat(v, 'v');
  for (const [name, t, dims] of [
    ['q', Q, '[n, dk]'],
    ['k', K, '[m, dk]'],
    ['v', V, '[m, dv]'],
  ])
    if (t.shape.length < 2) fail(`${name} must have at least 2 dimensions ${dims}, got shape ${formatShape(t.shape)}`);
  const lead = Q.shape.slice(0, -2);
  if (!sameShape(K.shape.slice(0, -2), lead) || !sameShape(V.shape.slice(0, -2), lead))
    fail(
      `q, k and v must have the same batch dimensions, got ${formatShape(Q.shape)}, ${formatShape(K.shape)} and ${formatShape(V.shape)}`,
    );
  const [n, dk] = Q.shape.slice(-2);
  const [m, dkKeys] = K.shape.slice(-2);
  const [mValues, dv] = V.shape.slice(-2);
  if (dk !== dkKeys)
    fail(
      `q and k must have the same last dimension dk: q is ${formatShape(Q.shape)} (dk = ${dk}), k is ${formatShape(K.shape)} (dk = ${dkKeys})`,
    );
  if (m !== mValues)
    fail(
      `k and v must have the same number of rows m (one value per key): k is ${formatShape(K.shape)}, v is ${formatShape(V.shape)}`,
    );
  return { Q, K, V, lead, batch: product(lead), n, m, dk, dv };
}

// Key padding [m] (repeated over the batch) or [...lead, m] → one flag per batch item and key.
function sdpaPadding(value, lead, batch, m) {
  const t = toMask(value, 'options.keyPaddingMask');
  if (sameShape(t.shape, [m])) {
    const padding = new Uint8Array(batch * m);
    for (let b = 0; b < batch; b++) padding.set(t.data, b * m);
    return padding;
  }
  if (lead.length && sameShape(t.shape, [...lead, m])) return t.data;
  return fail(
    `options.keyPaddingMask must have shape [m] = [${m}]${lead.length ? ` or ${formatShape([...lead, m])}` : ''}, got ${formatShape(t.shape)}`,
  );
}

/**
 * scaledDotProductAttention(Grad)'s q, k, v and options (`opts` from checkOptions): `{ Q, K, V,
 * lead, batch, n, m, dk, dv, causal, lowerRight, window, needWeights, scale, mask, maskPerBatch, bias,
 * biasPerBatch, padding }`. `readFloat` reads q, k and v: toTensor, or readFloatInput for a call
 * that copies them straight into WebAssembly memory (Q, K and V then have a shape and a length).
 */
export function readSdpaInputs(q, k, v, opts, readFloat = toTensor) {
  const x = sdpaTensors(q, k, v, readFloat);
  const { lead, n, m } = x;
  Object.assign(x, readAlignment(opts));
  x.needWeights = checkBoolean(opts.needWeights, 'options.needWeights', true);
  x.scale = opts.scale === undefined ? 1 / Math.sqrt(x.dk) : checkScale(opts.scale, 'options.scale');
  x.mask = given(opts.mask) ? toMask(opts.mask, 'options.mask') : null;
  x.maskPerBatch = x.mask ? perBatch(x.mask, lead, n, m, 'options.mask') : false;
  x.bias = given(opts.bias) ? toTensor(opts.bias, 'options.bias', { allowNegativeInfinity: true }) : null;
  x.biasPerBatch = x.bias ? perBatch(x.bias, lead, n, m, 'options.bias') : false;
  x.padding = given(opts.keyPaddingMask) ? sdpaPadding(opts.keyPaddingMask, lead, x.batch, m) : null;
  return x;
}

function multiHeadTensors(dims, query, key, value, readFloat) {
  const q = readFloat(query, 'query');
  const k = key === undefined ? q : readFloat(key, 'key');
  const v = value === undefined ? k : readFloat(value, 'value');
  const rank = q.shape.length;
  if (rank !== 2 && rank !== 3) fail(`query must be [n, E] or [B, n, E], got shape ${formatShape(q.shape)}`);
  for (const [name, t] of [
    ['key', k],
    ['value', v],
  ])
    if (t.shape.length !== rank)
      fail(`${name} must have the same rank as query (${rank}), got shape ${formatShape(t.shape)}`);
  const batched = rank === 3;
  const B = batched ? q.shape[0] : 1;
  const [n, E] = q.shape.slice(-2);
  const m = k.shape[rank - 2];
  if (E !== dims.embedDim)
    fail(`query's last dimension must be embedDim (${dims.embedDim}), got shape ${formatShape(q.shape)}`);
  if (k.shape[rank - 1] !== dims.kdim)
    fail(`key's last dimension must be kdim (${dims.kdim}), got shape ${formatShape(k.shape)}`);
  if (v.shape[rank - 1] !== dims.vdim)
    fail(`value's last dimension must be vdim (${dims.vdim}), got shape ${formatShape(v.shape)}`);
  if (v.shape[rank - 2] !== m)
    fail(`key and value must have the same number of tokens, got ${formatShape(k.shape)} and ${formatShape(v.shape)}`);
  if (batched && (k.shape[0] !== B || v.shape[0] !== B))
    fail(
      `query, key and value must have the same batch size, got ${formatShape(q.shape)}, ${formatShape(k.shape)}, ${formatShape(v.shape)}`,
    );
  return { q, k, v, batched, lead: batched ? [B] : [], B, n, m, E };
}

/**
 * The multi-head layer's query, key, value (key/value undefined: self-attention) and options,
 * checked against the layer's `dims` ({ embedDim, kdim, vdim }): `{ q, k, v, batched, lead, B, n,
 * m, E, causal, lowerRight, window, scale (0: 1/√headDim), mask, bias, padding }` (mask/bias/padding:
 * flat data or null). `readFloat` reads query, key and value, as for readSdpaInputs.
 */
export function readMultiHeadInputs(dims, query, key, value, opts, readFloat = toTensor) {
  const x = multiHeadTensors(dims, query, key, value, readFloat);
  const { n, m, B, batched } = x;
  Object.assign(x, readAlignment(opts));
  x.scale = opts.scale === undefined ? 0 : checkScale(opts.scale, 'options.scale');
  x.mask = null;
  x.bias = null;
  x.padding = null;
  if (given(opts.attnMask)) {
    const read = readAttnMask(opts.attnMask);
    const t = read.mask ?? read.bias;
    if (!sameShape(t.shape, [n, m]))
      fail(`options.attnMask must have shape [n, m] = [${n}, ${m}], got ${formatShape(t.shape)}`);
    x.mask = read.mask?.data ?? null;
    x.bias = read.bias?.data ?? null;
  }
  if (given(opts.keyPaddingMask)) {
    const t = toMask(opts.keyPaddingMask, 'options.keyPaddingMask');
    const want = batched ? [B, m] : [m];
    if (!sameShape(t.shape, want))
      fail(`options.keyPaddingMask must have shape ${formatShape(want)}, got ${formatShape(t.shape)}`);
    x.padding = t.data;
  }
  return x;
}
