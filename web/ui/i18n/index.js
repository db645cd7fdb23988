// The message catalogues, by language. English is the source of truth and every other language's
// fallback: the parts the explorer's first drawing needs (common, explorer, lesson tabs, a
// checkpoint head's notes) are here at once, and the rest (lessons, inference lessons, the
// training view with its checkpoint panels, the explorer's later panels, the trained sources of
// token vectors) join ENGLISH when the code that shows them loads (loadEnglishParts), so the first
// heatmap does not wait for their text.
// German and Spanish load whole when asked (bundlers split each into a chunk).
// Read through web/ui/model/i18n.js.
import checkpoint from './en/checkpoint.js';
import common from './en/common.js';
import explorer from './en/explorer.js';
import lessonTabs from './en/lessonTabs.js';

/** The English messages loaded so far (parts are added to this object as they load). */
export const ENGLISH = { ...checkpoint, ...common, ...explorer, ...lessonTabs };

const ENGLISH_PARTS = {
  'checkpoint-later': () => import('./en/checkpoint-later.js'),
  'explorer-later': () => import('./en/explorer-later.js'),
  'explorer-trained': () => import('./en/explorer-trained.js'),
  inference: () => import('./en/inference.js'),
  lessons: () => import('./en/lessons.js'),
  training: () => import('./en/training.js'),
};

const partsLoading = new Map(); // part → Promise, one import per part and page

/** Adds the named English parts (every part when none is named) to ENGLISH. */
export async function loadEnglishParts(...names) {
  const load = (name) => {
    if (!partsLoading.has(name)) {
      const promise = ENGLISH_PARTS[name]().then(({ default: messages }) => Object.assign(ENGLISH, messages));
      partsLoading.set(name, promise);
      promise.catch(() => partsLoading.delete(name)); // tried again next time (offline)
    }
    return partsLoading.get(name);
  };
  await Promise.all((names.length ? names : Object.keys(ENGLISH_PARTS)).map(load));
}

export const LOADERS = {
  de: () => import('./de/index.js'),
  es: () => import('./es/index.js'),
};
