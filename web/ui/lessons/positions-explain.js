// "How was this number computed?" for the positions lesson: each score written out with its
// operands (the placed or rotated vectors, from the core) and the value the core produced. Every
// line is a catalogue message (inference.positions.explain.*), with the numbers in the reader's
// decimal separator.
import { factor, formatNumber, subscript } from '../model/model.js';
import { explanation } from '../explain/explain.js';

const MAX_TERMS = 6;
const row = (t, i) => t.data.subarray(i * t.shape[1], (i + 1) * t.shape[1]);
const at = (t, i, j) => t.data[i * t.shape[1] + j];
const numbers = ({ decimal }) => ({
  num: (x, digits) => decimal(formatNumber(x, digits)),
  fac: (x) => decimal(factor(x)),
});

function dot(a, b, { fac }) {
  const terms = Array.from(a, (x, c) => `${fac(x)}×${fac(b[c])}`);
  return terms.length <= MAX_TERMS
    ? terms.join(' + ')
    : `${terms.slice(0, MAX_TERMS - 1).join(' + ')} + … + ${terms[terms.length - 1]}`;
}

function explainAlibiCell(ctx, m, n, i18n, { line, done }) {
  const { t } = i18n;
  const { num, fac } = numbers(i18n);
  const title = t('inference.positions.explain.alibiTitle', { m, n });
  if (n > m) {
    line(t('inference.positions.explain.alibiHidden'), 'result');
    return done(title);
  }
  const slope = ctx.slopes[ctx.p.alibiHead];
  line(
    t('inference.positions.explain.alibi', {
      scale: num(ctx.scale),
      content: fac(at(ctx.content, m, n)),
      slope: num(slope),
      distance: m - n,
    }),
  );
  line(`= ${num(at(ctx.maps.alibi, m, n))}`, 'result');
  line(t('inference.positions.explain.alibiWhy', { head: ctx.p.alibiHead + 1, slope: num(slope) }), 'text');
  return done(title);
}

/** A cell (m, n) of one of the four maps. */
export function explainPosition(ctx, kind, m, n, i18n) {
  const { t } = i18n;
  const { num } = numbers(i18n);
  const lines = explanation();
  const { line, done } = lines;
  if (kind === 'alibi') return explainAlibiCell(ctx, m, n, i18n, lines);
  const q = row(ctx.inputs[kind].q, m);
  const k = row(ctx.inputs[kind].k, n);
  const sum = dot(q, k, numbers(i18n));
  line(
    kind === 'rope'
      ? t('inference.positions.explain.rope', { m, n, sum })
      : t('inference.positions.explain.added', { pm: subscript(m), pn: subscript(n), sum }),
  );
  line(`= ${num(at(ctx.maps[kind], m, n))}`, 'result');
  line(
    t(kind === 'rope' ? 'inference.positions.explain.ropeWhy' : 'inference.positions.explain.addedWhy', {
      distance: m - n,
    }),
    'text',
  );
  return done(t(`inference.positions.explain.${kind}Title`, { m, n }));
}

/** The largest spread along a diagonal of one map. */
export function explainSpread(ctx, kind, i18n) {
  const { t } = i18n;
  const { line, done } = explanation();
  line(t('inference.positions.explain.spread', { value: numbers(i18n).num(ctx.spread[kind], 6) }), 'result');
  line(
    t(
      kind === 'rope' || kind === 'alibi'
        ? 'inference.positions.explain.spreadNone'
        : 'inference.positions.explain.spreadFar',
    ),
    'text',
  );
  return done(t('inference.positions.explain.spreadTitle'));
}

/** A cell of one head's ALiBi bias matrix. */
export function explainAlibi(ctx, h, m, n, i18n) {
  const { t } = i18n;
  const { num } = numbers(i18n);
  const { line, done } = explanation();
  const slope = ctx.slopes[h];
  if (n > m) line(t('inference.positions.explain.biasHidden'), 'result');
  else
    line(
      t('inference.positions.explain.bias', { slope: num(slope), distance: m - n, value: num(at(ctx.bias[h], m, n)) }),
      'result',
    );
  const H = ctx.slopes.length;
  line(
    Number.isInteger(Math.log2(H))
      ? t('inference.positions.explain.slopes', { head: h + 1, heads: H })
      : t('inference.positions.explain.slopesOdd', { head: h + 1, heads: H, power: 2 ** Math.floor(Math.log2(H)) }),
    'text',
  );
  return done(t('inference.positions.explain.biasTitle', { head: h + 1, m, n }));
}

/** One clock: pair i's frequency and where attn.rope turned its unit vector. */
export function explainClock(ctx, i, i18n) {
  const { t } = i18n;
  const { num } = numbers(i18n);
  const { line, done } = explanation();
  const hand = ctx.hands[i];
  const p = ctx.p.position;
  line(
    t('inference.positions.explain.theta', {
      sub: subscript(i + 1),
      i,
      d: ctx.d,
      base: num(ctx.p.base),
      exponent: num((-2 * i) / ctx.d),
      theta: num(hand.theta),
    }),
  );
  line(t('inference.positions.explain.angle', { p, theta: num(hand.theta), angle: num(p * hand.theta) }));
  line(
    t('inference.positions.explain.turned', { sub: subscript(i + 1), p, cos: num(hand.cos), sin: num(hand.sin) }),
    'result',
  );
  line(t('inference.positions.explain.pair', { pair: i + 1, other: i + 1 + ctx.d / 2 }), 'text');
  return done(t('inference.positions.explain.clockTitle', { pair: i + 1, p }));
}
