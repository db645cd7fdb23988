// Plane geometry for the "mixes, never invents" panel: the convex hull of the value points and
// whether an output point lies in it. Pure functions on [x, y] pairs.

const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** Convex hull, counter-clockwise, without collinear points (Andrew's monotone chain). */
export function convexHull(points) {
  const p = [...new Map(points.map((q) => [`${q[0]},${q[1]}`, q])).values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length <= 2) return p;
  const lower = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop();
    lower.push(q);
  }
  const upper = [];
  for (let i = p.length - 1; i >= 0; i--) {
    const q = p[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop();
    upper.push(q);
  }
  const hull = lower.slice(0, -1).concat(upper.slice(0, -1));
  return hull.length ? hull : [p[0], p[p.length - 1]];
}

function distanceToSegment(q, a, b) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / len2)) : 0;
  return Math.hypot(q[0] - (a[0] + t * dx), q[1] - (a[1] + t * dy));
}

/**
 * Whether q lies in the hull (a point, a segment or a counter-clockwise polygon), allowing `tol`
 * for float32 rounding of the core's outputs.
 */
export function insideHull(hull, q, tol) {
  if (hull.length === 0) return false;
  if (hull.length === 1) return Math.hypot(q[0] - hull[0][0], q[1] - hull[0][1]) <= tol;
  if (hull.length === 2) return distanceToSegment(q, hull[0], hull[1]) <= tol;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i];
    const b = hull[(i + 1) % hull.length];
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    if (cross(a, b, q) / len < -tol) return false;
  }
  return true;
}

/**
 * Vertical offsets for labels placed right of points (screen coordinates [x, y], one label each,
 * `widths[i]` wide and `height` tall) so that no two labels overlap: each label, in order, moves
 * down a line at a time until it clears the ones already placed.
 */
export function stackLabels(points, widths, height) {
  const placed = [];
  return points.map(([x, y], i) => {
    let dy = 0;
    const hits = (b) => x < b.x + b.w && b.x < x + widths[i] && y + dy < b.y + height && b.y < y + dy + height;
    for (let tries = 0; tries < points.length && placed.some(hits); tries++) dy += height;
    placed.push({ x, y: y + dy, w: widths[i] });
    return dy;
  });
}
