// attn.lessons.flashAttention: the online softmax of the streaming kernel, tile by tile, computed
// by the core (src/core/flash_trace.cpp, the kernel's own recurrence). Documented in attention.d.ts.
import { checkPositiveInteger, checkScale, fail, formatShape } from './checks.js';
import { checkOptions, toTensor } from './read-input.js';
import { readAlignment } from './attention-inputs.js';
import { check, formatBytes } from './wasm-heap.js';

const OPTIONS = ['blockRows', 'blockCols', 'causal', 'scale'];
// Every step's state is returned: beyond this many floats a lesson asks for too much.
const MAX_STATE_FLOATS = 2 ** 24;

function readInputs(q, k, v) {
  const Q = toTensor(q, 'q');
  const K = toTensor(k, 'k');
  const V = toTensor(v, 'v');
  for (const [name, t, dims] of [
    ['q', Q, '[n, dk]'],
    ['k', K, '[m, dk]'],
    ['v', V, '[m, dv]'],
  ])
    if (t.shape.length !== 2) fail(`${name} must be a matrix ${dims}, got shape ${formatShape(t.shape)}`);
  const [n, dk] = Q.shape;
  const [m, dkKeys] = K.shape;
  const [mValues, dv] = V.shape;
  if (dk !== dkKeys)
    fail(`q and k must have the same number of columns dk, got ${formatShape(Q.shape)} and ${formatShape(K.shape)}`);
  if (m !== mValues)
    fail(`k and v must have the same number of rows m, got ${formatShape(K.shape)} and ${formatShape(V.shape)}`);
  return { Q, K, V, n, m, dk, dv };
}

// The steps from the core's buffers (flash_trace.h: step (r, c) at state row r·blockRows·C + c·rows).
function readSteps(heap, a, { n, m, dv }, br, bc) {
  const C = Math.ceil(m / bc);
  const skipped = heap.readU8(a.skipped, Math.ceil(n / br) * C);
  const steps = [];
  for (let r = 0, step = 0; r * br < n; r++) {
    const rows = Math.min(br, n - r * br);
    for (let c = 0; c < C; c++, step++) {
      const at = r * br * C + c * rows;
      steps.push({
        rowBlock: r,
        colBlock: c,
        skipped: skipped[step] === 1,
        rowMax: heap.readF32(a.rowMax + at * 4, rows),
        rowSum: heap.readF32(a.rowSum + at * 4, rows),
        partialOutput: { data: heap.readF32(a.partial + at * dv * 4, rows * dv), shape: [rows, dv] },
      });
    }
  }
  return steps;
}

// The block sizes, the alignment of the causal mask and the scale from flashAttention's options.
// A block of more than n rows (m columns) is the one block of them all, so it is passed as n (m):
// the core takes it as a 32-bit size_t, where 2 ** 32 + 1 would be 1 while the steps are read as one.
function readSettings(opts, { n, m, dk }) {
  const br = Math.min(checkPositiveInteger(opts.blockRows, 'blockRows', 4), n);
  const bc = Math.min(checkPositiveInteger(opts.blockCols, 'blockCols', 4), m);
  const { causal, lowerRight } = readAlignment({ causal: opts.causal });
  const scale = opts.scale === undefined ? 1 / Math.sqrt(dk) : checkScale(opts.scale, 'options.scale');
  return { br, bc, causal, lowerRight, scale };
}

// The core's buffers, named: the inputs, the output, each step's skipped flag and state (rows of
// the running max, the running sum and the partial output), and the kernel's workspace.
function layoutBuffers(heap, x, { br, bc }, stateRows) {
  const f = 4;
  const [q, k, v, output, skipped, rowMax, rowSum, partial, workspace] = heap.layout(
    [
      x.Q.data.length * f,
      x.K.data.length * f,
      x.V.data.length * f,
      x.n * x.dv * f,
      Math.ceil(x.n / br) * Math.ceil(x.m / bc),
      stateRows * f,
      stateRows * f,
      stateRows * x.dv * f,
      bc * f,
    ],
    'flashAttention',
  );
  return { q, k, v, output, skipped, rowMax, rowSum, partial, workspace };
}

// The arguments of the core's _flashAttentionTrace, in its order.
function traceArguments(a, x, { scale, causal, lowerRight, br, bc }) {
  return [
    a.q,
    a.k,
    a.v,
    x.n,
    x.m,
    x.dk,
    x.dv,
    scale,
    causal,
    lowerRight,
    br,
    bc,
    a.output,
    a.skipped,
    a.rowMax,
    a.rowSum,
    a.partial,
    a.workspace,
  ];
}

/** attn.lessons.flashAttention(q, k, v, options): see attention.d.ts. */
export function flashAttention(live, heap, q, k, v, options) {
  const opts = checkOptions(options, OPTIONS, 'flashAttention options');
  const x = readInputs(q, k, v);
  const settings = readSettings(opts, x);
  const { br, bc } = settings;
  const stateRows = x.n * Math.ceil(x.m / bc);
  if (stateRows * (x.dv + 2) > MAX_STATE_FLOATS)
    fail(
      `flashAttention: every step's state would need ${formatBytes(stateRows * (x.dv + 2) * 4)}; use fewer queries or keys, or a larger blockCols`,
    );
  const module = live(); // after the inputs are read: a getter among them may have disposed it
  const a = layoutBuffers(heap, x, settings, stateRows);
  heap.writeF32(a.q, x.Q.data);
  heap.writeF32(a.k, x.K.data);
  heap.writeF32(a.v, x.V.data);
  try {
    check(module._flashAttentionTrace(...traceArguments(a, x, settings)), 'flashAttention');
    const result = {
      output: { data: heap.readF32(a.output, x.n * x.dv), shape: [x.n, x.dv] },
      steps: readSteps(heap, a, x, br, bc),
    };
    for (const value of result.output.data)
      if (!Number.isFinite(value))
        fail('flashAttention: the scores overflow float32 (|q·k|·scale above 3.4e38); scale q, k or the scale down');
    return result;
  } finally {
    heap.settle();
  }
}
