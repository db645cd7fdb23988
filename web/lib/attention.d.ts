/**
 * attention-explorer: scaled dot-product and multi-head attention, softmax(Q·Kᵀ·scale + bias) · V,
 * computed by a C++ core compiled to WebAssembly (SIMD128 where available, scalar otherwise).
 *
 * Every function validates its arguments and throws an `Error` whose message names the argument
 * and the problem; after an error the instance keeps working. No valid call returns NaN: finite
 * inputs whose scores overflow float32 (|q·k|·scale above 3.4e38) raise an Error instead.
 *
 * @packageDocumentation
 */

/** A dense row-major tensor. Outputs always use `Float32Array`. */
export interface Tensor {
  data: Float32Array;
  /** Dimensions, outermost first; `data.length` is their product. */
  shape: number[];
}

/** The typed arrays a tensor's `data` may be (BigInt arrays and DataView are refused). */
export type NumericArray =
  | Float32Array
  | Float64Array
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array;

/**
 * A float tensor as input: `{ data, shape }` with a numeric typed array or an array of numbers
 * (own properties: inherited `data`/`shape` do not count), or nested arrays (`[[1, 2], [3, 4]]`
 * has shape [2, 2]). Values must be finite (additive masks may also hold `-Infinity`) and fit in
 * float32. Nested arrays must not be ragged. Every input is read once and copied before it is
 * checked, so objects that change while being read cannot make a call use unchecked values.
 */
export type TensorInput =
  | { data: NumericArray | readonly number[]; shape: readonly number[] }
  | readonly number[]
  | readonly (readonly number[])[]
  | readonly (readonly (readonly number[])[])[]
  | readonly (readonly (readonly (readonly number[])[])[])[];

/**
 * A boolean mask as input, `true` (or 1) = hidden: `{ data: Uint8Array of 0/1, shape }` (or an
 * array of booleans or 0/1), or nested arrays of booleans.
 */
export type MaskInput =
  | { data: NumericArray | readonly (number | boolean)[]; shape: readonly number[] }
  | readonly boolean[]
  | readonly (readonly boolean[])[]
  | readonly (readonly (readonly boolean[])[])[];

/**
 * A multi-head `attnMask`, with PyTorch's meaning by element type: boolean (a `Uint8Array` or JS
 * booleans) hides where true; floating point (a `Float32Array`, `Float64Array` or JS numbers) is
 * added to the scaled scores. Any other typed array (Int32Array, Uint8ClampedArray, …) throws.
 */
export type AttnMaskInput =
  | { data: Uint8Array | readonly boolean[]; shape: readonly number[] }
  | { data: Float32Array | Float64Array | readonly number[]; shape: readonly number[] }
  | readonly (readonly boolean[])[]
  | readonly (readonly number[])[];

export interface CreateAttentionOptions {
  /**
   * `'auto'` (default): the SIMD128 build where the engine supports WebAssembly SIMD, else scalar.
   * `true`: require SIMD (throws if unsupported). `false`: the scalar build.
   */
  simd?: 'auto' | boolean;
}

/**
 * A causal mask: `true` hides keys j > i from query i (top-left aligned when n ≠ m, as PyTorch's
 * `is_causal`); `'lower-right'` places query i at key position p = i + m − n and hides keys j > p,
 * as PyTorch's `causal_lower_right` and FlashAttention 2.1+ — what one decode step of n new tokens
 * against a cache of m − n earlier ones is (with n > m the first n − m queries see no key).
 */
export type CausalOption = boolean | 'lower-right';

export interface ScaledDotProductAttentionOptions {
  /** `true`, `false` (default) or `'lower-right'`: see {@link CausalOption}. */
  causal?: CausalOption;
  /**
   * A sliding window: query i (at key position p, aligned as `causal` is: p = i, or i + m − n with
   * `'lower-right'`) sees only keys j > p − window, a positive integer. With `causal` it is
   * Mistral's window p − window < j ≤ p; without, keys after the query stay visible
   * (FlashAttention's `window_size = (window − 1, −1)`). The streaming path (`needWeights: false`)
   * skips key tiles outside every query's window, so its cost grows with n·window, not n·m. Not
   * combinable with `pitfall`.
   */
  window?: number;
  /** Boolean mask [n, m] (shared) or [...batch, n, m]; `true` = the query may NOT attend to that key. */
  mask?: MaskInput;
  /** Additive float mask [n, m] or [...batch, n, m], added to the scaled scores; may hold -Infinity. */
  bias?: TensorInput;
  /** Padding keys: [m] (shared) or [...batch, m]; `true` = padding, hidden from every query. */
  keyPaddingMask?: MaskInput;
  /** Multiplies Q·Kᵀ; default 1/√dk. Any positive finite number (1 shows unscaled attention). */
  scale?: number;
  /** Return the attention weights. Default true. With false (and no trace) the core streams and
   *  never builds the n × m matrix, so very long sequences fit in memory. */
  needWeights?: boolean;
  /** Also return the intermediate matrices Q·Kᵀ, scaled, and masked. Default false. */
  trace?: boolean;
  /**
   * Compute attention with a deliberate mistake, for lessons that show right next to wrong:
   * `'mask-after-softmax'` (softmax over every key, then zero the hidden ones: rows sum below 1),
   * `'mask-value-zero'` (hidden scores set to 0 instead of −∞), `'scale-by-dk'` (divide by dₖ, not
   * √dₖ). Default `'none'`. Not combinable with `trace`; `fullyMaskedRows` is then empty.
   */
  pitfall?: SingleHeadPitfall;
}

export type SingleHeadPitfall = 'none' | 'mask-after-softmax' | 'mask-value-zero' | 'scale-by-dk';
/** Adds `'scale-by-dmodel'` (divide by √E instead of the per-head √d) and `'skip-wo'` (return the concatenation: heads never mix). */
export type MultiHeadPitfall = SingleHeadPitfall | 'scale-by-dmodel' | 'skip-wo';

export interface AttentionTrace {
  /** Q·Kᵀ, [...batch, n, m]. */
  scores: Tensor;
  /** Q·Kᵀ · scale. */
  scaled: Tensor;
  /** scaled + bias, with hidden keys set to -Infinity: exactly what enters the softmax. */
  masked: Tensor;
}

