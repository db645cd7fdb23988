// Types of the Worker trainer (web/lib/trainer.js): trains an attn.transformer model in a dedicated
// Worker with its own WebAssembly instance and reports progress, so a page stays responsive.

import type { Tensor } from './attention.js';

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
  /** Options of model.trainStep: { learningRate, betas, eps, weightDecay, clipNorm }. */
  optimizer?: Record<string, unknown>;
  /** Steps between progress messages while running (default 10). */
  reportEvery?: number;
  /**
   * A fixed probe batch evaluated at every progress message (default { batchSize: 8, seed: 12345,
   * attentions: true, headScores: true }); `repeatLengths` lets it test lengths not trained on.
   * false turns probing off.
   */
  probe?: false | {
    batchSize?: number; seed?: number; repeatLengths?: number[]; attentions?: boolean; headScores?: boolean;
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
  probe?: TrainerProbe;
}

export declare class Trainer {
  /** The config with its defaults filled in. */
  readonly config: TrainerConfig;
  readonly parameterCount: number;
  /** For text data: the characters of the vocabulary (token id = index). */
  readonly vocabulary: string[] | null;
  /** The last step the Worker reported. */
  readonly lastStep: number;
  onProgress: ((progress: TrainerProgress) => void) | null;
  onStopped: ((message: { step: number; reason: 'maxSteps' }) => void) | null;
  /** Errors outside a request (e.g. the loss became NaN while running, which stops the loop). */
  onError: ((error: Error) => void) | null;
  /** Trains until pause(), or for maxSteps more steps; progress arrives through onProgress. */
  start(options?: { maxSteps?: number }): Promise<{ step: number }>;
  /** Stops after the current chunk of steps. */
  pause(): Promise<{ step: number }>;
  /** Runs `count` steps (default 1) and resolves with their progress. */
  step(count?: number): Promise<TrainerProgress>;
  /** A new model from the same config and seed; step 0. */
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
  /** Replaces the parameters (getState names, e.g. a checkpoint) and restarts Adam at step `step`. */
  load(state: Record<string, Tensor>, options?: { step?: number }): Promise<{ step: number }>;
  /**
   * The model's attention on one sequence of your own (`tokens`: [T] ids, T ≤ contextLength):
   * every layer's weights [H, T, T] and, per layer, each head's scores on that sequence.
   */
  attend(tokens: number[]): Promise<{ step: number; attentions: Tensor[]; headScores: { previousToken: number[]; duplicateToken: number[]; induction: number[] }[] }>;
  /** Frees the model and ends the Worker. */
  terminate(): Promise<void>;
}

/**
 * Starts a Worker (a module Worker in browsers, worker_threads in Node), loads the core in it,
 * builds the model and resolves when it is ready. A bad config rejects before a Worker starts.
 */
export function createTrainer(config: TrainerConfig, options?: { workerUrl?: string | URL }): Promise<Trainer>;
