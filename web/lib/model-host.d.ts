// Types of the checkpoint host (web/lib/model-host.js): a model opened from a safetensors file in
// a dedicated Worker with its own WebAssembly instance, so that opening hundreds of MB, sweeping
// every head and generating never hold the page. The page's "Open a checkpoint" panel uses it.
import type { Tensor, TransformerConfig } from './attention.js';
import type { GenerationRequest, GenerationStep } from './trainer.js';

export interface HeadScoresByLayer {
  /** [layer][head] */
  previousToken: number[][];
  duplicateToken: number[][];
  induction: number[][];
}

export declare class ModelHost {
  /** 'worker', or 'main-thread' where no Worker could start (an opaque-origin frame). */
  readonly mode: 'worker' | 'main-thread';
  /** The open model's config (null until a checkpoint is open) and its parameter count. */
  config: Required<TransformerConfig> | null;
  parameterCount: number;
  /**
   * Opens a checkpoint with attn.loadTransformer in the Worker: `source` a File/Blob (the
   * browser hands it to the Worker without copying it), bytes, or a URL resolved against the page
   * (with `config` null, the config.json beside it is fetched); `config` a Hugging Face
   * config.json object or ours. onProgress({ loaded, total }) as the bytes land; cancelOpen()
   * stops it (the promise rejects with an AbortError). The model it replaces is freed first.
   */
  open(
    source: Blob | Uint8Array | ArrayBuffer | string | URL,
    config?: object | null,
    options?: { onProgress?: (progress: { loaded: number; total: number }) => void },
  ): Promise<{ config: Required<TransformerConfig>; parameterCount: number }>;
  cancelOpen(): Promise<unknown>;
  /** Every layer's attention [H, T, T] on `tokens` ([T] ids) and each head's scores on them. */
  attend(tokens: number[]): Promise<{
    attentions: Tensor[];
    headScores: { previousToken: number[]; duplicateToken: number[]; induction: number[] }[];
  }>;
  /**
   * One head's inputs: x = model.layerInput(tokens, layer) [T, dModel], and the head's columns of
   * c_attn for q, k and v (its key/value head's with fewer KV heads), weight [dModel, d], bias [d].
   */
  head(
    tokens: number[],
    layer: number,
    head: number,
  ): Promise<{
    x: Tensor;
    q: { weight: Tensor; bias: Tensor };
    k: { weight: Tensor; bias: Tensor };
    v: { weight: Tensor; bias: Tensor };
    positions: string;
  }>;
  /**
   * Every head's previous-token, duplicate-token and induction scores (attn.headScores, pooled
   * over the queries) on `count` sequences of a start token (GPT-2's <|endoftext|>, else id 0),
   * `repeat` random tokens and the same tokens again; one sequence per turn of the Worker's event
   * loop, onProgress({ done, total }) after each; cancelSweep() stops it (AbortError).
   */
  sweep(
    options?: { repeat?: number; count?: number; seed?: number },
    handlers?: { onProgress?: (progress: { done: number; total: number }) => void },
  ): Promise<{ scores: HeadScoresByLayer; example: number[]; sequences: number }>;
  cancelSweep(): Promise<unknown>;
  /** As Trainer.generate: token by token in the Worker. */
  generate(
    request: GenerationRequest,
    onToken?: (step: GenerationStep) => void,
  ): Promise<{ tokens: number[]; reason: 'done' | 'length' | 'cancelled' | 'model-changed' }>;
  cancelGeneration(): Promise<unknown>;
  /** Frees the model and ends the Worker. */
  terminate(): Promise<void>;
}

/** Starts a host: a Worker where one can start, else the same code on this thread. */
export function createModelHost(options?: {
  workerUrl?: string | URL;
  mode?: 'auto' | 'worker' | 'main-thread';
  simd?: boolean | 'auto';
}): Promise<ModelHost>;
