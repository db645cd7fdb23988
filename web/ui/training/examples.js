// Trained examples and model files: checkpoints made by `npm run train-examples` (web/trained/:
// <id>.safetensors and <id>.json with the settings and steps), opened into the training view at
// once; "Train it yourself" trains the same settings from scratch. A trained model can also be
// saved as safetensors (its settings in the file's metadata) and opened again.
import { decodeSafetensors, decodeSafetensorsMetadata, encodeSafetensors } from '../../lib/safetensors.js';
import { el } from '../dom/dom.js';
import { english, fetchExample } from '../model/model.js';
import { normalizeSettings } from './config.js';

/**
 * The trained examples: id → the message describing it (its button says training.examples.open.<id>,
 * its status once opened training.examples.opened.<id>).
 */
export const EXAMPLES = {
  induction: 'training.examples.about.induction',
  text: 'training.examples.about.text',
};

function button(text, action) {
  const b = el('button', 'small-button', text);
  b.type = 'button';
  if (action) b.dataset.action = action;
  return b;
}

/** The panel; view: the training view's handle; i18n: its translator. */
export function createExamplesPanel({ view, i18n = english }) {
  const { t } = i18n;
  const root = el('section', 'examples-panel card');
  const heading = el('h2', 'section-title', t('training.examples.title'));
  heading.id = `train-examples-${Math.random().toString(36).slice(2, 8)}`;
  root.setAttribute('aria-labelledby', heading.id);
  const row = el('div', 'run-buttons');
  const openButtons = Object.entries(EXAMPLES).map(([id, about]) => {
    const b = button(t(`training.examples.open.${id}`), 'open-example');
    b.dataset.example = id;
    b.title = t(about);
    b.addEventListener('click', () =>
      open(id).catch((err) => say(t('training.examples.failed', { reason: err.message }))),
    );
    return b;
  });
  const yourself = button(t('training.examples.yourself'), 'train-yourself');
  yourself.hidden = true;
  const save = button(t('training.examples.save'), 'export-model');
  const load = el('input');
  load.type = 'file';
  load.accept = '.safetensors';
  load.id = `train-model-file-${Math.random().toString(36).slice(2, 8)}`;
  const loadLabel = el('label', 'small-button file-button', t('training.examples.openFile'));
  loadLabel.htmlFor = load.id;
  load.className = 'visually-hidden';
  row.append(...openButtons, yourself, save, loadLabel, load);
  const status = el('p', 'hint example-status');
  status.setAttribute('role', 'status');
  root.append(heading, el('p', 'hint', t('training.examples.hint')), row, status);

  let current = null;
  function say(text) {
    status.textContent = text;
  }

  async function open(id) {
    if (!EXAMPLES[id]) return say(t('training.examples.unknown', { name: String(id).slice(0, 40) }));
    say(t('training.examples.loading'));
    const meta = await fetchExample(id);
    await view.apply(normalizeSettings(meta.settings));
    await view.load(meta.state, { step: meta.steps, example: id, history: meta.history });
    current = meta;
    root.dataset.example = id;
    yourself.hidden = false;
    say(t(`training.examples.opened.${id}`, { steps: meta.steps, seed: meta.settings.seed ?? 0 }));
    return meta;
  }

  yourself.addEventListener('click', async () => {
    if (!current) return;
    delete root.dataset.example;
    await view.apply(normalizeSettings(current.settings));
    say(t('training.examples.retraining', { step: current.formedAt ?? current.steps }));
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
      say(t('training.examples.saveFailed', { reason: err.message }));
    }
  });

  load.addEventListener('change', async () => {
    const file = load.files?.[0];
    if (!file) return;
    try {
      await openModel(new Uint8Array(await file.arrayBuffer()), file.name);
    } catch (err) {
      say(t('training.examples.fileFailed', { name: file.name.slice(0, 60), reason: err.message }));
    }
    load.value = '';
  });

  async function openModel(bytes, name = t('training.examples.theFile')) {
    const meta = decodeSafetensorsMetadata(bytes);
    const state = decodeSafetensors(bytes);
    if (!meta?.settings) throw new Error(t('training.examples.noSettings'));
    let settings;
    try {
      settings = normalizeSettings(JSON.parse(meta.settings));
    } catch {
      throw new Error(t('training.examples.badSettings'));
    }
    await view.apply(settings);
    await view.load(state, { step: Number(meta.step) || 0 });
    say(t('training.examples.fileOpened', { name: name.slice(0, 60) }));
  }

  return { el: root, open, openModel };
}
