// Gradients through the core's backward pass: attn.scaledDotProductAttentionGrad and
// MultiHeadAttention#backward (documented in attention.d.ts). Arguments are checked here as the
// forward calls check theirs; the core computes the forward and the backward in one call.
import {
  checkBoolean, checkOptions, checkScale, fail, formatShape, product, sameShape, toMask, toTensor,
} from './tensors.js';
import { checkCode } from './wasm-heap.js';
import { readAttnMask } from './attn-mask.js';

const SDPA_GRAD_OPTIONS = ['causal', 'mask', 'bias', 'keyPaddingMask', 'scale', 'needWeights'];
const MHA_BACKWARD_OPTIONS = ['causal', 'attnMask', 'keyPaddingMask', 'scale'];
const F = 4;  // bytes per float32
// One head's n × m matrix above this many floats makes the multi-head backward stream
// (kMultiHeadMaterializeLimit in multi_head_backward.h).
const MHA_MATERIALIZE_LIMIT = 2 ** 20;

const panels = (rows, cols) => rows * Math.ceil(cols / 16) * 16;

/**
 * Bytes of core workspace one head's forward + backward needs (attention_head.h's
 * head_backward_workspace_floats plus the row log-sum-exp), for the memory check before a call.
 */
export function headBackwardWorkspaceBytes(n, m, dk, dv, materialize) {
  const floats = materialize
    ? panels(n, m) + n * m + Math.max(dv, dk) * (n + m) + Math.max(panels(dv, m), panels(m, dk))
    : panels(dk, m) + panels(dv, m) + panels(m, dk) + panels(64, dk) + panels(64, dv) + 3 * 64 * 256 + 64;
  return (floats + n) * F;
}

/** Results must be finite: finite inputs can still overflow float32 in the scores or products. */
function checkFinite(tensors, what) {
  for (const [name, t] of Object.entries(tensors)) {
    if (!t) continue;
    const { data } = t;
    for (let i = 0; i < data.length; i++)
      if (!Number.isFinite(data[i]))
        fail(`${what}: ${name} overflows float32 (the inputs, the scale or gradOutput are too large); scale them down`);
  }
}

function checkGradOutput(gradOutput, shape) {
  const g = toTensor(gradOutput, 'gradOutput');
  if (!sameShape(g.shape, shape))
    fail(`gradOutput must have the output's shape ${formatShape(shape)}, got ${formatShape(g.shape)}`);
  return g;
}

// A mask or bias of shape [n, m] (shared) or [...lead, n, m] (per batch item): true when per item.
function perBatch(t, lead, n, m, name) {
  if (sameShape(t.shape, [n, m])) return false;
  if (lead.length && sameShape(t.shape, [...lead, n, m])) return true;
  const full = lead.length ? ` or ${formatShape([...lead, n, m])}` : '';
  return fail(`${name} must have shape [n, m] = [${n}, ${m}]${full}, got ${formatShape(t.shape)}`);
}

function attentionInputs(q, k, v, opts) {
  const Q = toTensor(q, 'q');
  const K = toTensor(k, 'k');
  const V = toTensor(v, 'v');
  for (const [name, t, dims] of [['q', Q, '[n, dk]'], ['k', K, '[m, dk]'], ['v', V, '[m, dv]']])
    if (t.shape.length < 2) fail(`${name} must have at least 2 dimensions ${dims}, got shape ${formatShape(t.shape)}`);
  const lead = Q.shape.slice(0, -2);
  if (!sameShape(K.shape.slice(0, -2), lead) || !sameShape(V.shape.slice(0, -2), lead))
    fail(`q, k and v must have the same batch dimensions, got ${formatShape(Q.shape)}, ${formatShape(K.shape)} and ${formatShape(V.shape)}`);
  const [n, dk] = Q.shape.slice(-2);
  const [m, dkKeys] = K.shape.slice(-2);
  const [mValues, dv] = V.shape.slice(-2);
  if (dk !== dkKeys)
    fail(`q and k must have the same last dimension dk: q is ${formatShape(Q.shape)} (dk = ${dk}), k is ${formatShape(K.shape)} (dk = ${dkKeys})`);
  if (m !== mValues)
    fail(`k and v must have the same number of rows m (one value per key): k is ${formatShape(K.shape)}, v is ${formatShape(V.shape)}`);
  const batch = product(lead);
  const x = { Q, K, V, lead, batch, n, m, dk, dv };
  x.causal = checkBoolean(opts.causal, 'options.causal', false);
  x.needWeights = checkBoolean(opts.needWeights, 'options.needWeights', true);
  x.scale = opts.scale === undefined ? 1 / Math.sqrt(dk) : checkScale(opts.scale, 'options.scale');
  x.mask = null;
  x.bias = null;
  x.padding = null;
  if (opts.mask !== undefined && opts.mask !== null) {
    x.mask = toMask(opts.mask, 'options.mask');
    x.maskPerBatch = perBatch(x.mask, lead, n, m, 'options.mask');
  }
  if (opts.bias !== undefined && opts.bias !== null) {
    x.bias = toTensor(opts.bias, 'options.bias', { allowNegativeInfinity: true });
    x.biasPerBatch = perBatch(x.bias, lead, n, m, 'options.bias');
  }
  if (opts.keyPaddingMask !== undefined && opts.keyPaddingMask !== null) {
    const t = toMask(opts.keyPaddingMask, 'options.keyPaddingMask');
    if (sameShape(t.shape, [m])) {
      x.padding = new Uint8Array(batch * m);
      for (let b = 0; b < batch; b++) x.padding.set(t.data, b * m);
    } else if (lead.length && sameShape(t.shape, [...lead, m])) {
      x.padding = t.data;
    } else {
      fail(`options.keyPaddingMask must have shape [m] = [${m}]${lead.length ? ` or ${formatShape([...lead, m])}` : ''}, got ${formatShape(t.shape)}`);
    }
  }
  return x;
}

