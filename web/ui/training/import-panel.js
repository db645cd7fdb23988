// "Your own model's attention": a JSON file of attention weights computed elsewhere (format in
// attention-json.js and docs/attention-json.md) shown with the same heatmaps and head scores as
// the trained model. A bad file gets a message naming the problem; what was shown stays.
// A file can be large (up to IMPORT_LIMITS), and nothing about it may hold the page: its size is
// checked before it is read, it is parsed in slices of a few milliseconds, its heads are scored
// and their cards built in slices too, and each map is drawn from the shared frame queue, a few per
// frame. Maps of many tokens are pictures on a canvas (createPixelMap), not tables of cells.
// Test hooks: [data-import-attention] is the file input; the panel carries data-importing while a
// file is read, data-imported (the number of heads shown) and data-import-error; each head is
// [data-imported-head][data-layer][data-head] with its scores, its map [data-heatmap="import-l<l>-h<h>"].
import { createAttention } from '../../lib/attention.js';
import { apiReady } from '../../lib/api-parts.js';
import { el, frameQueue } from '../dom/dom.js';
import { english } from '../model/model.js';
import { createHeatmap, createPixelMap } from '../heatmap/heatmap.js';
import { IMPORT_LIMITS, readAttentionFile, readingError, tokenIds } from './attention-json.js';
import { headLabel, scoreNumbers } from './head-cards.js';
import { headTitle } from './config.js';

let core = null;
// headScores is loaded after the first drawing in the bundled site (lib/api-parts.js).
const attention = () => (core ??= Promise.all([createAttention(), apiReady('head-scores')]).then(([attn]) => attn));

// A table of cells (keyboard cell by cell, screen-reader names, test hooks with every value) up to
// this many tokens, and while all the maps together stay under TABLE_CELLS cells; a picture beyond.
const TABLE_MAX_TOKENS = 32;
const TABLE_CELLS = 150_000;
const BUDGET_MS = 8;

const SNIPPET = `import json, torch
from transformers import GPT2Model, GPT2TokenizerFast
tok = GPT2TokenizerFast.from_pretrained("gpt2")
model = GPT2Model.from_pretrained("gpt2")
ids = tok("Mr and Mrs Dursley of number four. Mr and Mrs Dursley", return_tensors="pt")
with torch.no_grad():
    out = model(**ids, output_attentions=True)
json.dump({"tokens": tok.convert_ids_to_tokens(ids["input_ids"][0]),
           "attentions": [a[0].tolist() for a in out.attentions]},
          open("gpt2-attention.json", "w"))`;

function limitsText(i18n) {
  const grouped = (n) => n.toLocaleString(i18n.lang === 'qps' ? 'en' : i18n.lang);
  return i18n.t('training.import.limits', {
    megabytes: IMPORT_LIMITS.fileBytes / 2 ** 20,
    tokens: IMPORT_LIMITS.tokens,
    heads: grouped(IMPORT_LIMITS.heads),
    weights: grouped(IMPORT_LIMITS.values),
    tableTokens: TABLE_MAX_TOKENS,
  });
}

// Gives the page its thread back between slices of work.
const nextTask = () =>
  new Promise((resolve) => {
    setTimeout(resolve, 0);
  });

function importedCard(l, h, scores, tensor, tokens, { display, asTable, i18n }) {
  const card = el('article', 'head-card');
  Object.assign(card.dataset, {
    importedHead: '',
    layer: String(l),
    head: String(h),
    previousToken: String(scores.previousToken),
    induction: String(scores.induction),
    duplicateToken: String(scores.duplicateToken),
  });
  const title = el('h3', 'head-title', headTitle(l, h, i18n));
  const label = headLabel(scores, i18n);
  if (label) title.append(' ', el('span', 'head-badge', label));
  const { numbers, values } = scoreNumbers(i18n);
  for (const [key, value] of Object.entries(values)) value.textContent = i18n.decimal(scores[key].toFixed(2));
  const mapLabel = i18n.t('training.import.map', { layer: l + 1, head: h + 1 });
  const map = asTable
    ? createHeatmap({ name: `import-l${l}-h${h}`, label: mapLabel, kind: 'weights', small: true, i18n })
    : createPixelMap({ name: `import-l${l}-h${h}`, label: mapLabel, i18n });
  if (asTable) map.table.dataset.pending = '';
  card.append(title, numbers, map.el);
  // (A card replaced by a newer import before its turn in the queue is not drawn.)
  return {
    card,
    draw: () => {
      if (card.isConnected) map.update({ tensor, rowLabels: tokens, colLabels: tokens, ...display });
    },
  };
}

