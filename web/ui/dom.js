// DOM helpers shared by the page modules: elements built with DOM APIs only (no markup strings, so
// the strict Content-Security-Policy holds and user text always stays text).

const SVG_NS = 'http://www.w3.org/2000/svg';

export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** An SVG element with attributes (numbers are written as they are). */
export function svg(tag, attrs = {}, className) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (className) e.setAttribute('class', className);
  return e;
}

export function numberInput([min, max], step = 1) {
  const input = el('input', 'number');
  input.type = 'number';
  input.min = String(min);
  input.max = String(max);
  input.step = String(step);
  input.inputMode = 'numeric';
  return input;
}
