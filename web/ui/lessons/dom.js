// Small DOM helpers shared by the lesson panels: HTML and SVG elements built with DOM APIs (no
// markup strings, so the page keeps its strict Content-Security-Policy and user text stays text),
// labelled form fields, and linear/log scales for the plots.

import { el, numberInput, setAttr, svg } from '../dom/dom.js';
import { createExplainBox } from '../explain/explain.js';

export { el, numberInput, svg };

/** A lesson panel's root (data-lesson = key) and its opening paragraph. */
export function lessonPanel(key, introText) {
  const root = el('div', 'lesson-panel');
  root.dataset.lesson = key;
  return { root, intro: el('p', 'lesson-intro', introText) };
}

/**
 * A panel's error line and the part of the panel it stands in for: fail(message) shows the line
 * instead of `body`, ok() shows `body` again.
 */
export function failureLine(...bodies) {
  const line = el('p', 'error');
  line.hidden = true;
  return {
    el: line,
    fail(message) {
      line.textContent = message;
      line.hidden = false;
      for (const body of bodies) body.hidden = true;
    },
    ok() {
      line.hidden = true;
      for (const body of bodies) body.hidden = false;
    },
  };
}

/** Two columns side by side and the verdict under them (data-stat = stat, read out when it changes). */
export function sideBySide(left, right, stat) {
  const sides = el('div', 'lesson-compare');
  sides.append(left, right);
  const verdict = el('p', 'lesson-summary');
  verdict.dataset.stat = stat;
  verdict.setAttribute('aria-live', 'polite');
  return { sides, verdict };
}

/** Sets attributes on an SVG element, skipping those that already hold the value. */
export function setAttrs(e, attrs) {
  for (const [k, v] of Object.entries(attrs)) setAttr(e, k, String(v));
}

/** Text that is only written when it changes (every write would cost a layout). */
export { setAttr, setText } from '../dom/dom.js';
/** A number a predict question may cover, written only when uncovered (dom/cover.js). */
export { writeAnswer } from '../dom/dom.js';

/** A label wrapping its control (no id needed, so several explorers can share a page). */
export function field(labelText, control, className = 'lesson-field') {
  const label = el('label', className);
  label.append(el('span', 'lesson-field-label', labelText), control);
  return label;
}

export function button(text, className = 'small-button') {
  const b = el('button', className, text);
  b.type = 'button';
  return b;
}

/** True while the control is being used, so a redraw does not overwrite what is being typed. */
export const isFocused = (input) => input.getRootNode().activeElement === input;

export function setIfIdle(input, value) {
  if (!isFocused(input) && input.value !== String(value)) input.value = String(value);
}

/** Linear map from [d0, d1] to [r0, r1]. */
export function linear([d0, d1], [r0, r1]) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (x) => r0 + (x - d0) * k;
}

const SI = [
  [1e18, 'E'],
  [1e15, 'P'],
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/** 1234567 -> "1.23 M" (three significant digits and an SI prefix). */
export function si(x, unit = '') {
  const a = Math.abs(x);
  for (const [f, p] of SI) if (a >= f) return `${Number((x / f).toPrecision(3))} ${p}${unit}`;
  return `${Number(x.toPrecision(3))}${unit ? ` ${unit}` : ''}`;
}

/** Bytes in binary units: 4096 -> "4 KiB". */
export function bytes(x) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = x;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Number(v.toPrecision(3))} ${units[u]}`;
}

/** A whole number with thin-space thousands separators: 16640 -> "16 640". */
export const grouped = (x) =>
  Math.round(x)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');

/**
 * Message `key` as a list of text and elements: its {name} placeholders that `nodes` names become
 * those elements (a sentence around live numbers), the others are filled from `params` as t() does.
 * In the pseudo-locale each text piece gets its own ⟦…⟧, so a check of text nodes still sees that
 * every piece came from the catalogue.
 */
export function sentence(i18n, key, params = {}, nodes = {}) {
  const pseudo = i18n.lang === 'qps';
  return i18n
    .t(key, params)
    .split(/\{(\w+)\}/)
    .map((part, k) => {
      if (k % 2) return nodes[part] ?? `{${part}}`;
      if (!pseudo) return part;
      const bare = part.replace(/^\u27e6/, '').replace(/\u27e7$/, '');
      return /\p{L}/u.test(bare) ? `⟦${bare}⟧` : bare;
    })
    .filter((part) => part !== '');
}

/** A whole number for people, grouped the locale's way: 10000 → "10,000" (en), "10.000" (de). */
export const wholeNumber = (x, i18n) => Number(x).toLocaleString(i18n.lang === 'qps' ? 'en' : i18n.lang);

/** User data (a token's label, a typed word) inside translated text: marked translate="no". */
export function userText(text, tag = 'span') {
  const e = el(tag, '', text);
  e.translate = false;
  return e;
}

/** A point (x, y) of texts formatNumber wrote, in the locale's separators: "(0.5, 1)", "(0,5; 1)". */
export function point(i18n, x, y) {
  const comma = i18n.decimal('0.5') !== '0.5';
  return `(${i18n.decimal(x)}${comma ? ';' : ','} ${i18n.decimal(y)})`;
}

const written = new WeakMap(); // element → the message text setSentence last put in it

/** Fills `target` with sentence(i18n, key, params, nodes), only when its words change. */
export function setSentence(target, i18n, key, params = {}, nodes = {}) {
  const text = i18n.t(key, params);
  if (written.get(target) === text) return;
  written.set(target, text);
  target.replaceChildren(...sentence(i18n, key, params, nodes));
}

/**
 * An inference lesson's "How was this number computed?" box, under the inference catalogue's title,
 * saying i18n.t(idleKey) until something is explained (options: createExplainBox's).
 * show(explain): explain() gives the explanation of what was pointed at, from the lesson's numbers
 * when it is called (null: nothing to explain); refresh(), after each drawing of the lesson, writes
 * it again from the numbers now on screen, or goes back to the idle line when it no longer applies,
 * so no explanation outlives the numbers it was written from (a new example, a step, a setting).
 */
export function lessonExplainBox(i18n, idleKey = 'inference.explain.idle', options = {}) {
  const box = createExplainBox(i18n.t(idleKey), { title: i18n.t('inference.explain.title'), ...options, i18n });
  let again = null; // the explanation shown, as a function of the lesson's numbers
  return {
    el: box.el,
    show(explain) {
      const content = explain();
      if (!content) return;
      again = explain;
      box.show(content);
    },
    refresh() {
      const content = again?.();
      if (content) {
        box.show(content);
      } else if (again) {
        again = null;
        box.clear();
      }
    },
  };
}
