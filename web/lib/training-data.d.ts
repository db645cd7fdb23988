// Types of the lessons' training data (web/lib/training-data.js). Deterministic from a seed.

/** A small seeded generator (the same numbers in browsers, workers and Node). */
export declare class SeededRandom {
  constructor(seed?: number);
  nextUint32(): number;
  /** A uniform integer in [0, n). */
  int(n: number): number;
}

/** Token 0 starts every repeated-token sequence; token 1 fills it up. */
export declare const BOS: 0;
export declare const FILLER: 1;

/**
 * BOS, r random tokens from [2, vocabSize), the same r again, filler up to seqLength; r varies per
 * sequence over repeatLengths (default minRepeat = 2 … maxRepeat = ⌊(seqLength − 1)/2⌋). targets[i]
 * = tokens[i + 1] in the second copy (positions r + 1 … 2r − 1) and −1 elsewhere (nothing there is
 * predictable), or at every position but the last with allTargets.
 */
export function repeatedTokens(options: {
  vocabSize: number;
  seqLength: number;
  batchSize?: number;
  seed?: number;
  minRepeat?: number;
  maxRepeat?: number;
  repeatLengths?: number[];
  allTargets?: boolean;
}): { tokens: number[][]; targets: number[][]; repeatLengths: number[] };

export interface CharVocabulary {
  /** The distinct characters (code points), sorted; token id = index. */
  chars: string[];
  size: number;
  encode(text: string): number[];
  decode(ids: ArrayLike<number>): string;
}

export function charVocabulary(text: string): CharVocabulary;

/** batchSize random windows of seqLength characters; targets are the next characters. */
export function textBatch(options: {
  text: string;
  vocabulary?: CharVocabulary;
  seqLength: number;
  batchSize?: number;
  seed?: number;
}): { tokens: number[][]; targets: number[][] };
