// Sharing: "Copy link" (the page's address with the whole state in its hash), "Copy embed code"
// (a custom-element snippet for a lesson site hosting the files) and "Copy iframe code" (a frame
// loading the explorer from here, for any lesson site). The clipboard may be unavailable (an iframe
// without clipboard permission, a plain-http page): then the text is shown selected in a field so
// a person can copy it by hand. Text only; the link and snippet are never parsed as HTML.
// What the buttons say once pressed is in the explorer's later English text (en/explorer-later.js).
import { encodeState, english, HOST_PLACEHOLDER, linkFor, loadEnglishParts } from './model/model.js';
import { el } from './dom/dom.js';

const attr = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The HTML a lesson author pastes to show `encoded` with the custom element. A module script from
 * another origin is refused (CORS, and script-src 'self' on most lesson sites), so the element
 * works only with the explorer's files hosted on the lesson's own site: `elementUrl` is where
 * they are here, to be replaced by that copy's address.
 */
export function embedSnippet(elementUrl, encoded) {
  return (
    `<script type="module" src="${attr(elementUrl)}"></script>\n` +
    `<attention-explorer state="${attr(encoded)}"></attention-explorer>`
  );
}

/**
 * An <iframe> showing `encoded` from this site (`embedUrl`: embed.html here); it works from any
 * lesson site. The frame posts { type: 'attention-explorer:height', version: 1, height } so the
 * lesson can size it (docs/embedding.md).
 */
export function iframeSnippet(embedUrl, encoded, title = 'Attention explorer') {
  const src = new URL(embedUrl);
  src.hash = `s=${encoded}`;
  return `<iframe src="${attr(src.href)}" title="${attr(title)}" width="100%" height="900" loading="lazy" allow="clipboard-write"></iframe>`;
}

/**
 * getState(): the current state; linkBase(): the page URL links point at; elementUrl: the
 * custom element's module URL (for the embed snippet). Either may be null when the explorer is
 * bundled into an app (package-urls.js): then the controls say where to host the explorer.
 */
export function createShareControls({ getState, linkBase, elementUrl, embedUrl, i18n = english }) {
  const { t } = i18n;
  const root = el('div', 'share-controls');
  const copyLink = el('button', 'small-button', t('explorer.share.link'));
  copyLink.type = 'button';
  copyLink.dataset.action = 'copy-link';
  copyLink.title = t('explorer.share.linkTitle');
  const copyEmbed = el('button', 'small-button', t('explorer.share.embed'));
  copyEmbed.type = 'button';
  copyEmbed.dataset.action = 'copy-embed';
  copyEmbed.title = t('explorer.share.embedTitle');
  const copyFrame = el('button', 'small-button', t('explorer.share.iframe'));
  copyFrame.type = 'button';
  copyFrame.dataset.action = 'copy-iframe';
  copyFrame.title = t('explorer.share.iframeTitle');
  const out = el('output', 'share-status');
  out.setAttribute('aria-live', 'polite');
  const field = el('textarea', 'share-text');
  field.readOnly = true;
  field.rows = 2;
  field.hidden = true;
  field.setAttribute('aria-label', t('explorer.share.textToCopy'));
  field.translate = false;
  root.append(copyLink, copyEmbed, copyFrame, out, field);

  // A bundled explorer has no element module of its own to point the snippet at.
  const hostNote = (kind) =>
    kind === 'embed' && !elementUrl ? ` ${t('explorer.share.hostNote', { placeholder: HOST_PLACEHOLDER })}` : '';

  async function copy(kind) {
    let text;
    try {
      // The link codec and what the buttons say afterwards load with the first press (or when the
      // browser is idle): a failed load is said here, and the next press tries again.
      const [encoded] = await Promise.all([encodeState(getState()), loadEnglishParts('explorer-later')]);
      const base = kind === 'link' ? linkBase() : null;
      if (kind === 'link' && !base) throw new Error(t('explorer.share.noPage'));
      if (kind === 'iframe' && !embedUrl) throw new Error(t('explorer.share.noPage'));
      text =
        kind === 'link'
          ? linkFor(base, encoded)
          : kind === 'iframe'
            ? iframeSnippet(embedUrl, encoded, t('explorer.page.heading'))
            : embedSnippet(elementUrl ?? `${HOST_PLACEHOLDER}attention-explorer.js`, encoded);
    } catch (err) {
      out.textContent = err.message;
      field.hidden = true;
      return;
    }
    field.value = text;
    root.dataset.copied = kind;
    try {
      await navigator.clipboard.writeText(text);
      out.textContent = t(`explorer.share.copied.${kind}`) + hostNote(kind);
      field.hidden = true;
    } catch {
      out.textContent = t('explorer.builder.copyByHand') + hostNote(kind);
      field.hidden = false;
      field.focus();
      field.select();
    }
  }
  copyLink.addEventListener('click', () => copy('link'));
  copyEmbed.addEventListener('click', () => copy('embed'));
  copyFrame.addEventListener('click', () => copy('iframe'));
  return { el: root, copy };
}
