// "Open a checkpoint": choose or drop model.safetensors with its config.json, or name a folder of
// this site in the address (#checkpoint=models/gpt2/). The model opens in its own Worker
// (host.js) with a progress bar and Cancel, and honest messages for a file that is too large for
// the tab or is not GPT-2. Once open: the model's sizes, a sentence split by GPT-2's tokenizer (the
// pieces as GPT-2's vocabulary writes them, Ġ for a space) and a button that shows any layer's and
// head's real attention on it in the explorer.
// Test hooks: [data-checkpoint] (data-state: idle | opening | opened | error); input
// [data-checkpoint-files]; progress[data-checkpoint-progress] (value, max); [data-action=
// "checkpoint-cancel"]; [data-checkpoint-status]; [data-checkpoint-tokens] (data-ids, its li the
// pieces); [data-checkpoint-layer], [data-checkpoint-head], [data-action="checkpoint-explorer"].
import { el } from '../dom/dom.js';
import { english } from '../model/model.js';
import { megabytes, openedSummary, refusal } from './messages.js';
import { cancelOpen, explorerStateFor, openCheckpoint, openedCheckpoint, splitSentence } from './host.js';

// A sample sentence for GPT-2 (an English model), the reader's to change.
const SENTENCE = 'When Mary and John went to the store, John gave a drink to Mary';
let uid = 0;

function labelled(text, control) {
  const wrap = el('div', 'field');
  control.id ||= `checkpoint-field-${++uid}`;
  const label = el('label', '', text);
  label.htmlFor = control.id;
  wrap.append(label, control);
  return wrap;
}

function options(select, n, name) {
  if (select.options.length === n) return;
  select.replaceChildren(
    ...Array.from({ length: n }, (_, i) => {
      const o = el('option', '', name(i + 1));
      o.value = String(i);
      return o;
    }),
  );
}

// The two files of a choice: the weights and the config (parsed).
async function readChoice(files, { t }) {
  const list = [...files];
  const weights = list.find((f) => /\.safetensors$/i.test(f.name)) ?? list.find((f) => !/\.json$/i.test(f.name));
  const json = list.find((f) => /\.json$/i.test(f.name));
  if (!weights) throw new Error(t('checkpoint.needWeights'));
  if (!json) throw new Error(t('checkpoint.needConfig'));
  let config;
  try {
    config = JSON.parse(await json.text());
  } catch (err) {
    throw new Error(t('checkpoint.badJson', { message: err.message }), { cause: err });
  }
  const folder = weights.webkitRelativePath?.split('/').slice(-2, -1)[0];
  return { source: weights, config, name: config._name_or_path || folder || config.model_type || weights.name };
}

/** A folder (or a .safetensors file) of this site named in the address, as { source, config: null, name }. */
function choiceFromAddress(path, { t } = english) {
  const url = new URL(path, window.location.href);
  if (url.origin !== window.location.origin) throw new Error(t('checkpoint.otherSite', { url: url.href }));
  const file = /\.safetensors$/i.test(url.pathname)
    ? url
    : new URL('model.safetensors', url.href.endsWith('/') ? url : `${url.href}/`);
  const name = url.pathname.replace(/\/$/, '').split('/').pop() || t('checkpoint.unnamed');
  return { source: file.href, config: null, name };
}

function fileControls({ t }) {
  const input = el('input');
  input.type = 'file';
  input.multiple = true;
  input.accept = '.safetensors,.json';
  input.dataset.checkpointFiles = '';
  const drop = el('div', 'checkpoint-drop', t('checkpoint.drop'));
  const progress = el('progress');
  progress.dataset.checkpointProgress = '';
  progress.hidden = true;
  const progressText = el('span', 'checkpoint-progress-text');
  const cancel = el('button', 'small-button', t('checkpoint.cancel'));
  cancel.type = 'button';
  cancel.dataset.action = 'checkpoint-cancel';
  cancel.hidden = true;
  const status = el('p', 'checkpoint-status');
  status.dataset.checkpointStatus = '';
  status.setAttribute('role', 'status');
  const bar = el('div', 'checkpoint-progress');
  bar.append(progress, progressText, cancel);
  progress.setAttribute('aria-label', t('checkpoint.openingLabel'));
  return { input, drop, progress, progressText, cancel, status, bar };
}

// The sentence in GPT-2's tokens, and the button that opens a head of it in the explorer.
function explorerControls(onOpenState, { t }) {
  const sentence = el('input', 'checkpoint-sentence');
  sentence.type = 'text';
  sentence.value = SENTENCE;
  sentence.maxLength = 400;
  sentence.translate = false;
  const tokensNote = el('p', 'hint');
  const tokens = el('ol', 'token-strip checkpoint-tokens');
  tokens.dataset.checkpointTokens = '';
  tokens.setAttribute('aria-label', t('checkpoint.tokensLabel'));
  const layer = el('select');
  layer.dataset.checkpointLayer = '';
  const head = el('select');
  head.dataset.checkpointHead = '';
  const open = el('button', 'small-button', t('checkpoint.showHead'));
  open.type = 'button';
  open.dataset.action = 'checkpoint-explorer';
  open.hidden = !onOpenState;
  const row = el('div', 'settings-grid');
  row.append(labelled(t('checkpoint.layer'), layer), labelled(t('checkpoint.head'), head));
  const box = el('div', 'checkpoint-explore');
  box.append(labelled(t('checkpoint.sentence'), sentence), tokensNote, tokens, row, open);
  box.hidden = true;
  return { box, sentence, tokensNote, tokens, layer, head, open };
}

