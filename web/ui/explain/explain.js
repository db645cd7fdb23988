// "How was this number computed?": the panel that explains the hovered or focused cell. What an
// explanation says (explainers.js) loads after the first drawing, so the first heatmap does not
// wait for it: loadExplainers. Text only (textContent).
import { english, loadEnglishParts, loadOnce } from '../model/model.js';
import { el, setText } from '../dom/dom.js';
import { mathLine } from './box.js';

/**
 * Loads the explanations' code and English text (every language's fallback), once per page; a
 * failed load rejects and the next call tries again. Resolves to { explain, maskReason }:
 * explain(target, state, result, i18n) → { title, lines: [{ text, kind }] } for a target
 * { kind, i, j, name?, head? }, or null when there is nothing to explain.
 */
export const loadExplainers = loadOnce(() =>
  Promise.all([import('./explainers.js'), loadEnglishParts('explorer-later')]).then(([m]) => m),
);

/** The explainers module when it has loaded (loadExplainers), else null. */
export const loadedExplainers = loadExplainers.loaded;

/** The panel: shows one explanation at a time, announced politely to screen readers. */
export function createExplainPanel({ t } = english) {
  const root = el('aside', 'explain');
  root.id = 'explain';
  root.setAttribute('aria-labelledby', 'explain-title');
  const title = el('h2', 'explain-title', t('explorer.explain.title'));
  title.id = 'explain-title';
  const body = el('div', 'explain-body');
  body.id = 'explain-body';
  body.setAttribute('aria-live', 'polite');
  const idle = () => el('p', 'explain-idle', t('explorer.explain.idle'));
  body.append(idle());
  // It stays in view at the bottom of the screen, which on a phone is a good part of it: it folds
  // down to its title line (the title still follows the cell explained).
  const toggle = el('button', 'small-button explain-toggle', t('explorer.explain.hide'));
  toggle.type = 'button';
  toggle.setAttribute('aria-controls', body.id);
  toggle.setAttribute('aria-expanded', 'true');
  toggle.setAttribute('aria-label', t('explorer.explain.hideLabel'));
  const setOpen = (open) => {
    body.hidden = !open;
    root.classList.toggle('collapsed', !open);
    toggle.textContent = t(open ? 'explorer.explain.hide' : 'explorer.explain.show');
    toggle.setAttribute('aria-expanded', String(open));
    toggle.setAttribute('aria-label', t(open ? 'explorer.explain.hideLabel' : 'explorer.explain.showLabel'));
  };
  toggle.addEventListener('click', () => setOpen(body.hidden));
  const header = el('div', 'explain-header');
  header.append(title, toggle);
  root.append(header, body);
  let shown = ''; // the content on screen, so an unchanged explanation costs no DOM work
  return {
    el: root,
    /** Opens or folds the panel down to its title line (as its Hide/Show button does). */
    setOpen,
    show(content) {
      const key = content
        ? `${content.title}\u0000${content.lines.map((l) => `${l.kind}:${l.text}`).join('\u0000')}`
        : '';
      if (key === shown) return;
      shown = key;
      if (!content) {
        title.textContent = t('explorer.explain.title');
        body.replaceChildren(idle());
        return;
      }
      setText(title, content.title);
      // The same kinds of lines as on screen (the next edit of the same cell): only their text
      // changes, and no paragraph is rebuilt.
      const paragraphs = body.children;
      const sameShape =
        paragraphs.length === content.lines.length &&
        content.lines.every((l, k) => paragraphs[k].className === `explain-${l.kind}`);
      if (sameShape) content.lines.forEach((l, k) => setText(mathLine(paragraphs[k], l), l.text));
      else body.replaceChildren(...content.lines.map((l) => mathLine(el('p', `explain-${l.kind}`, l.text), l)));
    },
    /** One line instead of an explanation: the explanations still loading, or their load failed. */
    status(text, failed = false) {
      shown = `status\u0000${text}`;
      title.textContent = t('explorer.explain.title');
      body.replaceChildren(el('p', failed ? 'explain-idle error' : 'explain-idle', text));
    },
  };
}

export { createExplainBox, explainedStat, explanation, setStat, statOutput } from './box.js';