/** attn.scaledDotProductAttentionGrad: see attention.d.ts. */
export function scaledDotProductAttentionGrad(module, heap, q, k, v, gradOutput, options) {
  const what = 'scaledDotProductAttentionGrad';
  const opts = checkOptions(options, SDPA_GRAD_OPTIONS, `${what} options`);
  const x = attentionInputs(q, k, v, opts);
  const { lead, batch, n, m, dk, dv } = x;
  const G = checkGradOutput(gradOutput, [...lead, n, dv]);
  const nm = batch * n * m;
  const sizes = [
    x.Q.data.length * F, x.K.data.length * F, x.V.data.length * F, G.data.length * F,
    x.mask ? x.mask.data.length : 0, x.bias ? x.bias.data.length * F : 0, x.padding ? x.padding.length : 0,
    batch * n * dv * F, x.needWeights ? nm * F : 0,
    x.Q.data.length * F, x.K.data.length * F, x.V.data.length * F, x.needWeights ? nm * F : 0,
  ];
  const a = heap.layout(sizes, what, headBackwardWorkspaceBytes(n, m, dk, dv, x.needWeights));
  heap.writeF32(a[0], x.Q.data);
  heap.writeF32(a[1], x.K.data);
  heap.writeF32(a[2], x.V.data);
  heap.writeF32(a[3], G.data);
  if (x.mask) heap.writeU8(a[4], x.mask.data);
  if (x.bias) heap.writeF32(a[5], x.bias.data);
  if (x.padding) heap.writeU8(a[6], x.padding);
  const status = module._attn_scaled_dot_product_attention_backward(
    a[0], a[1], a[2], a[3], batch, n, m, dk, dv, x.scale, x.causal, a[4], !!x.maskPerBatch, a[5],
    !!x.biasPerBatch, a[6], a[7], a[8], a[9], a[10], a[11], a[12]);
  try {
    checkCode(module, status, what);
    const read = (address, shape) => ({ data: heap.readF32(address, product(shape)), shape });
    const result = {
      output: read(a[7], [...lead, n, dv]),
      weights: x.needWeights ? read(a[8], [...lead, n, m]) : null,
      gradQ: read(a[9], x.Q.shape.slice()),
      gradK: read(a[10], x.K.shape.slice()),
      gradV: read(a[11], x.V.shape.slice()),
      gradScores: x.needWeights ? read(a[12], [...lead, n, m]) : null,
    };
    checkFinite(result, what);
    return result;
  } finally {
    heap.settle();
  }
}

function multiHeadInputs(layer, query, key, value, opts) {
  const q = toTensor(query, 'query');
  const k = key === undefined || key === null ? q : toTensor(key, 'key');
  const v = value === undefined || value === null ? k : toTensor(value, 'value');
  const rank = q.shape.length;
  if (rank !== 2 && rank !== 3) fail(`query must be [n, E] or [B, n, E], got shape ${formatShape(q.shape)}`);
  for (const [name, t] of [['key', k], ['value', v]])
    if (t.shape.length !== rank)
      fail(`${name} must have the same rank as query (${rank}), got shape ${formatShape(t.shape)}`);
  const batched = rank === 3;
  const B = batched ? q.shape[0] : 1;
  const [n, E] = q.shape.slice(-2);
  const m = k.shape[rank - 2];
  if (E !== layer.embedDim) fail(`query's last dimension must be embedDim (${layer.embedDim}), got shape ${formatShape(q.shape)}`);
  if (k.shape[rank - 1] !== layer.kdim) fail(`key's last dimension must be kdim (${layer.kdim}), got shape ${formatShape(k.shape)}`);
  if (v.shape[rank - 1] !== layer.vdim) fail(`value's last dimension must be vdim (${layer.vdim}), got shape ${formatShape(v.shape)}`);
  if (v.shape[rank - 2] !== m)
    fail(`key and value must have the same number of tokens, got ${formatShape(k.shape)} and ${formatShape(v.shape)}`);
  if (batched && (k.shape[0] !== B || v.shape[0] !== B))
    fail(`query, key and value must have the same batch size, got ${formatShape(q.shape)}, ${formatShape(k.shape)}, ${formatShape(v.shape)}`);
  const x = { q, k, v, lead: batched ? [B] : [], B, n, m, E, mask: null, bias: null, padding: null };
  x.causal = checkBoolean(opts.causal, 'options.causal', false);
  x.scale = opts.scale === undefined ? 0 : checkScale(opts.scale, 'options.scale');  // 0: 1/√headDim
  if (opts.attnMask !== undefined && opts.attnMask !== null) {
    const read = readAttnMask(opts.attnMask);
    const t = read.mask ?? read.bias;
    if (!sameShape(t.shape, [n, m])) fail(`options.attnMask must have shape [n, m] = [${n}, ${m}], got ${formatShape(t.shape)}`);
    if (read.mask) x.mask = t.data; else x.bias = t.data;
  }
  if (opts.keyPaddingMask !== undefined && opts.keyPaddingMask !== null) {
    const t = toMask(opts.keyPaddingMask, 'options.keyPaddingMask');
    const want = batched ? [B, m] : [m];
    if (!sameShape(t.shape, want)) fail(`options.keyPaddingMask must have shape ${formatShape(want)}, got ${formatShape(t.shape)}`);
    x.padding = t.data;
  }
  return x;
}

