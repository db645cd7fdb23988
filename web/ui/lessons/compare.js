// Comparing two results the core computed (right vs wrong, one way vs another): which cells
// differ beyond float32 rounding, and by how much at most. Bookkeeping only; the numbers compared
// come from the core.

const ATOL = 1e-5;
const RTOL = 1e-4;

/**
 * a, b: flat arrays of equal length (b is the reference). `map(k)` (optional) gives the index in
 * b for index k of a, for comparing permuted results. Returns the differing indices of a and the
 * largest absolute difference.
 */
export function compare(a, b, map = (k) => k) {
  const differ = new Set();
  let maxDiff = 0;
  for (let k = 0; k < a.length; k++) {
    const x = a[k];
    const y = b[map(k)];
    if (Object.is(x, y)) continue;
    const diff = Math.abs(x - y);
    if (!(diff <= maxDiff)) maxDiff = Number.isNaN(diff) ? Infinity : diff;
    if (!(diff <= ATOL + RTOL * Math.abs(y))) differ.add(k);
  }
  return { differ, maxDiff };
}

/** "2.4e-8" style text for a difference; exactly 0 reads "0". */
export function diffText(x) {
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return String(x);
  return x < 1e-3 ? x.toExponential(1).replace('-', '−') : String(Number(x.toPrecision(3)));
}
