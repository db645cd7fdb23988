/**
 * `<attention-explorer>`: the attention explorer as an HTML element (see docs/embedding.md).
 * Importing the module defines the element (in a browser, or a DOM such as jsdom); in Node
 * without a DOM it defines nothing and starts nothing.
 *
 * The `lang` attribute (`en`, `de`, `es`) sets the language of the explorer's words and of its
 * numbers (a decimal comma in German and Spanish); without it the explorer follows `?lang=` of
 * the page's address, then the reader's browser languages, then English. The element's inner
 * root carries the chosen `lang`. Answers (`attention-explorer:answer`) carry the question and
 * the feedback in that language; `guess` and `answer` stay language-neutral.
 *
 * @example
 * import 'attention-explorer/element';
 * const el = document.querySelector('attention-explorer')!;
 * await el.ready;
 * el.addEventListener('statechange', (e) => console.log(e.detail.state.mask.kind));
 */

/** The explorer's whole state: plain, JSON-compatible data (see docs/embedding.md, "The state"). */
export interface ExplorerState {
  mode: 'sentence' | 'qkv';
  n: number;
  m: number;
  dk: number;
  dv: number;
  dModel: number;
  heads: number;
  seed: number;
  sentence: string;
  tokens: string[];
  /**
   * XM: the memory's token vectors (cross-attention); B: the bias matrix [n, m] (may hold
   * -Infinity); BQ, BK, BV, BO: the projection biases as 1-row matrices.
   */
  matrices: Partial<
    Record<
      'Q' | 'K' | 'V' | 'X' | 'WQ' | 'WK' | 'WV' | 'WO' | 'XM' | 'B' | 'BQ' | 'BK' | 'BV' | 'BO',
      { rows: number; cols: number; data: number[] }
    >
  >;
  scaling: { sqrtDk: boolean; temperature: number };
  mask: { kind: 'none' | 'causal' | 'padding' | 'custom'; pad: boolean[]; custom: (0 | 1)[] };
  view: { head: number };
  display: { theme: 'auto' | 'light' | 'dark'; palette: 'viridis' | 'cividis' | 'blues' };
  headNames: string[];
  /** The bias matrix B added to the scaled scores (values in matrices.B), and the preset it started from. */
  biasMatrix?: { on: boolean; preset: 'zeros' | 'alibi' | 'causal-inf' | 'causal-large' | 'random' };
  /** Projection biases b_Q, b_K, b_V, b_O (sentence mode). */
  biases?: boolean;
  /** Cross-attention (sentence mode): keys and values from the memory sentence. */
  cross?: { on: boolean; sentence: string; tokens: string[] };
  /** The lesson panels' settings. */
  lessons: Record<string, unknown>;
}

/** The `ready` event's detail: the state first drawn (no `source`: nothing changed it yet). */
export interface ExplorerReadyEventDetail {
  state: ExplorerState;
}

/** The `statechange` event's detail. */
export interface ExplorerStateEventDetail {
  state: ExplorerState;
  /** 'user' (someone edited), 'api' (set through `state` or an attribute), 'url'. */
  source: string;
}

/**
 * The `attention-explorer:answer` event's detail (bubbling and composed; with `reveal="predict"`):
 * a learner answered a lesson's predict-then-reveal question. embed.html posts the same fields to
 * its parent as `{ type: 'attention-explorer:answer', version: 1, ...detail }`.
 */
export interface ExplorerAnswerEventDetail {
  /** The lesson id (`weights`, `softmax-row`, `pitfalls`, `sqrt-dk`, `induction`). */
  lesson: string;
  /** The question as the learner read it. */
  question: string;
  correct: boolean;
  /**
   * The learner's choice and the right one: a key's index (from 0) for which key gets the most
   * weight; 'exactly-1' | 'less-than-1' | 'more-than-1' for a row sum; 'unscaled' | 'scaled' |
   * 'same' for the entropy; for the induction head `guess` is `{ layer, head }` (from 0, as the
   * trainer's arrays) and `answer` the best head as 'layer,head'.
   */
  guess: unknown;
  answer: unknown;
  /** The choice and the answer in words, as the learner saw them. */
  guessLabel: string;
  answerLabel: string;
  /** The feedback shown. */
  feedback: string;
  /** Numbers the question was about (weights, row, sum, entropyUnscaled, entropyScaled, dk, scores…). */
  [more: string]: unknown;
}

export class AttentionExplorerElement extends HTMLElement {
  /** Resolves with the element once it has drawn (again after each rebuild). */
  readonly ready: Promise<AttentionExplorerElement>;
  /**
   * A copy of the current state (undefined before `ready`). Setting it checks every field and
   * throws an Error (name 'StateError') naming the first bad one; missing fields are filled in.
   */
  state: ExplorerState | undefined;
  /** A link to the stand-alone page (or `link-base`) showing the current state. */
  link(): Promise<string>;
  addEventListener(
    type: 'statechange',
    listener: (event: CustomEvent<ExplorerStateEventDetail>) => void,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: 'ready',
    listener: (event: CustomEvent<ExplorerReadyEventDetail>) => void,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: 'attention-explorer:answer',
    listener: (event: CustomEvent<ExplorerAnswerEventDetail>) => void,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-explorer': AttentionExplorerElement;
  }
}
