// Bad input never kills the module: for every class of bad input (the API's error contract) each API function
// throws a plain `Error` whose message names the argument, and the same instance then computes the
// very same numbers as before. A random-garbage property (fast-check's anything()) backs the table
// up. Bugs these tests found stay as regression tests at the end.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import { createAttention } from '../../web/lib/attention.js';

const GARBAGE_RUNS = Number(process.env.ATTN_GARBAGE_RUNS) || 300;
const SEED = process.env.ATTN_PROPERTY_SEED === undefined ? undefined : Number(process.env.ATTN_PROPERTY_SEED);

const f32 = (values, shape) => ({ data: Float32Array.from(values), shape });
const ramp = (shape, offset = 0) => {
  const count = shape.reduce((a, b) => a * b, 1);
  return f32(
    Array.from({ length: count }, (_, i) => Math.sin(i + offset)),
    shape,
  );
};
const withValue = (tensor, index, value) => {
  const data = Array.from(tensor.data);
  data[index] = value;
  return { data, shape: tensor.shape };
};
const cyclic = () => {
  const a = [1];
  a[0] = a;
  return a;
};
const deep = () => {
  let a = [[1]];
  for (let i = 0; i < 20000; i++) a = [a];
  return a;
};

// n = 3 queries, m = 5 keys, dk = 4, dv = 2; a layer with E = 4, 2 heads.
const Q = ramp([3, 4]),
  K = ramp([5, 4], 1),
  V = ramp([5, 2], 2);
const X = ramp([2, 3, 4], 3); // [B, n, E]
const W4 = ramp([4, 4], 4);

// The calls the tables below make on the api of setUp (its module, its layers, its random states).
const sdpa = (api, q, k, v, o) => api.attn.scaledDotProductAttention(q, k, v, o);
const fwd = (api, ...args) => api.layer.forward(...args);
const mha = (api, config) => api.attn.multiHeadAttention(config);
const rng = (api) => api.attn.randomState(1);

// The bad calls, one table per kind of mistake.

// Shapes that disagree.
const DISAGREEING_SHAPES = [
  [
    'shapes',
    'q and k with different dk',
    (a) => sdpa(a, Q, ramp([5, 3]), V),
    /q and k must have the same last dimension dk/,
  ],
  [
    'shapes',
    'k and v with different m',
    (a) => sdpa(a, Q, K, ramp([4, 2])),
    /k and v must have the same number of rows m/,
  ],
  [
    'shapes',
    'q batched, k not',
    (a) => sdpa(a, ramp([2, 3, 4]), K, V),
    /q, k and v must have the same batch dimensions/,
  ],
  ['shapes', 'q of rank 1', (a) => sdpa(a, ramp([12]), K, V), /q must have at least 2 dimensions/],
  [
    'shapes',
    'forward: query width ≠ embedDim',
    (a) => fwd(a, ramp([3, 5])),
    /query's last dimension must be embedDim \(4\)/,
  ],
  [
    'shapes',
    'forward: key width ≠ kdim',
    (a) => fwd(a, ramp([3, 4]), ramp([5, 3]), ramp([5, 4])),
    /key's last dimension must be kdim/,
  ],
  [
    'shapes',
    'forward: value width ≠ vdim',
    (a) => fwd(a, ramp([3, 4]), ramp([5, 4]), ramp([5, 3])),
    /value's last dimension must be vdim/,
  ],
  [
    'shapes',
    'forward: key and value token counts',
    (a) => fwd(a, ramp([3, 4]), ramp([5, 4]), ramp([6, 4])),
    /key and value must have the same number of tokens/,
  ],
  ['shapes', 'forward: batch sizes', (a) => fwd(a, X, ramp([3, 3, 4]), ramp([3, 3, 4])), /same batch size/],
  ['shapes', 'forward: rank 4', (a) => fwd(a, ramp([1, 2, 3, 4])), /query must be \[n, E\] or \[B, n, E\]/],
  [
    'shapes',
    'forward: key rank ≠ query rank',
    (a) => fwd(a, X, ramp([3, 4]), ramp([3, 4])),
    /key must have the same rank as query/,
  ],
  [
    'shapes',
    'setWeights: wq transposed',
    (a) => a.layer.setWeights({ wq: ramp([4, 3]) }),
    /wq must have shape \[4, 4\]/,
  ],
  [
    'shapes',
    'loadTorchState: in_proj_weight [E, E]',
    (a) =>
      a.layer.loadTorchState({
        in_proj_weight: W4,
        in_proj_bias: ramp([12]),
        'out_proj.weight': W4,
        'out_proj.bias': ramp([4]),
      }),
    /in_proj_weight must have shape \[12, 4\]/,
  ],
];

