// "How was this number computed?" for the positions lesson: each score written out with its
// operands (the placed or rotated vectors, from the core) and the value the core produced.
import { factor, formatNumber, subscript } from '../model/model.js';
import { explanation } from '../explain/explain.js';

const MAX_TERMS = 6;
const row = (t, i) => t.data.subarray(i * t.shape[1], (i + 1) * t.shape[1]);
const at = (t, i, j) => t.data[i * t.shape[1] + j];

function dot(a, b) {
  const terms = Array.from(a, (x, c) => `${factor(x)}\u00d7${factor(b[c])}`);
  return terms.length <= MAX_TERMS ? terms.join(' + ') : `${terms.slice(0, MAX_TERMS - 1).join(' + ')} + \u2026 + ${terms[terms.length - 1]}`;
}

/** A cell (m, n) of one of the four maps. */
export function explainPosition(ctx, kind, m, n) {
  const { line, done } = explanation();
  const value = at(ctx.maps[kind], m, n);
  if (kind === 'alibi') {
    if (n > m) {
      line('hidden: with a causal mask a query never sees a later key', 'result');
      return done(`ALiBi: query at ${m}, key at ${n}`);
    }
    const slope = ctx.slopes[ctx.p.alibiHead];
    line(`scale\u00b7q\u00b7k \u2212 slope\u00b7(m \u2212 n) = ${formatNumber(ctx.scale)}\u00d7${factor(at(ctx.content, m, n))} \u2212 ${formatNumber(slope)}\u00d7${m - n}`);
    line(`= ${formatNumber(value)}`, 'result');
    line(`The content score is the same at every position; the bias of head ${ctx.p.alibiHead + 1} falls by ${formatNumber(slope)} per token of distance.`, 'text');
    return done(`ALiBi: query at ${m}, key at ${n}`);
  }
  const q = row(ctx.inputs[kind].q, m);
  const k = row(ctx.inputs[kind].k, n);
  const name = kind === 'rope' ? `rope(q, ${m})\u00b7rope(k, ${n})` : `(q + p${subscript(m)})\u00b7(k + p${subscript(n)})`;
  line(`${name} = ${dot(q, k)}`);
  line(`= ${formatNumber(value)}`, 'result');
  line(kind === 'rope'
    ? `m \u2212 n = ${m - n}: every cell on this diagonal has the same score (up to float32 rounding), because turning both vectors by the same extra angle keeps their dot product.`
    : `The position vectors are added to q and k, so the score mixes q\u00b7p\u2099 and p\u2098\u00b7k: it depends on where the pair is, not only on m \u2212 n = ${m - n}.`, 'text');
  return done(`${kind === 'rope' ? 'RoPE' : kind === 'learned' ? 'Learned' : 'Sinusoidal'}: query at ${m}, key at ${n}`);
}

/** The largest spread along a diagonal of one map. */
export function explainSpread(ctx, kind) {
  const { line, done } = explanation();
  line(`max over diagonals m \u2212 n = \u03b4 of (largest \u2212 smallest score on it) = ${formatNumber(ctx.spread[kind], 6)}`, 'result');
  line(kind === 'rope' || kind === 'alibi'
    ? 'About 0: the score depends on the distance m \u2212 n only (what is left is float32 rounding).'
    : 'Far from 0: the same distance gives different scores at different places, so the model must learn what each absolute position means.', 'text');
  return done('Constant along the diagonals?');
}

/** A cell of one head's ALiBi bias matrix. */
export function explainAlibi(ctx, h, m, n) {
  const { line, done } = explanation();
  const slope = ctx.slopes[h];
  if (n > m) line('\u2212\u221e: the causal mask hides later keys', 'result');
  else {
    line(`\u2212slope \u00d7 (m \u2212 n) = \u2212${formatNumber(slope)} \u00d7 ${m - n} = ${formatNumber(at(ctx.bias[h], m, n))}`, 'result');
  }
  const H = ctx.slopes.length;
  line(Number.isInteger(Math.log2(H))
    ? `Head ${h + 1} of ${H}: slope 2^(\u22128\u00b7${h + 1}/${H}) (Press et al., as BLOOM computes it).`
    : `Head ${h + 1} of ${H}: ${H} is not a power of two, so the slopes are those of ${2 ** Math.floor(Math.log2(H))} heads, then every other slope of twice as many (BLOOM\u2019s rule).`, 'text');
  return done(`ALiBi bias of head ${h + 1} at (${m}, ${n})`);
}

/** One clock: pair i's frequency and where attn.rope turned its unit vector. */
export function explainClock(ctx, i) {
  const { line, done } = explanation();
  const hand = ctx.hands[i];
  const p = ctx.p.position;
  line(`\u03b8${subscript(i + 1)} = base^(\u22122\u00b7${i}/${ctx.d}) = ${formatNumber(ctx.p.base)}^(${formatNumber(-2 * i / ctx.d)}) = ${formatNumber(hand.theta)} rad per position`);
  line(`angle at position ${p} = ${p} \u00d7 ${formatNumber(hand.theta)} = ${formatNumber(p * hand.theta)} rad`);
  line(`attn.rope(e${subscript(i + 1)}, position ${p}) = (cos, sin) = (${formatNumber(hand.cos)}, ${formatNumber(hand.sin)})`, 'result');
  line(`Pair ${i + 1} is features ${i + 1} and ${i + 1 + ctx.d / 2} (Hugging Face Llama\u2019s rotate_half pairs the two halves of the head).`, 'text');
  return done(`RoPE pair ${i + 1} at position ${p}`);
}
