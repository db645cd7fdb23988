// onnxruntime-web as a benchmark peer, for Node (peers.mjs) and the browser (browser-page.mjs):
// the com.microsoft.MultiHeadAttention contrib op on one thread, models built in memory.
import { buildModel } from './onnx-model.mjs';

/** Runners for the given onnxruntime-web module object (CommonJS in Node, ES module in browsers). */
export function ortPeers(ort) {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  ort.env.logLevel = 'error';
  async function session(model) {
    return ort.InferenceSession.create(model, {
      executionProviders: ['wasm'],
      graphOptimizationLevel: 'all',
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
    });
  }

  // softmax(q·kᵀ·scale [+ causal]) v for one head: MultiHeadAttention with num_heads = 1.
  async function sdpa({ n, m, dk, dv, causal }) {
    const attrs = { num_heads: 1 };
    if (causal) attrs.unidirectional = 1;
    const model = buildModel({
      nodes: [{ op: 'MultiHeadAttention', domain: 'com.microsoft', inputs: ['q', 'k', 'v'], outputs: ['out'], attrs }],
      inputs: [
        ['q', [1, n, dk]],
        ['k', [1, m, dk]],
        ['v', [1, m, dv]],
      ],
      outputs: [['out', [1, n, dv]]],
    });
    const s = await session(model);
    return (q, k, v) => {
      const feeds = {
        q: new ort.Tensor('float32', q, [1, n, dk]),
        k: new ort.Tensor('float32', k, [1, m, dk]),
        v: new ort.Tensor('float32', v, [1, m, dv]),
      };
      return s.run(feeds).then((r) => r.out.data);
    };
  }

  // Self-attention layer with all four projections: one fused x·[Wq|Wk|Wv] MatMul whose bias the
  // MultiHeadAttention op adds, then the output projection. Weights are [in, out] as in our API.
  async function mha({ B, n, E, H, w }) {
    const wqkv = new Float32Array(E * 3 * E);
    for (let r = 0; r < E; r++)
      for (let c = 0; c < E; c++) {
        wqkv[r * 3 * E + c] = w.wq[r * E + c];
        wqkv[r * 3 * E + E + c] = w.wk[r * E + c];
        wqkv[r * 3 * E + 2 * E + c] = w.wv[r * E + c];
      }
    const bqkv = new Float32Array(3 * E);
    bqkv.set(w.bq, 0);
    bqkv.set(w.bk, E);
    bqkv.set(w.bv, 2 * E);
    const model = buildModel({
      nodes: [
        { op: 'MatMul', inputs: ['x', 'wqkv'], outputs: ['qkv'] },
        { op: 'Split', inputs: ['qkv', 'split'], outputs: ['q', 'k', 'v'], attrs: { axis: 2 } },
        {
          op: 'MultiHeadAttention',
          domain: 'com.microsoft',
          inputs: ['q', 'k', 'v', 'bqkv'],
          outputs: ['att'],
          attrs: { num_heads: H },
        },
        { op: 'MatMul', inputs: ['att', 'wo'], outputs: ['proj'] },
        { op: 'Add', inputs: ['proj', 'bo'], outputs: ['out'] },
      ],
      initializers: [
        ['wqkv', [E, 3 * E], wqkv],
        ['bqkv', [3 * E], bqkv],
        ['wo', [E, E], w.wo],
        ['bo', [E], w.bo],
        ['split', [3], BigInt64Array.from([E, E, E].map(BigInt))],
      ],
      inputs: [['x', [B, n, E]]],
      outputs: [['out', [B, n, E]]],
    });
    const s = await session(model);
    return (x) => s.run({ x: new ort.Tensor('float32', x, [B, n, E]) }).then((r) => r.out.data);
  }

  return { sdpa, mha };
}
