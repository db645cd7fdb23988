// The current example as a Python script that recomputes its numbers: NumPy (float64, the lesson's
// own style) or PyTorch (the same formula with torch ops; torch.nn.MultiheadAttention for several
// heads, loaded from the page's weights). Pure: state in, text out.
//
// Every number is written in JavaScript's shortest round-trip form, which Python reads back as the
// same float64. Text from the page (tokens) goes in as ASCII-only string literals, so nothing a
// reader typed can end a string or a comment. The page computes in float32, so the script's
// float64 results agree with the page to about 1e-6.
import { activeMatrices, dims, MULTI_HEAD_PITFALLS, tokenLabels } from '../model/model.js';

const PY_NAMES = {
  Q: 'Q',
  K: 'K',
  V: 'V',
  X: 'X',
  WQ: 'W_Q',
  WK: 'W_K',
  WV: 'W_V',
  WO: 'W_O',
  XM: 'X_mem',
  B: 'B',
  BQ: 'b_Q',
  BK: 'b_K',
  BV: 'b_V',
  BO: 'b_O',
};

// A Python string literal holding exactly `text` (ASCII only: everything else as \uXXXX).
function pyString(text) {
  let out = '"';
  for (const ch of String(text)) {
    const c = ch.codePointAt(0);
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c <= 0xffff) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += `\\U${c.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

// JS and Python agree on the shortest round-trip digits; whole numbers get ".0" so every array is
// a float array (torch.tensor([[1, 0]]) would be integers).
const pyNumber = (x) => {
  if (!Number.isFinite(x)) throw new Error(`cannot write ${x} as a Python literal`);
  const text = String(x + 0); // no −0
  return /^-?\d+$/.test(text) ? `${text}.0` : text;
};

// "np.array([[...],\n [...]])" with one row per line; `negInf` is how −∞ is written (only the
// bias matrix may hold it: pyNumber refuses it everywhere else). `vector` writes a 1-row matrix
// as a 1-D array (a projection bias).
function literal(fn, m, indent, { negInf = null, vector = false } = {}) {
  const cell = (x) => (x === -Infinity && negInf ? negInf : pyNumber(x));
  const rows = [];
  for (let i = 0; i < m.rows; i++) {
    const row = [];
    for (let j = 0; j < m.cols; j++) row.push(cell(m.data[i * m.cols + j]));
    rows.push(`[${row.join(', ')}]`);
  }
  if (vector) return `${fn}(${rows[0]})`;
  return `${fn}([${rows.join(`,\n${' '.repeat(indent)}`)}])`;
}

function boolLiteral(fn, rows, cols, flags, dtype) {
  const lines = [];
  for (let i = 0; i < rows; i++) {
    const row = [];
    for (let j = 0; j < cols; j++) row.push(flags[i * cols + j] ? 'True' : 'False');
    lines.push(`[${row.join(', ')}]`);
  }
  return `${fn}([${lines.join(`,\n${' '.repeat(fn.length + 2)}`)}], dtype=${dtype})`;
}

// What the script needs to know about the example.
function describe(state, pitfall) {
  const d = dims(state);
  const labels = tokenLabels(state);
  const matrices = activeMatrices(state).map(([name]) => [name, state.matrices[name]]);
  for (const [name, m] of matrices) if (!m) throw new Error(`the example has no ${name} matrix yet`);
  if (!d.divisible) throw new Error(`d_model (${d.dModel}) is not divisible by the number of heads (${d.heads})`);
  if (pitfall && !PITFALL_TEXT[pitfall]) throw new Error(`unknown mistake ${pitfall}`);
  if (pitfall && !d.multi && MULTI_HEAD_PITFALLS.includes(pitfall))
    throw new Error(`the mistake ${pitfall} needs several heads`);
  return { d, labels, matrices };
}

// The mistakes of the pitfalls panel, as the core makes them (src/core/pitfalls.cpp).
const PITFALL_TEXT = {
  'mask-after-softmax': 'the mask applied after the softmax (hidden weights set to 0, rows not renormalized)',
  'mask-value-zero': 'hidden scores set to 0 instead of -inf (hidden keys still take part)',
  'scale-by-dk': 'scores divided by d_k instead of sqrt(d_k)',
  'scale-by-dmodel': 'every head divided by sqrt(d_model) instead of its own sqrt(d_k)',
  'skip-wo': 'W_O skipped (the concatenated heads are the output)',
};

function header(state, d, lib) {
  const lines = [
    `# Attention explorer example, recomputed with ${lib}.`,
    d.multi
      ? `# Multi-head attention: ${d.heads} heads of d_k = d_model / h = ${d.dk}; each head is softmax(Q_h K_h^T * scale + mask) V_h, then concat(heads) @ W_O.`
      : '# Attention(Q, K, V) = softmax(Q K^T * scale + mask) V, with -inf in the mask for hidden query-key pairs.',
    '# A row whose keys are all hidden gets weights 0 and output 0 (the explorer does not return NaN).',
  ];
  if (d.sentence)
    lines.push(
      `# Rows of X are the tokens; Q = X @ W_Q${d.biases ? ' + b_Q' : ''}, K = ${d.cross ? 'X_mem' : 'X'} @ W_K${d.biases ? ' + b_K' : ''}, V = ${d.cross ? 'X_mem' : 'X'} @ W_V${d.biases ? ' + b_V' : ''} (weights in the x @ W layout).`,
    );
  if (d.cross) lines.push('# Cross-attention: queries from the sentence X, keys and values from the memory X_mem.');
  if (d.biasMatrix)
    lines.push(
      '# B is the bias matrix (an additive mask) added to the scaled scores before the softmax; -inf hides a pair.',
    );
  if (d.multi)
    lines.push(
      '# Every head sees all n tokens; heads differ only in the d_k columns of Q, K, V they read (a reshape, not a loop).',
    );
  return lines;
}

