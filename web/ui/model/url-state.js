// The explorer's state as a short, versioned text that fits in a link. Pure: no DOM, no attention
// core; runs unchanged in browsers and Node (node --test). The page loads it when a link is read
// or made (link-codec.js), not with its first drawing.
//
// Encoding, version 1:  "v1." + base64url( deflate-raw( UTF-8( JSON ) ) )
// The JSON is the state without what the page derives again (the version, the tokens the padding
// marks were computed for) and without the matrices of the other input mode. Numbers are written
// in JavaScript's shortest round-trip form, so values survive the trip exactly.
//
// Decoding never throws and never trusts its input: the text, the compressed bytes and the
// inflated JSON are bounded before they are looked at, and the state is then checked field by
// field (state-check.js validateState), which rejects the whole link with a message naming the
// first bad field. This module also exports that check and the hash's readers (url-hash.js), so it
// stays the whole of the package's "attention-explorer/link".
//
// Later additions to version 1 are optional fields an older link simply lacks: the bias matrix
// (biasMatrix, matrices.B, whose −∞ cells JSON cannot hold and are written as the string "-inf"),
// the projection biases (biases, matrices.BQ … BO), cross-attention (cross, matrices.XM) and the
// token vectors' source (vectors: random, the trained text model, or a trained head opened from the
// training view, with what that head is; trained-vectors.js).
import { activeMatrices } from './state.js';
import { NEG_INF, StateError, validateState } from './state-check.js';

export { StateError, validateState } from './state-check.js';
export { linkFor, presetFromHash, stateFromHash } from './url-hash.js';

export const LINK_VERSION = 1;
/** Longest encoded state accepted or produced (characters after "#s="). */
export const MAX_ENCODED_LENGTH = 100_000;
/** Largest inflated JSON accepted (bytes): a few hundred bytes of link cannot become gigabytes. */
const MAX_JSON_BYTES = 1 << 20;

/** The part of a (reconciled) state that a link carries: plain JSON data. */
export function toLinkState(state) {
  const active = new Set(activeMatrices(state).map(([name]) => name));
  const matrices = {};
  for (const [name, m] of Object.entries(state.matrices ?? {})) {
    // JSON has no −0 and no −∞ (only B may hold −∞; it travels as "-inf").
    if (active.has(name) && m)
      matrices[name] = {
        rows: m.rows,
        cols: m.cols,
        data: Array.from(m.data, (x) => (x === -Infinity ? NEG_INF : x + 0)),
      };
  }
  const { version, ...rest } = state;
  const out = { ...rest, matrices };
  if (state.mask) {
    const { padTokens, ...mask } = state.mask;
    out.mask = mask;
  }
  return out;
}

// ---- bytes <-> base64url ----------------------------------------------------------------------

const B64URL = /^[A-Za-z0-9_-]*$/;

export function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  if (!B64URL.test(text) || text.length % 4 === 1)
    throw new StateError('the link is damaged (it is not base64url text)');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function pump(bytes, transform, maxBytes, tooLarge) {
  const reader = new Blob([bytes]).stream().pipeThrough(transform).getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new StateError(tooLarge);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

// ---- state <-> text ---------------------------------------------------------------------------

/** Encodes a state as "v1.<base64url>"; throws a StateError when the result would be too long. */
export async function encodeState(state) {
  const json = JSON.stringify(toLinkState(state));
  const bytes = new TextEncoder().encode(json);
  if (bytes.length > MAX_JSON_BYTES)
    throw new StateError('this example is too large for a link: export it as JSON instead');
  const packed = await pump(bytes, new CompressionStream('deflate-raw'), MAX_JSON_BYTES, 'too large');
  const text = `v${LINK_VERSION}.${toBase64Url(packed)}`;
  if (text.length > MAX_ENCODED_LENGTH)
    throw new StateError(
      `this example is too large for a link (${text.length} characters, at most ${MAX_ENCODED_LENGTH}): export it as JSON instead`,
    );
  return text;
}

/**
 * Decodes text made by encodeState. Never throws: resolves to { ok: true, state } with a checked
 * state, or { ok: false, error } with a message for the reader.
 */
export async function decodeState(text) {
  try {
    if (typeof text !== 'string') throw new StateError('the link holds no state');
    if (text.length > MAX_ENCODED_LENGTH)
      throw new StateError(`the link is too long (${text.length} characters, at most ${MAX_ENCODED_LENGTH})`);
    const match = /^v(\d{1,4})\.(.*)$/s.exec(text);
    if (!match) throw new StateError('the link is not an explorer link (it should start with v1.)');
    if (Number(match[1]) !== LINK_VERSION)
      throw new StateError(
        `the link was made by a newer version of the explorer (format v${match[1]}; this page reads v${LINK_VERSION})`,
      );
    const packed = fromBase64Url(match[2]);
    let bytes;
    try {
      bytes = await pump(
        packed,
        new DecompressionStream('deflate-raw'),
        MAX_JSON_BYTES,
        `the link unpacks to more than ${MAX_JSON_BYTES} bytes`,
      );
    } catch (err) {
      if (err instanceof StateError) throw err;
      throw new StateError('the link is damaged (it does not unpack)');
    }
    let json;
    try {
      json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      throw new StateError('the link is damaged (its content is not JSON)');
    }
    return { ok: true, state: validateState(json) };
  } catch (err) {
    return { ok: false, error: err instanceof StateError ? err.message : 'the link could not be read' };
  }
}
