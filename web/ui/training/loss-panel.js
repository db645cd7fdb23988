// The loss curves of a run, with the steps per second, and the generalisation check: the induction
// score and the loss on repeat lengths the model was trained on next to lengths it never saw.
// The chart carries ln V, the loss of a uniform guess over the V tokens, for reference: the loss on
// the whole repeated sequence rises above it once the model copies with confidence (the first
// copy is random, and confident wrong guesses cost more than even ones), and the hint says so.
import { el } from '../dom/dom.js';
import { createLineChart } from './curves.js';
import { HELD_OUT } from './config.js';

export function createLossPanel() {
  const root = el('section', 'loss-panel card');
  const heading = el('h2', 'section-title', 'Loss');
  heading.id = `train-loss-${Math.random().toString(36).slice(2, 8)}`;
  root.setAttribute('aria-labelledby', heading.id);
  const rate = el('p', 'steps-per-second', '0 steps/s');
  const chartRepeated = () => createLineChart({
    title: 'Loss over the steps (cross-entropy, nats)',
    series: [
      { key: 'train', label: 'training batch', style: 'c' },
      { key: 'repeated', label: 'repeated half (probe)', style: 'a' },
      { key: 'all', label: 'whole sequence (probe)', style: 'b' },
    ],
  });
  const chartText = () => createLineChart({
    title: 'Loss over the steps (cross-entropy, nats)',
    series: [{ key: 'train', label: 'training batch', style: 'c' }, { key: 'repeated', label: 'probe', style: 'a' }],
  });
  let chart = chartRepeated();
  const hint = el('p', 'hint');
  const general = el('div', 'generalisation');
  general.append(el('h3', 'subsection-title', 'Generalisation'));
  const generalText = el('p', 'generalisation-text', 'Train a few hundred steps to compare.');
  generalText.dataset.generalisation = '';
  general.append(generalText);
  root.append(heading, rate, chart.el, hint, general);

  let task = 'repeated';
  let vocabulary = 0;   // V, once the model is built

  function explain() {
    const lnV = vocabulary ? `ln ${vocabulary} \u2248 ${Math.log(vocabulary).toFixed(2)}` : 'ln V';
    hint.dataset.lnV = vocabulary ? String(Math.log(vocabulary)) : '';
    hint.textContent = task === 'text'
      ? `A model that guesses the next character uniformly among the V = ${vocabulary || 'V'} characters loses ${lnV} nats per character (the dash-dot line); each nat less is knowledge of the text.`
      : `The model trains on the repeated half only (solid line): it can be predicted perfectly, and the cliff in its loss is the induction head forming. The whole sequence (dashed) also scores the first copy, which is random, and the filler after the second: no model can predict those. An even guess among the V = ${vocabulary || 'V'} tokens would lose ${lnV} nats per token there (the dash-dot line), but this model never trains on those positions and, once it copies, guesses them with confidence; a confident wrong guess costs more than an even one, so the whole-sequence loss can rise above ${lnV} while the repeated half falls.`;
    chart.setReference(vocabulary ? Math.log(vocabulary) : null, `uniform guess, ${lnV}`);
  }

  return {
    el: root,
    /** V, the model's vocabulary size: the chart's ln V line and the hint's numbers. */
    setVocabulary(V) {
      vocabulary = V;
      explain();
    },
    setTask(next) {
      task = next;
      const fresh = task === 'text' ? chartText() : chartRepeated();
      chart.el.replaceWith(fresh.el);
      chart = fresh;
      general.hidden = task === 'text';
      explain();
      generalText.textContent = 'Train a few hundred steps to compare.';
      delete generalText.dataset.trained;
      delete generalText.dataset.heldOut;
    },
    reset() {
      chart.reset();
      rate.textContent = '0 steps/s';
    },
    push(step, { train, repeated, all }) {
      chart.push(step, task === 'text' ? { train, repeated } : { train, repeated, all });
    },
    setRate(perSecond) {
      rate.textContent = `${Math.round(perSecond)} steps/s`;
    },
    /** trained, heldOut: probes on the trained and the never-seen repeat lengths. */
    setGeneralisation(trained, heldOut) {
      const best = (p) => Math.max(...p.headScores.flatMap((s) => s.induction));
      const a = best(trained);
      const b = best(heldOut);
      generalText.dataset.trained = String(a);
      generalText.dataset.heldOut = String(b);
      const verdict = b >= 0.4 && b >= 0.7 * a ? 'it copies what followed last time at any distance: a real induction head.'
        : a >= 0.4 ? 'it does much worse on the new lengths: it may have memorised periods.' : 'no induction head yet.';
      generalText.textContent = `Best induction score on repeat lengths it trained on: ${a.toFixed(2)} (loss ${trained.loss.toFixed(2)}); `
        + `on lengths it never saw (${HELD_OUT.join(' and ')}): ${b.toFixed(2)} (loss ${heldOut.loss.toFixed(2)}). So ${verdict}`;
    },
  };
}
