// The explorer's notes on a checkpoint's head (web/ui/model/checkpoint-vectors.js), which a link
// can show at once. The checkpoint panels' messages are in checkpoint-later.js.
export default {
  'checkpoint.vectors.source':
    'A checkpoint’s head: layer {layer} · head {head} of {name} ({layers} layers of {heads} heads, d_model {dModel}). X and W are the model’s own inputs and weights for your sentence, so the weights below are its real attention.',
  'checkpoint.vectors.reading': 'Reading your sentence with the checkpoint… (until then X is random per word).',
  'checkpoint.vectors.help':
    'Split by GPT-2’s tokenizer, as the model reads it (Ġ marks a space before a token; at most 24 tokens).',
  'checkpoint.vectors.note':
    'Checkpoint vectors: each row of X is what layer {layer} · head {head} of {name} ({layers} layers of {heads} heads, d_model {dModel})’s attention reads for one token (the layer’s LayerNorm of the residual stream, {dModel} numbers), written in {rank} coordinates along an orthonormal basis of the span of your sentence’s {dModel}-dimensional vectors (built token by token), plus a column of ones. W_Q, W_K and W_V are the head’s weights in that basis, their last row its bias: X·W gives exactly the model’s q, k and v, so the dot products, and the weights below, are the model’s own.',
};