function createPanelDom(i18n) {
  const { t } = i18n;
  const root = el('section', 'import-panel card');
  const heading = el('h2', 'section-title', t('training.import.title'));
  heading.id = `train-import-${Math.random().toString(36).slice(2, 8)}`;
  root.setAttribute('aria-labelledby', heading.id);
  const input = el('input');
  input.type = 'file';
  input.accept = '.json,application/json';
  input.id = `train-import-file-${Math.random().toString(36).slice(2, 8)}`;
  input.className = 'visually-hidden';
  input.dataset.importAttention = '';
  const label = el('label', 'small-button file-button', t('training.import.button'));
  label.htmlFor = input.id;
  const hint = el(
    'p',
    'hint',
    t('training.import.hint', { format: '{ "tokens": [...], "attentions": [layer][head][query][key] }' }),
  );
  const details = el('details', 'snippet');
  const code = el('pre');
  code.tabIndex = 0; // scrollable sideways with the keyboard
  code.setAttribute('translate', 'no');
  code.append(el('code', '', SNIPPET));
  details.append(el('summary', '', t('training.import.snippet')), code);
  const limits = el('p', 'hint import-limits', limitsText(i18n));
  const cancel = el('button', 'small-button', t('training.import.cancel'));
  cancel.type = 'button';
  cancel.dataset.action = 'cancel-import';
  cancel.hidden = true;
  const progress = el('progress', 'import-progress');
  progress.max = 1;
  progress.value = 0;
  progress.hidden = true;
  const status = el('p', 'import-status');
  status.setAttribute('role', 'status');
  progress.setAttribute('aria-label', t('training.import.progress'));
  const grid = el('div', 'head-grid');
  const row = el('div', 'run-buttons');
  row.append(label, cancel, progress);
  root.append(heading, hint, details, limits, row, input, status, grid);
  return { root, input, cancel, progress, status, grid };
}

/** The panel; theme() → 'light' | 'dark'; i18n: the view's translator. */
export function createImportPanel({ theme, i18n = english }) {
  const { t } = i18n;
  const { root, input, cancel, progress, status, grid } = createPanelDom(i18n);
  let job = null; // the import under way: an AbortController

  function finish(controller) {
    if (job !== controller) return;
    job = null;
    cancel.hidden = true;
    progress.hidden = true;
    delete root.dataset.importing;
  }

  // A problem the reader named is said in the page's language (readingError); test hooks keep English.
  function failed(name, err) {
    status.textContent = t('training.import.failed', { name: name.slice(0, 60), reason: readingError(err, i18n) });
    status.classList.add('error');
    root.dataset.importError = err.message;
  }

  /** Shows a File, Blob or JSON text; resolves with the parsed file, or null (a message says why). */
  async function show(source, name = t('training.import.theFile')) {
    job?.abort(new Error('another file was chosen'));
    const controller = new AbortController();
    job = controller;
    const { signal } = controller;
    root.dataset.importing = '';
    cancel.hidden = false;
    progress.hidden = false;
    progress.value = 0;
    status.textContent = t('training.import.reading', { name: name.slice(0, 60) });
    let parsed;
    try {
      parsed = await readAttentionFile(source, {
        signal,
        budgetMs: BUDGET_MS,
        onProgress: (f) => {
          progress.value = 0.8 * f;
        },
      });
    } catch (err) {
      if (!signal.aborted) failed(name, err);
      finish(controller);
      return null;
    }
    try {
      const heads = await buildCards(parsed, signal);
      status.classList.remove('error');
      delete root.dataset.importError;
      status.textContent = t('training.import.done', {
        name: name.slice(0, 60),
        layers: parsed.layers.length,
        heads,
        tokens: parsed.tokens.length,
      });
      root.dataset.imported = String(heads);
      return parsed;
    } catch (err) {
      if (!signal.aborted) failed(name, err);
      return null;
    } finally {
      finish(controller);
    }
  }

  // Scores every head and builds its card, a slice at a time; the maps are drawn from the frame
  // queue afterwards. Returns the number of heads.
  async function buildCards(parsed, signal) {
    const attn = await attention();
    const ids = tokenIds(parsed.tokens);
    const T = parsed.tokens.length;
    const total = parsed.layers.reduce((n, layer) => n + layer.shape[0], 0);
    const asTable = T <= TABLE_MAX_TOKENS && total * T * T <= TABLE_CELLS;
    const display = { palette: 'viridis', theme: theme() };
    const cards = document.createDocumentFragment();
    const draws = []; // [card, draw]
    let sliceStart = performance.now();
    for (const [l, layer] of parsed.layers.entries()) {
      for (let h = 0; h < layer.shape[0]; h++) {
        const tensor = { data: layer.data.subarray(h * T * T, (h + 1) * T * T), shape: [T, T] };
        const s = attn.headScores(ids, tensor);
        const scores = { previousToken: s.previousToken, induction: s.induction, duplicateToken: s.duplicateToken };
        const { card, draw } = importedCard(l, h, scores, tensor, parsed.tokens, { display, asTable, i18n });
        cards.append(card);
        draws.push([card, draw]);
        if (performance.now() - sliceStart >= BUDGET_MS) {
          progress.value = 0.8 + (0.2 * draws.length) / total;
          await nextTask();
          signal.throwIfAborted();
          sliceStart = performance.now();
        }
      }
    }
    grid.replaceChildren(cards);
    const queue = frameQueue();
    for (const [card, draw] of draws) queue.put(card, draw);
    return draws.length;
  }

  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    input.value = '';
    await show(file, file.name);
  });
  cancel.addEventListener('click', () => {
    const controller = job;
    if (!controller) return;
    controller.abort(new Error('cancelled'));
    finish(controller);
    status.classList.remove('error');
    status.textContent = t('training.import.cancelled');
  });

  return { el: root, show };
}