function maskLines(state, d, lib) {
  const np = lib === 'numpy';
  const ones = np ? `np.ones((${d.n}, ${d.m}), dtype=bool)` : `torch.ones(${d.n}, ${d.m}, dtype=torch.bool)`;
  switch (state.mask.kind) {
    case 'causal':
      return [
        '# Causal mask: query i may not see the keys after it.',
        np ? `hidden = np.triu(${ones}, k=1)` : `hidden = torch.triu(${ones}, diagonal=1)`,
      ];
    case 'padding': {
      const pad = state.mask.pad.map((p) => (p ? 'True' : 'False')).join(', ');
      return [
        '# Padding mask: keys marked [PAD] are hidden from every query.',
        np ? `pad = np.array([${pad}])` : `pad = torch.tensor([${pad}])`,
        np ? `hidden = np.broadcast_to(pad, (${d.n}, ${d.m}))` : `hidden = pad.expand(${d.n}, ${d.m})`,
      ];
    }
    case 'custom':
      return [
        '# Custom mask: True hides that query-key pair.',
        `hidden = ${boolLiteral(np ? 'np.array' : 'torch.tensor', d.n, d.m, state.mask.custom, np ? 'bool' : 'torch.bool')}`,
      ];
    default:
      return [
        '# No mask: every query sees every key.',
        np
          ? `hidden = np.zeros((${d.n}, ${d.m}), dtype=bool)`
          : `hidden = torch.zeros(${d.n}, ${d.m}, dtype=torch.bool)`,
      ];
  }
}

// The page's scale: 1 / (T * sqrt(d_k)), or 1 / T with the sqrt(d_k) switched off; d_k is the
// head's width (d_model / h with several heads).
function scaleLines(state, d) {
  const T = state.scaling.temperature;
  const lines = d.multi
    ? [`h = ${d.heads}`, `d_model = ${d.dModel}`, "d_k = d_model // h  # each head's width"]
    : [`d_k = ${d.dk}`];
  lines.push(`T = ${pyNumber(T)}  # temperature`);
  lines.push(
    state.scaling.sqrtDk ? 'scale = 1 / (T * sqrt(d_k))' : 'scale = 1 / T  # the sqrt(d_k) scaling is switched off',
  );
  return lines;
}

