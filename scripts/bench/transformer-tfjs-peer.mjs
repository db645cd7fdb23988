// TensorFlow.js peer of `npm run bench:transformer` (wasm backend, one thread): the same GPT-2-architecture
// model as the core's, its parameters as tf.variables loaded from our state, trained with
// tf.train.adam. Losses follow the core's: mean cross-entropy over the targets that are not −1.
import { loadTfjs } from './peers.mjs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export async function tfjsTrainer(config, state, tokens, targets, learningRate) {
  const version = await loadTfjs();
  const tf = require('@tensorflow/tfjs');
  const { numHeads: H, numLayers, vocabSize: V } = config;
  const [B, T] = [tokens.length, tokens[0].length];
  const vars = {};
  for (const [name, t] of Object.entries(state)) vars[name] = tf.variable(tf.tensor(t.data, t.shape), true, name);
  // Embeddings as one-hot · wte: the wasm backend has no kernel for gather's gradient.
  const tokenOneHot = tf.keep(tf.oneHot(tf.tensor1d(tokens.flat(), 'int32'), V).toFloat());
  const flatTargets = targets.flat();
  const valid = flatTargets.filter((t) => t >= 0).length;
  const targetOneHot = tf.keep(
    tf.oneHot(
      tf.tensor1d(
        flatTargets.map((t) => Math.max(t, 0)),
        'int32',
      ),
      V,
    ),
  );
  const targetWeight = tf.keep(
    tf.tensor2d(
      flatTargets.map((t) => (t >= 0 ? 1 / valid : 0)),
      [B * T, 1],
    ),
  );
  const causal = tf.keep(
    tf.tensor2d(
      Float32Array.from({ length: T * T }, (_, i) => (i % T > Math.floor(i / T) ? -1e9 : 0)),
      [T, T],
    ),
  );

  const linear = (x, w, b) => tf.add(tf.matMul(tf.reshape(x, [-1, x.shape[2]]), vars[w]).reshape([B, T, -1]), vars[b]);
  const ln = (x, name) => {
    if (!config.layerNorm) return x;
    const { mean, variance } = tf.moments(x, -1, true);
    const normed = tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5)));
    return tf.add(tf.mul(normed, vars[`${name}.weight`]), vars[`${name}.bias`]);
  };
  const heads = (x, E) => tf.transpose(tf.reshape(x, [B, T, H, E / H]), [0, 2, 1, 3]);
  const attention = (x, i) => {
    const E = x.shape[2];
    const [q, k, v] = tf
      .split(linear(ln(x, `h.${i}.ln_1`), `h.${i}.attn.c_attn.weight`, `h.${i}.attn.c_attn.bias`), 3, 2)
      .map((t) => heads(t, E));
    const scores = tf.add(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(E / H)), causal);
    const y = tf.reshape(tf.transpose(tf.matMul(tf.softmax(scores), v), [0, 2, 1, 3]), [B, T, E]);
    return linear(y, `h.${i}.attn.c_proj.weight`, `h.${i}.attn.c_proj.bias`);
  };
  const mlp = (x, i) => {
    const h = linear(ln(x, `h.${i}.ln_2`), `h.${i}.mlp.c_fc.weight`, `h.${i}.mlp.c_fc.bias`);
    const gelu = tf.mul(
      tf.mul(h, 0.5),
      tf.add(1, tf.tanh(tf.mul(Math.sqrt(2 / Math.PI), tf.add(h, tf.mul(0.044715, tf.pow(h, 3)))))),
    );
    return linear(gelu, `h.${i}.mlp.c_proj.weight`, `h.${i}.mlp.c_proj.bias`);
  };
  const loss = () => {
    let x = tf.reshape(tf.matMul(tokenOneHot, vars['wte.weight']), [B, T, -1]);
    if (config.positions === 'learned') x = tf.add(x, tf.slice(vars['wpe.weight'], [0, 0], [T, -1]));
    for (let i = 0; i < numLayers; i++) {
      x = tf.add(x, attention(x, i));
      if (config.mlp) x = tf.add(x, mlp(x, i));
    }
    x = tf.reshape(ln(x, 'ln_f'), [B * T, -1]);
    const logits = tf.matMul(x, config.tieEmbeddings ? vars['wte.weight'] : vars['lm_head.weight'], false, true);
    return tf.neg(tf.sum(tf.mul(tf.mul(tf.logSoftmax(logits), targetOneHot), targetWeight)));
  };
  const optimizer = tf.train.adam(learningRate, 0.9, 0.999, 1e-8);
  const step = () => {
    const value = optimizer.minimize(loss, true);
    const out = value.dataSync()[0];
    value.dispose();
    return out;
  };
  return { version, step, lossNow: () => tf.tidy(() => loss().dataSync()[0]) };
}
