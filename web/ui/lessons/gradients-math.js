// The numbers of the "Gradients" lesson, all from the core through the JS API: the loss and its
// dO, one backward pass of the explorer's head (attn.scaledDotProductAttentionGrad), dA = dO·Vᵀ
// (attn.matmul), the nudge check (a second forward pass), and the "which keys learn?" experiment.
// The JavaScript here only forms dO from the chosen loss, transposes V and counts.

const at = (t, i, j) => t.data[i * t.shape[1] + j];

/**
 * The loss the lesson learns from: 'target' is ½‖O − T‖² (dO = O − T), 'cell' is O[i, j] alone
 * (dO is 1 there and 0 elsewhere).
 */
export function lossOf(goal, output, target, cell) {
  if (goal === 'cell') return at(output, cell.i, cell.j);
  let sum = 0;
  for (let x = 0; x < output.data.length; x++) sum += 0.5 * (output.data[x] - target[x]) ** 2;
  return sum;
}

function gradOutputOf(goal, output, target, cell) {
  const [n, dv] = output.shape;
  const data = new Float32Array(n * dv);
  if (goal === 'cell') data[cell.i * dv + cell.j] = 1;
  else for (let x = 0; x < data.length; x++) data[x] = output.data[x] - target[x];
  return { data, shape: [n, dv] };
}

function transposed(t) {
  const [rows, cols] = t.shape;
  const data = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) data[c * rows + r] = t.data[r * cols + c];
  return { data, shape: [cols, rows] };
}

/**
 * One backward pass of the head { q, k, v, scale } under the page's masks: the forward's output
 * and weights, dO, dA, dS and dQ, dK, dV, and the loss.
 */
export function headGradients(attn, head, masks, goal, target, cell) {
  const forward = attn.scaledDotProductAttention(head.q, head.k, head.v, {
    ...masks,
    scale: head.scale,
    needWeights: false,
  });
  const dO = gradOutputOf(goal, forward.output, target, cell);
  const g = attn.scaledDotProductAttentionGrad(head.q, head.k, head.v, dO, { ...masks, scale: head.scale });
  const dA = attn.matmul(dO, transposed(head.v));
  return { ...g, dO, dA, loss: lossOf(goal, g.output, target, cell) };
}

/**
 * The nudge check: the loss after adding eps to one input cell (matrix 'q', 'k' or 'v'), next to
 * the first-order prediction eps · gradient.
 */
export function nudge(attn, head, masks, goal, target, cell, grads, pick, eps) {
  const moved = { q: head.q, k: head.k, v: head.v };
  const t = moved[pick.matrix];
  const data = Float32Array.from(t.data);
  const index = pick.i * t.shape[1] + pick.j;
  data[index] += eps;
  const realEps = data[index] - t.data[index]; // what float32 could represent
  moved[pick.matrix] = { data, shape: t.shape };
  const r = attn.scaledDotProductAttention(moved.q, moved.k, moved.v, {
    ...masks,
    scale: head.scale,
    needWeights: false,
  });
  const gradient = at({ q: grads.gradQ, k: grads.gradK, v: grads.gradV }[pick.matrix], pick.i, pick.j);
  const after = lossOf(goal, r.output, target, cell);
  return {
    eps: realEps,
    gradient,
    before: grads.loss,
    after,
    change: after - grads.loss,
    predicted: realEps * gradient,
  };
}

/** The input cell with the largest |gradient| among dQ, dK, dV: where a nudge shows most. */
export function steepestCell(grads) {
  let best = { matrix: 'q', i: 0, j: 0 };
  let size = -1;
  for (const [matrix, t] of [
    ['q', grads.gradQ],
    ['k', grads.gradK],
    ['v', grads.gradV],
  ])
    for (let x = 0; x < t.data.length; x++)
      if (Math.abs(t.data[x]) > size) {
        size = Math.abs(t.data[x]);
        best = { matrix, i: Math.floor(x / t.shape[1]), j: x % t.shape[1] };
      }
  return best;
}

/**
 * "Which keys learn?": `samples` random problems of one query and `keys` keys of width dk
 * (standard normal, from the core's NumPy generator), a random dO of width dv, run through the
 * backward with scale 1/√dk and with scale 1. Per sample, the keys whose |dS| exceeds
 * `threshold` are counted; returns the mean count and the mean gradient norm ‖(dQ, dK, dV)‖.
 */
export function whichKeysLearn(attn, { dk = 64, keys = 64, dv = 16, samples = 200, threshold = 1e-3, seed = 0 }) {
  const rng = attn.randomState(seed);
  const draw = (...shape) => ({ data: Float32Array.from(rng.randn(...shape).data), shape });
  const q = draw(samples, 1, dk),
    k = draw(samples, keys, dk),
    v = draw(samples, keys, dv),
    dO = draw(samples, 1, dv);
  rng.dispose?.();
  const run = (scale) => {
    const g = attn.scaledDotProductAttentionGrad(q, k, v, dO, { scale });
    let learning = 0,
      norm = 0;
    for (let s = 0; s < samples; s++) {
      for (let j = 0; j < keys; j++) if (Math.abs(g.gradScores.data[s * keys + j]) > threshold) learning++;
      let sq = 0;
      for (const t of [g.gradQ, g.gradK, g.gradV]) {
        const per = t.data.length / samples;
        for (let x = s * per; x < (s + 1) * per; x++) sq += t.data[x] ** 2;
      }
      norm += Math.sqrt(sq);
    }
    return { keysLearning: learning / samples, gradientNorm: norm / samples };
  };
  return { dk, keys, samples, threshold, scaled: run(1 / Math.sqrt(dk)), unscaled: run(1) };
}

/**
 * `steps` steps of gradient descent on one of Q, K, V ('Q' | 'K' | 'V') of the head, each with
 * the gradient at the point it starts from (a backward pass per step, as training does), the rest
 * of the head fixed. Returns the matrix's values after the last step (float64, row-major) and the
 * loss before the first step and after each: losses[0] … losses[steps].
 */
export function descend(attn, head, masks, goal, target, cell, name, lr, steps) {
  const key = name.toLowerCase();
  const values = Float64Array.from(head[key].data);
  const losses = [];
  let current = head;
  for (let k = 0; k <= steps; k++) {
    const g = headGradients(attn, current, masks, goal, target, cell);
    losses.push(g.loss);
    if (k === steps) break;
    const grad = { q: g.gradQ, k: g.gradK, v: g.gradV }[key].data;
    for (let x = 0; x < values.length; x++) values[x] -= lr * grad[x];
    current = { ...current, [key]: { data: Float32Array.from(values), shape: head[key].shape } };
  }
  return { values: Array.from(values), losses };
}
