// One way in for every embed (<attention-explorer>, embed.html): the explorer, whole or one of its
// lessons, or the training view, whole or one of its lessons (loaded only when asked for).
import { mountExplorer } from './explorer.js';
import { lessonSpec } from './model/model.js';

/**
 * Mounts what `options` asks for into `root` and resolves with its handle. options: everything
 * mountExplorer takes, plus view ('train': the training view), example (with view 'train': a
 * trained example), params (the training view's settings, a URLSearchParams) and onOpenHead.
 * A lesson of the training view (lesson: 'induction' or 'text') opens the training view.
 */
export async function mountView(root, options = {}) {
  const spec = options.lesson ? lessonSpec(options.lesson) : null;
  if (options.view !== 'train' && spec?.kind !== 'train') return mountExplorer(root, options);
  const { mountTrainingPage } = await import('./training/training.js');
  const handle = await mountTrainingPage(root, {
    syncUrl: false,
    documentTheme: options.documentTheme ?? false,
    theme: options.theme,
    params: options.params,
    example: options.example,
    onOpenHead: options.onOpenHead,
    lesson: spec?.kind === 'train' ? spec : null,
    panels: options.panels,
    controls: options.controls,
    readOnly: Boolean(options.readOnly),
    reveal: options.reveal,
  });
  return { ...handle, view: 'train', notify: () => {} };
}
