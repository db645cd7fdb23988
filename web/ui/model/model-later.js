// The model folder's second entry: the parts only code loaded after the first drawing uses (the
// inference lessons' arithmetic, the embed builder's snippets). model.js does not re-export them,
// so that the first drawing does not load them with it; those later modules import them from here.
export { alibiSlopes, divisors, kvCacheBytes, kvLessonView, kvModel } from './inference-math.js';
export { elementSnippet, embedAddress, embedFields, iframeSnippet } from './embed-snippets.js';