export interface ScaledDotProductAttentionResult {
  /** [...batch, n, dv]. */
  output: Tensor;
  /** Softmax weights [...batch, n, m]: each row sums to 1, hidden keys exactly 0. Null when needWeights is false. */
  weights: Tensor | null;
  /**
   * Rows whose every key was hidden, as indices into the flattened [...batch × n] rows (for 2-D
   * input, simply the query indices). Such rows get all-zero weights and an all-zero output.
   */
  fullyMaskedRows: number[];
  /** Present when `trace: true`. */
  trace?: AttentionTrace;
}

/** NumPy's legacy generator: `np.random.seed(seed)` followed by `randn` / `rand` calls. */
export interface RandomState {
  /** Re-seeds, like `np.random.seed(seed)`; an integer from 0 to 2**32 - 1. Returns this. */
  seed(seed: number): RandomState;
  /** Like `np.random.randn(...dims)`: standard-normal doubles, identical to NumPy's. */
  randn(): number;
  randn(...dims: number[]): { data: Float64Array; shape: number[] };
  randn(dims: number[]): { data: Float64Array; shape: number[] };
  /** Like `np.random.rand(...dims)`: uniform doubles in [0, 1), identical to NumPy's. */
  rand(): number;
  rand(...dims: number[]): { data: Float64Array; shape: number[] };
  rand(dims: number[]): { data: Float64Array; shape: number[] };
  /** Frees the generator's state in WebAssembly memory (also freed when garbage-collected). */
  dispose(): void;
}

export interface MultiHeadAttentionConfig {
  /** E, the model width of queries and of the output. */
  embedDim: number;
  /** h; must divide embedDim. Each head has headDim = embedDim / numHeads features. */
  numHeads: number;
  /** Learnable biases b_Q, b_K, b_V, b_O. Default true. */
  bias?: boolean;
  /** Features of `key` (cross-attention from another sequence). Default embedDim. */
  kdim?: number;
  /** Features of `value`. Default embedDim. */
  vdim?: number;
  /** Seed of the NumPy-compatible generator for the initial Xavier-uniform weights. Biases start at 0. Default 0. */
  seed?: number;
}

/** Weights in the lessons' x·W + b layout: W is [in, out]. */
export interface MultiHeadWeights {
  /** [embedDim, embedDim] */ wq?: TensorInput;
  /** [kdim, embedDim] */ wk?: TensorInput;
  /** [vdim, embedDim] */ wv?: TensorInput;
  /** [embedDim, embedDim] */ wo?: TensorInput;
  /** [embedDim] */ bq?: TensorInput;
  /** [embedDim] */ bk?: TensorInput;
  /** [embedDim] */ bv?: TensorInput;
  /** [embedDim] */ bo?: TensorInput;
}

/**
 * A `torch.nn.MultiheadAttention` state dict (weights [out, in]). With kdim = vdim = embedDim it
 * holds `in_proj_weight` [3E, E]; otherwise `q_proj_weight` [E, E], `k_proj_weight` [E, kdim] and
 * `v_proj_weight` [E, vdim]. With biases: `in_proj_bias` [3E] and `out_proj.bias` [E].
 */
export interface TorchMultiheadAttentionState {
  in_proj_weight?: TensorInput;
  q_proj_weight?: TensorInput;
  k_proj_weight?: TensorInput;
  v_proj_weight?: TensorInput;
  in_proj_bias?: TensorInput;
  'out_proj.weight': TensorInput;
  'out_proj.bias'?: TensorInput;
}

export interface MultiHeadForwardOptions {
  /** `true` (query i sees keys j ≤ i), `false` (default) or `'lower-right'` ({@link CausalOption}). */
  causal?: CausalOption;
  /** A sliding window over the keys, aligned as `causal` (see ScaledDotProductAttentionOptions.window). */
  window?: number;
  /** Multiplies each head's Q_h·K_hᵀ; default 1/√headDim. Any positive finite number. */
  scale?: number;
  /**
   * [n, m]: boolean (Uint8Array or booleans) = hidden where true; floating point (Float32Array,
   * Float64Array or numbers) = added to the scaled scores; other element types throw.
   */
  attnMask?: AttnMaskInput;
  /** [B, m] for batched input, [m] for unbatched; true = padding. */
  keyPaddingMask?: MaskInput;
  /** Return attention weights. Default true. */
  needWeights?: boolean;
  /** Average the weights over heads ([B, n, m]) instead of per head ([B, h, n, m]). Default true. */
  averageWeights?: boolean;
  /** Return every intermediate matrix (see MultiHeadTrace). Default false. */
  trace?: boolean;
  /** A deliberate mistake (see MultiHeadPitfall); needs averageWeights, not combinable with trace. */
  pitfall?: MultiHeadPitfall;
}

/** Intermediates of a forward pass (shapes for batched input; unbatched input drops B). */
export interface MultiHeadTrace {
  /** Projections Q = query·W_Q + b_Q [B, n, E]; K, V [B, m, E]. Head j uses columns j·d … (j+1)·d − 1. */
  q: Tensor;
  k: Tensor;
  v: Tensor;
  /** Per head [B, h, n, m]: Q_j·K_jᵀ, its scaling by 1/√d, the masked scores and the softmax weights. */
  scores: Tensor;
  scaled: Tensor;
  masked: Tensor;
  weights: Tensor;
  /** Each head's output [B, h, n, d]. */
  headOutputs: Tensor;
  /** The heads side by side [B, n, E], before W_O. */
  concat: Tensor;
}

export interface MultiHeadForwardResult {
  /** concat · W_O + b_O: [B, n, E] (or [n, E] for unbatched input). */
  output: Tensor;
  /** [B, n, m] averaged or [B, h, n, m] per head; null when needWeights is false. */
  weights: Tensor | null;
  /** Rows (indices into the flattened B × n rows) whose every key was hidden; their output is b_O. */
  fullyMaskedRows: number[];
  trace?: MultiHeadTrace;
}

/**
 * A multi-head attention layer whose weights live in WebAssembly memory. Its sizes are read-only
 * getters (the object is frozen); the core keeps the layer's shape next to its weights and checks
 * every copy against it.
 */
