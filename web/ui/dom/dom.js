// DOM helpers shared by the page modules: elements built with DOM APIs only (no markup strings, so
// the strict Content-Security-Policy holds and user text always stays text).
import { english } from '../model/model.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * Sets an element's text only when it differs, reusing its one text node (none for the empty
 * string): writing textContent replaces the node even with the same text, and Blink then lays the
 * text out again (with its table or flex container) on every redraw.
 */
export function setText(node, text) {
  const first = node.firstChild;
  if (text !== '' && first && first === node.lastChild && first.nodeType === 3) {
    if (first.data !== text) first.data = text;
  } else if (node.textContent !== text) {
    node.textContent = text;
  }
}

/** Sets an attribute only when its value differs (a write of the same value still restyles). */
export function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/**
 * Sets a canvas's size in pixels, writing each dimension only when it changes (a write clears the
 * canvas and is a mutation, even with the value it had). Returns whether the size changed.
 */
export function setCanvasSize(canvas, width, height) {
  const changed = canvas.width !== width || canvas.height !== height;
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  return changed;
}

/** Hides or shows an element, writing the attribute only when that changes. */
export function setHidden(node, hidden) {
  if (node.hidden !== hidden) node.hidden = hidden;
}

/** Disables or enables a form control, writing the attribute only when that changes. */
export function setDisabled(node, disabled) {
  if (node.disabled !== disabled) node.disabled = disabled;
}

/**
 * A page section with its heading: <section class=className aria-labelledby=id-title> holding a
 * .section-heading with the <h2> and a .section-sub paragraph (text `subText`, may be empty).
 */
export function section(className, id, title, subText = '') {
  const root = el('section', className);
  root.setAttribute('aria-labelledby', `${id}-title`);
  const heading = el('div', 'section-heading');
  const h2 = el('h2', '', title);
  h2.id = `${id}-title`;
  const sub = el('p', 'section-sub', subText);
  heading.append(h2, sub);
  root.append(heading);
  return { root, heading, sub };
}

/** A one-line text field for a sentence (no autocomplete, at most 200 characters). */
export function sentenceInput(id) {
  const input = el('input');
  input.id = id;
  input.type = 'text';
  input.autocomplete = 'off';
  input.maxLength = 200;
  return input;
}

/** A <select> with `id` and one option per [value, text]. */
export function selectOf(id, options) {
  const select = el('select');
  if (id) select.id = id;
  for (const [value, text] of options) {
    const o = el('option', '', text);
    o.value = value;
    select.append(o);
  }
  return select;
}

/** The first row of a matrix table's head: an empty corner cell above the row labels. */
export function cornerRow() {
  const head = el('tr');
  const corner = el('th', 'corner');
  corner.setAttribute('aria-hidden', 'true');
  head.append(corner);
  return head;
}

/** An SVG element with attributes (numbers are written as they are). */
export function svg(tag, attrs = {}, className) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (className) e.setAttribute('class', className);
  return e;
}

/**
 * A number field for values from min to max. A value outside them is clamped in the field itself
 * before anyone else hears of the change (this listener is the element's first), with a short
 * note saying so, so the field never shows a number the page does not use; whole-number fields
 * (step 1) are rounded the same way, and any field to `decimals` places when given. Text that is
 * not a number is refused with a note (in the language of `i18n`). noteIn: where the note goes
 * instead of below the field, for a field above a button: the change comes as the press on the
 * button begins, and a note above it would move it from under the pointer before the press ends
 * (the click then lost); label(note) → the note as shown there, naming its field.
 */
export function numberInput(
  [min, max],
  step = 1,
  i18n = english,
  { noteIn = null, label = (note) => note, decimals = step === 1 ? 0 : null } = {},
) {
  const { t } = i18n;
  const input = el('input', 'number');
  input.type = 'number';
  input.min = String(min);
  input.max = String(max);
  input.step = String(step);
  input.inputMode = 'numeric';
  let note = null;
  const say = (text) => {
    if (!note && !text) return;
    if (!note) {
      note = el('span', 'field-note');
      note.dataset.clampNote = '';
      note.setAttribute('role', 'status');
      if (noteIn) noteIn.append(note);
      else (input.closest('.field, .lesson-field, .temp-row') ?? input).after(note);
    }
    note.textContent = text ? label(text) : '';
    note.hidden = !text;
    input.setAttribute('aria-invalid', String(Boolean(text) && !Number.isFinite(Number(input.value))));
  };
  input.addEventListener('change', () => {
    const typed = input.value.trim() === '' ? NaN : Number(input.value);
    if (!Number.isFinite(typed)) return say(t('common.number.notNumber', { min, max }));
    const used = rounded(Math.min(max, Math.max(min, typed)), decimals);
    if (used === typed) return say('');
    input.value = String(used);
    const why = typed > max ? 'largest' : typed < min ? 'smallest' : decimals ? 'decimals' : 'whole';
    return say(t(`common.number.clamped.${why}`, { typed, used, min, max, count: decimals }));
  });
  return input;
}

// x to `decimals` places (null: as it is); whole numbers as Math.round makes them, as they always were.
function rounded(x, decimals) {
  if (decimals === null) return x;
  return decimals === 0 ? Math.round(x) : Number(x.toFixed(decimals));
}

// The other shared DOM helpers, each in a file of its own.
export { afterFrame, browserIdle, createFrameQueue, frameQueue } from './frames.js';
export { createCard } from './card.js';
export { createNotice, showStartFailure } from './notice.js';
export { hideWhenFar } from './far-canvas.js';
export { moveFor } from './grid-nav.js';
export { outlineCells } from './cell-outline.js';
export { markLanguage, translateStatic, widgetTranslator } from './language.js';
export { countMapDraw, instrumented, mapDrawCount } from './instrument.js';
export { answerValue, isCovered, onCoverChange, setCovered, writeAnswer } from './cover.js';
