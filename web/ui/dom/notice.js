// The message line above the panels (a link that could not be opened, an unknown example): an
// alert with a Dismiss button; empty text hides it.
import { el } from './dom.js';
import { english } from '../model/model.js';

/** The explorer could not start (no WebAssembly, a missing file): say so in `root`, once. */
export function showStartFailure(root, err, i18n = english) {
  if (root.dataset.ready || root.querySelector(':scope > .status.error')) return;
  const status = el('p', 'status error', i18n.t('common.startFailed', { reason: err.message }));
  status.setAttribute('role', 'status');
  root.append(status);
  root.setAttribute('aria-busy', 'false');
}

export function createNotice({ t } = english) {
  const root = el('div', 'notice');
  root.setAttribute('role', 'alert');
  root.hidden = true;
  const text = el('p');
  const close = el('button', 'small-button', t('common.dismiss'));
  close.type = 'button';
  close.addEventListener('click', () => {
    root.hidden = true;
  });
  root.append(text, close);
  return {
    el: root,
    show(message) {
      text.textContent = message;
      root.hidden = !message;
    },
  };
}
