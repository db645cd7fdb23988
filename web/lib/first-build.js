// The WebAssembly build createAttention loads: 'whole', every function of the API, as the npm
// package and a page importing lib/attention.js have it. The bundled site's pages
// (scripts/bundle.mjs) get a stand-in of this module that says 'base': the smaller build their
// first heatmap needs, with the whole one loaded later (api-parts.js).
export const FIRST_BUILD = 'whole';
