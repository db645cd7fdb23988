// "What does this row sum to when the mask is applied after the softmax?" (the pitfalls lesson):
// the side with the mistake, its row sums and the lesson's explanation are hidden until the
// learner answers. The row asked about is the one the mistake leaves furthest below 1 (a row that
// hides the most weight); the sums are the core's (the pitfall option), not imitated here.
import { english, maskOptions } from '../model/model.js';

const CHOICES = ['exactly-1', 'less-than-1', 'more-than-1'];
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
  const { t, decimal } = ctx.i18n ?? english;
  const quote = (label) => t('explorer.pipeline.quoted', { label });
  const choices = CHOICES.map((value) => ({ value, label: t(`explorer.predict.rowSum.${value}`) }));
  let shown = null; // { row, query, sum }
  const panel = () => ctx.lessons?.holder(lesson);
  return {
    // The mistake's side, the verdict and the notes that explain the mistake (they give it away).
    targets() {
      const root = panel();
      if (!root) return [];
      const sides = root.querySelectorAll('.lesson-compare > .lesson-side');
      return [
        sides[1],
        root.querySelector('[data-stat="pitfall-summary"]'),
        ...root.querySelectorAll('.lesson-panel > .lesson-note'),
      ].filter(Boolean);
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
        t('explorer.predict.rowSum.question', { query: quote(query), row: row + 1 }),
        choices,
        t('explorer.predict.rowSum.hint', { mask: t(`explorer.pipeline.maskName.${state.mask.kind}`) }),
      );
    },
    judge(guess) {
      if (!shown) return null;
      const answer = kindOf(shown.sum);
      const sum = decimal(shown.sum.toFixed(3));
      const correct = guess === answer;
      const why = t(answer === 'less-than-1' ? 'explorer.predict.rowSum.whyLess' : 'explorer.predict.rowSum.whyAll');
      return {
        correct,
        answer,
        answerLabel: choices.find((c) => c.value === answer).label,
        guess,
        query: shown.query,
        row: shown.row,
        sum: shown.sum,
        feedback: `${t('explorer.predict.rowSum.sums', { query: quote(shown.query), sum })} ${why}`,
      };
    },
  };
}