export interface MultiHeadAttention {
  readonly embedDim: number;
  readonly numHeads: number;
  /** embedDim / numHeads: the d of each head; the scores are scaled by 1/√headDim. */
  readonly headDim: number;
  readonly kdim: number;
  readonly vdim: number;
  readonly hasBias: boolean;
  /** Sets any subset of the weights (W as [in, out]); all are validated before any is written. */
  setWeights(weights: MultiHeadWeights): MultiHeadAttention;
  /** Copies of the current weights (W as [in, out]). */
  getWeights(): Record<'wq' | 'wk' | 'wv' | 'wo', Tensor> & Partial<Record<'bq' | 'bk' | 'bv' | 'bo', Tensor>>;
  /** Loads a PyTorch state dict, transposing its [out, in] weights. */
  loadTorchState(state: TorchMultiheadAttentionState): MultiHeadAttention;
  /**
   * Attention of `query` [B, n, E] (or [n, E]) over `key` [B, m, kdim] and `value` [B, m, vdim].
   * `key` defaults to `query` and `value` to `key` (self-attention).
   */
  forward(
    query: TensorInput,
    key?: TensorInput,
    value?: TensorInput,
    options?: MultiHeadForwardOptions & { needWeights?: true },
  ): MultiHeadForwardResult & { weights: Tensor };
  /** With `needWeights: false` (or a boolean known only at run time) `weights` may be null. */
  forward(
    query: TensorInput,
    key?: TensorInput,
    value?: TensorInput,
    options?: MultiHeadForwardOptions,
  ): MultiHeadForwardResult;
  /**
   * Gradients of the forward for `gradOutput` = ∂L/∂output (the output's shape): for the inputs
   * (same shapes as given) and for every weight, in setWeights' layout. The forward runs inside
   * the call and its output is returned. When one tensor is passed as query, key and value, each
   * argument still gets its own gradient: the tensor's gradient is their sum. `key` and `value`
   * may be `undefined` for self-attention, as in forward().
   */
  backward(
    query: TensorInput,
    key: TensorInput | undefined,
    value: TensorInput | undefined,
    gradOutput: TensorInput,
    options?: MultiHeadBackwardOptions,
  ): MultiHeadBackwardResult;
  /** Learnable parameters: E² + kdim·E + vdim·E + E² (+ 4E with biases); independent of numHeads. */
  parameterCount(): number;
  /**
   * Frees the weights; later calls throw. A layer that is dropped without dispose() is freed when
   * it is garbage-collected (a FinalizationRegistry safety net), but when that happens is up to
   * the engine: dispose layers you are done with.
   */
  dispose(): void;
}

/** A set of numbers with its moments and a histogram over the symmetric range [lo, hi]. */
export interface Sample {
  values: Float64Array;
  mean: number;
  /** Population standard deviation. */
  std: number;
  histogram: { lo: number; hi: number; counts: Uint32Array };
}

/** Experiments of the attention lessons, computed by the C++ core. */
export interface Lessons {
  /**
   * Why √dₖ: `count` (default 10 000) pairs of standard-normal vectors of length `dk`, drawn from
   * NumPy's generator seeded with `seed` (default 0); their dot products spread like √dₖ (`raw`)
   * and like 1 after dividing by √dₖ (`scaled`). `bins` (default 41) histogram bins.
   */
  sampleDotProducts(options: { dk: number; count?: number; seed?: number; bins?: number }): {
    dk: number;
    count: number;
    seed: number;
    raw: Sample;
    scaled: Sample;
  };
  /** softmax(scale · scores) along the last axis (−∞ allowed), with each row's entropy (nats) and max. */
  softmax(scores: TensorInput, options?: { scale?: number }): { weights: Tensor; entropy: Tensor; max: Tensor };
  /** Per row of a weights tensor: entropy in nats (0 for a one-hot row, ln m for a uniform one), max and sum. */
  rowStats(weights: TensorInput): { entropy: Tensor; max: Tensor; sum: Tensor };
  /**
   * The cost of multi-head attention for n queries, m keys (default n), width dModel, numHeads heads:
   * parameters (independent of the head count), FLOPs (multiply–add = 2) of the projections O(n·d²),
   * of QKᵀ and weights·V O(n·m·d), of the softmax O(h·n·m), and bytes of the h float32 weight
   * matrices O(h·n·m).
   */
  attentionCost(options: { n: number; m?: number; dModel: number; numHeads: number; bias?: boolean }): {
    parameters: number;
    projectionFlops: number;
    scoreFlops: number;
    softmaxFlops: number;
    totalFlops: number;
    attentionMatrixBytes: number;
  };
  /**
   * FlashAttention's online softmax, tile by tile, computed by the core with the streaming
   * kernel's own recurrence: q [n, dk], k [m, dk], v [m, dv] are cut into tiles of `blockRows`
   * queries × `blockCols` keys (default 4 × 4), visited in FlashAttention-2 order (row blocks
   * outer, column blocks inner). Each row keeps a running max m, a running sum ℓ of exp(s − m) and
   * an unnormalised output O; a tile with scores S (scaled, masked) updates them to
   * m′ = max(m, rowmax S), ℓ′ = e^(m − m′)·ℓ + rowsum e^(S − m′), O′ = e^(m − m′)·O + e^(S − m′)·V.
   * The output is O / ℓ after the last tile, softmax(QKᵀ·scale)·V without ever holding n × m.
   * Every step is returned; at most 2²⁴ floats of state (n · ⌈m / blockCols⌉ · (dv + 2)).
   */
  flashAttention(q: TensorInput, k: TensorInput, v: TensorInput, options?: FlashAttentionOptions): FlashAttentionTrace;
}

export interface FlashAttentionOptions {
  /** Queries per tile (default 4). */
  blockRows?: number;
  /** Keys per tile (default 4). */
  blockCols?: number;
  /** As scaledDotProductAttention's: true (top-left), false (default) or 'lower-right'. */
  causal?: CausalOption;
  /** Multiplies q·k; default 1/√dk. */
  scale?: number;
}

/** The state of one row block's rows after one tile. */
export interface FlashAttentionStep {
  rowBlock: number;
  colBlock: number;
  /** True when the causal mask hides the whole tile: it is not computed and the state is unchanged. */
  skipped: boolean;
  /** Running max of the scaled scores per row; −Infinity before the row has seen a visible key. */
  rowMax: Float32Array;
  /** Running Σ exp(s − rowMax) per row (0 before any visible key). */
  rowSum: Float32Array;
  /** The unnormalised output [rows, dv]: Σ exp(s − rowMax)·v over the keys seen so far. */
  partialOutput: Tensor;
}

export interface FlashAttentionTrace {
  /** [n, dv]: partialOutput / rowSum after each row block's last tile (0 for a row that sees no key). */
  output: Tensor;
  /** Row blocks outer, column blocks inner: step r·C + c is row block r after column block c. */
  steps: FlashAttentionStep[];
}