function dataLines(state, d, labels, matrices, lib) {
  const fn = lib === 'numpy' ? 'np.array' : 'torch.tensor';
  const negInf = lib === 'numpy' ? '-np.inf' : 'float("-inf")';
  const lines = [`${d.sentence ? 'tokens' : 'queries'} = [${labels.queries.map(pyString).join(', ')}]`];
  if (!d.sentence || d.cross) lines.push(`${d.cross ? 'memory' : 'keys'} = [${labels.keys.map(pyString).join(', ')}]`);
  lines.push('');
  for (const [name, m] of matrices) {
    const py = PY_NAMES[name];
    const vector = /^B[QKVO]$/.test(name);
    lines.push(
      `${py} = ${literal(fn, m, py.length + fn.length + 4, { negInf: name === 'B' ? negInf : null, vector })}`,
    );
  }
  lines.push('');
  if (d.sentence) {
    const kv = d.cross ? 'X_mem' : 'X';
    const b = (n) => (d.biases ? ` + b_${n}` : '');
    lines.push(`Q = X @ W_Q${b('Q')}`, `K = ${kv} @ W_K${b('K')}`, `V = ${kv} @ W_V${b('V')}`, '');
  }
  return lines;
}

// nn.MultiheadAttention takes one attn_mask, boolean or float, so with the bias matrix on the page
// turns clicked cells into -inf entries of B; the script does the same (it matters only for the
// pitfalls, where a hidden pair and a -inf bias are treated differently).
function mergeCustomIntoBias(state, d, lib) {
  if (!(d.multi && d.biasMatrix && state.mask.kind === 'custom')) return [];
  return lib === 'numpy'
    ? [
        '# One additive mask for the layer: the clicked cells become -inf in B.',
        'B = np.where(hidden, -np.inf, B)',
        'hidden = np.zeros_like(hidden)',
      ]
    : [
        '# One additive mask for the layer: the clicked cells become -inf in B.',
        'B = B.masked_fill(hidden, float("-inf"))',
        'hidden = torch.zeros_like(hidden)',
      ];
}

const NUMPY_SOFTMAX = [
  'def softmax_rows(s):',
  '    top = s.max(axis=-1, keepdims=True)',
  '    top = np.where(np.isfinite(top), top, 0.0)  # a fully hidden row has no finite maximum',
  '    e = np.exp(s - top)',
  '    total = e.sum(axis=-1, keepdims=True)',
  '    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)',
  '',
];

// Several heads as a reshape of Q, K, V's columns, not a loop over heads.
const NUMPY_MULTI_HEAD = (plusB, plusBO) => [
  'def split_heads(M):  # (n, d_model) -> (h, n, d_k): head i is columns i*d_k .. (i+1)*d_k - 1',
  '    return M.reshape(M.shape[0], h, d_k).transpose(1, 0, 2)',
  '',
  'def merge_heads(H):  # (h, n, d_k) -> (n, d_model), the inverse reshape',
  '    return H.transpose(1, 0, 2).reshape(H.shape[1], h * d_k)',
  '',
  'Qh, Kh, Vh = split_heads(Q), split_heads(K), split_heads(V)',
  'raw = Qh @ Kh.transpose(0, 2, 1)  # (h, n, m): every head scores all n x m pairs',
  `weights = softmax_rows(np.where(hidden, -np.inf, raw * scale${plusB}))  # the (n, m) mask broadcasts over heads`,
  'head_outputs = weights @ Vh  # (h, n, d_k)',
  'concat = merge_heads(head_outputs)',
  `output = concat @ W_O${plusBO}`,
  'average = weights.mean(axis=0)  # what torch.nn.MultiheadAttention returns by default',
];
const NUMPY_ONE_HEAD = (plusB) => [
  'raw = Q @ K.T',
  `weights = softmax_rows(np.where(hidden, -np.inf, raw * scale${plusB}))`,
  'output = weights @ V',
];
const plusTerms = (d) => [d.biasMatrix ? ' + B' : '', d.biases ? ' + b_O' : ''];

