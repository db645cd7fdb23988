// The float comparison for the reliability tests: every element within its own tolerance
// (SAFETY × the reference's error bound + a subnormal floor), equal infinities match, NaN never
// does. A failure names the first mismatching element by its multi-index, both values, the allowed
// error, the worst excess and the shape.

// First-order bounds ignore second-order terms and a few ulps in exp(); 4× covers both with room.
export const SAFETY = 4;
// Below 2⁻¹²⁶ float32 loses relative precision (subnormals), so sums of m products may be off by
// ~m·2⁻¹⁴⁹ in absolute terms however small the values.
export const SUBNORMAL_FLOOR = 2 ** -126;

function multiIndex(flat, shape) {
  const index = [];
  for (let d = shape.length - 1; d >= 0; d--) {
    index.unshift(flat % shape[d]);
    flat = Math.floor(flat / shape[d]);
  }
  return `[${index.join(', ')}]`;
}

/**
 * Returns null when every |actual[i] − expected[i]| ≤ SAFETY·bound[i] + floor, else a message.
 * `bound` may be a number (same for all elements) or an array.
 */
export function mismatch(actual, expected, bound, shape, what, floor = SUBNORMAL_FLOOR) {
  if (actual.length !== expected.length)
    return `${what}: ${actual.length} values, expected ${expected.length} (shape [${shape.join(', ')}])`;
  let first = -1,
    worst = 0,
    worstAt = -1,
    count = 0;
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i],
      e = expected[i];
    if (a === e) continue; // includes equal infinities
    const tol = SAFETY * (typeof bound === 'number' ? bound : bound[i]) + floor;
    const err = Math.abs(a - e);
    if (err <= tol) continue; // NaN and mismatched infinities fall through
    count++;
    if (first < 0) first = i;
    const excess = Number.isFinite(err) ? err / tol : Infinity;
    if (!(excess <= worst)) ((worst = excess), (worstAt = i));
  }
  if (first < 0) return null;
  const tolAt = (i) => SAFETY * (typeof bound === 'number' ? bound : bound[i]) + floor;
  return (
    `${what}: ${count} of ${expected.length} values off (shape [${shape.join(', ')}]); first at ` +
    `${multiIndex(first, shape)}: actual ${actual[first]}, expected ${expected[first]}, allowed ±${tolAt(first)}; ` +
    `worst at ${multiIndex(worstAt, shape)}: ${worst.toPrecision(3)}× the allowed error`
  );
}

/** Index-wise exact comparison for flags and index lists. */
export function sameList(actual, expected, what) {
  const a = Array.from(actual),
    e = Array.from(expected);
  if (a.length === e.length && a.every((x, i) => x === e[i])) return null;
  return (
    `${what}: got [${a.slice(0, 20).join(', ')}${a.length > 20 ? ', …' : ''}], ` +
    `expected [${e.slice(0, 20).join(', ')}${e.length > 20 ? ', …' : ''}]`
  );
}