// Data length ≠ product of the shape.
const WRONG_LENGTHS = [
  [
    'length',
    'q.data too short',
    (a) => sdpa(a, { data: new Float32Array(11), shape: [3, 4] }, K, V),
    /q\.data has 11 values but shape \[3, 4\] needs 12/,
  ],
  [
    'length',
    'v.data too long',
    (a) => sdpa(a, Q, K, { data: new Float32Array(11), shape: [5, 2] }),
    /v\.data has 11 values/,
  ],
  [
    'length',
    'mask.data',
    (a) => sdpa(a, Q, K, V, { mask: { data: new Uint8Array(14), shape: [3, 5] } }),
    /options\.mask\.data has 14 values/,
  ],
  [
    'length',
    'bias.data',
    (a) => sdpa(a, Q, K, V, { bias: { data: new Float32Array(16), shape: [3, 5] } }),
    /options\.bias\.data has 16 values/,
  ],
  [
    'length',
    'keyPaddingMask.data',
    (a) => sdpa(a, Q, K, V, { keyPaddingMask: { data: [1, 0], shape: [5] } }),
    /options\.keyPaddingMask\.data has 2 values/,
  ],
  [
    'length',
    'setWeights bq',
    (a) => a.layer.setWeights({ bq: { data: [1, 2, 3], shape: [4] } }),
    /bq\.data has 3 values/,
  ],
  [
    'length',
    'forward query',
    (a) => fwd(a, { data: new Float32Array(23), shape: [2, 3, 4] }),
    /query\.data has 23 values/,
  ],
  [
    'length',
    'lessons.rowStats weights',
    (a) => a.attn.lessons.rowStats({ data: [0.5], shape: [2] }),
    /weights\.data has 1 values/,
  ],
];

// Zero, negative, non-integer dimensions.
const BAD_DIMENSIONS = [
  ...[
    [0, 4],
    [-3, 4],
    [1.5, 4],
    [NaN, 4],
    [Infinity, 4],
    ['3', 4],
    [null, 4],
  ].map((shape) => [
    'dims',
    `q.shape ${String(shape)}`,
    (a) => sdpa(a, { data: new Float32Array(12), shape }, K, V),
    /q\.shape must hold positive integers/,
  ]),
  ['dims', 'q.shape []', (a) => sdpa(a, { data: [], shape: [] }, K, V), /q\.shape must be a non-empty array/],
  ['dims', 'q.shape missing', (a) => sdpa(a, { data: [1, 2] }, K, V), /q\.shape must be a non-empty array/],
  [
    'dims',
    'q.shape too long',
    (a) => sdpa(a, { data: [1], shape: new Array(40).fill(1) }, K, V),
    /q\.shape has 40 dimensions/,
  ],
  ['dims', 'nested with an empty row', (a) => sdpa(a, [[]], K, V), /q has an empty dimension/],
  ['dims', 'empty nested array', (a) => sdpa(a, Q, [], V), /k has an empty dimension/],
  ...[0, -4, 2.5, '8', NaN, null].map((embedDim) => [
    'dims',
    `embedDim ${String(embedDim)}`,
    (a) => mha(a, { embedDim, numHeads: 1 }),
    /embedDim must be a positive integer/,
  ]),
  ['dims', 'numHeads 0', (a) => mha(a, { embedDim: 4, numHeads: 0 }), /numHeads must be a positive integer/],
  ['dims', 'kdim 0', (a) => mha(a, { embedDim: 4, numHeads: 1, kdim: 0 }), /kdim must be a positive integer/],
  ['dims', 'vdim -1', (a) => mha(a, { embedDim: 4, numHeads: 1, vdim: -1 }), /vdim must be a positive integer/],
  ['dims', 'randn(-1)', (a) => rng(a).randn(-1), /randn: dimensions must be non-negative integers/],
  ['dims', 'rand(1.5)', (a) => rng(a).rand(1.5), /rand: dimensions must be non-negative integers/],
  ['dims', 'randn("3")', (a) => rng(a).randn('3'), /randn: dimensions must be non-negative integers/],
  [
    'dims',
    'sampleDotProducts dk 0',
    (a) => a.attn.lessons.sampleDotProducts({ dk: 0 }),
    /dk must be a positive integer/,
  ],
  [
    'dims',
    'sampleDotProducts bins 2.5',
    (a) => a.attn.lessons.sampleDotProducts({ dk: 4, bins: 2.5 }),
    /bins must be a positive integer/,
  ],
  [
    'dims',
    'attentionCost n -1',
    (a) => a.attn.lessons.attentionCost({ n: -1, dModel: 4, numHeads: 1 }),
    /n must be a positive integer/,
  ],
];

