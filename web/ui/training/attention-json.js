// The attention JSON format a model computed elsewhere can be imported in:
//   { "tokens": ["The", " cat", …], "attentions": [[[[…]]]] }
// attentions[layer][head][query][key], every row a causal or full softmax (numbers ≥ 0 summing to
// about 1). Parsing is strict and every problem is named with where it is, since the file comes
// from anywhere.
const MAX_TOKENS = 512;
const MAX_VALUES = 8_000_000;

function fail(message) {
  throw new Error(message);
}

/** Text → { tokens: string[], layers: [{ data: Float32Array, shape: [H, T, T] }] }. */
export function parseAttentionJson(text) {
  let json;
  try {
    json = JSON.parse(text);
  } catch (err) {
    fail(`the file is not JSON (${err.message})`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) fail('the file must hold an object { "tokens": [...], "attentions": [...] }');
  const { tokens, attentions } = json;
  if (!Array.isArray(tokens) || tokens.length === 0) fail('"tokens" must be a non-empty array of strings');
  if (tokens.length > MAX_TOKENS) fail(`"tokens" has ${tokens.length} tokens; at most ${MAX_TOKENS} can be shown`);
  tokens.forEach((t, i) => { if (typeof t !== 'string' && typeof t !== 'number') fail(`tokens[${i}] must be a string`); });
  const T = tokens.length;
  if (!Array.isArray(attentions) || attentions.length === 0) fail('"attentions" must be a non-empty array: [layer][head][query][key]');
  let total = 0;
  const layers = attentions.map((layer, l) => {
    if (!Array.isArray(layer) || layer.length === 0) fail(`attentions[${l}] must be a non-empty array of heads`);
    const H = layer.length;
    total += H * T * T;
    if (total > MAX_VALUES) fail(`the file has more than ${MAX_VALUES.toLocaleString('en')} attention weights`);
    const data = new Float32Array(H * T * T);
    layer.forEach((head, h) => {
      if (!Array.isArray(head) || head.length !== T) fail(`attentions[${l}][${h}] must have ${T} rows (one per token), got ${Array.isArray(head) ? head.length : typeof head}`);
      head.forEach((row, i) => {
        if (!Array.isArray(row) || row.length !== T) fail(`attentions[${l}][${h}][${i}] must have ${T} numbers, got ${Array.isArray(row) ? row.length : typeof row}`);
        let sum = 0;
        row.forEach((v, j) => {
          if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) fail(`attentions[${l}][${h}][${i}][${j}] must be a number ≥ 0, got ${JSON.stringify(v)?.slice(0, 20)}`);
          data[(h * T + i) * T + j] = v;
          sum += v;
        });
        if (Math.abs(sum - 1) > 1e-2) fail(`attentions[${l}][${h}][${i}] sums to ${sum.toPrecision(4)}; attention rows sum to 1 (is this a softmax?)`);
      });
    });
    return { data, shape: [H, T, T] };
  });
  return { tokens: tokens.map(String), layers };
}

/** Token strings → ids (equal strings share an id), as head scores compare tokens by equality. */
export function tokenIds(tokens) {
  const ids = new Map();
  return tokens.map((t) => {
    if (!ids.has(t)) ids.set(t, ids.size);
    return ids.get(t);
  });
}
