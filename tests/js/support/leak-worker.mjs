// Child process of leaks.test.mjs (run with --expose-gc): calls every API function many times on
// one build and prints, per scenario, the WebAssembly heap in use (mallinfo, via the bindings'
// _heapBytesInUse) before and after, as one JSON line each.
//
//   node --expose-gc tests/js/support/leak-worker.mjs <simd|scalar> [calls]
//
// The API keeps its module private; the worker reaches it through module-spy.mjs. If that ever
// stops working, the worker says so and exits nonzero rather than measuring nothing.
import { setImmediate as tick } from 'node:timers/promises';

import { modules } from './module-spy.mjs';

const [variant = 'simd', callsArg] = process.argv.slice(2);
const CALLS = Number(callsArg) || 10000;
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

const { createAttention } = await import('../../../web/lib/attention.js');
const attn = await createAttention({ simd: variant === 'simd' });
attn.randomState(0).dispose();
if (modules.size !== 1) throw new Error(`expected to find the WebAssembly module, found ${modules.size}`);
const [module] = modules;
if (typeof module._heapBytesInUse !== 'function')
  throw new Error('the build has no _heapBytesInUse; rebuild (npm run build)');

const heapInUse = () => module._heapBytesInUse();
const memoryBytes = () => module.HEAPU8.length;

// Full collections until finalizers have run and the heap stops shrinking.
async function settle() {
  let last = Infinity;
  for (let round = 0; round < 40; round++) {
    globalThis.gc();
    await tick();
    const now = heapInUse();
    if (now >= last && round >= 3) break;
    last = now;
  }
}

const f32 = (shape, seed = 1) => {
  const count = shape.reduce((a, b) => a * b, 1);
  return { data: Float32Array.from({ length: count }, (_, i) => Math.sin(i * 0.7 + seed)), shape };
};
const q = f32([2, 5, 8]),
  k = f32([2, 7, 8], 2),
  v = f32([2, 7, 6], 3);
const mask = { data: Uint8Array.from({ length: 35 }, (_, i) => (i % 4 === 0 ? 1 : 0)), shape: [5, 7] };
const bias = f32([2, 5, 7], 4);
const keyPaddingMask = { data: Uint8Array.from({ length: 14 }, (_, i) => (i % 5 === 1 ? 1 : 0)), shape: [2, 7] };
const x = f32([2, 5, 8], 5),
  mem = f32([2, 7, 8], 6);
const layer = attn.multiHeadAttention({ embedDim: 8, numHeads: 2, seed: 1 });
const torchState = {
  in_proj_weight: f32([24, 8], 7),
  in_proj_bias: f32([24], 8),
  'out_proj.weight': f32([8, 8], 9),
  'out_proj.bias': f32([8], 10),
};
const rng = attn.randomState(5);
const pitfalls = ['mask-after-softmax', 'mask-value-zero', 'scale-by-dk'];
const expectError = (call) => {
  try {
    call();
  } catch {
    return;
  }
  throw new Error('expected an error');
};

const tiny = { vocabSize: 7, contextLength: 6, dModel: 8, numLayers: 2, numHeads: 2 };
const model = attn.transformer({ ...tiny, tieEmbeddings: false });
const tokens = [
    [0, 3, 1, 6, 2],
    [2, 6, 1, 0, 3],
  ],
  targets = [
    [3, 1, -1, 2, 2],
    [6, 1, -1, 3, 0],
  ];
const modelBytes = model.toSafetensors();

