// The link codec (url-state.js) as the page uses it: loaded when a link is first read or made (an
// address with #s=, a copied link, the address bar following an edit, a parent frame's link), so
// the first drawing of an example that came without one does not wait for it. One load per page;
// a load that fails (offline) rejects with an Error saying so (name 'LoadError') and is tried again at
// the next use.

import { loadOnce } from './load-once.js';

const codec = loadOnce(() =>
  import('./url-state.js').catch((err) => {
    const failed = new Error(`the link code could not be loaded (${err.message})`);
    failed.name = 'LoadError';
    throw failed;
  }),
);

/** url-state.js encodeState, once the codec has loaded: resolves to "v1.…" or rejects (StateError). */
export async function encodeState(state) {
  return (await codec()).encodeState(state);
}

/**
 * url-state.js decodeState, once the codec has loaded: { ok: true, state } or { ok: false, error }
 * for the link; rejects only when the codec could not be loaded.
 */
export async function decodeState(text) {
  return (await codec()).decodeState(text);
}

/**
 * Starts loading the codec without waiting for it (a failure is left to the next use): alongside
 * the attention core when the first example comes from a link, or when the browser is idle after
 * the first drawing of a page that will write links.
 */
export function preloadLinkCodec() {
  codec().catch(() => {});
}