export interface Attention {
  /** Lesson experiments (why √dₖ, softmax entropy, cost, the FlashAttention trace), computed by the core. */
  readonly lessons: Lessons;
  /** True when the SIMD128 build is in use. */
  readonly simd: boolean;
  /** The kernels inside the module, e.g. "xsimd/sse4.1" (lowered to WASM SIMD128) or "scalar". */
  readonly variant: string;
  /**
   * softmax(Q·Kᵀ·scale + bias, masked) · V for q [...batch, n, dk], k [...batch, m, dk],
   * v [...batch, m, dv]. Masks are applied to the scores before the softmax and combine.
   */
  scaledDotProductAttention(
    q: TensorInput,
    k: TensorInput,
    v: TensorInput,
    options?: ScaledDotProductAttentionOptions & { needWeights?: true },
  ): ScaledDotProductAttentionResult & { weights: Tensor };
  /** With `needWeights: false` (or a boolean known only at run time) `weights` may be null. */
  scaledDotProductAttention(
    q: TensorInput,
    k: TensorInput,
    v: TensorInput,
    options?: ScaledDotProductAttentionOptions,
  ): ScaledDotProductAttentionResult;
  /**
   * The forward and backward pass of scaledDotProductAttention (same arguments and options, no
   * trace or pitfall) for `gradOutput` = ∂L/∂output [...batch, n, dv]:
   * dV = Aᵀ·dO; dA = dO·Vᵀ; dS = A ⊙ (dA − rowsum(dO ⊙ O)); dQ = scale·dS·K; dK = scale·dSᵀ·Q.
   * With `needWeights: false` the core streams (FlashAttention-2 style) and never builds n × m.
   */
  scaledDotProductAttentionGrad(
    q: TensorInput,
    k: TensorInput,
    v: TensorInput,
    gradOutput: TensorInput,
    options?: ScaledDotProductAttentionGradOptions & { needWeights?: true },
  ): ScaledDotProductAttentionGradResult & { weights: Tensor; gradScores: Tensor };
  /** With `needWeights: false` (or a boolean known only at run time) `weights` and `gradScores` may be null. */
  scaledDotProductAttentionGrad(
    q: TensorInput,
    k: TensorInput,
    v: TensorInput,
    gradOutput: TensorInput,
    options?: ScaledDotProductAttentionGradOptions,
  ): ScaledDotProductAttentionGradResult;
  /** The matrix product a [..., n, k] · b [k, m] → [..., n, m] (e.g. Q = X·W_Q), computed by the core. */
  matmul(a: TensorInput, b: TensorInput): Tensor;
  /** A NumPy-compatible generator seeded like `np.random.seed(seed)` (default 0). */
  randomState(seed?: number): RandomState;
  /** A new multi-head attention layer (PyTorch `nn.MultiheadAttention` semantics, batch-first). */
  multiHeadAttention(config: MultiHeadAttentionConfig): MultiHeadAttention;
  /**
   * Ends this instance and gives its memory back. WebAssembly memory only grows (one call at
   * n = 15 500 with weights leaves ~1.8 GiB allocated), so the way to return it is to drop the
   * whole module: after dispose(), every call on this instance, its layers, generators and
   * transformers throws an Error, and the engine may reclaim the memory, even while those objects
   * are still referenced (none of them keeps the module alive). Call `createAttention()` again for a
   * fresh instance. Calling dispose() twice is harmless.
   */
  dispose(): void;
  /**
   * What attention heads do, computed by the core. `tokens` [T] with `attention` [T, T] gives
   * numbers; `tokens` [T] with [H, T, T], or `tokens` [B, T] with [B, H, T, T] (e.g. one layer of
   * a transformer's `forward(...).attentions`), gives one number per head, pooled over the batch.
   * See {@link HeadScores} for the definitions.
   */
  headScores(tokens: TokenInput, attention: TensorInput): HeadScores;
  /**
   * Rotary position embeddings (RoPE) of x [..., T, d], d even: a rotated copy in which row t turns
   * frequency i < d/2 by the angle positions[t]·base^(−2i/d), in Hugging Face Llama's rotate_half
   * form: x′ = x·cos + rotate_half(x)·sin, rotate_half(x) = [−x₂, x₁] (the halves of the row), cos
   * and sin repeated over both halves. This is what `positions: 'rope'` does to each head's q and k.
   * `base` defaults to 10000; `positions` (T finite numbers, one per row, shared by the leading
   * dimensions) to 0, 1, …, T − 1. Angles are computed in float64.
   */
  rope(x: TensorInput, options?: RopeOptions): Tensor;
  /**
   * Mean cross-entropy at each position, computed by the core in double precision: `logits`
   * [B, T, V] or [T, V] (e.g. a transformer's `forward(...).logits`) against `targets` [B, T] or
   * [T] (token ids; −1 or −100 = ignored). `loss[t]` is the mean over the sequences whose target at
   * t counts and `count[t]` how many there are (`loss[t]` = 0 when none). Targets are not shifted:
   * `targets[t]` is scored against `logits[t]`.
   */
  lossByPosition(logits: TensorInput, targets: TokenInput): { loss: number[]; count: number[] };
  /** A GPT-2-style transformer whose parameters live in WebAssembly memory (see {@link Transformer}). */
  transformer(config: TransformerConfig): Transformer;
  /**
   * A transformer from a safetensors file (untrusted: a malformed file throws an Error naming the
   * tensor). `config` is ours or a Hugging Face GPT-2 `config.json` object (`vocab_size`,
   * `n_positions`, `n_embd`, `n_layer`, `n_head`, `tie_word_embeddings`; `n_inner` other than 4·n_embd,
   * an activation other than `gelu_new`, or `layer_norm_epsilon` other than 1e-5 are refused).
   *
   * Parameters may be stored as F32, F16, BF16 or F64 (converted to float32 by the core; F64
   * rounds to nearest) and every value must be finite. Names may carry the `transformer.` prefix.
   * Skipped: the `h.N.attn.bias`/`masked_bias` mask buffers (any dtype) and any integer or BOOL
   * tensor that is not a parameter (`position_ids` …). Any other tensor must be a parameter of this
   * config: an unknown float tensor (say `h.12.…` for a 12-layer config), a missing one, a wrong
   * shape, or a tied `lm_head.weight` that differs from `wte.weight` throws an Error naming it.
   * The header is checked against the config before any data is read; the tensors' bytes go
   * straight into the model's parameter block, and no random weights are drawn first. GPT-2 small
   * (548 MB F32) opens in ~0.4 s (F16 ~0.7 s); see docs/performance.md. The bytes stay in memory
   * alongside the model: {@link loadTransformer} reads a File or a URL in slices instead.
   */
  transformerFromSafetensors(
    bytes: Uint8Array | ArrayBuffer,
    config: TransformerConfig | HuggingFaceGpt2Config,
  ): Transformer;
  /**
   * {@link transformerFromSafetensors} without blocking the page and without holding the file in
   * JavaScript memory: the header is read first, then the tensors in slices of 16 MiB (or as the
   * stream delivers them), each straight into the model's WebAssembly memory, yielding to the event
   * loop between slices (`scheduler.yield()` where available). `source`:
   * - bytes (Uint8Array / ArrayBuffer), a `Blob` or `File` (e.g. from `<input type="file">`),
   * - a URL (string, resolved against the page, or `URL`), fetched with `fetch` (same-origin, or
   *   cross-origin where CORS allows it); when `config` is omitted (undefined or null), the
   *   `config.json` beside it (`new URL('config.json', url)`) is fetched and read as a Hugging Face
   *   config,
   * - a `Response` you fetched yourself (say with credentials) or a `ReadableStream` of bytes.
   *
   * `config` is checked before anything is read. `signal`: an `AbortSignal`; aborting rejects with
   * its reason (an `AbortError` DOMException for a plain `abort()`) as soon as it fires, even while
   * a read is pending, and frees the half-built model. `onProgress({ loaded, total })` is called
   * with the bytes read so far and the file's size (known from the header), ending at
   * `loaded === total`. Every check of {@link transformerFromSafetensors} applies; a stream that
   * ends early or runs past the last tensor is refused.
   */
  loadTransformer(
    source: Uint8Array | ArrayBuffer | Blob | string | URL | Response | ReadableStream<Uint8Array>,
    config?: TransformerConfig | HuggingFaceGpt2Config | null,
    options?: { signal?: AbortSignal; onProgress?: (progress: CheckpointProgress) => void },
  ): Promise<Transformer>;
}