const scenarios = {
  'sdpa with weights': () => attn.scaledDotProductAttention(q, k, v),
  'sdpa streaming (needWeights: false)': () =>
    attn.scaledDotProductAttention(q, k, v, { needWeights: false, causal: true }),
  'sdpa with masks, bias and trace': () =>
    attn.scaledDotProductAttention(q, k, v, { mask, bias, keyPaddingMask, trace: true }),
  'sdpa with pitfalls': (i) => attn.scaledDotProductAttention(q, k, v, { pitfall: pitfalls[i % 3], mask }),
  'sdpa rejected in JS (NaN)': () =>
    expectError(() => attn.scaledDotProductAttention({ data: [NaN], shape: [1, 1] }, k, v)),
  'sdpa rejected by the core (scale 1e-50)': () =>
    expectError(() => attn.scaledDotProductAttention(q, k, v, { scale: 1e-50 })),
  'randomState draws (randn, rand, seed)': (i) => {
    rng.randn(3, 4);
    rng.rand(5);
    if (i % 100 === 0) rng.seed(i);
  },
  'randomState create + dispose': (i) => attn.randomState(i).dispose(),
  'randomState dropped (garbage-collected)': (i) => attn.randomState(i).randn(2),
  'multiHeadAttention create + forward + dispose': (i) => {
    const l = attn.multiHeadAttention({ embedDim: 8, numHeads: 2, seed: i });
    l.forward(x);
    l.dispose();
  },
  'multiHeadAttention dropped (garbage-collected)': (i) =>
    attn.multiHeadAttention({ embedDim: 8, numHeads: 4, seed: i }).forward(x),
  'multiHeadAttention forward (cross, masks, trace)': (i) =>
    layer.forward(x, mem, mem, {
      causal: i % 2 === 0,
      keyPaddingMask,
      attnMask: mask,
      trace: i % 3 === 0,
      averageWeights: i % 5 !== 0,
      needWeights: i % 7 !== 0,
    }),
  'multiHeadAttention forward with pitfalls': (i) =>
    layer.forward(x, undefined, undefined, { pitfall: ['scale-by-dmodel', 'skip-wo', 'mask-value-zero'][i % 3] }),
  'multiHeadAttention weights (set, get, loadTorchState, parameterCount)': () => {
    layer.loadTorchState(torchState);
    layer.setWeights(layer.getWeights());
    layer.parameterCount();
  },
  'multiHeadAttention rejected (bad seed, after allocating)': () =>
    expectError(() => attn.multiHeadAttention({ embedDim: 8, numHeads: 2, seed: -1 })),
  'multiHeadAttention forward rejected': () => expectError(() => layer.forward(f32([5, 3]))),
  'transformer trainStep, forward, gradients, state': (i) => {
    model.trainStep(tokens, targets, { learningRate: 1e-3, clipNorm: i % 2 ? 1 : undefined });
    model.forward(tokens, { needWeights: i % 3 !== 0 });
    if (i % 10 === 0) model.loadState(model.gradients(tokens, targets).grads);
    if (i % 100 === 0) model.resetOptimizer();
  },
  'transformer create, safetensors, dispose': (i) => {
    attn.transformer({ ...tiny, seed: i, mlp: i % 2 === 0 }).dispose();
    if (i % 10 === 0) attn.transformerFromSafetensors(modelBytes, { ...tiny, tieEmbeddings: false }).dispose();
  },
  'transformer dropped (garbage-collected)': (i) => attn.transformer({ ...tiny, seed: i }).forward(tokens[0]),
  'transformer rejected (tokens, targets, state)': (i) => {
    expectError(() => model.forward([[0, 7]]));
    expectError(() =>
      model.trainStep(tokens, [
        [-1, -1, -1, -1, -1],
        [-1, -1, -1, -1, -1],
      ]),
    );
    if (i % 10 === 0) expectError(() => model.loadState({ 'wte.weight': [[0]] }));
  },
  'lessons (sampleDotProducts, softmax, rowStats, attentionCost)': (i) => {
    attn.lessons.sampleDotProducts({ dk: 4, count: 20, seed: i, bins: 5 });
    attn.lessons.softmax(bias, { scale: 2 });
    attn.lessons.rowStats(f32([3, 4]));
    attn.lessons.attentionCost({ n: 16, dModel: 8, numHeads: 2 });
  },
  // Gradients (web/lib/gradients.js)
  'sdpa gradients (materialized and streaming, masks, bias)': (i) =>
    attn.scaledDotProductAttentionGrad(q, k, v, f32([2, 5, 6], 11), {
      mask,
      bias,
      keyPaddingMask,
      causal: i % 2 === 0,
      needWeights: i % 3 !== 0,
    }),
  'sdpa gradients rejected (gradOutput shape)': () =>
    expectError(() => attn.scaledDotProductAttentionGrad(q, k, v, f32([2, 5, 5]))),
  'multiHeadAttention backward (self and cross, masks)': (i) => {
    const cross = i % 2 === 1; // the masks are for m = 7 keys (mem)
    layer.backward(x, cross ? mem : x, cross ? mem : x, f32([2, 5, 8], 12), {
      causal: i % 3 === 0,
      keyPaddingMask: cross ? keyPaddingMask : undefined,
      attnMask: cross && i % 5 === 1 ? mask : undefined,
    });
  },
  'multiHeadAttention backward rejected': () => expectError(() => layer.backward(x, x, x, f32([2, 5, 7]))),
};

const only = process.env.ATTN_LEAK_ONLY;
for (const [name, run] of Object.entries(scenarios)) {
  if (only && !name.includes(only)) continue;
  for (let i = 0; i < 50; i++) run(i); // warm-up: the scratch block reaches its size
  await settle();
  const before = heapInUse(),
    memoryBefore = memoryBytes();
  let peak = before;
  for (let i = 0; i < CALLS; i++) {
    run(i);
    if (i % 500 === 499) {
      peak = Math.max(peak, heapInUse());
      await tick(); // lets finalizers of dropped objects run, as a page's event loop would
    }
  }
  await settle();
  const after = heapInUse();
  console.log(JSON.stringify({ name, calls: CALLS, before, after, peak, memoryBefore, memoryAfter: memoryBytes() }));
}
rng.dispose();
layer.dispose();
model.dispose();
