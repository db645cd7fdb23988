// Export the current view: any matrix or heatmap as PNG, SVG, CSV or JSON, a whole panel as PNG,
// SVG or JSON, and the example as a NumPy or PyTorch script. This module is the menu's button: the
// panel (export-menu.js), the files' code it drives and its English text load when the browser is
// idle after the first drawing or when the menu is first opened, so the first heatmap waits for
// none of them.
import { english, loadEnglishParts, loadOnce } from '../model/model.js';
import { browserIdle, el } from '../dom/dom.js';

// One import for the page, shared by every explorer on it; a failed load is tried again next time.
const loadMenu = loadOnce(() =>
  Promise.all([import('./export-menu.js'), loadEnglishParts('explorer-later')]).then(([m]) => m),
);

/**
 * getView() -> { state, result, display, pitfall, withheld } (pitfall: the mistake the open
 * pitfalls panel shows, or null; withheld(matrix): a matrix a predict question covers, not
 * offered, or null); idPrefix() -> the prefix of the explorer's ids (scope-ids.js), for the
 * panel's. The control lives in the explorer's toolbar.
 */
export function createExportControls({ getView, i18n = english, idPrefix = () => '' }) {
  const { t } = i18n;
  const root = el('details', 'export-menu');
  const summary = el('summary', 'small-button', t('explorer.export.menu'));
  root.append(summary);
  let menu = null; // the panel, once its code has loaded
  let failure = null; // the line saying the last load failed
  let prefetch = true;

  const build = (m) => {
    menu ??= m.createExportMenu({ root, summary, getView, i18n, idPrefix: idPrefix() });
    return menu;
  };
  // Opened before the panel's code is here: it appears when it arrives, or a failure says so and
  // the next opening tries again.
  root.addEventListener('toggle', () => {
    if (!root.open || menu) return;
    failure?.remove();
    loadMenu().then(build, (err) => {
      failure = el('p', 'export-panel error', t('explorer.export.loadFailed', { reason: err.message }));
      failure.setAttribute('role', 'alert');
      root.append(failure);
    });
  });

  return {
    el: root,
    /**
     * Keeps the list of matrices current while the menu is open. The first call (the explorer's
     * first drawing) schedules the panel's code for the browser's next idle time.
     */
    render() {
      if (prefetch) {
        prefetch = false;
        browserIdle().then(() => loadMenu().then(build, () => {})); // (a failure: tried again on opening)
      }
      menu?.render();
    },
  };
}