// NaN and infinities.
const NON_FINITE_VALUES = [
  ['non-finite', 'q NaN', (a) => sdpa(a, withValue(Q, 5, NaN), K, V), /q\.data\[5\] is NaN/],
  ['non-finite', 'k +Infinity', (a) => sdpa(a, Q, withValue(K, 0, Infinity), V), /k\.data\[0\] is Infinity/],
  ['non-finite', 'v -Infinity', (a) => sdpa(a, Q, K, withValue(V, 9, -Infinity)), /v\.data\[9\] is -Infinity/],
  [
    'non-finite',
    'q beyond float32',
    (a) => sdpa(a, withValue(Q, 1, 1e39), K, V),
    /q\.data\[1\] is 1e\+39, too large for float32/,
  ],
  [
    'non-finite',
    'nested NaN',
    (a) =>
      sdpa(
        a,
        [
          [1, 2, 3, 4],
          [1, 2, NaN, 4],
          [0, 0, 0, 0],
        ],
        K,
        V,
      ),
    /q\[1\]\[2\] is NaN/,
  ],
  [
    'non-finite',
    'bias NaN',
    (a) => sdpa(a, Q, K, V, { bias: withValue(ramp([3, 5]), 0, NaN) }),
    /options\.bias\.data\[0\] is NaN/,
  ],
  [
    'non-finite',
    'bias +Infinity',
    (a) => sdpa(a, Q, K, V, { bias: withValue(ramp([3, 5]), 2, Infinity) }),
    /options\.bias\.data\[2\] is Infinity/,
  ],
  [
    'non-finite',
    'setWeights wo NaN',
    (a) => a.layer.setWeights({ wq: W4, wo: withValue(W4, 3, NaN) }),
    /wo\.data\[3\] is NaN/,
  ],
  [
    'non-finite',
    'loadTorchState Infinity',
    (a) =>
      a.layer.loadTorchState({
        in_proj_weight: withValue(ramp([12, 4]), 7, Infinity),
        in_proj_bias: ramp([12]),
        'out_proj.weight': W4,
        'out_proj.bias': ramp([4]),
      }),
    /in_proj_weight\.data\[7\] is Infinity/,
  ],
  ['non-finite', 'forward value NaN', (a) => fwd(a, X, X, withValue(X, 4, NaN)), /value\.data\[4\] is NaN/],
  [
    'non-finite',
    'forward float attnMask +Infinity',
    (a) => fwd(a, X, X, X, { attnMask: withValue(ramp([3, 3]), 0, Infinity) }),
    /options\.attnMask\.data\[0\] is Infinity/,
  ],
  [
    'non-finite',
    'lessons.softmax NaN',
    (a) => a.attn.lessons.softmax(withValue(ramp([2, 3]), 1, NaN)),
    /scores\.data\[1\] is NaN/,
  ],
  [
    'non-finite',
    'lessons.rowStats Infinity',
    (a) => a.attn.lessons.rowStats(withValue(ramp([2, 3]), 1, Infinity)),
    /weights\.data\[1\] is Infinity/,
  ],
];

// Ragged nested arrays.
const RAGGED_ARRAYS = [
  [
    'ragged',
    'short row',
    (a) =>
      sdpa(
        a,
        [
          [1, 2, 3, 4],
          [1, 2, 3],
          [1, 2, 3, 4],
        ],
        K,
        V,
      ),
    /q is ragged: q\[1\] has 3 entries, expected 4/,
  ],
  [
    'ragged',
    'number instead of a row',
    (a) => sdpa(a, [[1, 2, 3, 4], 5, [1, 2, 3, 4]], K, V),
    /q is ragged: q\[1\] is number 5/,
  ],
  [
    'ragged',
    'row instead of a number',
    (a) =>
      sdpa(
        a,
        [
          [1, 2, 3, [4]],
          [1, 2, 3, 4],
          [1, 2, 3, 4],
        ],
        K,
        V,
      ),
    /q\[0\]\[3\] is an array, expected a number/,
  ],
  [
    'ragged',
    'mask ragged',
    (a) => sdpa(a, Q, K, V, { mask: [[true, false, true, false, true], [true], [false, false, false, false, false]] }),
    /options\.mask is ragged/,
  ],
  ['ragged', 'array that contains itself', (a) => sdpa(a, cyclic(), K, V), /q is nested more than 32 levels deep/],
  ['ragged', '20 000 levels of nesting', (a) => sdpa(a, Q, K, deep()), /v is nested more than 32 levels deep/],
];

