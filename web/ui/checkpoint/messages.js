// What the checkpoint panel says, as whole sentences with placeholders (ready for message
// catalogues), and the reading of the core's refusals into a reason a learner can act on.

const MB = (bytes) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;

export const TEXT = {
  intro: 'Open a real GPT-2 checkpoint: choose or drop its model.safetensors together with its config.json (gpt2, distilgpt2 and gpt2-medium fit; the files come from your disk and nothing is downloaded from the internet). A teacher can host one on this site and link to it with #checkpoint=models/gpt2/ in the address.',
  choose: 'Checkpoint files (model.safetensors and config.json)',
  drop: 'or drop both files here',
  needConfig: 'Choose the checkpoint\u2019s config.json as well: it says how many layers and heads the model has.',
  needWeights: 'Choose the model.safetensors file as well: config.json only describes the model.',
  badJson: (message) => `config.json could not be read: ${message}.`,
  otherSite: (url) => `The checkpoint must come from this site; ${url} is elsewhere, so it is not opened.`,
  opening: (name) => `Opening ${name}\u2026`,
  progress: (loaded, total) => `${MB(loaded)} of ${MB(total)}`,
  cancelled: 'Opening was cancelled; nothing is open.',
  tooLarge: (message) => `This checkpoint is too large for this tab\u2019s memory: ${message}.`,
  notGpt2: (message) => `This is not a GPT-2 checkpoint this page can open: ${message}.`,
  failed: (message) => `The checkpoint could not be opened: ${message}.`,
  opened: (name, c, count) => `${name} is open: ${c.numLayers} layers of ${c.numHeads} heads, d_model ${c.dModel}, ${count.toLocaleString('en')} parameters, a context of ${c.contextLength} tokens.`,
  where: (mode) => (mode === 'main-thread' ? 'It runs on this page\u2019s own thread in slices: this frame cannot start a Worker.' : 'It runs in its own Worker, so the page stays responsive.'),
  notTokenizer: (V) => `Its vocabulary has ${V.toLocaleString('en')} tokens, not GPT-2\u2019s 50 257, so this page cannot split text for it; the sweep still works.`,
  tokens: (n) => `${n} GPT-2 token${n === 1 ? '' : 's'} (\u0120 marks a space before a token):`,
};

/** A reason for a refusal from the core or the host, as the panel says it. */
export function refusal(err) {
  const message = String(err?.message ?? err).replace(/^(transformer|loadTransformer|safetensors|checkpoint host): /, '').replace(/\.$/, '');
  if (err?.name === 'AbortError' || message === 'cancelled') return TEXT.cancelled;
  if (/fit in WebAssembly memory|out of memory|WebAssembly memory|too large/i.test(message)) return TEXT.tooLarge(message);
  if (/model_type|n_inner|activation_function|layer_norm_epsilon|unknown|missing|must have shape|is not a parameter|header|not a safetensors|safetensors/i.test(message)) return TEXT.notGpt2(message);
  return TEXT.failed(message);
}
