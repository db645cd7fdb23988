// A titled panel for one matrix or step: number, title, formula, shape, a one-line hint, a body.

import { el, setText } from './dom.js';

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
  const formulaEl = el('p', 'formula', formula);
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
    setTitle(text) { setText(titleText, text); },
    setFormula(text) { setText(formulaEl, text); },
    setShape(text) { setText(shape, text); },
    setHint(text) {
      setText(hintEl, text);
      if (hintEl.hidden !== !text) hintEl.hidden = !text;
    },
    setNote(text) {
      if (note.hidden !== !text) note.hidden = !text;
      if (text) setText(note, text);
    },
    setVisible(on) { if (root.hidden !== !on) root.hidden = !on; },
  };
}