// Wrong types: of the tensors and their data.
const WRONG_INPUT_TYPES = [
  ...[
    ['a string', 'abc'],
    ['a number', 42],
    ['a boolean', true],
    ['a symbol', Symbol('q')],
    ['a function', () => 1],
    ['a bigint', 12n],
    ['a Float32Array without shape', new Float32Array(12)],
  ].map(([what, q]) => [
    'types',
    `q as ${what}`,
    (a) => sdpa(a, q, K, V),
    /q must be a nested array or \{ data, shape \}/,
  ]),
  ['types', 'q null', (a) => sdpa(a, null, K, V), /q is required/],
  ['types', 'v missing', (a) => sdpa(a, Q, K), /v is required/],
  ['types', 'q an empty object', (a) => sdpa(a, {}, K, V), /q\.shape must be a non-empty array/],
  [
    'types',
    'q.data a string',
    (a) => sdpa(a, { data: 'abcdefghijkl', shape: [3, 4] }, K, V),
    /q\.data must be a typed array or an array of numbers/,
  ],
  [
    'types',
    'q.data a BigInt64Array',
    (a) => sdpa(a, { data: new BigInt64Array(12), shape: [3, 4] }, K, V),
    /q\.data must be a typed array/,
  ],
  [
    'types',
    'q.data a DataView',
    (a) => sdpa(a, { data: new DataView(new ArrayBuffer(48)), shape: [3, 4] }, K, V),
    /q\.data must be a typed array/,
  ],
  [
    'types',
    'q.data holding a string',
    (a) => sdpa(a, withValue(Q, 1, 'x'), K, V),
    /q\.data\[1\] is string x, expected a number/,
  ],
  [
    'types',
    'q.data with a hole',
    (a) => sdpa(a, { data: new Array(12), shape: [3, 4] }, K, V),
    /q\.data\[0\] is undefined, expected a number/,
  ],
  [
    'types',
    'nested boolean in q',
    (a) =>
      sdpa(
        a,
        [
          [1, 2, 3, 4],
          [1, 2, 3, 4],
          [1, 2, 3, true],
        ],
        K,
        V,
      ),
    /q\[2\]\[3\] is boolean true/,
  ],
];

// Wrong types: of scaledDotProductAttention's options.
const WRONG_OPTION_TYPES = [
  [
    'types',
    'options a string',
    (a) => sdpa(a, Q, K, V, 'causal'),
    /scaledDotProductAttention options must be an object/,
  ],
  ['types', 'options an array', (a) => sdpa(a, Q, K, V, [true]), /scaledDotProductAttention options must be an object/],
  ['types', 'misspelt option', (a) => sdpa(a, Q, K, V, { casual: true }), /unknown option "casual"/],
  ['types', 'causal "yes"', (a) => sdpa(a, Q, K, V, { causal: 'yes' }), /options\.causal must be true or false/],
  ['types', 'needWeights 1', (a) => sdpa(a, Q, K, V, { needWeights: 1 }), /options\.needWeights must be true or false/],
  ['types', 'trace null', (a) => sdpa(a, Q, K, V, { trace: null }), /options\.trace must be true or false/],
  [
    'types',
    'mask value 2',
    (a) => sdpa(a, Q, K, V, { mask: { data: new Uint8Array(15).fill(2), shape: [3, 5] } }),
    /options\.mask\.data\[0\] is number 2, expected a boolean/,
  ],
  [
    'types',
    'mask value "x"',
    (a) =>
      sdpa(a, Q, K, V, {
        mask: [
          ['x', 0, 0, 0, 0],
          [0, 0, 0, 0, 0],
          [0, 0, 0, 0, 0],
        ],
      }),
    /options\.mask\[0\]\[0\] is string x/,
  ],
  [
    'types',
    'keyPaddingMask 0.5',
    (a) => sdpa(a, Q, K, V, { keyPaddingMask: [0.5, 0, 0, 0, 0] }),
    /options\.keyPaddingMask\[0\] is number 0\.5/,
  ],
  ['types', 'pitfall unknown', (a) => sdpa(a, Q, K, V, { pitfall: 'skip-softmax' }), /options\.pitfall must be one of/],
  [
    'types',
    'multi-head pitfall on sdpa',
    (a) => sdpa(a, Q, K, V, { pitfall: 'skip-wo' }),
    /options\.pitfall must be one of/,
  ],
  [
    'types',
    'pitfall with trace',
    (a) => sdpa(a, Q, K, V, { pitfall: 'scale-by-dk', trace: true }),
    /options\.trace cannot be combined with options\.pitfall/,
  ],
];

