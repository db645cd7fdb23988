// "How was this number computed?" inside a lesson or training panel: the box that shows the explanation of the
// hovered or focused number, read out politely, as the pipeline's panel does (web/ui/explain/).
import { el, setText } from '../dom/dom.js';
import { english } from '../model/model.js';

/**
 * { el, show({ title, lines: [{ text, kind }] }), clear() }; kind is 'mono', 'result' or 'text'.
 * `heading`: the title's element, one level below the section's heading (h4 in a lesson, h3 in a
 * card); `title`: its words while nothing is explained.
 */
export function createExplainBox(idleText, { heading = 'h4', title: titleText, i18n = english } = {}) {
  const box = el('div', 'explain lesson-explain');
  const idleTitle = titleText ?? i18n.t('explorer.explain.title');
  const title = el(heading, 'explain-title', idleTitle);
  const body = el('div', 'explain-body');
  body.setAttribute('aria-live', 'polite');
  const idle = () => el('p', 'explain-idle', idleText ?? i18n.t('explorer.explain.idleLesson'));
  body.append(idle());
  box.append(title, body);
  return {
    el: box,
    show(content) {
      if (!content) return;
      setText(title, content.title);
      body.replaceChildren(...content.lines.map((l) => mathLine(el('p', `explain-${l.kind ?? 'mono'}`, l.text), l)));
    },
    /** Back to the title and the idle line: nothing is explained. */
    clear() {
      setText(title, idleTitle);
      body.replaceChildren(idle());
    },
  };
}

/**
 * A written-out computation (kind 'mono' or 'result', or a line marked math) is mathematics: not
 * for translating.
 */
export function mathLine(p, line = {}) {
  const math = Boolean(line.math) || /explain-(mono|result)\b/.test(p.className);
  if (p.translate === math) p.translate = !math;
  return p;
}

/** Collects explanation lines: line(text, kind) and done(title) → { title, lines }. */
export function explanation() {
  const lines = [];
  return {
    line: (text, kind = 'mono') => lines.push({ text, kind }),
    done: (title) => ({ title, lines }),
  };
}

/** An <output> for a number the tests and readers can take at full precision (data-value). */
export function statOutput(name, className = 'lesson-stat') {
  const out = el('output', className);
  out.dataset.stat = name;
  return out;
}

/** Shows `text` and keeps the full-precision value in data-value. */
export function setStat(out, value, text) {
  const v = String(value);
  if (out.dataset.value !== v) out.dataset.value = v;
  setText(out, text);
}

/**
 * A number that explains itself when pointed at or focused: a focusable <output> whose focus and
 * hover call onInspect(). Returns the element.
 */
export function explainedStat(name, onInspect, className = 'lesson-stat explained') {
  const out = statOutput(name, className);
  out.tabIndex = 0;
  out.addEventListener('focus', onInspect);
  out.addEventListener('pointerenter', onInspect);
  return out;
}
