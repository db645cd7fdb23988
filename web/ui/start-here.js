// "Start here": three things to try first, each with a button that does it (or shows where), at the
// top of the stand-alone page. Dismissed, it stays away on this browser (localStorage, when the
// page may use it: a sandboxed frame may not).
import { el } from './dom/dom.js';

const KEY = 'attention-explorer:start-here';

function remembered() {
  try {
    return window.localStorage.getItem(KEY) === 'dismissed';
  } catch {
    return false;
  }
}

function remember() {
  try {
    window.localStorage.setItem(KEY, 'dismissed');
  } catch {
    // (no storage here: it shows again next time)
  }
}

function step(number, text, action, onClick) {
  const li = el('li', 'start-step');
  li.append(el('span', 'start-no', number), el('span', 'start-text', text));
  const b = el('button', 'small-button', action);
  b.type = 'button';
  b.addEventListener('click', onClick);
  li.append(b);
  return { li, button: b };
}

/**
 * actions: { sentence() (focus the sentence, or Q in Q/K/V mode), weight() (explain a weight),
 * mask() (switch the causal mask on or off; returns whether it is on now) }. On a narrow screen it
 * starts folded to its title line (setOpen).
 */
export function createStartHere(actions) {
  const root = el('section', 'start-here');
  root.setAttribute('aria-labelledby', 'start-here-title');
  root.hidden = remembered();
  const head = el('div', 'start-head');
  const title = el('h2', 'start-title', 'Start here');
  title.id = 'start-here-title';
  const fold = el('button', 'small-button start-fold');
  fold.type = 'button';
  const close = el('button', 'small-button start-close', 'Got it');
  close.type = 'button';
  close.setAttribute('aria-label', 'Got it: hide Start here');
  head.append(title, fold, close);
  const list = el('ol', 'start-steps');
  const one = step('1', 'Type a sentence: each word becomes a row and a column.', 'Type', () => actions.sentence());
  const two = step('2', 'Point at a weight to see how it was computed.', 'Show me', () => actions.weight());
  const three = step('3', 'Hide the future with the causal mask.', 'Causal mask', () => {
    three.button.setAttribute('aria-pressed', String(actions.mask()));
  });
  three.button.setAttribute('aria-pressed', 'false');
  list.append(one.li, two.li, three.li);
  list.id = 'start-here-steps';
  fold.setAttribute('aria-controls', list.id);
  const setOpen = (open) => {
    list.hidden = !open;
    fold.textContent = open ? 'Hide' : 'Three things to try';
    fold.setAttribute('aria-expanded', String(open));
  };
  setOpen(true);
  fold.addEventListener('click', () => setOpen(list.hidden));
  close.addEventListener('click', () => {
    root.hidden = true;
    remember();
  });
  root.append(head, list);
  return {
    el: root,
    setOpen,
    /** Keeps the mask button's state in step with the example. */
    render(state) {
      const on = String(state.mask.kind === 'causal');
      if (three.button.getAttribute('aria-pressed') !== on) three.button.setAttribute('aria-pressed', on);
    },
  };
}