// Wrong types: of a layer's configuration, weights and forward options, and a disposed layer.
const WRONG_LAYER_TYPES = [
  ['types', 'multiHeadAttention()', (a) => mha(a), /multiHeadAttention needs \{ embedDim, numHeads \}/],
  ['types', 'multiHeadAttention(null)', (a) => mha(a, null), /multiHeadAttention options must be an object/],
  [
    'types',
    'multiHeadAttention bias "yes"',
    (a) => mha(a, { embedDim: 4, numHeads: 1, bias: 'yes' }),
    /bias must be true or false/,
  ],
  ...[-1, 'x', 2 ** 32, 1.5].map((seed) => [
    'types',
    `multiHeadAttention seed ${String(seed)}`,
    (a) => mha(a, { embedDim: 4, numHeads: 1, seed }),
    /seed must be an integer from 0 to 2\*\*32 - 1/,
  ]),
  ['types', 'setWeights(null)', (a) => a.layer.setWeights(null), /setWeights needs an object/],
  ['types', 'setWeights unknown name', (a) => a.layer.setWeights({ wz: W4 }), /setWeights: unknown weight "wz"/],
  [
    'types',
    'setWeights bias on a bias-free layer',
    (a) => a.noBias.setWeights({ bq: ramp([4]) }),
    /bq was given but this layer has no biases/,
  ],
  ['types', 'loadTorchState(42)', (a) => a.layer.loadTorchState(42), /loadTorchState needs a state dict object/],
  [
    'types',
    'loadTorchState missing key',
    (a) => a.layer.loadTorchState({ in_proj_weight: ramp([12, 4]) }),
    /loadTorchState: missing "in_proj_bias"|loadTorchState: missing "out_proj\.weight"/,
  ],
  [
    'types',
    'loadTorchState extra key',
    (a) => a.layer.loadTorchState({ q_proj_weight: W4 }),
    /loadTorchState: unexpected key "q_proj_weight"/,
  ],
  ['types', 'forward attnMask a string', (a) => fwd(a, X, X, X, { attnMask: 'causal' }), /options\.attnMask must be/],
  [
    'types',
    'forward pitfall with per-head weights',
    (a) => fwd(a, X, X, X, { pitfall: 'skip-wo', averageWeights: false }),
    /averageWeights: true/,
  ],
  [
    'types',
    'forward misspelt option',
    (a) => fwd(a, X, X, X, { keyPadingMask: [[false]] }),
    /unknown option "keyPadingMask"/,
  ],
  ['types', 'forward on a disposed layer', (a) => a.disposed.forward(X), /this MultiHeadAttention was disposed/],
  ['types', 'getWeights on a disposed layer', (a) => a.disposed.getWeights(), /this MultiHeadAttention was disposed/],
];

// Wrong types: of random states and the lessons' options.
const WRONG_RANDOM_AND_LESSON_TYPES = [
  ['types', 'draw from a disposed RandomState', (a) => a.disposedRng.randn(2), /this RandomState was disposed/],
  ...[-1, '1', 2 ** 32, 1.5, NaN].map((seed) => [
    'types',
    `randomState(${String(seed)})`,
    (a) => a.attn.randomState(seed),
    /seed must be an integer from 0 to 2\*\*32 - 1/,
  ]),
  [
    'types',
    'lessons.softmax options',
    (a) => a.attn.lessons.softmax(ramp([2, 3]), { temperature: 2 }),
    /softmax options has an unknown option "temperature"/,
  ],
  [
    'types',
    'attentionCost bias 1',
    (a) => a.attn.lessons.attentionCost({ n: 4, dModel: 4, numHeads: 1, bias: 1 }),
    /bias must be true or false/,
  ],
];

// Heads that do not divide the embedding.
const INDIVISIBLE_HEADS = [
  [
    'heads',
    '6 features, 4 heads',
    (a) => mha(a, { embedDim: 6, numHeads: 4 }),
    /numHeads \(4\) must divide embedDim \(6\)/,
  ],
  [
    'heads',
    'more heads than features',
    (a) => mha(a, { embedDim: 4, numHeads: 8 }),
    /numHeads \(8\) must divide embedDim \(4\)/,
  ],
  [
    'heads',
    'attentionCost 6 / 4',
    (a) => a.attn.lessons.attentionCost({ n: 4, dModel: 6, numHeads: 4 }),
    /numHeads \(4\) must divide dModel \(6\)/,
  ],
  [
    'heads',
    'attentionCost with a head count a 32-bit size would wrap to 1',
    (a) => a.attn.lessons.attentionCost({ n: 4, dModel: 8, numHeads: 2 ** 32 + 1 }),
    /numHeads \(4294967297\) must divide dModel \(8\)/,
  ],
];

