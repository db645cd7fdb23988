// Parts of the JS API that the bundled site (dist/, scripts/bundle.mjs) does not load with the
// first heatmap: the transformer (with the checkpoint reader and writer and the decoder), the
// gradients, the head scores and the FlashAttention lesson. There, each part's module is a stand-in
// until the real one arrives (at the latest when the browser is idle after the page has loaded),
// and a synchronous call into a part that is not there yet throws an Error that says so. Page code
// that calls into a part awaits apiReady(part) first: the explorer's lessons (web/ui/lessons/) and
// the training view's import panel do. Code that imports web/lib/ itself, as the npm package ships
// it, has every part at once: nothing registers here, and apiReady() resolves at once.
//
// Not part of the public API (attention.d.ts): an internal helper of the page's own code.

export const API_PARTS = Object.freeze(['transformer', 'gradients', 'head-scores', 'flash-lesson']);
const loaders = new Map(); // part → () => Promise of its module, registered by the bundle's stand-ins

/** Called by a stand-in of the bundled site: `load()` fetches the real module (once). */
export function registerDeferredPart(part, load) {
  if (!API_PARTS.includes(part)) throw new Error(`registerDeferredPart: unknown part "${part}"`);
  loaders.set(part, load);
}

/**
 * Resolves once the named parts (every part when none is named) can be called synchronously;
 * rejects when one could not be loaded (offline), and a later call tries again.
 */
export async function apiReady(...parts) {
  for (const part of parts)
    if (!API_PARTS.includes(part)) throw new Error(`apiReady: unknown part "${part}"; parts: ${API_PARTS.join(', ')}`);
  await Promise.all((parts.length ? parts : API_PARTS).map((part) => loaders.get(part)?.()));
}
