// Number formatting shared by every panel, so a value reads the same in a cell, a legend and an
// explanation. Display only: the full-precision value stays in the heatmaps' data-values and in state.

const MINUS = '−';

/** Compact cell text: 2 decimals, exact zero as "0", −∞ for hidden scores. */
export function formatCell(v) {
  if (v === -Infinity) return `${MINUS}∞`;
  if (v === Infinity) return '∞';
  if (Number.isNaN(v)) return 'NaN';
  if (v === 0) return '0';
  const a = Math.abs(v);
  let text;
  if (a >= 999.5) text = v.toExponential(0);
  else if (a >= 99.5) text = v.toFixed(0);
  else if (a >= 9.95) text = v.toFixed(1);
  else text = v.toFixed(2);
  if (/^-0(\.0*)?$/.test(text)) text = text.slice(1); // −0.00 reads as a sign error
  return text.replace('-', MINUS);
}

/** Explanation text: up to `digits` significant digits, no trailing zeros. */
export function formatNumber(v, digits = 4) {
  if (v === -Infinity) return `${MINUS}∞`;
  if (v === Infinity) return '∞';
  if (Number.isNaN(v)) return 'NaN';
  if (v === 0) return '0';
  const a = Math.abs(v);
  let text = a >= 1e5 || a < 1e-4 ? v.toExponential(digits - 1) : Number(v.toPrecision(digits)).toString();
  text = text.replace(/\.?0+e/, 'e');
  return text.replace('-', MINUS);
}

/** A parenthesised factor for products in an explanation: (−0.5). */
export const factor = (v, digits = 3) => (v < 0 ? `(${formatNumber(v, digits)})` : formatNumber(v, digits));

/** Text for an editable cell: short but reversible enough for hand-typed values. */
export function formatInput(v) {
  if (v === -Infinity) return '-inf'; // what a reader types into the bias matrix to hide a pair
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return '0';
  const rounded = Number(v.toPrecision(3));
  return Math.abs(rounded) >= 1e4 || Math.abs(rounded) < 1e-3 ? rounded.toExponential(2) : String(rounded);
}

/** Parses what a person types: accepts a Unicode minus and a decimal comma; null if not a number. */
export function parseNumber(text) {
  const t = String(text)
    .trim()
    .replace(/\u2212/g, '-')
    .replace(',', '.');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const v = Number(t);
  return Number.isFinite(v) && Math.abs(v) <= 1e6 ? v : null;
}

/** Subscript digits for labels such as q₁, k₂. */
export function subscript(i) {
  return String(i).replace(/\d/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[d]);
}
