// The training view as the page, the <attention-explorer view="train"> element and the iframe
// show it: the view itself plus the trained examples and the attention import, with its settings
// read from (and, on the stand-alone page, written to) the address.
import { mountTraining } from './training-view.js';
import { settingsFromParams } from './config.js';
import { createExamplesPanel } from './examples.js';
import { createImportPanel } from './import-panel.js';
import { loadCheckpointPanels } from '../checkpoint/checkpoint.js';
import { applyTrainingOptions } from './embed-options.js';
import { markLanguage, widgetTranslator } from '../dom/dom.js';
import { loadEnglishParts } from '../model/model.js';

/**
 * options: syncUrl (default true: settings and example from and to location.hash), params (a
 * URLSearchParams to read them from instead, e.g. the iframe's query), settings,
 * example ('induction' | 'text'), theme, documentTheme (default true), onOpenHead; as an embed
 * sets them (embed-options.js): lesson (a lesson-registry spec of kind 'train'), panels, controls,
 * readOnly, reveal; lang (the language asked for, as the element's lang attribute) or i18n (a
 * translator; default: widgetTranslator from lang, the address's lang= (hash or query) or the browser).
 * Returns a handle like the explorer's: { getState, onChange, destroy, … }.
 */
export async function mountTrainingPage(root, options = {}) {
  // The checkpoint panels, fetched while the view is built (a failed load fails the mount, which
  // says so; the next mount tries again).
  const checkpointPanels = loadCheckpointPanels();
  checkpointPanels.catch(() => {}); // (awaited below)
  // The view's English text (also every language's fallback), with the Generate panel's notes on a
  // checkpoint and the induction question's (reveal="predict", in the explorer's later part).
  await loadEnglishParts('training', 'checkpoint-later', 'explorer-later');
  const syncUrl = options.syncUrl ?? true;
  const params = options.params ?? new URLSearchParams(syncUrl ? window.location.hash.replace(/^#/, '') : '');
  const settings = options.settings ?? settingsFromParams(params);
  const documentTheme = options.documentTheme ?? true;
  const i18n = options.i18n ?? (await widgetTranslator({ attribute: options.lang ?? params.get('lang') ?? undefined }));
  markLanguage(root, i18n);
  const panels = await checkpointPanels;
  const view = await mountTraining(root, {
    checkpointGenerator: panels.checkpointGenerator,
    settings,
    theme: options.theme,
    syncUrl,
    onOpenHead: options.onOpenHead,
    i18n,
  });
  if (documentTheme) document.documentElement.dataset.theme = root.dataset.theme;
  const examples = createExamplesPanel({ view, i18n });
  const imports = createImportPanel({ theme: () => root.dataset.theme, i18n });
  // A head of an opened checkpoint goes to the explorer the way a trained head does.
  const onOpenState = options.onOpenHead ? (state) => options.onOpenHead({ explorerState: state }) : null;
  const checkpoints = panels.createCheckpointPanels({
    display: () => ({ palette: 'viridis', theme: root.dataset.theme }),
    onOpenState,
    i18n,
  });
  view.extras.append(examples.el, imports.el, checkpoints.el);
  const embed = applyTrainingOptions(root, view, { ...options, i18n });
  const example = options.lesson?.example ?? options.example ?? params.get('example');
  if (example) await examples.open(example);
  embed.question?.refresh();
  // #checkpoint=models/gpt2/: a folder of this site (a teacher's); opens while the view is used.
  const checkpoint = options.checkpoint ?? params.get('checkpoint');
  if (checkpoint) checkpoints.openFromAddress(checkpoint);
  return {
    ...view,
    destroy: () => {
      checkpoints.destroy();
      view.destroy();
    },
    getState: () => view.settings(),
    onChange: () => () => {},
    setState: (s) => view.apply(s),
    link: async () => window.location.href,
  };
}
