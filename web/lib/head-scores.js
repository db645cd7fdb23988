// attn.headScores: what attention heads do, measured by the core (src/core/head_scores.h has the
// definitions): previous-token, duplicate-token and induction (prefix-matching) scores of attention
// patterns over their tokens.
import { fail, formatShape } from './checks.js';
import { readTokens, toTensor } from './read-input.js';
import { check } from './wasm-heap.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

// Ids the core takes as int32 (it checks them against the attention's size itself).
export function toTokens(value, name) {
  return readTokens(value, name, (x, i) => {
    if (!Number.isInteger(x) || x < INT32_MIN || x > INT32_MAX)
      fail(`${name} must hold integer token ids; item ${i} is ${typeof x === 'number' ? x : typeof x}`);
  });
}

const SCORES = ['previousToken', 'duplicateToken', 'induction'];

/**
 * tokens [T] with attention [T, T] → numbers; tokens [T] with [H, T, T], or tokens [B, T] with
 * [B, H, T, T] → one number per head (pooled over the batch). Also returns how many queries each
 * score averages over (`queries`).
 */
export function headScores(module, heap, tokensValue, attentionValue) {
  const tokens = toTokens(tokensValue, 'tokens');
  const a = toTensor(attentionValue, 'attention');
  const t = tokens.shape[tokens.shape.length - 1];
  const batch = tokens.shape.length === 2 ? tokens.shape[0] : 1;
  const s = a.shape;
  const square = s.length >= 2 && s[s.length - 1] === t && s[s.length - 2] === t;
  const fits = tokens.shape.length === 1 ? square && s.length <= 3 : square && s.length === 4 && s[0] === batch;
  if (!fits) {
    const wanted =
      tokens.shape.length === 1 ? `[T, T] or [H, T, T] with T = ${t}` : `[B, H, T, T] = [${batch}, H, ${t}, ${t}]`;
    fail(`attention must have shape ${wanted} for tokens of shape ${formatShape(tokens.shape)}, got ${formatShape(s)}`);
  }
  const heads = s.length === 2 ? 1 : s[s.length - 3];
  const [pa, pt, out] = heap.layout([a.data.length * 4, tokens.data.length * 4, heads * 6 * 8], 'headScores');
  heap.writeF32(pa, a.data);
  module.HEAP32.set(tokens.data, pt >>> 2);
  try {
    check(module._headScores(pa, pt, batch, heads, t, out), 'headScores');
    const r = heap.readF64(out, heads * 6);
    const pick = (k) => Array.from({ length: heads }, (_, h) => r[h * 6 + k]);
    const result = { queries: {} };
    SCORES.forEach((name, k) => {
      result[name] = s.length === 2 ? r[k] : pick(k);
      result.queries[name] = s.length === 2 ? r[3 + k] : pick(3 + k);
    });
    return result;
  } finally {
    heap.settle();
  }
}

/**
 * Mean cross-entropy at each position: logits [B, T, V] or [T, V] (e.g. a transformer's forward),
 * targets [B, T] or [T] with −1 = ignored → { loss: number[T], count: number[T] } (loss 0 where no
 * target counts).
 */
export function lossByPosition(module, heap, logitsValue, targetsValue) {
  const logits = toTensor(logitsValue, 'logits');
  const targets = toTokens(targetsValue, 'targets');
  const v = logits.shape[logits.shape.length - 1];
  const lead = logits.shape.slice(0, -1);
  if (lead.length !== targets.shape.length || lead.some((d, i) => d !== targets.shape[i]))
    fail(
      `logits must have shape [...targets.shape, V] = [${targets.shape.join(', ')}, V], got ${formatShape(logits.shape)}`,
    );
  const t = targets.shape[targets.shape.length - 1];
  const batch = targets.data.length / t;
  const [pl, pt, loss, count] = heap.layout(
    [logits.data.length * 4, targets.data.length * 4, t * 8, t * 4],
    'lossByPosition',
  );
  heap.writeF32(pl, logits.data);
  module.HEAP32.set(targets.data, pt >>> 2);
  try {
    check(module._lossByPosition(pl, pt, batch, t, v, loss, count), 'lossByPosition');
    return {
      loss: Array.from(heap.readF64(loss, t)),
      count: Array.from(module.HEAPU32.subarray(count >>> 2, (count >>> 2) + t)),
    };
  } finally {
    heap.settle();
  }
}
