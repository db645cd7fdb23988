// The embed builder's output: an <attention-explorer> element or an <iframe> of embed.html for a
// lesson and its options, written the same way (the element's attributes are the iframe address's
// fields). Pure text, no DOM; attribute values are escaped, so a teacher's text stays text. It
// loads with the builder, not with the explorer's first drawing.
import { STARTING_FIELDS } from '../model/model.js';

const attr = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The settings of an embed as [name, value] pairs, in a fixed order, leaving out defaults:
 * options { lesson, controls, readOnly, reveal, theme, lang, start: { q, k, v, x, sentence, mask } }.
 * A value of true is an attribute without a value (readonly). A lang ('en', 'de', 'es') is written
 * whenever one is chosen: without it the embed follows the reader's browser.
 */
export function embedFields({
  lesson = '',
  controls = '',
  readOnly = false,
  reveal = false,
  theme = 'auto',
  lang = '',
  start = {},
} = {}) {
  const out = [];
  if (lesson) out.push(['lesson', lesson]);
  const level = controls || (lesson ? 'minimal' : 'full');
  if (level !== (lesson ? 'minimal' : 'full')) out.push(['controls', level]);
  if (readOnly) out.push(['readonly', true]);
  if (reveal) out.push(['reveal', 'predict']);
  if (theme && theme !== 'auto') out.push(['theme', theme]);
  if (lang) out.push(['lang', lang]);
  for (const name of STARTING_FIELDS) {
    const value = start[name];
    if (typeof value === 'string' && value.trim() !== '') out.push([name, value.trim()]);
  }
  return out;
}

/** The element snippet: the module script (where the explorer is hosted) and the element. */
export function elementSnippet(elementUrl, options) {
  const attrs = embedFields(options)
    .map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${attr(value)}"`))
    .join('');
  return `<script type="module" src="${attr(elementUrl)}"></script>\n<attention-explorer${attrs}></attention-explorer>`;
}

/** embed.html's address for the options (the fields as its query). */
export function embedAddress(embedUrl, options) {
  const url = new URL(embedUrl);
  for (const [name, value] of embedFields(options)) url.searchParams.set(name, value === true ? '' : value);
  return url.href;
}

/** The iframe snippet: embed.html with the options, `height` CSS pixels tall to start with. */
export function iframeSnippet(embedUrl, options, { height = 700, title = 'Attention explorer' } = {}) {
  return `<iframe src="${attr(embedAddress(embedUrl, options))}" title="${attr(title)}" width="100%" height="${Math.max(200, Math.round(height))}" loading="lazy" allow="clipboard-write"></iframe>`;
}
