// Translation lookup: one translator per widget (an explorer, a training view, an element, an
// iframe), chosen by pickLanguage from the widget's `lang` attribute, the address's ?lang= or the
// browser's languages. Messages live in web/ui/i18n/<lang>/<area>.js; English is the source of
// truth and is always loaded (it is the fallback); German and Spanish load when asked. The
// pseudo-locale `qps` is English with every message wrapped in ⟦…⟧ and accented, so a test can
// see any visible text that did not go through a catalogue.
import { ENGLISH as ENGLISH_MESSAGES, LOADERS, loadEnglishParts } from '../i18n/index.js';

export { loadEnglishParts };

export const LANGUAGES = Object.freeze(['en', 'de', 'es']);
export const PSEUDO = 'qps';
// Locales whose decimal separator is a comma (the page writes numbers itself, with U+2212 minus).
const DECIMAL_COMMA = new Set(['de', 'es']);

/**
 * The language of a widget: the first of `attribute` (its lang="…"), `query` (?lang=…) and
 * `browser` (navigator.languages) whose primary subtag the page has ('de-AT' → 'de'); 'qps' only
 * when asked for by attribute or address; English otherwise.
 */
export function pickLanguage({ attribute, query, browser = [] } = {}) {
  for (const asked of [attribute, query]) {
    const code = primary(asked);
    if (code === PSEUDO || LANGUAGES.includes(code)) return code;
  }
  for (const asked of browser) {
    const code = primary(asked);
    if (LANGUAGES.includes(code)) return code;
  }
  return 'en';
}

function primary(tag) {
  return typeof tag === 'string' ? tag.trim().toLowerCase().split(/[-_]/)[0] : '';
}

/** A translator for `lang` (see pickLanguage), once its catalogue has loaded. */
export async function createTranslator(lang = 'en', options = {}) {
  if (lang === PSEUDO) {
    await loadEnglishParts(); // the pseudo-locale is every English message, wrapped
    return translator(PSEUDO, pseudoMessages(), options);
  }
  if (!LOADERS[lang]) return translator('en', ENGLISH_MESSAGES, options);
  const { default: messages } = await LOADERS[lang]();
  return translator(lang, messages, options);
}

/** The English translator, at once (the default of every widget and of DOM-free code). */
export const english = translator('en', ENGLISH_MESSAGES);

/**
 * A translator over `messages`: t(key, params) fills {name} placeholders with text; a message
 * that is an object of plural forms ({ one, other, … }) is chosen by params.count. A key missing
 * from `messages` falls back to English; a key English lacks throws when `strict` (tests) and
 * reads as the key otherwise.
 */
export function translator(lang, messages, { strict = globalThis.ATTN_I18N_STRICT === true } = {}) {
  const locale = lang === PSEUDO ? 'en' : lang;
  const plurals = new Intl.PluralRules(locale);
  const comma = DECIMAL_COMMA.has(lang);
  const lookup = (key) => {
    const message = messages[key] ?? ENGLISH_MESSAGES[key];
    if (message !== undefined) return message;
    if (strict) throw new Error(`i18n: no message "${key}"`);
    return key;
  };
  const t = (key, params = {}) => {
    let message = lookup(key);
    if (typeof message === 'object') message = message[plurals.select(Number(params.count))] ?? message.other;
    return fill(message, params, (value) => (typeof value === 'number' ? decimal(String(value)) : String(value)));
  };
  // A number the page formatted (formatCell, formatNumber…) in this locale's decimal separator.
  const decimal = (text) => (comma ? String(text).replace(/(\d)\.(\d)/g, '$1,$2') : String(text));
  return Object.freeze({ lang, t, decimal, has: (key) => key in messages || key in ENGLISH_MESSAGES });
}

function fill(message, params, text) {
  return message.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? text(params[name]) : whole));
}

const ACCENTS = {
  a: 'á',
  e: 'é',
  i: 'í',
  o: 'ó',
  u: 'ú',
  c: 'ç',
  n: 'ñ',
  y: 'ý',
  A: 'Á',
  E: 'É',
  I: 'Í',
  O: 'Ó',
  U: 'Ú',
  C: 'Ç',
  N: 'Ñ',
};
const accent = (text) => text.replace(/[aeioucnyAEIOUCN]/g, (c) => ACCENTS[c]);

/**
 * English with every message loaded so far (each plural form) accented and wrapped in ⟦…⟧,
 * placeholders kept (loadEnglishParts() first for all of them).
 */
export function pseudoMessages() {
  const wrap = (m) =>
    `⟦${m
      .split(/(\{\w+\})/)
      .map((part, k) => (k % 2 ? part : accent(part)))
      .join('')}⟧`;
  return Object.fromEntries(
    Object.entries(ENGLISH_MESSAGES).map(([key, m]) => [
      key,
      typeof m === 'object' ? Object.fromEntries(Object.entries(m).map(([form, v]) => [form, wrap(v)])) : wrap(m),
    ]),
  );
}
