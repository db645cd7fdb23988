// A titled panel for one matrix or step: number, title, formula, shape, a one-line hint, a body.

import { el, setHidden, setText } from './dom.js';

let nextId = 0;

export function createCard({ step = '', title, formula = '', hint = '', className = '' }) {
  const id = `card-${++nextId}`;
  const root = el('section', `card ${className}`.trim());
  root.setAttribute('aria-labelledby', id);
  const header = el('header', 'card-header');
  const h = el('h3', 'card-title');
  h.id = id;
  if (step) h.append(el('span', 'step-no', step));
  const titleText = el('span', 'title-text', title);
  h.append(titleText);
  const formulaEl = el('p', 'formula');
  // Mathematics (a formula's words, where it has some, come translated).
  formulaEl.translate = false;
  const formulaText = document.createTextNode(formula);
  // A number the formula ends with, in a box of fixed width: a number changing its width would
  // make the browser rebuild its layers for the frame.
  const formulaValue = el('span', 'formula-value');
  formulaEl.append(formulaText, formulaValue);
  formulaEl.hidden = !formula;
  const shape = el('span', 'shape');
  header.append(h, shape, formulaEl);
  const hintEl = el('p', 'hint', hint);
  hintEl.hidden = !hint;
  const note = el('p', 'card-note');
  note.hidden = true;
  const body = el('div', 'card-body');
  root.append(header, hintEl, note, body);
  return {
    el: root,
    body,
    setTitle(text) {
      setText(titleText, text);
    },
    /** The formula's words, and the number it ends with (none by default). */
    setFormula(text, value = '') {
      if (formulaText.data !== text) formulaText.data = text;
      setText(formulaValue, value);
      setHidden(formulaEl, !text && !value);
    },
    setShape(text) {
      setText(shape, text);
    },
    setHint(text) {
      setText(hintEl, text);
      setHidden(hintEl, !text);
    },
    setNote(text) {
      setHidden(note, !text);
      if (text) setText(note, text);
    },
    setVisible(on) {
      setHidden(root, !on);
    },
  };
}
