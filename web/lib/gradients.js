// Gradients through the core's backward pass: attn.scaledDotProductAttentionGrad and
// MultiHeadAttention#backward (documented in attention.d.ts). Arguments are checked here as the
// forward calls check theirs; the core computes the forward and the backward in one call.
import { fail, formatShape, product, sameShape } from './checks.js';
import { checkOptions, toTensor } from './read-input.js';
import { checkCode } from './wasm-heap.js';
import { readMultiHeadInputs, readSdpaInputs } from './attention-inputs.js';

const SDPA_GRAD_OPTIONS = ['causal', 'mask', 'bias', 'keyPaddingMask', 'scale', 'needWeights', 'window'];
const MHA_BACKWARD_OPTIONS = ['causal', 'attnMask', 'keyPaddingMask', 'scale', 'window'];
const F = 4; // bytes per float32
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

// Bytes of scaledDotProductAttentionGrad's buffers, in the order the core takes them (0 for one
// it does not need): q, k, v, gradOutput, mask, bias, padding, then output, weights, gradQ, gradK,
// gradV and gradScores.
function sdpaGradSizes(x, G) {
  const nm = x.batch * x.n * x.m;
  return [
    x.Q.data.length * F,
    x.K.data.length * F,
    x.V.data.length * F,
    G.data.length * F,
    x.mask ? x.mask.data.length : 0,
    x.bias ? x.bias.data.length * F : 0,
    x.padding ? x.padding.length : 0,
    x.batch * x.n * x.dv * F,
    x.needWeights ? nm * F : 0,
    x.Q.data.length * F,
    x.K.data.length * F,
    x.V.data.length * F,
    x.needWeights ? nm * F : 0,
  ];
}

// The arguments of the core's _attn_scaled_dot_product_attention_backward, in its order, for the
// buffers at a laid out by sdpaGradSizes.
function sdpaGradArguments(a, x) {
  const [q, k, v, gradOutput, mask, bias, padding, output, weights, gradQ, gradK, gradV, gradScores] = a;
  return [
    q,
    k,
    v,
    gradOutput,
    x.batch,
    x.n,
    x.m,
    x.dk,
    x.dv,
    x.scale,
    x.causal,
    mask,
    !!x.maskPerBatch,
    bias,
    !!x.biasPerBatch,
    padding,
    output,
    weights,
    gradQ,
    gradK,
    gradV,
    gradScores,
    x.window,
    x.lowerRight,
  ];
}

function sdpaGradResult(heap, a, { Q, K, V, lead, n, m, dv, needWeights }) {
  const read = (address, shape) => ({ data: heap.readF32(address, product(shape)), shape });
  return {
    output: read(a[7], [...lead, n, dv]),
    weights: needWeights ? read(a[8], [...lead, n, m]) : null,
    gradQ: read(a[9], Q.shape.slice()),
    gradK: read(a[10], K.shape.slice()),
    gradV: read(a[11], V.shape.slice()),
    gradScores: needWeights ? read(a[12], [...lead, n, m]) : null,
  };
}

/** attn.scaledDotProductAttentionGrad: see attention.d.ts. */
export function scaledDotProductAttentionGrad(live, heap, q, k, v, gradOutput, options) {
  const what = 'scaledDotProductAttentionGrad';
  const opts = checkOptions(options, SDPA_GRAD_OPTIONS, `${what} options`);
  const x = readSdpaInputs(q, k, v, opts);
  const { lead, n, m, dk, dv } = x;
  const G = checkGradOutput(gradOutput, [...lead, n, dv]);
  // Asked after the inputs are read: a getter among them may have disposed the instance.
  const module = live();
  const a = heap.layout(sdpaGradSizes(x, G), what, headBackwardWorkspaceBytes(n, m, dk, dv, x.needWeights));
  heap.writeF32(a[0], x.Q.data);
  heap.writeF32(a[1], x.K.data);
  heap.writeF32(a[2], x.V.data);
  heap.writeF32(a[3], G.data);
  if (x.mask) heap.writeU8(a[4], x.mask.data);
  if (x.bias) heap.writeF32(a[5], x.bias.data);
  if (x.padding) heap.writeU8(a[6], x.padding);
  const status = module._attn_scaled_dot_product_attention_backward(...sdpaGradArguments(a, x));
  try {
    checkCode(module, status, what);
    const result = sdpaGradResult(heap, a, x);
    checkFinite(result, what);
    return result;
  } finally {
    heap.settle();
  }
}

