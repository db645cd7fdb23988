// "How was this number computed?": the panel that explains the hovered or focused cell. The
// explanation writes the computation out with the actual operands (products left unevaluated) and
// the result the core produced, so a reader can check it by hand. Text only (textContent).
import { dims, english, formatNumber } from '../model/model.js';
import { el, setText } from '../dom/dom.js';
import { mathLine } from './box.js';
import { ATTENTION_EXPLAINERS } from './attention.js';
import { INPUT_EXPLAINERS } from './inputs.js';
import { MULTI_HEAD_EXPLAINERS } from './multi-head.js';
import { quote } from './terms.js';

// One function per map kind; each writes its lines with `line(text, kind)` and returns the title.
const EXPLAINERS = { ...ATTENTION_EXPLAINERS, ...INPUT_EXPLAINERS, ...MULTI_HEAD_EXPLAINERS };

export function maskReason(state, i, j, labels, { t } = english) {
  const reasons = [];
  const d = dims(state);
  const at = { i: i + 1, j: j + 1, key: quote(labels.keys[j], t) };
  if (d.biasMatrix && state.matrices.B.data[i * d.m + j] === -Infinity)
    reasons.push(t('explorer.explain.reason.bias', at));
  if (state.mask.kind === 'causal' && j > i) reasons.push(t('explorer.explain.reason.causal', at));
  if (state.mask.kind === 'padding' && state.mask.pad[j]) reasons.push(t('explorer.explain.reason.padding', at));
  if (state.mask.kind === 'custom' && state.mask.custom[i * d.m + j]) reasons.push(t('explorer.explain.reason.custom'));
  return reasons.length ? reasons.join('; ') : t('explorer.explain.reason.masked');
}

// The matrix a target points into, to check that it still exists after a resize.
function targetShape(target, state, result) {
  const m = result.multi;
  switch (target.kind) {
    case 'scores':
    case 'scaled':
    case 'masked':
    case 'weights':
      return result.head.scores.shape;
    case 'output':
      return result.head.output.shape;
    case 'proj':
      return result.proj?.[target.name]?.shape;
    case 'input': {
      const M = state.matrices[target.name];
      return M ? [M.rows, M.cols] : null;
    }
    case 'head':
      return m?.heads[target.head]?.shape;
    case 'average':
      return m?.average.shape;
    case 'concat':
      return m?.concat.shape;
    case 'mha-output':
      return m?.output.shape;
    default:
      return null;
  }
}

/**
 * Builds { title, lines: [{ text, kind }] } for a target { kind, i, j, name?, head? }, or null
 * when there is nothing to explain (an error, or a cell that no longer exists).
 */
export function explain(target, state, result, i18n = english) {
  const { t, decimal } = i18n;
  if (!result || result.error) return null;
  const shape = targetShape(target, state, result);
  if (!shape || target.i >= shape[0] || target.j >= shape[1]) return null;
  const explainer = EXPLAINERS[target.kind];
  if (!explainer) return null;
  const { labels } = result;
  const d = result.dims;
  const head = result.head;
  const { i, j } = target;
  const lines = [];
  // Every number written here takes the locale's decimal separator.
  const line = (text, kind = 'mono', math = false) => lines.push({ text: decimal(text), kind, math });
  const title = explainer({
    target,
    state,
    result,
    d,
    head,
    labels,
    i,
    j,
    q: labels.queries[i],
    k: labels.keys[j],
    line,
    t,
    num: (v, digits) => decimal(formatNumber(v, digits)),
    quote: (s) => quote(s, t),
    hn: d.multi ? t('explorer.explain.ofHead', { k: head.index + 1 }) : '',
    reason: () => maskReason(state, i, j, labels, i18n),
  });
  return { title: decimal(title), lines };
}

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
  };
}

export { createExplainBox, explainedStat, explanation, setStat, statOutput } from './box.js';
