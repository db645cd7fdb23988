// The query rows the long-sequence benchmarks (bench.mjs, grad-bench.mjs) check against the
// materializing path: a query row's output and dQ depend on that row only (no causal mask), so 96
// sampled rows (the first 32, 32 in the middle and the last 32) stand for all of them.
export function sampledRows(n) {
  return [
    ...Array(32).keys(),
    ...Array.from({ length: 32 }, (_, i) => 8000 + 97 * i),
    ...Array.from({ length: 32 }, (_, i) => n - 32 + i),
  ];
}

/** The `rows` of x (n × d, row-major) as a tensor [rows.length, d]. */
export function pickRows(x, rows, d) {
  const out = new Float32Array(rows.length * d);
  rows.forEach((r, i) => out.set(x.subarray(r * d, (r + 1) * d), i * d));
  return { data: out, shape: [rows.length, d] };
}