// Bytes of the multi-head backward's core workspace (multi_head_backward.cpp), for the memory check.
function multiHeadWorkspaceBytes(layer, B, n, m) {
  const E = layer.embedDim;
  const d = E / layer.numHeads;
  const transposed = Math.max(panels(E, E), panels(E, layer.kdim), panels(E, layer.vdim), B * n * E, B * m * layer.kdim, B * m * layer.vdim);
  const materialize = n * m <= MHA_MATERIALIZE_LIMIT;
  return (4 * B * n * E + 4 * B * m * E + transposed + (materialize ? n * m : 0)) * F +
    headBackwardWorkspaceBytes(n, m, d, d, materialize);
}

/**
 * MultiHeadAttention#backward: see attention.d.ts. `block` is the layer's weight block in the core
 * (multi_head_layer.h), which supplies the shape and the weights.
 */
export function multiHeadBackward(module, heap, layer, block, query, key, value, gradOutput, options) {
  const what = 'multiHeadAttention.backward';
  const opts = checkOptions(options, MHA_BACKWARD_OPTIONS, 'backward options');
  const x = multiHeadInputs(layer, query, key, value, opts);
  const { B, n, m, E, lead } = x;
  const G = checkGradOutput(gradOutput, [...lead, n, E]);
  const { kdim, vdim, hasBias } = layer;
  const bias = hasBias ? E * F : 0;
  const sizes = [
    x.q.data.length * F, x.k === x.q ? 0 : x.k.data.length * F, x.v === x.k ? 0 : x.v.data.length * F,
    G.data.length * F, x.mask ? n * m : 0, x.bias ? n * m * F : 0, x.padding ? B * m : 0,
    B * n * E * F, B * n * E * F, B * m * kdim * F, B * m * vdim * F,  // output, gradQuery/Key/Value
    E * E * F, kdim * E * F, vdim * E * F, E * E * F, bias, bias, bias, bias,  // gradWeights
  ];
  const a = heap.layout(sizes, what, multiHeadWorkspaceBytes(layer, B, n, m));
  const aq = a[0];
  const ak = x.k === x.q ? aq : a[1];
  const av = x.v === x.k ? ak : a[2];
  heap.writeF32(aq, x.q.data);
  if (x.k !== x.q) heap.writeF32(ak, x.k.data);
  if (x.v !== x.k) heap.writeF32(av, x.v.data);
  heap.writeF32(a[3], G.data);
  if (x.mask) heap.writeU8(a[4], x.mask);
  if (x.bias) heap.writeF32(a[5], x.bias);
  if (x.padding) heap.writeU8(a[6], x.padding);
  const status = module._attn_multi_head_attention_backward(
    block, B, n, m, aq, ak, av, a[3], x.scale, x.causal, a[4], a[5], a[6],
    a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18]);
  try {
    checkCode(module, status, what);
    const read = (address, shape) => ({ data: heap.readF32(address, product(shape)), shape });
    const gradWeights = {
      wq: read(a[11], [E, E]), wk: read(a[12], [kdim, E]), wv: read(a[13], [vdim, E]), wo: read(a[14], [E, E]),
    };
    if (hasBias)
      Object.assign(gradWeights, { bq: read(a[15], [E]), bk: read(a[16], [E]), bv: read(a[17], [E]), bo: read(a[18], [E]) });
    const result = {
      output: read(a[7], [...lead, n, E]),
      gradQuery: read(a[8], x.q.shape.slice()),
      gradKey: read(a[9], x.k.shape.slice()),
      gradValue: read(a[10], x.v.shape.slice()),
      gradWeights,
    };
    checkFinite({ output: result.output, gradQuery: result.gradQuery, gradKey: result.gradKey, gradValue: result.gradValue, ...gradWeights }, what);
    return result;
  } finally {
    heap.settle();
  }
}