// GPT-2's pieces are the reader's text as the model splits it (Ġ for a space): not translated.
function showTokens(ui, { t }) {
  const split = splitSentence(ui.sentence.value, 24);
  if (!split) return;
  ui.tokensNote.textContent = t('checkpoint.tokens', { count: split.ids.length });
  ui.tokens.dataset.ids = split.ids.join(' ');
  ui.tokens.replaceChildren(
    ...split.pieces.map((p, i) => {
      const li = el('li', '', p);
      li.translate = false;
      li.title = t('checkpoint.tokenId', { id: split.ids[i] });
      return li;
    }),
  );
}

/**
 * The panel. onOpenState(state): hands an explorer state to the page (the explorer shows it);
 * absent where there is no explorer to go to. i18n: the translator (English by default).
 * Returns { el, open(choice), openFromAddress(path) }.
 */
export function createOpenPanel({ onOpenState, i18n = english } = {}) {
  const { t } = i18n;
  const root = el('section', 'card checkpoint-panel');
  root.dataset.checkpoint = '';
  root.dataset.state = 'idle';
  const heading = el('h2', 'card-title', t('checkpoint.title'));
  heading.id = `checkpoint-heading-${++uid}`;
  root.setAttribute('aria-labelledby', heading.id);
  const files = fileControls(i18n);
  const explore = explorerControls(onOpenState, i18n);
  const summary = el('p', 'checkpoint-summary');
  root.append(
    heading,
    el('p', 'hint', t('checkpoint.intro')),
    labelled(t('checkpoint.choose'), files.input),
    files.drop,
    files.bar,
    files.status,
    summary,
    explore.box,
  );

  const say = (text, state) => {
    files.status.textContent = text;
    root.dataset.state = state;
  };
  // Each open supersedes the one before it (the host cancels that one): only the newest speaks.
  let latest = 0;
  async function open(choice) {
    const ticket = ++latest;
    say(t('checkpoint.opening', { name: choice.name }), 'opening');
    files.progress.hidden = false;
    files.cancel.hidden = false;
    files.progress.removeAttribute('value');
    summary.textContent = '';
    explore.box.hidden = true;
    try {
      const done = await openCheckpoint(choice, {
        onProgress: ({ loaded, total }) => {
          if (ticket !== latest) return;
          files.progress.max = total;
          files.progress.value = loaded;
          files.progressText.textContent = t('checkpoint.progress', {
            loaded: megabytes(loaded, i18n),
            total: megabytes(total, i18n),
          });
        },
      });
      if (ticket !== latest) return;
      say('', 'opened');
      showOpened(done);
    } catch (err) {
      if (ticket !== latest) return;
      say(refusal(err, i18n), 'error');
    } finally {
      if (ticket === latest) {
        files.progress.hidden = root.dataset.state !== 'opened';
        files.cancel.hidden = true;
      }
    }
  }
  function showOpened(done) {
    const c = done.config;
    summary.textContent = openedSummary(done, i18n);
    explore.box.hidden = !done.gpt2;
    options(explore.layer, c.numLayers, (n) => t('checkpoint.layerOption', { layer: n }));
    options(explore.head, c.numHeads, (n) => t('checkpoint.headOption', { head: n }));
    if (done.gpt2) showTokens(explore, i18n);
  }
  wirePanel({ files, explore, onOpenState, say, open, root, i18n });
  // A checkpoint opened before this panel was built (the view was left and shown again).
  if (openedCheckpoint()) {
    root.dataset.state = 'opened';
    showOpened(openedCheckpoint());
  }
  return {
    el: root,
    open,
    openFromAddress(path) {
      let choice;
      try {
        choice = choiceFromAddress(path, i18n);
      } catch (err) {
        say(err.message, 'error');
        return Promise.resolve();
      }
      return open(choice);
    },
  };
}

// The file chooser, the drop zone, Cancel, the sentence and the explorer button.
function wirePanel({ files, explore, onOpenState, say, open, root, i18n }) {
  const choose = (list) => readChoice(list, i18n).then(open, (err) => say(err.message, 'error'));
  files.input.addEventListener('change', () => choose(files.input.files));
  for (const type of ['dragenter', 'dragover'])
    files.drop.addEventListener(type, (e) => {
      e.preventDefault();
      files.drop.classList.add('over');
    });
  files.drop.addEventListener('dragleave', () => files.drop.classList.remove('over'));
  files.drop.addEventListener('drop', (e) => {
    e.preventDefault();
    files.drop.classList.remove('over');
    choose(e.dataTransfer.files);
  });
  files.cancel.addEventListener('click', () => cancelOpen());
  explore.sentence.addEventListener('input', () => showTokens(explore, i18n));
  explore.open.addEventListener('click', async () => {
    if (!openedCheckpoint()) {
      say(i18n.t('checkpoint.notOpen'), root.dataset.state);
      return;
    }
    try {
      const state = await explorerStateFor(
        explore.sentence.value,
        Number(explore.layer.value),
        Number(explore.head.value),
        {},
      );
      if (state) onOpenState(state);
    } catch (err) {
      say(
        i18n.t('checkpoint.headFailed', { message: String(err?.message ?? err).replace(/\.$/, '') }),
        root.dataset.state,
      );
    }
  });
}
