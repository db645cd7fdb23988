// Predict, then reveal (reveal="predict"): a question above a lesson hides its answer until the
// learner commits a guess, then reveals it with feedback and reports the answer to the host as a
// DOM event, ANSWER_EVENT (bubbling and composed, so it leaves a shadow root; embed.html forwards
// it to the lesson page as a postMessage of the same type).
//
// Questions: which key gets the most weight (top-key.js), the row sum of a mask applied after
// the softmax (row-sum.js), the entropy with and without √dₖ (entropy.js), which head is an
// induction head (induction.js). Each kind says what the question is, what its choices are, which
// elements hold the answer and how a guess is judged; question-box.js draws the question, hides
// and reveals; this module puts them together and reports.
import { ANSWER_EVENT } from '../../embed-protocol.js';
import { createQuestionBox } from './question-box.js';
import { createEntropyQuestion } from './entropy.js';
import { createRowSumQuestion } from './row-sum.js';
import { createTopKeyQuestion } from './top-key.js';

export { createInductionQuestion } from './induction.js';

export const PREDICT_KINDS = ['top-key', 'row-sum', 'entropy', 'induction-head'];

/** Reports an answer from `target` (the explorer's or the training view's root) to the host page. */
export function dispatchAnswer(target, detail) {
  target.dispatchEvent(
    new CustomEvent(ANSWER_EVENT, { detail: structuredClone(detail), bubbles: true, composed: true }),
  );
}

/**
 * A question over the explorer's numbers, for lesson `lesson` of predict kind `kind`. ctx: { attn,
 * computer, pipeline, lessons, emit, onCover (createQuestionBox) }. Returns { el, render(state,
 * result) } or null for a kind the explorer does not ask.
 */
export function createQuestion(kind, lesson, ctx) {
  const box = createQuestionBox({ kind, lesson, emit: ctx.emit, onCover: ctx.onCover, i18n: ctx.i18n });
  const make = { 'top-key': createTopKeyQuestion, 'row-sum': createRowSumQuestion, entropy: createEntropyQuestion }[
    kind
  ];
  if (!make) return null;
  const question = make(box, ctx, lesson);
  box.use(question);
  return { el: box.el, render: (state, result) => question.render(state, result) };
}
