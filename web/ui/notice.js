// The message line above the panels (a link that could not be opened, an unknown example): an
// alert with a Dismiss button; empty text hides it.
import { el } from './dom.js';

export function createNotice() {
  const root = el('div', 'notice');
  root.setAttribute('role', 'alert');
  root.hidden = true;
  const text = el('p');
  const close = el('button', 'small-button', 'Dismiss');
  close.type = 'button';
  close.addEventListener('click', () => { root.hidden = true; });
  root.append(text, close);
  return {
    el: root,
    show(message) {
      text.textContent = message;
      root.hidden = !message;
    },
  };
}
