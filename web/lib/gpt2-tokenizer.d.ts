// Types of GPT-2's BPE tokenizer (web/lib/gpt2-tokenizer.js), the entry
// `attention-explorer/gpt2-tokenizer`. It runs the `js-tiktoken` package's BPE over its GPT-2 ranks
// (~545 KB, parsed at the first call), copied as plain ES modules into web/lib/vendor/ by the build,
// so it loads in a browser without a bundler or an import map too: nothing is fetched at run time.

/** Token id of `<|endoftext|>` (50256), which GPT-2 puts between documents. */
export const END_OF_TEXT: 50256;
/** Number of token ids: 50 257 (ids 0 … 50256), GPT-2's vocab_size. */
export const VOCAB_SIZE: 50257;

/**
 * Token ids of `text`, byte-level BPE exactly as GPT-2 / Hugging Face's "gpt2" tokenizer: any
 * Unicode text (emoji and all) round-trips through decode. `<|endoftext|>` in the text becomes
 * 50256 (as Hugging Face does); pass `{ special: false }` to tokenize it as ordinary characters
 * (for text from users). A non-string `text` throws an Error.
 */
export function encode(text: string, options?: { special?: boolean }): number[];

/**
 * The text of token ids (an array or typed array of integers in [0, 50257), else an Error naming
 * the first bad one). Bytes that do not form whole UTF-8 characters become U+FFFD.
 */
export function decode(ids: ArrayLike<number> | ArrayLike<bigint>): string;

/** Each id decoded alone: the pieces a lesson shows as a text's tokens (e.g. " Hello" with its space). */
export function tokenStrings(ids: ArrayLike<number> | ArrayLike<bigint>): string[];

/**
 * Each id as GPT-2's own vocabulary file (encoder.json) writes it: the token's bytes through GPT-2's
 * bytes_to_unicode, so a leading space is Ġ and a newline Ċ (`tokenPieces(encode(' Hello'))` is
 * `['ĠHello']`), and every byte of a multi-byte character shows even when the id holds only part
 * of it. `<|endoftext|>` is itself.
 */
export function tokenPieces(ids: ArrayLike<number> | ArrayLike<bigint>): string[];
