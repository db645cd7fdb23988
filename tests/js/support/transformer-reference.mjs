// Comparing the transformer with reference data written by the PyTorch float64 generators
// (generate_transformer_reference.py, generate_positions_reference.py): float32 copies of a state,
// and a tolerance per tensor from its largest magnitude plus the deviation the same torch code
// shows in float32 (stored with the data).
import assert from 'node:assert/strict';

export const ATOL_REL = 2e-6;
export const F32_SLACK = 10;

export const float32 = (t) => ({ data: Float32Array.from(t.data), shape: t.shape.slice() });

export function flat(value) {
  if (value && value.data) return { data: value.data, shape: Array.from(value.shape) };
  const shape = [];
  for (let v = value; Array.isArray(v); v = v[0]) shape.push(v.length);
  return { data: Float64Array.from(value.flat(Infinity)), shape };
}

const maxAbs = (data) => data.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

/** |actual − expected| ≤ tol element-wise (indices in `skip` excluded); names the first mismatch and the worst. */
export function assertClose(actualValue, expected, f32Deviation, what, skip = null) {
  assert.ok(actualValue !== undefined && actualValue !== null, `${what}: missing`);
  const actual = flat(actualValue);
  assert.deepEqual(actual.shape, expected.shape, `${what}: shape`);
  const tol = ATOL_REL * maxAbs(expected.data) + F32_SLACK * f32Deviation + 1e-12;
  let first = -1,
    worst = 0,
    worstAt = -1;
  for (let i = 0; i < expected.data.length; i++) {
    if (skip && skip(i)) continue;
    const err = Math.abs(actual.data[i] - expected.data[i]);
    if (!(err <= tol)) {
      if (first < 0) first = i;
      if (!(err <= worst)) ((worst = err), (worstAt = i));
    }
  }
  assert.ok(
    first < 0,
    `${what} (shape [${expected.shape}]): first mismatch at ${first}: actual ${actual.data[first]}, ` +
      `expected ${expected.data[first]}; worst error ${worst} at ${worstAt}; tolerance ${tol}`,
  );
}

export function zeroGradientSkip(c, name) {
  const ranges = c.zeroGradient.filter((z) => z.name === name);
  return ranges.length ? (i) => ranges.some((z) => i >= z.start && i < z.end) : null;
}

/** A model of the case's config holding its state. */
export function loadModel(attn, c) {
  const model = attn.transformer({ ...c.config, seed: 0 });
  const state = {};
  for (const [name, t] of Object.entries(c.state)) state[name] = float32(t);
  model.loadState(state);
  return model;
}

export const optimizerOptions = (o) => {
  const options = { learningRate: o.learningRate, betas: o.betas, eps: o.eps, weightDecay: o.weightDecay };
  if (o.clipNorm !== null) options.clipNorm = o.clipNorm;
  return options;
};
