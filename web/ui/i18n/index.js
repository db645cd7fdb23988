// The message catalogues, by language: English at once (the source of truth and every other
// language's fallback), German and Spanish loaded when asked (bundlers split each into a chunk).
// Read through web/ui/model/i18n.js.
export { default as ENGLISH } from './en/index.js';

export const LOADERS = {
  de: () => import('./de/index.js'),
  es: () => import('./es/index.js'),
};