/** Progress of loading or saving a checkpoint: bytes done and the file's size. */
export interface CheckpointProgress {
  loaded: number;
  total: number;
}

export interface RopeOptions {
  /** Default 10000. */
  base?: number;
  /** One position per row (T of them), default 0 … T − 1; any finite numbers. */
  positions?: readonly number[] | ArrayLike<number>;
}

// ---- The tiny transformer ----------------------------------------------------------------------

/**
 * GPT-2's architecture with parts that can be switched off for toy models:
 * x = wte[token] + wpe[position]; per layer x += c_proj(attn(LN₁(x))) with causal heads
 * softmax(q·kᵀ/√d)·v (q, k, v the column blocks of c_attn, d = dModel / numHeads), then with `mlp`
 * x += c_proj(GELU(c_fc(LN₂(x)))) (c_fc 4·dModel wide, GELU in GPT-2's tanh form);
 * logits = LN_f(x)·Uᵀ with U = wte (tied) or lm_head.weight. LayerNorm ε = 1e-5.
 */
/**
 * Bounds, checked before anything is allocated (an Error gives the limit): vocabSize and
 * contextLength ≤ 2²⁰, dModel ≤ 65 536, numLayers ≤ 256 (≤ 4096 tensors), at most 400 million
 * parameters (1.6 GB of float32 in WebAssembly's 4 GiB; GPT-2 small, 124 M, and medium, 355 M,
 * load; large, 774 M, is refused). Training needs 4 × the parameters'
 * bytes (gradients and Adam's moments) within 1.5 GiB, checked at the first step.
 */
export interface TransformerConfig {
  vocabSize: number;
  /** The most tokens per sequence (rows of wpe). */
  contextLength: number;
  dModel: number;
  numLayers: number;
  /** Must divide dModel. */
  numHeads: number;
  /** Default true; false gives an attention-only model (no ln_2, no mlp.* tensors). */
  mlp?: boolean;
  /** Default true; false removes ln_1, ln_2 and ln_f. */
  layerNorm?: boolean;
  /**
   * Where positions enter the model:
   * - `'learned'` (default): `wpe.weight` [contextLength, E] added to the token embeddings.
   * - `'none'`: no position information besides the causal mask.
   * - `'rope'`: rotary embeddings, no wpe. Each head's q and k are rotated after c_attn (bias
   *   included), before the scores, as Hugging Face Llama does: frequency i < d/2 turns by
   *   p·ropeBase^(−2i/d) at absolute position p, x′ = x·cos + rotate_half(x)·sin with
   *   rotate_half(x) = [−x₂, x₁] (the halves of the head). Needs an even head dimension.
   * - `'alibi'`: no wpe; −slope_h·(i − j) is added to head h's scaled scores, with Press et al.'s
   *   slopes as BLOOM computes them: 2^(−8(h+1)/H) for H a power of two; otherwise the slopes of
   *   the largest power of two P < H, then every other slope of 2P heads (2^(−4(2k+1)/P)).
   * Without learned positions a {@link TransformerDecoder} may run past contextLength.
   */
  positions?: 'learned' | 'none' | 'rope' | 'alibi';
  /** RoPE's base (default 10000): a larger base turns the slow frequencies more slowly. Kept in every config; used with positions 'rope'. */
  ropeBase?: number;
  /**
   * Key/value heads (default numHeads; must divide it). Fewer than numHeads is grouped-query
   * attention, 1 is multi-query: c_attn.weight is [E, E + 2·numKVHeads·d] and c_attn.bias
   * [E + 2·numKVHeads·d] (q, then k, then v columns), and query head h reads key/value head
   * ⌊h / (numHeads / numKVHeads)⌋, as Hugging Face's repeat_kv. Attentions stay [B, H, T, T].
   */
  numKVHeads?: number;
  /**
   * A sliding window W (default null: none): query i sees keys i − W < j ≤ i, as Mistral. Streaming
   * heads (long sequences, needWeights: false) skip the key tiles outside the window; a decoder
   * keeps only W positions per layer.
   */
  attentionWindow?: number | null;
  /** Default true: logits use wte; false adds lm_head.weight [V, E]. */
  tieEmbeddings?: boolean;
  /**
   * 'pytorch' (default): as PyTorch's layers start: embeddings N(0, 1), linear weights and biases
   * U(±1/√fan_in), LayerNorm 1/0. 'gpt2': Hugging Face GPT-2's: embeddings and weights N(0, 0.02),
   * the residual projections (c_proj) N(0, 0.02/√(2·numLayers)), biases 0, LayerNorm 1/0.
   * Drawn from the NumPy-compatible generator, tensor by tensor in state-dict order.
   */
  init?: 'pytorch' | 'gpt2';
  /** Seed of the initialization (default 0): a seed always gives the same model. */
  seed?: number;
}

