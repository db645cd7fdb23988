// Trained examples and model files: checkpoints made by `npm run train-examples` (web/trained/:
// <id>.safetensors and <id>.json with the settings and steps), opened into the training view at
// once; "Train it yourself" trains the same settings from scratch. A trained model can also be
// saved as safetensors (its settings in the file's metadata) and opened again.
import { decodeSafetensors, decodeSafetensorsMetadata, encodeSafetensors } from '../../lib/safetensors.js';
import { el } from '../dom/dom.js';
import { fetchExample } from '../model/model.js';
import { normalizeSettings } from './config.js';

export const EXAMPLES = {
  induction: 'Induction model: 2 layers, attention only, trained on repeated random tokens',
  text: 'Text model: 2 layers of 2 heads, attention only, trained on the bundled stories, character by character',
};

function button(text, action) {
  const b = el('button', 'small-button', text);
  b.type = 'button';
  if (action) b.dataset.action = action;
  return b;
}

export function createExamplesPanel({ view }) {
  const root = el('section', 'examples-panel card');
  const heading = el('h2', 'section-title', 'Trained examples and model files');
  heading.id = `train-examples-${Math.random().toString(36).slice(2, 8)}`;
  root.setAttribute('aria-labelledby', heading.id);
  const row = el('div', 'run-buttons');
  const openButtons = Object.entries(EXAMPLES).map(([id, label]) => {
    const b = button(`Open the ${id} model`, 'open-example');
    b.dataset.example = id;
    b.title = label;
    b.addEventListener('click', () => open(id).catch(say));
    return b;
  });
  const yourself = button('Train it yourself', 'train-yourself');
  yourself.hidden = true;
  const save = button('Save the model (.safetensors)', 'export-model');
  const load = el('input');
  load.type = 'file';
  load.accept = '.safetensors';
  load.id = `train-model-file-${Math.random().toString(36).slice(2, 8)}`;
  const loadLabel = el('label', 'small-button file-button', 'Open a model file');
  loadLabel.htmlFor = load.id;
  load.className = 'visually-hidden';
  row.append(...openButtons, yourself, save, loadLabel, load);
  const status = el('p', 'hint example-status');
  status.setAttribute('role', 'status');
  root.append(heading, el('p', 'hint', 'Checkpoints trained by this page\u2019s own trainer (npm run train-examples): they open at once with their heads labelled.'), row, status);

  let current = null;
  function say(err) {
    status.textContent = typeof err === 'string' ? err : err.message;
  }

  async function open(id) {
    if (!EXAMPLES[id]) return say(`There is no trained example called \u201c${String(id).slice(0, 40)}\u201d.`);
    say('Loading\u2026');
    const meta = await fetchExample(id);
    await view.apply(normalizeSettings(meta.settings));
    await view.load(meta.state, { step: meta.steps, example: id, history: meta.history });
    current = meta;
    root.dataset.example = id;
    yourself.hidden = false;
    say(`${EXAMPLES[id]}; ${meta.steps} steps (seed ${meta.settings.seed ?? 0}).`);
    return meta;
  }

  yourself.addEventListener('click', async () => {
    if (!current) return;
    delete root.dataset.example;
    await view.apply(normalizeSettings(current.settings));
    say(`Training the same settings from scratch: the heads should reappear around step ${current.formedAt ?? current.steps}.`);
    await view.start();
  });

  save.addEventListener('click', async () => {
    try {
      const state = await view.trainer().getState();
      const bytes = encodeSafetensors(state, { settings: JSON.stringify(view.settings()), step: String(view.step()) });
      const a = el('a');
      a.href = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
      a.download = 'tiny-transformer.safetensors';
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    } catch (err) {
      say(err);
    }
  });

  load.addEventListener('change', async () => {
    const file = load.files?.[0];
    if (!file) return;
    try {
      await openModel(new Uint8Array(await file.arrayBuffer()), file.name);
    } catch (err) {
      say(`${file.name.slice(0, 60)} could not be opened: ${err.message}`);
    }
    load.value = '';
  });

  async function openModel(bytes, name = 'the file') {
    const meta = decodeSafetensorsMetadata(bytes);
    const state = decodeSafetensors(bytes);
    if (!meta?.settings) throw new Error('it has no settings in its metadata (save models with this page)');
    let settings;
    try {
      settings = normalizeSettings(JSON.parse(meta.settings));
    } catch {
      throw new Error('its settings metadata is not JSON');
    }
    await view.apply(settings);
    await view.load(state, { step: Number(meta.step) || 0 });
    say(`Opened ${name.slice(0, 60)}.`);
  }

  return { el: root, open, openModel };
}
