/**
 * `attention-explorer/link`: the codec of the explorer's links ("Copy link", `#s=v1.…`), usable
 * on its own (browsers and Node ≥ 18: it needs CompressionStream). See docs/embedding.md, "Links".
 *
 * @example
 * import { encodeState, decodeState } from 'attention-explorer/link';
 * const text = await encodeState(state);          // "v1.…"
 * const back = await decodeState(text);           // { ok: true, state } or { ok: false, error }
 */
import type { ExplorerState } from './attention-explorer.js';

export type { ExplorerState };

/** The link format version this codec writes and reads (the "1" of "v1."). */
export const LINK_VERSION: number;
/** Longest link text accepted, in characters. */
export const MAX_ENCODED_LENGTH: number;

/** A state that fails a check; the message names the first bad field. */
export class StateError extends Error {}

/** Checks every field of a state and returns a clean copy of the checked fields (missing ones stay missing); throws a StateError. */
export function validateState(input: unknown): Partial<ExplorerState>;
/** Encodes a state as "v1.<base64url>"; rejects with a StateError when the link would be too long. */
export function encodeState(state: ExplorerState): Promise<string>;
/** Decodes link text made by encodeState; never rejects. */
export function decodeState(
  text: string,
): Promise<{ ok: true; state: Partial<ExplorerState> } | { ok: false; error: string }>;
/** The encoded state in a URL hash ("#s=v1.…"), or null when the hash carries none. */
export function stateFromHash(hash: string): string | null;
/** The preset id a hash names ("#preset=heads" → "heads"), or null when it names none. */
export function presetFromHash(hash: string): string | null;
/** `base` (any URL) with its hash replaced by the encoded state. */
export function linkFor(base: string, encoded: string): string;
/**
 * The part of a state a link carries, as plain JSON data: no version, only the matrices of the
 * input mode in use, −∞ written as the string "-inf". encodeState compresses exactly this.
 */
export function toLinkState(state: ExplorerState): Record<string, unknown>;
/** Bytes as unpadded base64url text (the alphabet of "v1.…" links). */
export function toBase64Url(bytes: Uint8Array): string;
