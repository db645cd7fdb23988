// "How was this number computed?" inside a lesson or training panel: the box that shows the explanation of the
// hovered or focused number, read out politely, as the pipeline's panel does (web/ui/explain/).
import { el, setText } from '../dom/dom.js';

const IDLE = 'Point at, tap or focus any number of this lesson to see how it was computed.';

/**
 * { el, show({ title, lines: [{ text, kind }] }) }; kind is 'mono', 'result' or 'text'. `heading`:
 * the title's element, one level below the section's heading (h4 in a lesson, h3 in a card).
 */
export function createExplainBox(idleText = IDLE, { heading = 'h4' } = {}) {
  const box = el('div', 'explain lesson-explain');
  const title = el(heading, 'explain-title', 'How was this number computed?');
  const body = el('div', 'explain-body');
  body.setAttribute('aria-live', 'polite');
  body.append(el('p', 'explain-idle', idleText));
  box.append(title, body);
  return {
    el: box,
    show(content) {
      if (!content) return;
      setText(title, content.title);
      body.replaceChildren(...content.lines.map((l) => el('p', `explain-${l.kind ?? 'mono'}`, l.text)));
    },
  };
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
