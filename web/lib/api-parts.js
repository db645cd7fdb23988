// Parts of the JS API that the bundled site (dist/, scripts/bundle.mjs) does not load with the
// first heatmap: the transformer (with the checkpoint reader and writer and the decoder), the
// gradients, the head scores, RoPE and the FlashAttention lesson. There, each part's module is a
// stand-in until the real one arrives (at the latest when the browser is idle after the page has
// loaded), and a synchronous call into a part that is not there yet throws an Error that says so.
// Page code that calls into a part awaits apiReady(part) first: the explorer's lessons
// (web/ui/lessons/) and the training view's import panel do. Code that imports web/lib/ itself, as
// the npm package ships it, has every part at once: nothing registers here, and apiReady()
// resolves at once.
//
// The same goes for the WebAssembly: the bundled page's createAttention loads the base build
// (attention-<variant>-base.wasm: attention, layers, gradients, lesson experiments), and the
// parts in WHOLE_MODULE_PARTS call functions only the whole build has; apiReady loads it beside
// every base instance (Instance.loadWhole in instance.js).
//
// Not part of the public API (attention.d.ts): an internal helper of the page's own code.

export const API_PARTS = Object.freeze(['transformer', 'gradients', 'head-scores', 'rope', 'flash-lesson']);
// The parts that need the whole WebAssembly build (the gradients are in the base build).
const WHOLE_MODULE_PARTS = new Set(['transformer', 'head-scores', 'rope', 'flash-lesson']);
const baseInstances = new Set(); // WeakRefs to the instances of a base build, until disposed
let wholeWanted = false; // once a part needing it was asked for, every base instance gets the whole build
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
  const wanted = parts.length ? parts : API_PARTS;
  const whole = wanted.some((part) => WHOLE_MODULE_PARTS.has(part));
  wholeWanted ||= whole;
  await Promise.all([
    ...wanted.map((part) => loaders.get(part)?.()),
    ...(whole ? [...baseInstances].map((ref) => ref.deref()?.loadWhole()) : []),
  ]);
}

/**
 * True once apiReady asked for a part that needs the whole build: an instance created after that
 * (createAttention awaited beside apiReady) loads it before it is handed out.
 */
export function wholeModuleWanted() {
  return wholeWanted;
}

/** Called by an Instance of the base build (instance.js); `forget` when it is disposed. */
export function registerBaseInstance(instance) {
  const ref = new WeakRef(instance);
  baseInstances.add(ref);
  return { forget: () => baseInstances.delete(ref) };
}

/** The Error of a synchronous `call` into `part` before apiReady(part) resolved. */
export function stillLoading(call, part) {
  return new Error(
    `${call}: this part of the API ("${part}") is still loading on this page; ` +
      `await apiReady("${part}") (lib/api-parts.js) before calling it`,
  );
}
