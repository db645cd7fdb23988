// Covered answers (predict, then reveal: predict/question-box.js). Hidden from sight is not hidden:
// a number left in an attribute, a cell's accessible name or a text node under the cover is read
// in devtools, by a screen reader, in a copy or a printout. So the parts of the page that write an
// answer (a heatmap, a statistic, a plot) ask isCovered() and, covered, write nothing of it; the
// numbers stay in the part's JavaScript until setCovered() takes the cover off and they are written.

const COVERED = 'answer-hidden'; // styles.css: the cover over the element
const PART = 'answer-part'; // an element that writes an answer: told when a cover changes
const CHANGED = 'answer-cover';

/** Whether `node` lies under a cover. */
export const isCovered = (node) => node.closest(`.${COVERED}`) !== null;

/**
 * Calls changed() whenever a cover over `node` may have come or gone (node: an element that writes
 * an answer; changed() asks isCovered and rewrites what differs).
 */
export function onCoverChange(node, changed) {
  node.classList.add(PART);
  node.addEventListener(CHANGED, changed);
}

/**
 * Covers `target` (or takes its cover off) and tells the parts inside it. words: shown over a
 * covered element ('' for none). Told every time, not only on a change: a part written before it
 * was put under the cover (a lesson drawn, then placed) withholds its answer then.
 */
export function setCovered(target, covered, words = '') {
  target.classList.toggle(COVERED, covered);
  if (covered && words) target.dataset.cover = words;
  const parts = [...target.getElementsByClassName(PART)];
  if (target.classList.contains(PART)) parts.unshift(target);
  for (const part of parts) part.dispatchEvent(new Event(CHANGED));
}

const answers = new WeakMap(); // element → { show, hide, value, shown }

/**
 * Writes an answer into `node`: show() writes it, hide() writes what stands for it while covered
 * (nothing of the answer); show() runs again when the cover comes off. value: the number shown,
 * for the code that judges a guess (answerValue), covered or not.
 */
export function writeAnswer(node, { show, hide, value }) {
  let part = answers.get(node);
  if (!part) {
    part = {};
    answers.set(node, part);
    onCoverChange(node, () => {
      const shown = !isCovered(node);
      if (shown === part.shown) return;
      part.shown = shown;
      (shown ? part.show : part.hide)();
    });
  }
  Object.assign(part, { show, hide, value, shown: !isCovered(node) });
  (part.shown ? show : hide)();
}

/** The value last written into `node` with writeAnswer, shown or covered (undefined if none). */
export const answerValue = (node) => answers.get(node)?.value;
