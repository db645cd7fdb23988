// The stand-alone page's switch between the explorer and the training view: two links whose
// address (#view=train) says which view is shown, so the back button and shared links work.
import { el } from '../dom.js';
import { wantsTrainingView } from './config.js';

export const viewFromHash = (hash) => (wantsTrainingView(hash) ? 'train' : 'explorer');

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
