// Links the page reads at its start: whether the address's hash holds an encoded state or names
// an example. The codec that reads and writes the state itself (url-state.js) loads only when a
// link is there or one is made (link-codec.js).

/** The encoded state in a URL hash ("#s=v1.…"), or null when the hash carries none. */
export function stateFromHash(hash) {
  const text = String(hash ?? '').replace(/^#/, '');
  if (!text.startsWith('s=') && !text.includes('&s=')) return null;
  return new URLSearchParams(text).get('s');
}

/** A preset id named in the hash ("#preset=heads"), or null. */
export function presetFromHash(hash) {
  const text = String(hash ?? '').replace(/^#/, '');
  if (!/(^|&)preset=/.test(text)) return null;
  return new URLSearchParams(text).get('preset');
}

/** `base` (any URL) with its hash replaced by the encoded state. */
export function linkFor(base, encoded) {
  const url = new URL(base);
  url.hash = `s=${encoded}`;
  return url.href;
}
