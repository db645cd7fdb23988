// Types of the Worker trainer (web/lib/trainer.js): trains an attn.transformer model in a dedicated
// Worker with its own WebAssembly instance and reports progress, so a page stays responsive. Prose
// documentation: docs/training.md.

import type { Tensor } from './attention.js';

/**
 * Token ids as a batch takes them: [B, T] nested arrays (or one sequence [T]), a typed array of one
 * sequence, or { data, shape: [B, T] }.
 */
export type TokenIds =
  | readonly (readonly number[])[]
  | readonly number[]
  | Int32Array
  | Uint16Array
  | Uint8Array
  | Float64Array
  | { data: Int32Array | Uint16Array | Uint8Array | Float64Array | readonly number[]; shape: readonly number[] };

/**
 * One batch of your own: `tokens` [B, T] ids in [0, vocabSize) with T ≤ model.contextLength and
 * B ≤ 4096, and `targets` of the same shape: the token each position should predict, or −1 / −100
 * (Hugging Face's ignore_index) for "no loss here". The model does not shift targets: targets[b][i]
 * is what position i predicts (usually tokens[b][i + 1]). At least one target must count.
 */
export interface TrainerBatch {
  tokens: TokenIds;
  targets: TokenIds;
}

/**
 * Where your batches come from. The main thread pulls them (the model lives in the Worker) only as
 * far as the Worker asks, at most `prefetch` ahead of training, and checks each one there; a bad
 * batch or a source that throws ends training with an Error that names it ("data.source[3].tokens
 * [0][5] is 99, outside [0, vocabSize = 12)").
 * - a function: called with the batch's index (0, 1, 2…), returns a batch or a Promise of one;
 *   null or undefined ends the data;
 * - an iterable (an Array of batches, a generator) or an async iterable (an async generator reading
 *   a file or the network): its end ends the data.
 * The data's end ends a run (start() resolves with reason 'endOfData') and cuts step(n) short.
 * reset() does not rewind a source.
 */
export type TrainerBatchSource =
  | ((index: number) => TrainerBatch | null | undefined | Promise<TrainerBatch | null | undefined>)
  | Iterable<TrainerBatch>
  | AsyncIterable<TrainerBatch>;

/** The data each training step draws a fresh batch of (deterministic from the trainer's seed and the step). */
export type TrainerData =
  | {
      /**
       * Repeated random tokens (training-data.js `repeatedTokens`): BOS, r random tokens, the same r
       * again, filler; targets only where induction can predict them (the second copy).
       */
      kind?: 'repeated';
      /** Default: model.contextLength. */
      seqLength?: number;
      minRepeat?: number;
      maxRepeat?: number;
      /** The repeat lengths to draw from (overrides minRepeat/maxRepeat). */
      repeatLengths?: number[];
      /** Predict every next token instead of only the predictable ones. */
      allTargets?: boolean;
    }
  | {
      /** Character-level text: random windows, next-character targets. */
      kind: 'text';
      /** Default: the bundled generated corpus (tiny-corpus.js). Any pasted text works. */
      text?: string;
      seqLength?: number;
    }
  | {
      /** Your own batches, one per step, in the order the source gives them (see TrainerBatchSource). */
      kind: 'batches';
      /** Required here; not part of `trainer.config` (it stays on the main thread). */
      source?: TrainerBatchSource;
      /** Batches pulled ahead of training (default 2, 1 to 64): the back-pressure bound. */
      prefetch?: number;
    };

export interface TrainerConfig {
  /**
   * The attn.transformer config ({ vocabSize, contextLength, dModel, numLayers, numHeads, mlp,
   * layerNorm, positions, tieEmbeddings, init, seed }). For text data vocabSize defaults to the
   * number of distinct characters.
   */
  model: Record<string, unknown>;
  data?: TrainerData;
  /** Sequences per step (default 32). */
  batchSize?: number;
  /** Seed of the training batches (default 0); the model's own seed is model.seed. */
  seed?: number;
  /**
   * Options of model.trainStep: { learningRate, betas, eps, weightDecay, clipNorm }. Names and
   * finiteness are checked before the Worker starts, ranges by the model at the first step.
   */
  optimizer?: {
    learningRate?: number;
    betas?: [number, number];
    eps?: number;
    weightDecay?: number;
    clipNorm?: number | null;
  };
  /** Steps between progress messages while running (default 10). */
  reportEvery?: number;
  /**
   * A fixed probe batch evaluated at every progress message (default { batchSize: 8, seed: 12345,
   * attentions: true, headScores: true }); `repeatLengths` lets it test lengths not trained on.
   * false turns probing off (the default for data.kind 'batches' unless `batch` is given).
   */
  probe?:
    | false
    | {
        batchSize?: number;
        seed?: number;
        repeatLengths?: number[];
        attentions?: boolean;
        headScores?: boolean;
        /** Your own fixed probe batch (checked like a TrainerBatch); required to probe data.kind 'batches'. */
        batch?: TrainerBatch;
        /**
         * Repeated data: score heads over BOS and the two copies only (each sequence cropped to its
         * 2r + 1 tokens), since queries on the filler make every head look like an induction and a
         * duplicate-token head. Default false (the whole sequence).
         */
        excludeFiller?: boolean;
      };
  /** Which WebAssembly build the Worker loads: 'auto' (default), true or false. */
  simd?: 'auto' | boolean;
}