/** The fields of a Hugging Face GPT-2 config.json this API reads; others are ignored. */
export interface HuggingFaceGpt2Config {
  model_type?: 'gpt2';
  vocab_size: number;
  n_positions?: number;
  n_ctx?: number;
  n_embd: number;
  n_layer: number;
  n_head: number;
  n_inner?: number | null;
  activation_function?: string;
  layer_norm_epsilon?: number;
  tie_word_embeddings?: boolean;
  [other: string]: unknown;
}

/**
 * Parameters by Hugging Face GPT-2 name: `wte.weight` [V, E], `wpe.weight` [contextLength, E]
 * (positions 'learned' only), `h.{i}.ln_1.weight|bias` [E], `h.{i}.attn.c_attn.weight` [E, 3E] and
 * `h.{i}.attn.c_attn.bias` [3E] (with numKVHeads: E + 2·numKVHeads·d columns),
 * `h.{i}.attn.c_proj.weight` [E, E], `h.{i}.attn.c_proj.bias` [E], `h.{i}.ln_2.weight|bias` [E],
 * `h.{i}.mlp.c_fc.weight` [E, 4E], `h.{i}.mlp.c_fc.bias` [4E], `h.{i}.mlp.c_proj.weight` [4E, E],
 * `h.{i}.mlp.c_proj.bias` [E], `ln_f.weight|bias` [E], `lm_head.weight` [V, E] (untied only).
 * Linear weights are [in, out] (GPT-2's Conv1D: y = x·W + b). Parts a config switches off have no keys.
 */
export type TransformerState = Record<string, Tensor>;

export interface TransformerForwardOptions {
  /** Return each layer's attention weights (default true); false lets the heads stream. */
  needWeights?: boolean;
  /**
   * 'all' (default): every position's logits [B, T, V]. 'last': only the last position's, as
   * [B, 1, V] ([1, V] for [T] tokens), the shape Hugging Face's `logits_to_keep=1` gives; the final
   * LayerNorm and the unembedding (the V × dModel product) then run for that row alone, so the
   * next-token logits of a long sequence cost one row instead of T and copy V floats, not T·V.
   */
  logits?: 'all' | 'last';
}

export interface TransformerForwardResult {
  /** [B, T, V] ([T, V] for [T] tokens); with `logits: 'last'`, [B, 1, V] ([1, V]). */
  logits: Tensor;
  /** One tensor per layer, [B, H, T, T] ([H, T, T] for [T] tokens); null with needWeights: false. Above the diagonal exactly 0. */
  attentions: Tensor[] | null;
}

/**
 * torch.optim.Adam (bias-corrected); weightDecay > 0 makes it torch.optim.AdamW (decoupled).
 * A value out of its range throws an Error naming the option and the range, before anything runs.
 */
export interface TrainStepOptions {
  /** Default 1e-3; in [0, 10] (beyond, one step can overflow the weights). */
  learningRate?: number;
  /** Default [0.9, 0.999]; each in [0, 1). */
  betas?: [number, number];
  /** Default 1e-8, added after the square root as PyTorch does; in [1e-30, 1] (0 gives 0/0 = NaN). */
  eps?: number;
  /** Default 0; ≥ 0, with learningRate × weightDecay ≤ 1 (AdamW scales weights by 1 − lr·wd). */
  weightDecay?: number;
  /** When given, the global gradient norm is clipped first, as torch.nn.utils.clip_grad_norm_; > 0. */
  clipNorm?: number;
}

/**
 * What a loss is computed against, the second argument of `loss`, `gradients` and `trainStep`:
 * - targets (token ids of the shape of tokens, or `{ targets }`): ours, already shifted:
 *   `targets[t]` is the token that should follow position t, scored against the logits at t.
 *   `tokens = seq[0 … T−1]`, `targets = seq[1 … T]`.
 * - `{ labels }` (the shape of tokens): Hugging Face's convention (`GPT2LMHeadModel(input_ids,
 *   labels=…)`), shifted inside: the logits at t are scored against `labels[t + 1]`, and the last
 *   position against nothing. So `{ labels: tokens }` trains next-token prediction on the tokens
 *   themselves, as `labels = input_ids` does there; passing `tokens` as plain targets instead
 *   would teach the model to copy its input (a different, wrong loss).
 * In both, −1 and −100 (PyTorch's default ignore_index, Hugging Face's padding label) are
 * ignored; the loss is the mean over the rest, at least one of which must remain.
 */
export type LossTargets = TokenInput | { targets: TokenInput } | { labels: TokenInput };

