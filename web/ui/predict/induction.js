// "Which head is an induction head?" (the training view's induction lesson): the heads' labels,
// scores and score charts are hidden; their attention maps stay, as what to judge from. A guess is
// right when that head's induction score, measured by the trainer on its probe batch, passes the
// threshold that names a head; the answer reported is the head with the highest score.
import { createQuestionBox } from './question-box.js';

// What gives a head's job away: its label, its numbers and its charts.
const GIVEAWAYS = '.head-badge, .head-numbers, .head-card .line-chart, .ablation-effect';

// A head card's name as the card shows it (its title without the label).
const cardName = (card) => card.querySelector('.head-title')?.firstChild?.textContent.trim() ?? `layer ${card.dataset.layer}, head ${card.dataset.head}`;

/**
 * root: the training view's root; trainer(): its current trainer (probe() gives the heads'
 * scores); threshold: the induction score that names a head; lesson, emit: as createQuestionBox.
 * Returns { el, refresh() }: refresh() asks about the heads on screen (after a model is built).
 */
export function createInductionQuestion({ root, trainer, threshold, lesson, emit }) {
  const box = createQuestionBox({ kind: 'induction-head', lesson, emit, cover: '' });
  const cards = () => [...root.querySelectorAll('[data-head-score][data-layer][data-head]')];
  const key = (card) => `${card.dataset.layer},${card.dataset.head}`;
  box.use({
    targets() {
      // The accent border of an induction head's card gives it away too (CSS: .predict-pending).
      root.classList.toggle('predict-pending', !box.isRevealed());
      return [...root.querySelectorAll(GIVEAWAYS)];
    },
    async judge(guess) {
      const t = trainer();
      if (!t) return null;
      const { headScores } = await t.probe();
      const scores = cards().map((card) => ({ card, score: headScores[Number(card.dataset.layer)]?.induction[Number(card.dataset.head)] ?? 0 }));
      const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
      const named = scores.filter((s) => s.score >= threshold);
      const mine = scores.find((s) => key(s.card) === guess);
      const correct = Boolean(mine && mine.score >= threshold);
      const [layer, head] = guess.split(',').map(Number);
      const list = named.map((s) => cardName(s.card)).join(', ');
      return {
        correct,
        answer: key(best.card),
        alsoRight: named.map((s) => key(s.card)),
        answerLabel: cardName(best.card),
        guess: { layer, head },
        best: { layer: Number(best.card.dataset.layer), head: Number(best.card.dataset.head), score: best.score },
        inductionHeads: named.map((s) => ({ layer: Number(s.card.dataset.layer), head: Number(s.card.dataset.head), score: s.score })),
        feedback: `${mine ? `${cardName(mine.card)} has an induction score of ${mine.score.toFixed(2)}. ` : ''}`
          + `Induction heads here (score \u2265 ${threshold}): ${list || 'none yet'}; the highest is ${cardName(best.card)} at ${best.score.toFixed(2)}. `
          + 'On the second copy an induction head looks at the token that followed the same token in the first copy: a diagonal stripe one step right of the earlier copy.',
      };
    },
  });
  return {
    el: box.el,
    refresh() {
      box.ask(
        'which head is an induction head? Judge from the attention maps below.',
        cards().map((card) => ({ value: key(card), label: cardName(card) })),
        'Each map is a probe sequence: BOS, a run of tokens, the same run again. On the second copy an induction head attends to the token just after the earlier occurrence of the current token.',
      );
    },
  };
}