// Masks of the wrong shape.
const WRONG_MASKS = [
  [
    'mask shape',
    'mask [n, m + 1]',
    (a) => sdpa(a, Q, K, V, { mask: { data: new Uint8Array(18), shape: [3, 6] } }),
    /options\.mask must have shape \[n, m\] = \[3, 5\]/,
  ],
  [
    'mask shape',
    'mask transposed',
    (a) => sdpa(a, Q, K, V, { mask: { data: new Uint8Array(15), shape: [5, 3] } }),
    /options\.mask must have shape \[n, m\] = \[3, 5\]/,
  ],
  [
    'mask shape',
    'mask with a batch dimension the inputs lack',
    (a) => sdpa(a, Q, K, V, { mask: { data: new Uint8Array(30), shape: [2, 3, 5] } }),
    /options\.mask must have shape/,
  ],
  [
    'mask shape',
    'batched mask of the wrong batch',
    (a) =>
      sdpa(a, ramp([2, 3, 4]), ramp([2, 5, 4]), ramp([2, 5, 2]), {
        mask: { data: new Uint8Array(45), shape: [3, 3, 5] },
      }),
    /options\.mask must have shape \[n, m\] = \[3, 5\] or \[2, 3, 5\]/,
  ],
  [
    'mask shape',
    'bias [n, dk]',
    (a) => sdpa(a, Q, K, V, { bias: ramp([3, 4]) }),
    /options\.bias must have shape \[n, m\] = \[3, 5\]/,
  ],
  [
    'mask shape',
    'keyPaddingMask [n]',
    (a) => sdpa(a, Q, K, V, { keyPaddingMask: [true, false, false] }),
    /options\.keyPaddingMask must have shape \[m\] = \[5\]/,
  ],
  [
    'mask shape',
    'keyPaddingMask [1, m] unbatched',
    (a) => sdpa(a, Q, K, V, { keyPaddingMask: [[true, false, false, false, false]] }),
    /options\.keyPaddingMask must have shape \[m\]/,
  ],
  [
    'mask shape',
    'forward attnMask transposed',
    (a) => fwd(a, ramp([3, 4]), ramp([5, 4]), ramp([5, 4]), { attnMask: { data: new Uint8Array(15), shape: [5, 3] } }),
    /options\.attnMask must have shape \[n, m\] = \[3, 5\]/,
  ],
  [
    'mask shape',
    'forward keyPaddingMask [m] for a batch',
    (a) => fwd(a, X, X, X, { keyPaddingMask: [false, false, true] }),
    /options\.keyPaddingMask must have shape \[2, 3\]/,
  ],
  [
    'mask shape',
    'forward keyPaddingMask [B, m] unbatched',
    (a) => fwd(a, ramp([3, 4]), undefined, undefined, { keyPaddingMask: [[false, false, true]] }),
    /options\.keyPaddingMask must have shape \[3\]/,
  ],
];

// Bad scales.
const BAD_SCALES = [
  ...[0, -1, NaN, Infinity, -Infinity, '0.5', null, true, 1e-50, 1e39].map((scale) => [
    'scale',
    `scale ${String(scale)}`,
    (a) => sdpa(a, Q, K, V, { scale }),
    /scale must be a positive finite number/,
  ]),
  [
    'scale',
    'lessons.softmax scale 0',
    (a) => a.attn.lessons.softmax(ramp([2, 3]), { scale: 0 }),
    /options\.scale must be a positive finite number/,
  ],
];

// Sizes that would exceed memory: refused up front, with the size asked for.
const OVERSIZED_REQUESTS = [
  [
    'memory',
    'SDPA weights of 50 000 × 50 000',
    (a) => sdpa(a, ramp([50000, 1]), ramp([50000, 1]), ramp([50000, 1])),
    /scaledDotProductAttention needs about 18\.63 GiB of WebAssembly memory/,
  ],
  [
    'memory',
    'SDPA trace of a batch of 64 × 4000 × 4000',
    (a) => sdpa(a, ramp([64, 4000, 1]), ramp([64, 4000, 1]), ramp([64, 4000, 1]), { needWeights: false, trace: true }),
    /scaledDotProductAttention needs about [\d.]+ GiB/,
  ],
  [
    'memory',
    'forward with 30 000 tokens',
    (a) => fwd(a, ramp([30000, 4])),
    /multiHeadAttention\.forward needs about [\d.]+ GiB/,
  ],
  [
    'memory',
    'randn(1e5, 1e5)',
    (a) => rng(a).randn(1e5, 1e5),
    /randn: 10000000000 values is more than the 134217728 one call may draw/,
  ],
  ['memory', 'rand(2**27 + 1)', (a) => rng(a).rand(2 ** 27 + 1), /rand: 134217729 values is more than/],
  [
    'memory',
    'sampleDotProducts count × dk',
    (a) => a.attn.lessons.sampleDotProducts({ dk: 65536, count: 10000 }),
    /count × dk = 655360000 is too much work/,
  ],
  [
    'memory',
    'sampleDotProducts with 1e9 bins',
    (a) => a.attn.lessons.sampleDotProducts({ dk: 2, count: 10, bins: 1e9 }),
    /sampleDotProducts needs about 3\.73 GiB/,
  ],
];

/** Every bad call: [class, what, (api) => call, message pattern naming the argument]. */
const BAD_CALLS = [
  ...DISAGREEING_SHAPES,
  ...WRONG_LENGTHS,
  ...BAD_DIMENSIONS,
  ...NON_FINITE_VALUES,
  ...RAGGED_ARRAYS,
  ...WRONG_INPUT_TYPES,
  ...WRONG_OPTION_TYPES,
  ...WRONG_LAYER_TYPES,
  ...WRONG_RANDOM_AND_LESSON_TYPES,
  ...INDIVISIBLE_HEADS,
  ...WRONG_MASKS,
  ...BAD_SCALES,
  ...OVERSIZED_REQUESTS,
];

async function setUp(simd) {
  const attn = await createAttention({ simd });
  const layer = attn.multiHeadAttention({ embedDim: 4, numHeads: 2, seed: 7 });
  const noBias = attn.multiHeadAttention({ embedDim: 4, numHeads: 2, bias: false });
  const disposed = attn.multiHeadAttention({ embedDim: 4, numHeads: 2 });
  disposed.dispose();
  const disposedRng = attn.randomState(3);
  disposedRng.dispose();
  return { attn, layer, noBias, disposed, disposedRng };
}

