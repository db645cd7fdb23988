// The page's one opened checkpoint: a model host (web/lib/model-host.js: its own Worker) shared by
// the training view (the Open panel, the head sweep, the Generate panel) and the explorer (a head
// as sentence mode's token vectors), so it outlives a switch between the views. GPT-2's tokenizer
// loads with it (web/lib/gpt2-tokenizer.js, ~545 KB, only when a checkpoint is opened).
import { checkpointTokens, loadTrainedSources, setCheckpointTokenizer } from '../model/model.js';

const GPT2_VOCAB = 50257;
let host = null;
let starting = null;
let opened = null; // { name, config, parameterCount }
let tokenizer = null; // the gpt2-tokenizer module once loaded
let cancelBeforeHost = false; // Cancel pressed while the host was still starting
let opens = 0; // the number of the newest open: an older one that finishes late is not what is open
const listeners = new Set();

const notify = () => {
  for (const l of listeners) l(opened);
};

/** What is open now: { name, config, parameterCount } or null. */
export const openedCheckpoint = () => opened;

/** Calls fn(opened) after each open (and with null while a new one opens); returns the unsubscribe. */
export function onCheckpointChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

async function theHost() {
  if (host) return host;
  starting ??= import('../../lib/model-host.js')
    .then(({ createModelHost }) => createModelHost())
    .then((h) => {
      host = h;
      return h;
    })
    .finally(() => {
      starting = null;
    });
  return starting;
}

/** GPT-2's tokenizer as the explorer and the panels use it: text → { ids, pieces }. */
async function loadTokenizer() {
  tokenizer ??= await import('../../lib/gpt2-tokenizer.js');
  setCheckpointTokenizer((text) => {
    const ids = tokenizer.encode(text, { special: false });
    return { ids, pieces: tokenizer.tokenPieces(ids) };
  });
  return tokenizer;
}

/**
 * Opens `source` (a File, or a URL of this site) with `config` (a parsed config.json, or null to
 * fetch the one beside a URL); onProgress({ loaded, total }). Resolves with what is open.
 */
export async function openCheckpoint({ source, config, name }, { onProgress } = {}) {
  const ticket = ++opens;
  const superseded = () => new DOMException('another checkpoint is opening', 'AbortError');
  cancelBeforeHost = false;
  opened = null;
  notify();
  const h = await theHost();
  if (cancelBeforeHost) throw new DOMException('the open was cancelled', 'AbortError');
  if (ticket !== opens) throw superseded();
  const result = await h.open(source, config, { onProgress });
  if (result.config.vocabSize === GPT2_VOCAB) await loadTokenizer();
  if (ticket !== opens) throw superseded();
  opened = {
    name,
    config: result.config,
    parameterCount: result.parameterCount,
    gpt2: result.config.vocabSize === GPT2_VOCAB,
    mode: h.mode,
  };
  notify();
  return opened;
}

export function cancelOpen() {
  if (host) return host.cancelOpen();
  cancelBeforeHost = true;
  return Promise.resolve();
}

/** The host, once a checkpoint is open. */
export const checkpointHost = () => (opened ? host : null);

/** The sentence split by GPT-2's tokenizer: { ids, pieces, truncated } (max tokens), null without one. */
export const splitSentence = (text, max) => checkpointTokens(text, max);

/** GPT-2's text of ids, and each id's own text. */
export const decodeIds = (ids) => tokenizer?.decode(ids) ?? ids.join(' ');
export const pieceTexts = (ids) => tokenizer?.tokenPieces(ids) ?? ids.map(String);

/**
 * The explorer state for `head` of `layer` of the open checkpoint reading `sentence` (at most 24
 * GPT-2 tokens): X and W from the host (checkpoint-vectors.js says how). `keep`: what stays of the
 * explorer's state. Resolves with null for a sentence with no tokens.
 */
export async function explorerStateFor(sentence, layer, head, keep) {
  if (!opened) throw new Error('no checkpoint is open: open one in the training view first');
  const split = checkpointTokens(sentence, 24);
  if (!split || !split.ids.length) return null;
  const [data, { checkpointHeadState }] = await Promise.all([host.head(split.ids, layer, head), loadTrainedSources()]);
  return checkpointHeadState({
    ...data,
    layer,
    head,
    config: opened.config,
    name: opened.name,
    sentence,
    labels: split.pieces,
    keep,
  });
}
