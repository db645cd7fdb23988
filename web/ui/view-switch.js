// The stand-alone page's switch between the explorer and the training view: two links whose
// address (#view=train) says which view is shown, so the back button and shared links work.
import { el } from './dom/dom.js';

/** Whether a hash or query asks for the training view. */
function wantsTrainingView(text) {
  const params = new URLSearchParams(String(text ?? '').replace(/^[#?]/, ''));
  // A checkpoint named in the address opens where its panel is (#checkpoint=models/gpt2/).
  return params.get('view') === 'train' || params.has('checkpoint');
}

/**
 * The view an address shows, or null for an in-page anchor (a skip link's #pipeline), which
 * leaves the view as it is.
 */
export function viewFromHash(hash) {
  const text = String(hash ?? '').replace(/^#/, '');
  if (wantsTrainingView(text)) return 'train';
  if (text && !text.includes('=')) return null;
  return 'explorer';
}

export function createViewSwitch() {
  const nav = el('nav', 'view-switch');
  nav.setAttribute('aria-label', 'Views');
  const explorer = el('a', '', 'Explorer');
  explorer.href = '#';
  const train = el('a', '', 'Train a tiny transformer');
  train.href = '#view=train';
  train.dataset.view = 'train';
  explorer.dataset.view = 'explorer';
  nav.append(explorer, train);
  return {
    el: nav,
    select(view) {
      for (const a of [explorer, train]) {
        if (a.dataset.view === view) a.setAttribute('aria-current', 'page');
        else a.removeAttribute('aria-current');
      }
    },
  };
}
