// "Which softmax spreads its weight more: without or with √dₖ?" (the sqrt-dk lesson): the two
// softmax rows and their entropies are hidden until the learner answers; the histograms of the
// scores stay in view, as what to reason from. The answer is the panel's own measurement (its
// entropy outputs, data-stat="entropy-raw" and "entropy-scaled", computed by the core), read from
// those outputs with answerValue: covered, they show none of it.
import { answerValue } from '../dom/dom.js';
import { english } from '../model/model.js';

const CHOICES = ['unscaled', 'scaled', 'same'];
// Entropies closer than this count as the same (at d_k = 1 they are equal).
const SAME = 1e-3;

export function createEntropyQuestion(box, ctx, lesson) {
  const { t, decimal } = ctx.i18n ?? english;
  const choices = CHOICES.map((value) => ({ value, label: t(`explorer.predict.entropy.${value}`) }));
  let dk = null;
  const panel = () => ctx.lessons?.holder(lesson);
  const stat = (name) => panel()?.querySelector(`[data-stat="${name}"]`);
  // The panel samples in a Worker: its numbers are the ones for these settings once data-shown says so.
  const settled = async (want) => {
    for (let k = 0; k < 600; k++) {
      const root = panel()?.querySelector('[data-lesson="sqrt-dk"]');
      if (root?.dataset.shown?.startsWith(want)) return true;
      await new Promise((done) => setTimeout(done, 50));
    }
    return false;
  };
  return {
    coverRoot: panel,
    targets() {
      const softs = stat('entropy-raw')?.closest('.lesson-figures');
      return softs ? [softs] : [];
    },
    render(state) {
      const s = state.lessons.sqrtDk;
      dk = s.dk;
      box.ask(
        t('explorer.predict.entropy.question', { row: s.row, dk: s.dk, sqrt: decimal(Math.sqrt(s.dk).toFixed(2)) }),
        choices,
        t('explorer.predict.entropy.hint'),
      );
    },
    async judge(guess) {
      const want = `${dk},`;
      if (!(await settled(want))) return null;
      const value = (name) => Number(answerValue(stat(name)));
      const raw = value('entropy-raw');
      const scaled = value('entropy-scaled');
      const maxRaw = value('max-raw');
      const maxScaled = value('max-scaled');
      const answer = Math.abs(raw - scaled) <= SAME ? 'same' : scaled > raw ? 'scaled' : 'unscaled';
      const correct = guess === answer;
      const nats = (v) => decimal(v.toFixed(2));
      const numbers = { dk, maxRaw: nats(maxRaw), raw: nats(raw), scaled: nats(scaled), maxScaled: nats(maxScaled) };
      const why = t(`explorer.predict.entropy.why.${answer}`, numbers);
      return {
        correct,
        answer,
        answerLabel: choices.find((c) => c.value === answer).label,
        guess,
        dk,
        entropyUnscaled: raw,
        entropyScaled: scaled,
        feedback: why,
      };
    },
  };
}