// Bytes of the multi-head backward's core workspace (multi_head_backward.cpp), for the memory check.
function multiHeadWorkspaceBytes(layer, B, n, m) {
  const E = layer.embedDim;
  const d = E / layer.numHeads;
  const transposed = Math.max(
    panels(E, E),
    panels(E, layer.kdim),
    panels(E, layer.vdim),
    B * n * E,
    B * m * layer.kdim,
    B * m * layer.vdim,
  );
  const materialize = n * m <= MHA_MATERIALIZE_LIMIT;
  return (
    (4 * B * n * E + 4 * B * m * E + transposed + (materialize ? n * m : 0)) * F +
    headBackwardWorkspaceBytes(n, m, d, d, materialize)
  );
}

// Bytes of the multi-head backward's buffers, in the order the core takes them (0 for one it does
// not need; a key that is the query, a value that is the key, shares its buffer).
function multiHeadBackwardSizes(layer, x, G) {
  const { B, n, m, E } = x;
  const { kdim, vdim } = layer;
  const bias = layer.hasBias ? E * F : 0;
  const inputs = [
    x.q.data.length * F,
    x.k === x.q ? 0 : x.k.data.length * F,
    x.v === x.k ? 0 : x.v.data.length * F,
    G.data.length * F,
    x.mask ? n * m : 0,
    x.bias ? n * m * F : 0,
    x.padding ? B * m : 0,
  ];
  const outputs = [B * n * E * F, B * n * E * F, B * m * kdim * F, B * m * vdim * F]; // output, gradQuery/Key/Value
  const gradWeights = [E * E * F, kdim * E * F, vdim * E * F, E * E * F, bias, bias, bias, bias];
  return [...inputs, ...outputs, ...gradWeights];
}

// Copies the inputs into the buffers at a; returns the addresses of query, key and value.
function writeMultiHeadBackwardInputs(heap, a, x, G) {
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
  return [aq, ak, av];
}

// The arguments of the core's _attn_multi_head_attention_backward, in its order: the layer's
// block, the shape, the inputs at [aq, ak, av] and a[3..6], then the outputs at a[7..18].
function multiHeadBackwardArguments(block, a, [aq, ak, av], x) {
  return [block, x.B, x.n, x.m, aq, ak, av, a[3], x.scale, x.causal, ...a.slice(4), x.window, x.lowerRight];
}

function readMultiHeadBackwardResult(heap, a, layer, { lead, n, E, q, k, v }) {
  const { kdim, vdim } = layer;
  const read = (address, shape) => ({ data: heap.readF32(address, product(shape)), shape });
  const gradWeights = {
    wq: read(a[11], [E, E]),
    wk: read(a[12], [kdim, E]),
    wv: read(a[13], [vdim, E]),
    wo: read(a[14], [E, E]),
  };
  if (layer.hasBias)
    Object.assign(gradWeights, {
      bq: read(a[15], [E]),
      bk: read(a[16], [E]),
      bv: read(a[17], [E]),
      bo: read(a[18], [E]),
    });
  return {
    output: read(a[7], [...lead, n, E]),
    gradQuery: read(a[8], q.shape.slice()),
    gradKey: read(a[9], k.shape.slice()),
    gradValue: read(a[10], v.shape.slice()),
    gradWeights,
  };
}

/**
 * MultiHeadAttention#backward: see attention.d.ts. `live()` gives [module, block], block being the
 * layer's weight block in the core (multi_head_layer.h), which supplies the shape and the weights.
 */
export function multiHeadBackward(live, heap, layer, query, key, value, gradOutput, options) {
  const what = 'multiHeadAttention.backward';
  const opts = checkOptions(options, MHA_BACKWARD_OPTIONS, 'backward options');
  // null key/value mean self-attention here as undefined does
  const x = readMultiHeadInputs(layer, query, key ?? undefined, value ?? undefined, opts);
  const { B, n, m, E, lead } = x;
  const G = checkGradOutput(gradOutput, [...lead, n, E]);
  // Asked after the inputs are read: a getter among them may have disposed the layer or instance.
  const [module, block] = live();
  const a = heap.layout(multiHeadBackwardSizes(layer, x, G), what, multiHeadWorkspaceBytes(layer, B, n, m));
  const inputs = writeMultiHeadBackwardInputs(heap, a, x, G);
  const status = module._attn_multi_head_attention_backward(...multiHeadBackwardArguments(block, a, inputs, x));
  try {
    checkCode(module, status, what);
    const result = readMultiHeadBackwardResult(heap, a, layer, x);
    const { gradWeights, ...tensors } = result;
    checkFinite({ ...tensors, ...gradWeights }, what);
    return result;
  } finally {
    heap.settle();
  }
}
