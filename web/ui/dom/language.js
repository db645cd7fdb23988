// A widget's language and its static strings: the translator is picked from the widget's lang
// attribute, the address's ?lang= and the browser's languages (model/i18n.js pickLanguage), and
// the widget's root says which language it is in, for screen readers and hyphenation.
import { createTranslator, pickLanguage } from '../model/model.js';

/** The translator of a widget whose element has lang="`attribute`" (or none). */
export function widgetTranslator({ attribute } = {}) {
  const query = new URLSearchParams(globalThis.location?.search ?? '').get('lang');
  const browser = globalThis.navigator?.languages ?? [];
  return createTranslator(pickLanguage({ attribute, query, browser }));
}

/** Marks `root` as written in the translator's language. */
export function markLanguage(root, translator) {
  root.setAttribute('lang', translator.lang === 'qps' ? 'en-XA' : translator.lang);
}

/**
 * Translates the static markup under `root`: an element with data-i18n="key" gets that message as
 * its text; data-i18n-attrs="aria-label:key title:key2" sets attributes.
 */
export function translateStatic(root, { t }) {
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll('[data-i18n-attrs]')) {
    for (const pair of e.dataset.i18nAttrs.split(/\s+/).filter(Boolean)) {
      const [name, key] = pair.split(':');
      e.setAttribute(name, t(key));
    }
  }
}
