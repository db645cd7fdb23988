// The current example as a Python script that recomputes its numbers: NumPy (float64, the lesson's
// own style) or PyTorch (the same formula with torch ops; torch.nn.MultiheadAttention for several
// heads, loaded from the page's weights). Pure: state in, text out.
//
// Every number is written in JavaScript's shortest round-trip form, which Python reads back as the
// same float64. Text from the page (tokens) goes in as ASCII-only string literals, so nothing a
// reader typed can end a string or a comment. The page computes in float32, so the script's
// float64 results agree with the page to about 1e-6.
import { activeMatrices, dims, tokenLabels } from './state.js';

const PY_NAMES = { Q: 'Q', K: 'K', V: 'V', X: 'X', WQ: 'W_Q', WK: 'W_K', WV: 'W_V', WO: 'W_O' };

// A Python string literal holding exactly `text` (ASCII only: everything else as \uXXXX).
export function pyString(text) {
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
  const text = String(x + 0);  // no −0
  return /^-?\d+$/.test(text) ? `${text}.0` : text;
};

// "np.array([[...],\n [...]])" with one row per line.
function literal(fn, m, indent) {
  const rows = [];
  for (let i = 0; i < m.rows; i++) {
    const row = [];
    for (let j = 0; j < m.cols; j++) row.push(pyNumber(m.data[i * m.cols + j]));
    rows.push(`[${row.join(', ')}]`);
  }
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
function describe(state) {
  const d = dims(state);
  const labels = tokenLabels(state);
  const matrices = activeMatrices(state).map(([name]) => [name, state.matrices[name]]);
  for (const [name, m] of matrices) if (!m) throw new Error(`the example has no ${name} matrix yet`);
  if (!d.divisible) throw new Error(`d_model (${d.dModel}) is not divisible by the number of heads (${d.heads})`);
  return { d, labels, matrices };
}

function header(state, d, lib) {
  const lines = [
    `# Attention explorer example, recomputed with ${lib}.`,
    d.multi
      ? `# Multi-head attention: ${d.heads} heads of d_head = d_model / h = ${d.dk}; each head is softmax(Q_h K_h^T / sqrt(d_head) + mask) V_h, then concat(heads) @ W_O.`
      : '# Attention(Q, K, V) = softmax(Q K^T * scale + mask) V, with -inf in the mask for hidden query-key pairs.',
    '# A row whose keys are all hidden gets weights 0 and output 0 (the explorer does not return NaN).',
  ];
  if (d.sentence) lines.push('# Rows of X are the tokens; Q = X @ W_Q, K = X @ W_K, V = X @ W_V (weights in the x @ W layout).');
  return lines;
}

function maskLines(state, d, lib) {
  const np = lib === 'numpy';
  const ones = np ? `np.ones((${d.n}, ${d.m}), dtype=bool)` : `torch.ones(${d.n}, ${d.m}, dtype=torch.bool)`;
  switch (state.mask.kind) {
    case 'causal':
      return ['# Causal mask: query i may not see the keys after it.',
        np ? `hidden = np.triu(${ones}, k=1)` : `hidden = torch.triu(${ones}, diagonal=1)`];
    case 'padding': {
      const pad = state.mask.pad.map((p) => (p ? 'True' : 'False')).join(', ');
      return ['# Padding mask: keys marked [PAD] are hidden from every query.',
        np ? `pad = np.array([${pad}])` : `pad = torch.tensor([${pad}])`,
        np ? `hidden = np.broadcast_to(pad, (${d.n}, ${d.m}))` : `hidden = pad.expand(${d.n}, ${d.m})`];
    }
    case 'custom':
      return ['# Custom mask: True hides that query-key pair.',
        `hidden = ${boolLiteral(np ? 'np.array' : 'torch.tensor', d.n, d.m, state.mask.custom, np ? 'bool' : 'torch.bool')}`];
    default:
      return ['# No mask: every query sees every key.', np ? `hidden = np.zeros((${d.n}, ${d.m}), dtype=bool)` : `hidden = torch.zeros(${d.n}, ${d.m}, dtype=torch.bool)`];
  }
}

function scaleLines(state, d) {
  const T = state.scaling.temperature;
  if (d.multi) return [];
  if (state.scaling.sqrtDk) return [`d_k = ${d.dk}`, `T = ${pyNumber(T)}  # temperature`, 'scale = 1 / (T * sqrt(d_k))'];
  return [`T = ${pyNumber(T)}  # temperature (the sqrt(d_k) scaling is switched off)`, 'scale = 1 / T'];
}

/** A NumPy script recomputing the example; defines weights, output (and heads' values). */
export function numpyCode(state) {
  const { d, labels, matrices } = describe(state);
  const lines = [...header(state, d, 'NumPy'), 'import numpy as np', 'from math import sqrt', ''];
  lines.push(`${d.sentence ? 'tokens' : 'queries'} = [${labels.queries.map(pyString).join(', ')}]`);
  if (!d.sentence) lines.push(`keys = [${labels.keys.map(pyString).join(', ')}]`);
  lines.push('');
  for (const [name, m] of matrices) {
    const py = PY_NAMES[name];
    lines.push(`${py} = ${literal('np.array', m, py.length + 13)}`);
  }
  lines.push('');
  if (d.sentence) lines.push('Q, K, V = X @ W_Q, X @ W_K, X @ W_V', '');
  lines.push(...maskLines(state, d, 'numpy'), '');
  lines.push(
    'def softmax_rows(s):',
    '    top = s.max(axis=-1, keepdims=True)',
    '    top = np.where(np.isfinite(top), top, 0.0)  # a fully hidden row has no finite maximum',
    '    e = np.exp(s - top)',
    '    total = e.sum(axis=-1, keepdims=True)',
    '    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)',
    '',
  );
  if (d.multi) {
    lines.push(
      `h = ${d.heads}`,
      `d_head = ${d.dk}`,
      'weights = []  # one (n, m) matrix per head',
      'head_outputs = []',
      'for i in range(h):',
      '    cols = slice(i * d_head, (i + 1) * d_head)',
      '    scores = Q[:, cols] @ K[:, cols].T / sqrt(d_head)',
      '    weights.append(softmax_rows(np.where(hidden, -np.inf, scores)))',
      '    head_outputs.append(weights[i] @ V[:, cols])',
      'weights = np.stack(weights)',
      'average = weights.mean(axis=0)  # what torch.nn.MultiheadAttention returns by default',
      'concat = np.concatenate(head_outputs, axis=1)',
      'output = concat @ W_O',
      '',
      'np.set_printoptions(precision=4, suppress=True)',
      'for i in range(h):',
      '    print(f"head {i + 1} weights =\\n{weights[i]}")',
      'print("average weights =\\n", average)',
      'print("output =\\n", output)',
    );
  } else {
    lines.push(
      ...scaleLines(state, d),
      'scores = Q @ K.T * scale',
      'weights = softmax_rows(np.where(hidden, -np.inf, scores))',
      'output = weights @ V',
      '',
      'np.set_printoptions(precision=4, suppress=True)',
      'print("weights =\\n", weights)',
      'print("row sums =", weights.sum(axis=1))',
      'print("output =\\n", output)',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A PyTorch script recomputing the example; defines weights, output (and average). */
export function torchCode(state) {
  const { d, labels, matrices } = describe(state);
  const lines = [...header(state, d, 'PyTorch'), 'from math import sqrt', 'import torch', '',
    'torch.set_default_dtype(torch.float64)  # like NumPy; the page itself computes in float32', ''];
  lines.push(`${d.sentence ? 'tokens' : 'queries'} = [${labels.queries.map(pyString).join(', ')}]`);
  if (!d.sentence) lines.push(`keys = [${labels.keys.map(pyString).join(', ')}]`);
  lines.push('');
  for (const [name, m] of matrices) {
    const py = PY_NAMES[name];
    lines.push(`${py} = ${literal('torch.tensor', m, py.length + 17)}`);
  }
  lines.push('', ...maskLines(state, d, 'torch'), '');
  if (d.multi) {
    lines.push(
      `h = ${d.heads}`,
      `d_model = ${d.dModel}`,
      '# torch.nn.Linear computes x @ weight.T, so each weight is the transpose of the x @ W matrix.',
      'mha = torch.nn.MultiheadAttention(d_model, h, bias=False, batch_first=True)',
      'mha.load_state_dict({',
      "    'in_proj_weight': torch.cat([W_Q.T, W_K.T, W_V.T]),",
      "    'out_proj.weight': W_O.T,",
      '})',
      'x = X.unsqueeze(0)  # a batch of one sequence',
    );
    const maskArg = state.mask.kind === 'padding' ? 'key_padding_mask=pad.unsqueeze(0)' : state.mask.kind === 'none' ? 'attn_mask=None' : 'attn_mask=hidden';
    lines.push(
      'with torch.no_grad():',
      `    out, w = mha(x, x, x, ${maskArg}, need_weights=True, average_attn_weights=False)`,
      '# torch returns NaN for a fully hidden row; the explorer returns 0.',
      'output = torch.nan_to_num(out[0], nan=0.0)',
      'weights = torch.nan_to_num(w[0], nan=0.0)  # (h, n, m)',
      'average = weights.mean(dim=0)',
      '',
      'torch.set_printoptions(precision=4, sci_mode=False)',
      'for i in range(h):',
      '    print(f"head {i + 1} weights =\\n{weights[i]}")',
      'print("average weights =\\n", average)',
      'print("output =\\n", output)',
    );
  } else {
    if (d.sentence) lines.push('Q, K, V = X @ W_Q, X @ W_K, X @ W_V', '');
    lines.push(
      ...scaleLines(state, d),
      'scores = (Q @ K.T * scale).masked_fill(hidden, float("-inf"))',
      '# torch.softmax gives NaN for a fully hidden row; the explorer gives 0.',
      'weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)',
      'output = weights @ V',
      '',
      'torch.set_printoptions(precision=4, sci_mode=False)',
      'print("weights =\\n", weights)',
      'print("row sums =", weights.sum(dim=1))',
      'print("output =\\n", output)',
    );
  }
  return `${lines.join('\n')}\n`;
}
