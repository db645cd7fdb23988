// GPT-2 as an ONNX graph for the onnxruntime-web peer of `npm run bench:gpt2`, built in memory from
// our model's state (the same weights), with the operators onnxruntime's own GPT-2 export uses
// after its transformer optimizer: LayerNormalization, com.microsoft.Attention (the fused QKV
// projection, causal, with a key/value state `past` → `present` per layer), MatMul, Add and
// com.microsoft.FastGelu (GPT-2's tanh GELU with its bias). One graph serves the forward of a
// prompt (past of length 0) and each decoding step (past of the tokens so far). It returns the
// logits of the last position only, as `model.forward(tokens, { logits: 'last' })` does; the
// unembedding is a MatMul by a pre-transposed copy of wte (onnxruntime pre-packs constant MatMul
// weights), its best form.
import { buildModel } from './onnx-model.mjs';

// Each layer's parameters, named as in the state dict after `h.<layer>.`.
const LAYER_PARAMS = [
  'ln_1.weight',
  'ln_1.bias',
  'attn.c_attn.weight',
  'attn.c_attn.bias',
  'attn.c_proj.weight',
  'attn.c_proj.bias',
  'ln_2.weight',
  'ln_2.bias',
  'mlp.c_fc.weight',
  'mlp.c_fc.bias',
  'mlp.c_proj.weight',
  'mlp.c_proj.bias',
];

const layerNorm = (x, name, out) => ({
  op: 'LayerNormalization',
  inputs: [x, `${name}.weight`, `${name}.bias`],
  outputs: [out],
  attrs: { axis: -1, epsilon: 1e-5 },
});

// The nodes of layer l with H heads: x<l> → x<l+1>, its key/value state past_<l> → present_<l>.
function layerNodes(l, H) {
  const h = `h.${l}.`;
  const x = `x${l}`,
    t = (s) => `${h}${s}`;
  return [
    layerNorm(x, `${h}ln_1`, t('ln1')),
    {
      op: 'Attention',
      domain: 'com.microsoft',
      inputs: [t('ln1'), `${h}attn.c_attn.weight`, `${h}attn.c_attn.bias`, '', `past_${l}`],
      outputs: [t('attn'), `present_${l}`],
      attrs: { num_heads: H, unidirectional: 1 },
    },
    { op: 'MatMul', inputs: [t('attn'), `${h}attn.c_proj.weight`], outputs: [t('proj')] },
    { op: 'Add', inputs: [t('proj'), `${h}attn.c_proj.bias`], outputs: [t('projb')] },
    { op: 'Add', inputs: [x, t('projb')], outputs: [t('mid')] },
    layerNorm(t('mid'), `${h}ln_2`, t('ln2')),
    { op: 'MatMul', inputs: [t('ln2'), `${h}mlp.c_fc.weight`], outputs: [t('fc')] },
    { op: 'FastGelu', domain: 'com.microsoft', inputs: [t('fc'), `${h}mlp.c_fc.bias`], outputs: [t('gelu')] },
    { op: 'MatMul', inputs: [t('gelu'), `${h}mlp.c_proj.weight`], outputs: [t('out')] },
    { op: 'Add', inputs: [t('out'), `${h}mlp.c_proj.bias`], outputs: [t('outb')] },
    { op: 'Add', inputs: [t('mid'), t('outb')], outputs: [`x${l + 1}`] },
  ];
}

/** Inputs, outputs and graph of GPT-2 with `config` ({ vocabSize, dModel, numLayers, numHeads }) and `state`. */
export function gpt2Graph({ vocabSize: V, dModel: E, numLayers: L, numHeads: H }, state) {
  const d = E / H;
  const w = (name) => state[name].data;
  const initializers = [
    ['wte', [V, E], w('wte.weight')],
    ['wpe', state['wpe.weight'].shape, w('wpe.weight')],
    ['wte_t', [E, V], transpose(w('wte.weight'), V, E)],
    ['last', [], BigInt64Array.of(-1n)],
  ];
  const nodes = [
    { op: 'Gather', inputs: ['wte', 'input_ids'], outputs: ['tok'] },
    { op: 'Gather', inputs: ['wpe', 'position_ids'], outputs: ['pos'] },
    { op: 'Add', inputs: ['tok', 'pos'], outputs: ['x0'] },
  ];
  for (let l = 0; l < L; l++) {
    for (const name of LAYER_PARAMS.map((p) => `h.${l}.${p}`)) initializers.push([name, state[name].shape, w(name)]);
    nodes.push(...layerNodes(l, H));
  }
  initializers.push(['ln_f.weight', [E], w('ln_f.weight')], ['ln_f.bias', [E], w('ln_f.bias')]);
  nodes.push(
    layerNorm(`x${L}`, 'ln_f', 'xf'),
    { op: 'Gather', inputs: ['xf', 'last'], outputs: ['xlast'], attrs: { axis: 1 } },
    { op: 'MatMul', inputs: ['xlast', 'wte_t'], outputs: ['logits'] },
  );
  const past = Array.from({ length: L }, (_, l) => [`past_${l}`, [2, 1, H, 'P', d]]);
  const present = Array.from({ length: L }, (_, l) => [`present_${l}`, [2, 1, H, 'PS', d]]);
  return buildModel({
    nodes,
    initializers,
    inputs: [['input_ids', [1, 'S'], 'int64'], ['position_ids', [1, 'S'], 'int64'], ...past],
    outputs: [['logits', [1, V]], ...present],
  });
}

function transpose(a, rows, cols) {
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = a[r * cols + c];
  return out;
}

/** A session of the graph, and runners for a prompt and for one more token, each returning the last logits. */
export async function gpt2Session(ort, config, state) {
  const bytes = gpt2Graph(config, state);
  const session = await ort.InferenceSession.create(bytes, {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
  const { numLayers: L, numHeads: H, dModel: E } = config;
  const d = E / H;
  const emptyPast = () => new ort.Tensor('float32', new Float32Array(0), [2, 1, H, 0, d]);
  const ids = (tokens, start) => ({
    input_ids: new ort.Tensor('int64', BigInt64Array.from(tokens, BigInt), [1, tokens.length]),
    position_ids: new ort.Tensor(
      'int64',
      BigInt64Array.from(tokens, (_, i) => BigInt(start + i)),
      [1, tokens.length],
    ),
  });
  // Runs tokens after `past` (null: none) at positions start…; returns { logits, past }.
  async function run(tokens, start, past) {
    const feeds = ids(tokens, start);
    for (let l = 0; l < L; l++) feeds[`past_${l}`] = past ? past[l] : emptyPast();
    const out = await session.run(feeds);
    return { logits: out.logits.data, past: Array.from({ length: L }, (_, l) => out[`present_${l}`]) };
  }
  return { run, modelBytes: bytes.length };
}
