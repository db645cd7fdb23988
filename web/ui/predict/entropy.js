// "Which softmax spreads its weight more: without or with √dₖ?" (the sqrt-dk lesson): the two
// softmax rows and their entropies are hidden until the learner answers; the histograms of the
// scores stay in view, as what to reason from. The answer is the panel's own measurement (its
// entropy outputs, data-stat="entropy-raw" and "entropy-scaled", computed by the core).

const CHOICES = [
  { value: 'unscaled', label: 'without \u221ad\u2096 (the raw scores)' },
  { value: 'scaled', label: 'with \u221ad\u2096 (the scores divided by \u221ad\u2096)' },
  { value: 'same', label: 'the same' },
];
// Entropies closer than this count as the same (at d_k = 1 they are equal).
const SAME = 1e-3;

export function createEntropyQuestion(box, ctx, lesson) {
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
    targets() {
      const softs = stat('entropy-raw')?.closest('.lesson-figures');
      return softs ? [softs] : [];
    },
    render(state) {
      const s = state.lessons.sqrtDk;
      dk = s.dk;
      box.ask(
        `one row of ${s.row} scores (q\u00b7k with d\u2096 = ${s.dk}) goes through a softmax twice: as it is, and divided by \u221ad\u2096 = ${Math.sqrt(s.dk).toFixed(2)}. Which weights are spread more evenly (the higher entropy)?`,
        CHOICES,
        'The histograms above show how far the scores spread before and after the division.',
      );
    },
    async judge(guess) {
      const want = `${dk},`;
      if (!(await settled(want))) return null;
      const raw = Number(stat('entropy-raw').dataset.value);
      const scaled = Number(stat('entropy-scaled').dataset.value);
      const maxRaw = Number(stat('max-raw')?.dataset.value);
      const maxScaled = Number(stat('max-scaled')?.dataset.value);
      const answer = Math.abs(raw - scaled) <= SAME ? 'same' : scaled > raw ? 'scaled' : 'unscaled';
      const correct = guess === answer;
      const nats = (v) => v.toFixed(2);
      const why = answer === 'scaled'
        ? `Without the division the scores spread about \u221a${dk} times wider, so the softmax puts almost everything on the largest (largest weight ${maxRaw.toFixed(2)}, entropy ${nats(raw)} nats). Divided by \u221ad\u2096 the row stays soft: entropy ${nats(scaled)} nats, largest weight ${maxScaled.toFixed(2)}.`
        : answer === 'same'
          ? `With d\u2096 = ${dk}, \u221ad\u2096 = 1: dividing changes nothing (entropy ${nats(raw)} nats both ways).`
          : `Here the raw row has entropy ${nats(raw)} nats and the scaled one ${nats(scaled)}.`;
      return {
        correct, answer, answerLabel: CHOICES.find((c) => c.value === answer).label, guess, dk,
        entropyUnscaled: raw, entropyScaled: scaled, feedback: why,
      };
    },
  };
}