export interface Transformer {
  /** The configuration with every default filled in. */
  readonly config: Readonly<Required<TransformerConfig>>;
  /** Learnable parameters (a tied lm_head counts once, as wte). */
  parameterCount(): number;
  /**
   * Replaces every parameter. Values are `{ data, shape }` or nested arrays. Accepted and ignored:
   * a `transformer.` prefix, GPT-2's `h.N.attn.bias`/`h.N.attn.masked_bias` buffers, and with tied
   * embeddings an `lm_head.weight` equal to `wte.weight` (its shape and every value; anything else
   * throws, since the model would ignore it). A missing or unknown key, a wrong shape or a
   * non-finite value throws an Error naming the key, and the model is left unchanged. Finite
   * weights so large that the activations overflow are accepted here and refused by forward().
   */
  loadState(state: Record<string, TensorInput>): this;
  /**
   * Copies of every parameter by name (state-dict order); with `names`, of those parameters only
   * (one layer's weights of a GPT-2-size model instead of all its 500 MB). An unknown name throws.
   */
  getState(names?: string[]): TransformerState;
  /**
   * What layer `layer`'s attention reads for one sequence: LN₁ (`h.{layer}.ln_1`) of the residual
   * stream entering the layer, after the embeddings and the layers before it (the residual itself
   * for a model without LayerNorm), [T, dModel], computed by the core. `c_attn` maps each row to
   * the layer's q, k and v: a lesson can show a real head's inputs with it. tokens: [T] ids
   * (T ≤ contextLength); layer from 0.
   */
  layerInput(tokens: number[] | Int32Array | Uint16Array | Uint8Array, layer: number): Tensor;
  /**
   * Tokens [B, T] or [T]: integers in [0, vocabSize), T ≤ contextLength. Logits that are not
   * finite (weights so large that the activations overflow float32) throw an Error instead of
   * being returned.
   */
  forward(
    tokens: TokenInput,
    options?: TransformerForwardOptions & { needWeights?: true },
  ): TransformerForwardResult & { attentions: Tensor[] };
  /** With `needWeights: false` (or a boolean known only at run time) `attentions` may be null. */
  forward(tokens: TokenInput, options?: TransformerForwardOptions): TransformerForwardResult;
  /**
   * The mean cross-entropy of the next-token logits against `targets` (see {@link LossTargets}:
   * ours, or Hugging Face's `{ labels }`), without gradients: the unembedding runs only for the
   * positions whose target counts, and no [B, T, V] logits are copied out.
   */
  loss(tokens: TokenInput, targets: LossTargets): { loss: number };
  /**
   * Mean cross-entropy of the next-token logits against `targets` (see {@link LossTargets}) and
   * the gradient of every parameter (getState names). Non-finite logits, loss or gradients throw
   * an Error naming the cause.
   */
  gradients(tokens: TokenInput, targets: LossTargets): { loss: number; grads: TransformerState };
  /**
   * gradients(), optional clipping, then one Adam(W) step; returns the loss before the update.
   * A step whose logits, loss, gradients or update (a new parameter or Adam moment) would not be
   * finite throws an Error naming the cause and changes nothing: the parameters, Adam's moments and
   * its step count stay as they were. The first step checks that the parameters, their gradients
   * and Adam's two moments fit in WebAssembly memory (4 × the parameters' bytes, at most 1.5 GiB
   * together) and throws with the sizes if not. A model holds only its parameters until it trains:
   * the gradients are allocated by the first gradients()/trainStep(), Adam's two moments by the
   * first trainStep(); where they do not fit, the call throws "out of memory: training needs … MiB
   * more" and the model stays usable.
   */
  trainStep(tokens: TokenInput, targets: LossTargets, options?: TrainStepOptions): { loss: number };
  /** Forgets Adam's moments and step count: the next trainStep is a first step. */
  resetOptimizer(): void;
  /**
   * The parameters as a safetensors file (F32 tensors, getState names, metadata { format: 'pt' }),
   * copied once, straight from WebAssembly memory into the returned bytes (GPT-2 small: ~0.4 s,
   * peak memory the model plus the file; see docs/performance.md).
   */
  toSafetensors(): Uint8Array;
  /**
   * The same file as a `Blob` (type application/octet-stream), made in slices of 16 MiB that go
   * into the Blob's storage one by one, so no second whole copy exists in JavaScript memory; yields
   * to the event loop between slices. `signal` rejects with its reason (an `AbortError`);
   * `onProgress({ loaded, total })` counts the bytes written. Do not train the model while it is
   * being saved: the slices are read as they are written.
   */
  toSafetensorsAsync(options?: {
    signal?: AbortSignal;
    onProgress?: (progress: CheckpointProgress) => void;
  }): Promise<Blob>;
  /**
   * A decoder with a key/value cache over this model: feed it tokens chunk by chunk and it returns
   * the logits of the new positions without recomputing the earlier ones. See
   * {@link TransformerDecoder}. It reads the model's parameters at every append, so after
   * loadState or trainStep call `reset()` and start again.
   */
  decoder(options?: DecoderOptions): TransformerDecoder;
  /**
   * Continues `prompt` (one sequence of ids, at least one) with new tokens, decoded with a cache:
   * each new token comes from the logits after the previous one. Returns the prompt followed by
   * the new tokens. With `temperature: 0` every token is the argmax (the lowest id among equal
   * maxima); otherwise it is drawn from softmax(logits / temperature) over the `topK` largest
   * logits, deterministically for a `seed`: see {@link GenerateOptions}. Stops after
   * `maxNewTokens`, when the sequence reaches `maxLength`, or when `onToken` returns false.
   */
  generate(prompt: TokenInput, options?: GenerateOptions): { tokens: Int32Array };
  /**
   * Frees the WebAssembly memory, and that of this model's decoders; later calls (theirs too)
   * throw. A forgotten model is freed when collected.
   */
  dispose(): void;
}

export interface DecoderOptions {
  /**
   * The most tokens the decoder takes (default contextLength). Larger only for models without
   * learned positions ('none', 'rope', 'alibi'), which have no position table to run out of.
   */
  maxLength?: number;
}

export interface DecoderAppendResult {
  /** [t, V]: the next-token logits at each appended position. */
  logits: Tensor;
  /**
   * One tensor per layer, [H, t, length] (length after the append): each new query's weights over
   * every position so far, exactly 0 for keys outside the window or in the future. Null with
   * needWeights: false.
   */
  attentions: Tensor[] | null;
}

/**
 * Decoding with a key/value cache. Each `append(tokens)` runs only the new tokens through the
 * model: their keys and values join the cache of every layer and their queries attend to it (one
 * decode step is attention with `causal: 'lower-right'`). Any chunking of the appends gives the
 * logits of `model.forward` on the whole sequence, to float32 roundoff, and a step costs O(length)
 * work instead of O(length²).
 *
 * With `attentionWindow` W the cache is a ring buffer of W positions per layer (position p in slot
 * p mod W): `cacheBytes` stops growing, and a model without learned positions decodes past
 * contextLength up to maxLength. Appending past maxLength throws an Error and changes nothing.
 */