// The calls that must keep giving the same numbers after any error.
function goodResults(api) {
  const mask = [
    [false, true, false, false, false],
    [true, true, true, true, true],
    [false, false, false, false, true],
  ];
  const r = api.attn.scaledDotProductAttention(Q, K, V, { mask, trace: true });
  const s = api.attn.scaledDotProductAttention(Q, K, V, { needWeights: false, causal: true });
  const f = api.layer.forward(X, undefined, undefined, { causal: true, averageWeights: false });
  return {
    sdpa: [r.output.data, r.weights.data, r.trace.masked.data, r.fullyMaskedRows, s.output.data],
    forward: [f.output.data, f.weights.data],
    weights: Object.values(api.layer.getWeights()).map((w) => w.data),
    rng: api.attn.randomState(9).randn(7).data,
    lessons: api.attn.lessons.softmax(ramp([2, 3]), { scale: 2 }).weights.data,
  };
}

function expectCleanError(call, pattern, what) {
  let error = null;
  try {
    call();
  } catch (err) {
    error = err;
  }
  assert.ok(error !== null, `${what}: expected an Error, the call returned normally`);
  assert.ok(
    error instanceof Error && error.name === 'Error',
    `${what}: expected a plain Error, got ${error?.name}: ${error?.message}`,
  );
  assert.match(error.message, pattern, `${what}: the message should name the argument`);
}

// Every function of the API with the garbage its arguments may get: name -> [arbitrary of the
// arguments, how to call with them]. `hostile` adds BigInts and null-prototype objects.
function garbageCalls(hostile) {
  const garbage = fc.anything({
    withBigInt: hostile,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: hostile,
    withSparseArray: true,
    withTypedArray: true,
    maxDepth: 3,
  });
  const tensorish = fc.oneof(garbage, fc.constantFrom(Q, K, V, X));
  const sdpaOptions = fc.dictionary(
    fc.constantFrom('causal', 'mask', 'bias', 'keyPaddingMask', 'scale', 'needWeights', 'trace', 'pitfall'),
    garbage,
  );
  const layerConfig = fc.dictionary(fc.constantFrom('embedDim', 'numHeads', 'bias', 'kdim', 'vdim', 'seed'), garbage);
  const maybeTensor = fc.oneof(fc.constant(undefined), tensorish);
  return {
    sdpa: [
      fc.tuple(tensorish, tensorish, tensorish, fc.oneof(garbage, sdpaOptions)),
      (a, args) => a.attn.scaledDotProductAttention(...args),
    ],
    layer: [fc.oneof(garbage, layerConfig), (a, config) => a.attn.multiHeadAttention(config).dispose()],
    forward: [fc.tuple(tensorish, maybeTensor, maybeTensor, garbage), (a, args) => a.layer.forward(...args)],
    setWeights: [garbage, (a, w) => a.scratch.setWeights(w)],
    loadTorchState: [garbage, (a, state) => a.scratch.loadTorchState(state)],
    random: [
      fc.tuple(garbage, fc.array(garbage, { maxLength: 3 })),
      (a, [seed, dims]) => {
        const r = a.attn.randomState(seed);
        try {
          r.randn(...dims);
        } finally {
          r.dispose();
        }
      },
    ],
    lessons: [
      fc.tuple(fc.constantFrom('softmax', 'rowStats', 'sampleDotProducts', 'attentionCost'), garbage, garbage),
      (a, [name, x, y]) => a.attn.lessons[name](x, y),
    ],
  };
}

// Random garbage (fast-check's anything()) in every argument of every function; returns the
// problems found. `hostile` adds BigInts and null-prototype objects.
function garbageProblems(api, baseline, hostile) {
  api.scratch = api.attn.multiHeadAttention({ embedDim: 4, numHeads: 2 });
  const problems = [];
  for (const [name, [args, call]] of Object.entries(garbageCalls(hostile))) {
    const details = fc.check(
      fc.property(args, (input) => {
        try {
          call(api, input);
        } catch (err) {
          if (!(err instanceof Error && err.name === 'Error'))
            throw new Error(`threw ${err?.name}: ${err?.message}`, { cause: err });
        }
        assert.deepEqual(goodResults(api), baseline, 'the next calls must give the same numbers');
      }),
      { numRuns: GARBAGE_RUNS, seed: SEED },
    );
    if (details.failed)
      problems.push(
        `${name}: ${details.errorInstance?.message ?? details.error}\n  input: ${fc.stringify(details.counterexample[0])}`,
      );
  }
  api.scratch.dispose();
  return problems;
}

