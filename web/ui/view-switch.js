// The stand-alone page's switch between its views (the explorer, the training view, the embed
// builder): links whose address (#view=train, #view=embed) says which view is shown, so the back
// button and shared links work.
import { el } from './dom/dom.js';
import { english } from './model/model.js';

const VIEWS = ['train', 'embed'];

/** The view ('train', 'embed') a hash or query asks for, or null. */
function askedView(text) {
  const params = new URLSearchParams(String(text ?? '').replace(/^[#?]/, ''));
  const view = params.get('view');
  if (VIEWS.includes(view)) return view;
  // A checkpoint named in the address opens where its panel is (#checkpoint=models/gpt2/).
  return params.has('checkpoint') ? 'train' : null;
}

/**
 * The view an address shows, or null for an in-page anchor (a skip link's #pipeline), which
 * leaves the view as it is.
 */
export function viewFromHash(hash) {
  const text = String(hash ?? '').replace(/^#/, '');
  const view = askedView(text);
  if (view) return view;
  if (text && !text.includes('=')) return null;
  return 'explorer';
}

// A link whose words after the first go on a phone (its name keeps them all).
function viewLink(first, rest, href, name) {
  const a = el('a', '', first);
  if (rest) {
    a.append(el('span', 'view-more', rest));
    a.setAttribute('aria-label', name);
  }
  a.href = href;
  return a;
}

export function createViewSwitch({ t } = english) {
  const nav = el('nav', 'view-switch');
  nav.setAttribute('aria-label', t('explorer.views.label'));
  const explorer = viewLink(t('explorer.views.explorer'), '', '#');
  const train = viewLink(
    t('explorer.views.train'),
    t('explorer.views.trainMore'),
    '#view=train',
    t('explorer.views.trainName'),
  );
  train.dataset.view = 'train';
  explorer.dataset.view = 'explorer';
  const embed = viewLink(
    t('explorer.views.embed'),
    t('explorer.views.embedMore'),
    '#view=embed',
    t('explorer.views.embedName'),
  );
  embed.dataset.view = 'embed';
  nav.append(explorer, train, embed);
  return {
    el: nav,
    select(view) {
      for (const a of [explorer, train, embed]) {
        if (a.dataset.view === view) a.setAttribute('aria-current', 'page');
        else a.removeAttribute('aria-current');
      }
    },
  };
}