export interface TransformerDecoder {
  /** The most tokens this decoder takes. */
  readonly maxLength: number;
  /** Tokens appended so far (since creation or reset()). */
  readonly length: number;
  /**
   * Bytes of keys and values held: 2 · numLayers · numKVHeads · headDim · kept · 4 with kept =
   * length, or min(length, attentionWindow) with a window.
   */
  readonly cacheBytes: number;
  /**
   * Appends t ≥ 1 token ids (an array or an integer typed array; ids in [0, vocabSize)) at
   * positions length … length + t − 1. `needWeights` (default true) returns the attentions.
   */
  append(
    tokens: number[] | Int32Array | Uint16Array | Uint8Array,
    options?: { needWeights?: true },
  ): DecoderAppendResult & { attentions: Tensor[] };
  /** With `needWeights: false` (or a boolean known only at run time) `attentions` may be null. */
  append(
    tokens: number[] | Int32Array | Uint16Array | Uint8Array,
    options?: { needWeights?: boolean },
  ): DecoderAppendResult;
  /**
   * {@link append}, then the token that follows, drawn in the core from the last appended row's
   * logits exactly as {@link Transformer.generate} draws it: `temperature` (default 1; 0 = greedy,
   * the argmax), `topK` (default every token) and `u`, the uniform draw in [0, 1) (default 0;
   * generate takes it from NumPy's `np.random.rand()` for each token). One call per token gives a
   * lesson the new token together with the logits and attentions that led to it; feeding each
   * token back with `u` from `attn.randomState(seed).rand()` (only while temperature > 0) gives
   * generate's tokens for that seed.
   */
  sample(
    tokens: number[] | Int32Array | Uint16Array | Uint8Array,
    options?: { temperature?: number; topK?: number; u?: number; needWeights?: true },
  ): DecoderAppendResult & { token: number; attentions: Tensor[] };
  /** With `needWeights: false` (or a boolean known only at run time) `attentions` may be null. */
  sample(
    tokens: number[] | Int32Array | Uint16Array | Uint8Array,
    options?: { temperature?: number; topK?: number; u?: number; needWeights?: boolean },
  ): DecoderAppendResult & { token: number };
  /**
   * Copies of layer `layer`'s cache in slot order: `keys` and `values` [numKVHeads, kept, headDim]
   * (keys after RoPE, as the heads use them) and `positions`, the position held in each slot
   * (0 … length − 1 without a window; p mod W = slot with one).
   */
  cache(layer: number): { keys: Tensor; values: Tensor; positions: Int32Array };
  /** Forgets every token (length 0); the cache's memory is kept for the next ones. */
  reset(): void;
  /** Frees the cache; later calls throw. Disposing the model disposes its decoders. */
  dispose(): void;
}

export interface GenerateOptions {
  /** New tokens to add at most (default: as many as maxLength allows). */
  maxNewTokens?: number;
  /**
   * Default 1. 0 is greedy: the argmax, the lowest id among equal maxima. Otherwise the logits
   * are divided by it before the softmax (below 1 sharper, above 1 flatter).
   */
  temperature?: number;
  /**
   * Sample among the topK largest logits only (a positive integer; ties at the k-th value go to
   * lower ids). Default: every token.
   */
  topK?: number;
  /**
   * Seed of NumPy's generator (default 0): per token u = np.random.rand(), and the token is the
   * first kept id, in increasing id order, whose cumulative probability exceeds u · Σp (NumPy's
   * `searchsorted(cumsum(p), u * p.sum(), side='right')`). The same seed gives the same tokens.
   */
  seed?: number;
  /** The sequence's length limit (default contextLength; beyond it only without learned positions). */
  maxLength?: number;
  /**
   * Called with each new token and its index among the new ones; returning false stops. A
   * trainStep or loadState of the model in it makes generate throw before the next token (its
   * cache holds the old parameters' keys and values), unless it returns false.
   */
  onToken?: (token: number, index: number) => boolean | void;
}

/** Token ids [T] or [B, T]: nested arrays, an integer typed array, or `{ data, shape }`. */
export type TokenInput =
  number[] | number[][] | Int32Array | Uint16Array | Uint8Array | { data: ArrayLike<number>; shape: number[] };

/**
 * Head metrics of attention patterns A [T, T] (row i = query, column j = key) over tokens tok:
 * - `previousToken`: mean of A[i, i−1] over the queries i ≥ 1.
 * - `duplicateToken`: mean, over the queries i with an earlier copy of their token (j < i,
 *   tok[j] = tok[i]), of the attention on those copies.
 * - `induction` (prefix matching): mean, over the queries i with some key j, 1 ≤ j ≤ i,
 *   tok[j−1] = tok[i], of the attention on such keys j (the tokens that followed earlier copies
 *   of the current token). An induction head scores near 1 on repeated random tokens.
 * A score no query qualifies for is 0. `queries` counts the queries each mean is over (pooled over
 * the batch). Numbers for one [T, T] pattern, arrays with one entry per head otherwise.
 */
export interface HeadScores<T = number | number[]> {
  previousToken: T;
  duplicateToken: T;
  induction: T;
  queries: { previousToken: T; duplicateToken: T; induction: T };
}

/**
 * Loads the WebAssembly core (browsers, workers and Node) and returns the API. Rejects with an
 * Error naming the cause when it cannot: no WebAssembly in this engine (e.g. `node --jitless`),
 * a missing build file, or an HTTP status or content type that is not the file.
 */
export function createAttention(options?: CreateAttentionOptions): Promise<Attention>;

/** Whether this engine supports WebAssembly SIMD128. */
export function simdSupported(): boolean;

// ---- Gradients -------------------------------------------------------------------------------

export type ScaledDotProductAttentionGradOptions = Pick<
  ScaledDotProductAttentionOptions,
  'causal' | 'mask' | 'bias' | 'keyPaddingMask' | 'scale' | 'needWeights' | 'window'
>;

export interface ScaledDotProductAttentionGradResult {
  /** The forward's output [...batch, n, dv]. */
  output: Tensor;
  /** The forward's weights A [...batch, n, m]; null when needWeights is false. */
  weights: Tensor | null;
  /** ∂L/∂q, q's shape. A fully masked query row gets zeros. */
  gradQ: Tensor;
  /** ∂L/∂k, k's shape. */
  gradK: Tensor;
  /** ∂L/∂v, v's shape. */
  gradV: Tensor;
  /**
   * dS = ∂L/∂(scaled, masked scores) [...batch, n, m], the gradient the softmax passes back; it is
   * also the gradient of `bias` (summed over the batch for a shared [n, m] bias). Hidden cells and
   * fully masked rows are exactly 0. Null when needWeights is false.
   */
  gradScores: Tensor | null;
}

export type MultiHeadBackwardOptions = Pick<
  MultiHeadForwardOptions,
  'causal' | 'attnMask' | 'keyPaddingMask' | 'scale' | 'window'
>;

export interface MultiHeadBackwardResult {
  /** The forward's output, [B, n, E] or [n, E]. */
  output: Tensor;
  /** ∂L/∂query, ∂L/∂key, ∂L/∂value: the shapes of the arguments. */
  gradQuery: Tensor;
  gradKey: Tensor;
  gradValue: Tensor;
  /** ∂L/∂W in setWeights' layout (W [in, out]); biases only when the layer has them. */
  gradWeights: Record<'wq' | 'wk' | 'wv' | 'wo', Tensor> & Partial<Record<'bq' | 'bk' | 'bv' | 'bo', Tensor>>;
}
