// The "two implementations agree" line under the steps: the page's numbers against the float64
// recomputation of float64-check.js, with the largest difference, updated after each edit's frame.
import { afterFrame, el, setAttr, setHidden, setText } from './dom/dom.js';
import { AGREE, agreement, english } from './model/model.js';

const sci = (x) => (x === 0 ? '0' : x.toExponential(1).replace('-', '−'));

/** The line's words for a check result `a` (from float64-check.js's agreement). */
export function agreementText(a, { t, decimal } = english) {
  const ok = a.worst < a.bound;
  const numbers = {
    weightCount: a.weightCount,
    weights: decimal(sci(a.weights.abs)),
    outputCount: a.outputCount,
    outputs: decimal(sci(a.output.abs)),
    relative: decimal(sci(a.output.rel)),
  };
  const difference = t(
    a.output.abs > a.output.rel ? 'explorer.agree.differenceRelative' : 'explorer.agree.difference',
    numbers,
  );
  const ending = !ok
    ? t('explorer.agree.tooLarge')
    : a.worst < AGREE
      ? t('explorer.agree.rounding')
      : t('explorer.agree.roundingLarge', { scores: Math.round(a.scores) });
  return `${t(ok ? 'explorer.agree.agree' : 'explorer.agree.disagree')} ${difference} ${ending}`;
}

/**
 * The longest words the line can show for these sizes: every number at its widest, the ratio shown,
 * each ending tried. The line keeps room for them, so it keeps its height from edit to edit: a line
 * that grew or shrank would move everything below it, and the browser would then rebuild its layers
 * for that frame.
 */
export function widestText(a, i18n = english) {
  const wide = { ...a, weights: { abs: 8.8e-300 }, output: { abs: 8.8e-300, rel: 8.8e-301 }, scores: 88888 };
  const endings = [
    { worst: 1, bound: 0 },
    { worst: 0, bound: 1 },
    { worst: 1, bound: 2 },
  ];
  return endings.map((e) => agreementText({ ...wide, ...e }, i18n)).reduce((x, y) => (y.length > x.length ? y : x));
}

/** A line under the steps: the two implementations and their largest difference. */
export function createAgreementCheck(i18n = english) {
  const root = el('p', 'agreement');
  root.dataset.stat = 'float64-check';
  const words = el('span', 'agreement-text');
  words.setAttribute('aria-live', 'polite');
  root.append(words);
  let latest = null;
  // The recomputation waits until the edit's frame is drawn (it is not needed to draw it).
  function run() {
    const { state, result } = latest;
    const a = agreement(state, result);
    setHidden(root, !a);
    if (!a) return;
    setAttr(root, 'data-max-diff', String(a.worst));
    setAttr(root, 'data-weights-diff', String(a.weights.abs));
    setAttr(root, 'data-output-diff', String(a.output.abs));
    root.classList.toggle('disagree', !(a.worst < a.bound));
    setAttr(root, 'data-reserve', widestText(a, i18n));
    setText(words, agreementText(a, i18n));
  }
  return {
    el: root,
    render(state, result) {
      latest = { state, result };
      setAttr(root, 'data-pending', '');
      afterFrame(() => {
        run();
        delete root.dataset.pending;
      });
    },
  };
}
