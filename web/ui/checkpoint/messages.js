// What the checkpoint panels say (catalogue part `checkpoint`), and the reading of the core's
// refusals into a reason a learner can act on. The refusal's own detail is the core's text.
import { english } from '../model/model.js';

/** Megabytes for people: "12.3 MB" (in the translator's decimal separator). */
export const megabytes = (bytes, { decimal } = english) => decimal(`${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`);

/** A whole number grouped as the translator's language groups it. */
export const wholeNumber = (x, { lang } = english) => x.toLocaleString(lang === 'qps' ? 'en' : lang);

/** A reason for a refusal from the core or the host, as the panel says it. */
export function refusal(err, { t } = english) {
  const message = String(err?.message ?? err)
    .replace(/^(transformer|loadTransformer|safetensors|checkpoint host): /, '')
    .replace(/\.$/, '');
  if (err?.name === 'AbortError' || message === 'cancelled') return t('checkpoint.cancelled');
  if (/fit in WebAssembly memory|out of memory|WebAssembly memory|too large/i.test(message))
    return t('checkpoint.tooLarge', { message });
  if (
    /model_type|n_inner|activation_function|layer_norm_epsilon|unknown|missing|must have shape|is not a parameter|header|not a safetensors|safetensors/i.test(
      message,
    )
  )
    return t('checkpoint.notGpt2', { message });
  return t('checkpoint.failed', { message });
}

/** What is open: its sizes, where it runs, and whether the page can split text for it. */
export function openedSummary(done, i18n = english) {
  const { t } = i18n;
  const c = done.config;
  const sizes = t('checkpoint.opened', {
    name: done.name,
    layers: c.numLayers,
    heads: c.numHeads,
    dModel: c.dModel,
    parameters: wholeNumber(done.parameterCount, i18n),
    context: c.contextLength,
  });
  const where = t(done.mode === 'main-thread' ? 'checkpoint.mainThread' : 'checkpoint.worker');
  return done.gpt2
    ? `${sizes} ${where}`
    : `${sizes} ${where} ${t('checkpoint.notTokenizer', { vocabulary: wholeNumber(c.vocabSize, i18n) })}`;
}