// The mistaken weights and output of the pitfalls panel, from `raw` (Q K^T, unscaled). `lib`
// picks the ops; `multi` adds the head average and W_O as the panel shows them.
function pitfallLines(pitfall, d, lib) {
  const np = lib === 'numpy';
  const where = np
    ? (cond, a, b) => `np.where(${cond}, ${a}, ${b})`
    : (cond, a, b) => `(${b}).masked_fill(${cond}, ${a})`;
  const ninf = np ? '-np.inf' : 'float("-inf")';
  const lines = ['', `# The pitfalls panel's mistake: ${PITFALL_TEXT[pitfall]}.`];
  const w = d.multi ? 'mistake_head_weights' : 'mistake_weights';
  const [b, bo] = plusTerms(d);
  switch (pitfall) {
    case 'mask-after-softmax':
      lines.push(`${w} = ${where('hidden', '0.0', `softmax_rows(raw * scale${b})`)}`);
      break;
    case 'mask-value-zero':
      lines.push(`${w} = softmax_rows(${where('hidden', '0.0', `raw * scale${b}`)})`);
      break;
    case 'scale-by-dk':
      lines.push(`${w} = softmax_rows(${where('hidden', ninf, `raw / d_k${b}`)})`);
      break;
    case 'scale-by-dmodel':
      lines.push(`${w} = softmax_rows(${where('hidden', ninf, `raw / sqrt(d_model)${b}`)})`);
      break;
    default:
      lines.push(`${w} = weights`);
      break;
  }
  if (!d.multi) return [...lines, 'mistake_output = mistake_weights @ V'];
  lines.push(`mistake_average = ${w}.mean(${np ? 'axis' : 'dim'}=0)`);
  if (pitfall === 'skip-wo')
    lines.push(`mistake_output = merge_heads(weights @ Vh)  # no W_O: each column comes from one head`);
  else lines.push(`mistake_output = merge_heads(${w} @ Vh) @ W_O${bo}`);
  return lines;
}

/**
 * A NumPy script recomputing the example; defines weights, output (with several heads also
 * average and concat). `pitfall` (a name from the pitfalls panel) adds mistake_weights (or
 * mistake_average) and mistake_output, the panel's "with the mistake" side.
 */
export function numpyCode(state, { pitfall = null } = {}) {
  const { d, labels, matrices } = describe(state, pitfall);
  const lines = [...header(state, d, 'NumPy'), 'import numpy as np', 'from math import sqrt', ''];
  lines.push(...dataLines(state, d, labels, matrices, 'numpy'));
  lines.push(
    ...maskLines(state, d, 'numpy'),
    ...mergeCustomIntoBias(state, d, 'numpy'),
    '',
    ...scaleLines(state, d),
    '',
    ...NUMPY_SOFTMAX,
  );
  const [b, bo] = plusTerms(d);
  lines.push(...(d.multi ? NUMPY_MULTI_HEAD(b, bo) : NUMPY_ONE_HEAD(b)));
  return finish(lines, d, pitfall, 'numpy');
}

// The mistake (if any), the printing, and the script's text.
function finish(lines, d, pitfall, lib) {
  if (pitfall) lines.push(...pitfallLines(pitfall, d, lib));
  lines.push(
    '',
    lib === 'numpy'
      ? 'np.set_printoptions(precision=4, suppress=True)'
      : 'torch.set_printoptions(precision=4, sci_mode=False)',
  );
  lines.push(...printLines(d, pitfall));
  return `${lines.join('\n')}\n`;
}

function printLines(d, pitfall) {
  const lines = d.multi
    ? [
        'for i in range(h):',
        '    print(f"head {i + 1} weights =\\n{weights[i]}")',
        'print("average weights =\\n", average)',
      ]
    : ['print("weights =\\n", weights)', 'print("row sums =", weights.sum(-1))'];
  lines.push('print("output =\\n", output)');
  if (pitfall) {
    lines.push(
      `print("with the mistake, ${d.multi ? 'average weights' : 'weights'} =\\n", ${d.multi ? 'mistake_average' : 'mistake_weights'})`,
    );
    lines.push('print("with the mistake, output =\\n", mistake_output)');
  }
  return lines;
}

const TORCH_SOFTMAX = [
  'def softmax_rows(s):',
  '    # torch.softmax gives NaN for a fully hidden row; the explorer gives 0.',
  '    return torch.nan_to_num(torch.softmax(s, dim=-1), nan=0.0)',
  '',
];

// What the pitfalls need beyond the layer: the heads' own scores.
const TORCH_SPLIT_HEADS = [
  '',
  'def split_heads(M):  # (n, d_model) -> (h, n, d_k), a reshape',
  '    return M.reshape(M.shape[0], h, d_k).transpose(0, 1)',
  '',
  'def merge_heads(H):  # (h, n, d_k) -> (n, d_model)',
  '    return H.transpose(0, 1).reshape(H.shape[1], h * d_k)',
  '',
  'Qh, Kh, Vh = split_heads(Q), split_heads(K), split_heads(V)',
  'raw = Qh @ Kh.transpose(1, 2)  # (h, n, m)',
];