export interface TrainerProbe {
  /** Mean cross-entropy of the model on the probe batch (targets ≠ −1). */
  loss: number;
  /** Mean cross-entropy at each position (0 where no target counts), from attn.lossByPosition. */
  lossByPosition: number[];
  /** Mean cross-entropy of predicting every next token of the probe batch (the whole sequence). */
  allTokensLoss: number;
  /** Repeated data: the loss on the second copy only (the tokens induction can predict). */
  repeatedLoss?: number;
  /** The first probe sequence's tokens. */
  tokens: number[];
  /** Per layer, the first probe sequence's attention of every head, shape [H, T, T]. */
  attentions?: Tensor[];
  /** Per layer, one score per head, pooled over the probe batch (see attn.headScores). */
  headScores?: { previousToken: number[]; duplicateToken: number[]; induction: number[] }[];
}

export interface TrainerProgress {
  type: 'progress';
  /** Steps done so far. */
  step: number;
  /** The loss of the last step (before its update), or null when no step ran since the last report. */
  loss: number | null;
  /** The loss of every step since the previous progress message. */
  losses: number[];
  /** Whether the training loop is still running. */
  running: boolean;
  /**
   * On the reply of a step(n) that was cut short: what stopped it (`step` and `losses` then tell
   * how many steps ran).
   */
  interrupted?: 'paused' | 'reset' | 'load' | 'endOfData';
  probe?: TrainerProbe;
}

/** How a run ended: what start() resolves with, and what onStopped receives. */
export interface TrainerStop {
  /** The step the run ended at. */
  step: number;
  /**
   * 'maxSteps': the steps asked for are done; 'paused': pause(); 'reset' / 'load': reset() or
   * load() replaced the model; 'endOfData': a data.kind 'batches' source ended.
   */
  reason: 'maxSteps' | 'paused' | 'reset' | 'load' | 'endOfData';
}

/**
 * A model in training. Training runs in slices of at most 50 ms of work in a Worker (10 ms on the
 * main thread), a slice being one step when one step takes longer; between slices the Worker reads
 * its messages, so pause() and every other request wait for at most the slice under way.
 */
export declare class Trainer {
  /** The config with its defaults filled in (data.source is not included). */
  readonly config: TrainerConfig;
  readonly parameterCount: number;
  /** For text data: the characters of the vocabulary (token id = index). */
  readonly vocabulary: string[] | null;
  /** The last step the Worker reported. */
  readonly lastStep: number;
  /**
   * Where the model trains: 'worker' (a dedicated Worker), or 'main-thread' where no Worker could
   * start (e.g. an `<iframe sandbox="allow-scripts">` whose CSP refuses data: and blob: Workers):
   * the same loop then runs on this thread in slices of at most ~10 ms. A page can say so.
   */
  readonly mode: 'worker' | 'main-thread';
  /** Every progress message: every `reportEvery` steps of a run, and the reply of each step(n). */
  onProgress: ((progress: TrainerProgress) => void) | null;
  /** When a run ends (not by terminate()), with the same value start() resolves with. */
  onStopped: ((stop: TrainerStop) => void) | null;
  /**
   * Errors outside a request, and the error that ended a run (e.g. the loss became NaN while
   * running, which stops the loop; start() rejects with it too).
   */
  onError: ((error: Error) => void) | null;
  /**
   * Trains until pause(), or for `maxSteps` more steps. Progress arrives through onProgress. Resolves
   * when the run ends, with { step, reason } (reason 'maxSteps', 'paused', 'reset', 'load' or
   * 'endOfData'). Calling start() while a run is under way joins it (the new maxSteps counts from
   * now) and resolves when it ends. Rejects with an Error if a step fails (e.g. a non-finite loss or
   * a bad batch of yours: the run stops) and if terminate() is called meanwhile.
   */
  start(options?: { maxSteps?: number }): Promise<TrainerStop>;
  /**
   * Stops the run and any step(n) under way after at most the step in progress; resolves with the
   * step it stopped at.
   */
  pause(): Promise<{ step: number }>;
  /**
   * Runs `count` steps (1 to 100 000, default 1) and resolves with their progress (the loss of every
   * one of them). pause(), reset(), load() and the end of your data cut it short: it then resolves
   * with the steps that ran and `interrupted` set. Rejects if a step fails.
   */
  step(count?: number): Promise<TrainerProgress>;
  /** A new model from the same config and seed; step 0. Ends a run (reason 'reset'). */
  reset(): Promise<{ step: 0 }>;
  /** The model's parameters (the transformer's getState names). */
  getState(): Promise<Record<string, Tensor>>;
  /** Evaluates the probe batch now. */
  probe(): Promise<TrainerProbe>;
  /**
   * The probe on a copy of the model in which head `head` of layer `layer` (both from 0)
   * contributes nothing (zero ablation: its rows of c_proj.weight are zeroed). Training is not
   * affected. Compare its loss, loss by position and head scores with probe().
   */
  ablate(layer: number, head: number): Promise<TrainerProbe>;
  /**
   * The probe on a batch with other repeat lengths and/or with heads ablated (each listed head's
   * output zeroed, through a copy of the model: the trained one is untouched).
   */
  evaluate(options?: { repeatLengths?: number[]; ablate?: { layer: number; head: number }[] }): Promise<TrainerProbe>;
  /**
   * Replaces the parameters (getState names, e.g. a checkpoint) and restarts Adam at step `step`.
   * Ends a run (reason 'load').
   */
  load(state: Record<string, Tensor>, options?: { step?: number }): Promise<{ step: number }>;
  /**
   * The model's attention on one sequence of your own (`tokens`: [T] ids, T ≤ contextLength):
   * every layer's weights [H, T, T] and, per layer, each head's scores on that sequence.
   */
  attend(tokens: number[]): Promise<{
    step: number;
    attentions: Tensor[];
    headScores: { previousToken: number[]; duplicateToken: number[]; induction: number[] }[];
  }>;
  /**
   * Generates text with the model as it is now (refused while training runs: every step would
   * change the model under the cache). Token by token in the Worker, one token per turn of its
   * event loop, so cancelGeneration() and other requests wait at most one token; sampling is
   * `decoder.sample`'s, so a seed gives the tokens `model.generate` gives. `onToken` hears each new
   * token with what a lesson shows for it; resolves when the generation ends.
   */
  generate(
    request: GenerationRequest,
    onToken?: (step: GenerationStep) => void,
  ): Promise<{ tokens: number[]; reason: 'done' | 'length' | 'cancelled' | 'model-changed' }>;
  /** Ends the generation under way after its current token (its promise resolves with reason 'cancelled'). */
  cancelGeneration(): Promise<unknown>;
  /**
   * Ends the trainer whatever it is doing: every pending promise rejects at once ("trainer: step()
   * did not finish: terminate() stopped the trainer"), the Worker may free its model for 30 ms and
   * is then terminated, cutting a step under way short. Resolves once the Worker has ended (on the
   * main thread, where terminate() can only run between slices, once the loop and model are gone). Requests made after it reject;
   * terminate() again returns the same promise.
   */
  terminate(): Promise<void>;
}

