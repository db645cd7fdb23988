// "Which head is an induction head?" (the training view's induction lesson): the heads' labels,
// scores and score charts are hidden; their attention maps stay, as what to judge from. A guess is
// right when that head's induction score, measured by the trainer on its probe batch, passes the
// threshold that names a head; the answer reported is the head with the highest score.
import { createQuestionBox } from './question-box.js';
import { english } from '../model/model.js';

// What gives a head's job away: its label, its numbers and its charts.
const GIVEAWAYS = '.head-badge, .head-numbers, .head-card .line-chart, .ablation-effect';

// A head card's name as the card shows it (its title without the label).
const cardName = (card, t) =>
  card.querySelector('.head-title')?.firstChild?.textContent.trim() ??
  t('common.headName', { layer: Number(card.dataset.layer) + 1, head: Number(card.dataset.head) + 1 });

/**
 * root: the training view's root; trainer(): its current trainer (probe() gives the heads'
 * scores); threshold: the induction score that names a head; lesson, emit, i18n: as createQuestionBox.
 * Returns { el, refresh() }: refresh() asks about the heads on screen (after a model is built).
 */
export function createInductionQuestion({ root, trainer, threshold, lesson, emit, i18n = english }) {
  const { t, decimal } = i18n;
  const box = createQuestionBox({ kind: 'induction-head', lesson, emit, cover: '', i18n });
  const name = (card) => cardName(card, t);
  const score = (v) => decimal(v.toFixed(2));
  const cards = () => [...root.querySelectorAll('[data-head-score][data-layer][data-head]')];
  const key = (card) => `${card.dataset.layer},${card.dataset.head}`;
  box.use({
    targets() {
      // The accent border of an induction head's card gives it away too (CSS: .predict-pending).
      root.classList.toggle('predict-pending', !box.isRevealed());
      return [...root.querySelectorAll(GIVEAWAYS)];
    },
    async judge(guess) {
      const current = trainer();
      if (!current) return null;
      const { headScores } = await current.probe();
      const scores = cards().map((card) => ({
        card,
        score: headScores[Number(card.dataset.layer)]?.induction[Number(card.dataset.head)] ?? 0,
      }));
      const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
      const named = scores.filter((s) => s.score >= threshold);
      const mine = scores.find((s) => key(s.card) === guess);
      const correct = Boolean(mine && mine.score >= threshold);
      const [layer, head] = guess.split(',').map(Number);
      const list = named.map((s) => name(s.card)).join(', ');
      return {
        correct,
        answer: key(best.card),
        alsoRight: named.map((s) => key(s.card)),
        answerLabel: name(best.card),
        guess: { layer, head },
        best: { layer: Number(best.card.dataset.layer), head: Number(best.card.dataset.head), score: best.score },
        inductionHeads: named.map((s) => ({
          layer: Number(s.card.dataset.layer),
          head: Number(s.card.dataset.head),
          score: s.score,
        })),
        feedback: [
          mine ? t('explorer.predict.induction.yours', { head: name(mine.card), score: score(mine.score) }) : '',
          t('explorer.predict.induction.heads', {
            threshold,
            list: list || t('explorer.predict.induction.noneYet'),
            best: name(best.card),
            score: score(best.score),
          }),
          t('explorer.predict.induction.why'),
        ]
          .filter(Boolean)
          .join(' '),
      };
    },
  });
  return {
    el: box.el,
    refresh() {
      box.ask(
        t('explorer.predict.induction.question'),
        cards().map((card) => ({ value: key(card), label: name(card) })),
        t('explorer.predict.induction.hint'),
      );
    },
  };
}