// torch.nn.MultiheadAttention always divides by sqrt(d_k); any other scale is folded into W_Q.
function torchLayerLines(state, d) {
  const lines = [
    '# torch.nn.Linear computes x @ weight.T, so each weight is the transpose of the x @ W matrix.',
    `mha = torch.nn.MultiheadAttention(d_model, h, bias=${d.biases ? 'True' : 'False'}, batch_first=True)`,
  ];
  let wq = 'W_Q.T';
  let bq = 'b_Q';
  if (!(state.scaling.sqrtDk && state.scaling.temperature === 1)) {
    lines.push(
      '# The layer always multiplies the scores by 1 / sqrt(d_k); this example uses `scale`, so W_Q (and b_Q) is',
      '# multiplied by scale * sqrt(d_k) before loading (Q K^T grows by the same factor).',
    );
    wq = '(W_Q * (scale * sqrt(d_k))).T';
    bq = 'b_Q * (scale * sqrt(d_k))';
  }
  let maskArg =
    state.mask.kind === 'padding'
      ? 'key_padding_mask=pad.unsqueeze(0)'
      : state.mask.kind === 'none'
        ? 'attn_mask=None'
        : 'attn_mask=hidden';
  if (d.biasMatrix) {
    lines.push(
      '# The bias matrix as a float attn_mask (added to the scores), with every hidden pair at -inf.',
      'attn_mask = B.masked_fill(hidden, float("-inf"))',
    );
    maskArg = 'attn_mask=attn_mask';
  }
  const biases = d.biases ? [`    'in_proj_bias': torch.cat([${bq}, b_K, b_V]),`, "    'out_proj.bias': b_O,"] : [];
  lines.push(
    'mha.load_state_dict({',
    `    'in_proj_weight': torch.cat([${wq}, W_K.T, W_V.T]),`,
    "    'out_proj.weight': W_O.T,",
    ...biases,
    '})',
    'x = X.unsqueeze(0)  # a batch of one sequence',
    ...(d.cross ? ['memory_x = X_mem.unsqueeze(0)  # keys and values come from the memory'] : []),
    'with torch.no_grad():',
    `    out, w = mha(x, ${d.cross ? 'memory_x, memory_x' : 'x, x'}, ${maskArg}, need_weights=True, average_attn_weights=False)`,
    '# torch returns NaN for a fully hidden row; the explorer returns 0.',
    'output = torch.nan_to_num(out[0], nan=0.0)',
    'weights = torch.nan_to_num(w[0], nan=0.0)  # (h, n, m)',
    'average = weights.mean(dim=0)',
    ...(d.biases
      ? [
          '# A query that sees no key: its heads give 0 on the page, so the layer gives concat @ W_O + b_O = b_O.',
          'output[weights.sum(dim=(0, 2)) == 0] = b_O',
        ]
      : []),
  );
  return lines;
}

/**
 * A PyTorch script recomputing the example; defines weights, output (and average). Several heads
 * run through torch.nn.MultiheadAttention loaded with the page's weights. `pitfall` as for
 * numpyCode.
 */
export function torchCode(state, { pitfall = null } = {}) {
  const { d, labels, matrices } = describe(state, pitfall);
  const lines = [
    ...header(state, d, 'PyTorch'),
    'from math import sqrt',
    'import torch',
    '',
    'torch.set_default_dtype(torch.float64)  # like NumPy; the page itself computes in float32',
    '',
  ];
  lines.push(...dataLines(state, d, labels, matrices, 'torch'));
  lines.push(
    ...maskLines(state, d, 'torch'),
    ...mergeCustomIntoBias(state, d, 'torch'),
    '',
    ...scaleLines(state, d),
    '',
    ...TORCH_SOFTMAX,
  );
  if (d.multi) lines.push(...torchLayerLines(state, d), ...(pitfall ? TORCH_SPLIT_HEADS : []));
  else
    lines.push(
      'raw = Q @ K.T',
      `weights = softmax_rows((raw * scale${d.biasMatrix ? ' + B' : ''}).masked_fill(hidden, float("-inf")))`,
      'output = weights @ V',
    );
  return finish(lines, d, pitfall, 'torch');
}