export interface TrainerOptions {
  /** Where trainer-worker.js is served from (default: beside trainer.js). */
  workerUrl?: string | URL;
  /**
   * 'auto' (default): a Worker if one can start (a module Worker; in an opaque-origin frame a data:
   * or blob: bootstrap that imports it by absolute URL, which needs the server's CORS headers and a
   * CSP allowing such Workers), else the main thread. 'worker': a Worker or a rejection.
   * 'main-thread': never a Worker.
   */
  mode?: 'auto' | 'worker' | 'main-thread';
}

/**
 * Checks the config (the trainer's options, the data's, and the model's with the transformer's own
 * check), then starts a Worker (a module Worker in browsers, worker_threads in Node; see
 * TrainerOptions.mode), loads the core in it, builds the model and resolves when it is ready.
 * A bad config rejects before any Worker starts, with an Error naming the option.
 */
export function createTrainer(config: TrainerConfig, options?: TrainerOptions): Promise<Trainer>;

/** What {@link Trainer.generate} (and the checkpoint host) is asked for. */
export interface GenerationRequest {
  /** [t] token ids, t ≥ 1 (ignored with `continue`). */
  prompt?: number[];
  /** New tokens at most (default 20, at most 4096); the model's context may end the generation first (reason 'length'). */
  maxNewTokens?: number;
  /** Default 1; 0 is greedy. */
  temperature?: number;
  /** Sample among the topK largest logits only (null or omitted: every token). */
  topK?: number | null;
  /** NumPy's seed for the draws (default 0). */
  seed?: number;
  /** The layer whose attention and caches each step reports (default 0). */
  layer?: number;
  /** Default true: also run a full forward over the whole prefix per token, timed, and compare its logits. */
  check?: boolean;
  /** Go on with the last generation (same cache, the draws continuing) instead of starting from `prompt`. */
  continue?: boolean;
}

/** One new token and what led to it. */
export interface GenerationStep {
  /** Index among the new tokens of this generation. */
  index: number;
  token: number;
  /** The prompt and every token so far. */
  tokens: number[];
  layer: number;
  /** [H, length]: the last appended query's weights over the cache, each head of `layer`. */
  attention: Tensor;
  /** `layer`'s cache in slot order: keys, values [numKVHeads, kept, headDim], the position in each slot. */
  cache: { keys: Tensor; values: Tensor; positions: Int32Array };
  /** decoder.cacheBytes: 2 · layers · numKVHeads · headDim · kept · 4. */
  cacheBytes: number;
  /** Tokens in the decoder (the positions seen). */
  length: number;
  /** Milliseconds of the cached step (append + draw). */
  msCached: number;
  /** Milliseconds of a forward over the whole prefix, what a model without a cache does per token (null without check). */
  msFull: number | null;
  /** The largest |cached logits − full-pass logits| of the last position (null without check). */
  difference: number | null;
}
