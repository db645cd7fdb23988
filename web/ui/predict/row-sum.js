// "What does this row sum to when the mask is applied after the softmax?" (the pitfalls lesson):
// the side with the mistake, its row sums and the lesson's explanation are hidden until the
// learner answers. The row asked about is the one the mistake leaves furthest below 1 (a row that
// hides the most weight); the sums are the core's (the pitfall option), not imitated here.
import { maskOptions } from '../model/model.js';

const CHOICES = [
  { value: 'exactly-1', label: 'exactly 1' },
  { value: 'less-than-1', label: 'less than 1' },
  { value: 'more-than-1', label: 'more than 1' },
];
const quote = (t) => `\u201c${t}\u201d`;
const TOLERANCE = 1e-4;

// Row sums of a [n, m] weights tensor.
function rowSums({ data, shape: [n, m] }) {
  return Array.from({ length: n }, (_, i) => {
    let s = 0;
    for (let j = 0; j < m; j++) s += data[i * m + j];
    return s;
  });
}

const kindOf = (sum) => (sum < 1 - TOLERANCE ? 'less-than-1' : sum > 1 + TOLERANCE ? 'more-than-1' : 'exactly-1');

export function createRowSumQuestion(box, ctx, lesson) {
  let shown = null;  // { row, query, sum }
  const panel = () => ctx.lessons?.holder(lesson);
  return {
    // The mistake's side, the verdict and the notes that explain the mistake (they give it away).
    targets() {
      const root = panel();
      if (!root) return [];
      const sides = root.querySelectorAll('.lesson-compare > .lesson-side');
      return [sides[1], root.querySelector('[data-stat="pitfall-summary"]'), ...root.querySelectorAll('.lesson-panel > .lesson-note')].filter(Boolean);
    },
    render(state, result) {
      if (result.error) return;
      let bad;
      try {
        bad = ctx.computer.variant({ ...maskOptions(state), pitfall: 'mask-after-softmax' });
      } catch {
        bad = null;
      }
      if (!bad) return;
      const sums = rowSums(bad.weights);
      const seeing = sums.map((s, i) => i).filter((i) => !result.fullyMasked.has(i));
      const row = seeing.reduce((a, i) => (sums[i] < sums[a] ? i : a), seeing[0] ?? 0);
      const query = result.labels.queries[row];
      shown = { row, query, sum: sums[row] };
      box.ask(
        `with the mask applied after the softmax (the mistake), what does the row of ${quote(query)} (row ${row + 1}) of the weights sum to?`,
        CHOICES,
        `The mask is ${state.mask.kind === 'none' ? 'off' : state.mask.kind}: the softmax runs over every key first, then hidden weights are set to 0.`,
      );
    },
    judge(guess) {
      if (!shown) return null;
      const answer = kindOf(shown.sum);
      const sum = shown.sum.toFixed(3);
      const correct = guess === answer;
      const why = answer === 'less-than-1'
        ? 'The softmax already gave part of the row to the hidden keys; zeroing them afterwards throws that part away and nothing renormalizes the rest.'
        : 'This row hides no key, so zeroing hidden weights after the softmax takes nothing away. Rows that hide keys sum to less than 1.';
      return {
        correct, answer, answerLabel: CHOICES.find((c) => c.value === answer).label, guess, query: shown.query, row: shown.row, sum: shown.sum,
        feedback: `The row of ${quote(shown.query)} sums to ${sum}. ${why}`,
      };
    },
  };
}