for (const simd of [true, false]) {
  const build = simd ? 'SIMD' : 'scalar';
  describe(`${build} build: bad input gives a clear Error, then the next call works`, () => {
    let api;
    let baseline;
    before(async () => {
      api = await setUp(simd);
      baseline = goodResults(api);
    });

    const byClass = new Map();
    for (const entry of BAD_CALLS) {
      if (!byClass.has(entry[0])) byClass.set(entry[0], []);
      byClass.get(entry[0]).push(entry);
    }
    for (const [name, entries] of byClass) {
      test(`${name} (${entries.length} cases)`, () => {
        for (const [, what, call, pattern] of entries) {
          expectCleanError(() => call(api), pattern, what);
          assert.deepEqual(goodResults(api), baseline, `${what}: the next calls must give the same numbers`);
        }
      });
    }

    test('a failed setWeights leaves the layer unchanged', () => {
      const before = api.layer.getWeights();
      assert.throws(
        () => api.layer.setWeights({ wq: ramp([4, 4], 9), wk: withValue(W4, 0, NaN) }),
        /wk\.data\[0\] is NaN/,
      );
      assert.deepEqual(api.layer.getWeights(), before);
    });

    test('createAttention rejects bad options with a clear Error', async () => {
      for (const [options, pattern] of [
        [{ simd: 'yes' }, /simd must be "auto", true or false/],
        [{ sims: true }, /unknown option "sims"/],
        ['simd', /createAttention options must be an object/],
      ])
        await assert.rejects(createAttention(options), (err) => err.name === 'Error' && pattern.test(err.message));
    });

    test(`random garbage in every argument: a plain Error or a result, never anything else (${GARBAGE_RUNS} runs each)`, () => {
      const problems = garbageProblems(api, baseline, false);
      if (problems.length) assert.fail(problems.join('\n'));
    });

    test('random garbage including BigInts and null-prototype objects', () => {
      const problems = garbageProblems(api, baseline, true);
      if (problems.length) assert.fail(problems.join('\n'));
    });
  });
}

// Bugs these tests once found, kept as regression tests.
describe('fixed bugs', () => {
  const finiteOrNamedError = (call, pattern, what) => {
    let result;
    try {
      result = call();
    } catch (err) {
      assert.ok(err.name === 'Error' && pattern.test(err.message), `${what}: threw ${err.name}: ${err.message}`);
      return;
    }
    for (const [name, t] of Object.entries(result))
      if (t?.data instanceof Float32Array)
        assert.ok(t.data.every(Number.isFinite), `${what}: ${name} holds ${t.data.find((x) => !Number.isFinite(x))}`);
  };

  test('scores beyond float32 give a finite result or an Error naming the inputs, never NaN', async () => {
    const attn = await createAttention({ simd: true });
    finiteOrNamedError(
      () =>
        attn.scaledDotProductAttention(
          [[1e20, 1]],
          [
            [1e20, 1],
            [-1e20, 2],
          ],
          [[1], [2]],
        ),
      /\b(q|k)\b/,
      'q·k = 1e40',
    );
    finiteOrNamedError(
      () => attn.scaledDotProductAttention([[1e19, 1e19]], [[1e19, 1e19]], [[1]], { bias: [[3e38]], scale: 1 }),
      /\b(q|k|bias|scale)\b/,
      'scaled + bias above float32',
    );
    finiteOrNamedError(() => attn.lessons.softmax([[3e38, 1]], { scale: 10 }), /scores|scale/, 'softmax of 3e39');
    const layer = attn.multiHeadAttention({ embedDim: 2, numHeads: 1, bias: false });
    layer.setWeights({
      wq: [
        [1, 0],
        [0, 1],
      ],
      wk: [
        [1, 0],
        [0, 1],
      ],
      wv: [
        [1, 0],
        [0, 1],
      ],
      wo: [
        [1, 0],
        [0, 1],
      ],
    });
    finiteOrNamedError(
      () =>
        layer.forward([
          [1e20, 1e20],
          [1, 1],
        ]),
      /query|key/,
      'multi-head q·k = 2e40',
    );
  });

  test('a pitfall on a long sequence is refused up front instead of aborting the module', async () => {
    const attn = await createAttention({ simd: true });
    const long = ramp([40000, 1]);
    expectCleanError(
      () => attn.scaledDotProductAttention(long, long, long, { pitfall: 'mask-value-zero', needWeights: false }),
      /needs about [\d.]+ GiB/,
      'pitfall with n = m = 40 000',
    );
    assert.ok(attn.scaledDotProductAttention(Q, K, V).output.data.every(Number.isFinite));
  });

  test('a layer too large for WebAssembly memory is refused naming embedDim and the bytes', async () => {
    const attn = await createAttention({ simd: true });
    expectCleanError(
      () => attn.multiHeadAttention({ embedDim: 16385, numHeads: 1 }),
      /embedDim.*(GiB|bytes)|(GiB|bytes).*embedDim/,
      'embedDim 16385',
    );
  });
});
