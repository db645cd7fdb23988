// The loss curves of a run, with the steps per second, and the generalisation check: the induction
// score and the loss on repeat lengths the model was trained on next to lengths it never saw.
// The chart carries ln V, the loss of a uniform guess over the V tokens, for reference: the loss on
// the whole repeated sequence rises above it once the model copies with confidence (the first
// copy is random, and confident wrong guesses cost more than even ones), and the hint says so.
import { el } from '../dom/dom.js';
import { english } from '../model/model.js';
import { createLineChart } from './curves.js';
import { HELD_OUT } from './config.js';

/** The panel; i18n: the view's translator. */
export function createLossPanel({ i18n = english } = {}) {
  const { t } = i18n;
  const fixed = (x, digits) => i18n.decimal(x.toFixed(digits));
  const root = el('section', 'loss-panel card');
  const heading = el('h2', 'section-title', t('training.loss.title'));
  heading.id = `train-loss-${Math.random().toString(36).slice(2, 8)}`;
  root.setAttribute('aria-labelledby', heading.id);
  const rate = el('p', 'steps-per-second', t('training.loss.rate', { rate: 0 }));
  const chartRepeated = () =>
    createLineChart({
      title: t('training.loss.chart'),
      i18n,
      series: [
        { key: 'train', label: t('training.loss.series.train'), style: 'c' },
        { key: 'repeated', label: t('training.loss.series.repeated'), style: 'a' },
        { key: 'all', label: t('training.loss.series.all'), style: 'b' },
      ],
    });
  const chartText = () =>
    createLineChart({
      title: t('training.loss.chart'),
      i18n,
      series: [
        { key: 'train', label: t('training.loss.series.train'), style: 'c' },
        { key: 'repeated', label: t('training.loss.series.probe'), style: 'a' },
      ],
    });
  let chart = chartRepeated();
  const hint = el('p', 'hint');
  const general = el('div', 'generalisation');
  general.append(el('h3', 'subsection-title', t('training.loss.general.title')));
  const generalText = el('p', 'generalisation-text', t('training.loss.general.idle'));
  generalText.dataset.generalisation = '';
  general.append(generalText);
  root.append(heading, rate, chart.el, hint, general);

  let task = 'repeated';
  let vocabulary = 0; // V, once the model is built

  function explain() {
    const lnV = vocabulary ? `ln ${vocabulary} ≈ ${fixed(Math.log(vocabulary), 2)}` : 'ln V';
    hint.dataset.lnV = vocabulary ? String(Math.log(vocabulary)) : '';
    hint.textContent = t(task === 'text' ? 'training.loss.hint.text' : 'training.loss.hint.repeated', {
      V: vocabulary || 'V',
      lnV,
    });
    chart.setReference(vocabulary ? Math.log(vocabulary) : null, t('training.loss.uniform', { lnV }));
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
      generalText.textContent = t('training.loss.general.idle');
      delete generalText.dataset.trained;
      delete generalText.dataset.heldOut;
    },
    reset() {
      chart.reset();
      rate.textContent = t('training.loss.rate', { rate: 0 });
    },
    push(step, { train, repeated, all }) {
      chart.push(step, task === 'text' ? { train, repeated } : { train, repeated, all });
    },
    setRate(perSecond) {
      rate.textContent = t('training.loss.rate', { rate: Math.round(perSecond) });
    },
    /** trained, heldOut: probes on the trained and the never-seen repeat lengths. */
    setGeneralisation(trained, heldOut) {
      const best = (p) => Math.max(...p.headScores.flatMap((s) => s.induction));
      const a = best(trained);
      const b = best(heldOut);
      generalText.dataset.trained = String(a);
      generalText.dataset.heldOut = String(b);
      const verdict = b >= 0.4 && b >= 0.7 * a ? 'real' : a >= 0.4 ? 'memorised' : 'none';
      const lengths = new Intl.ListFormat(i18n.lang === 'qps' ? 'en' : i18n.lang, { type: 'conjunction' }).format(
        HELD_OUT.map(String),
      );
      generalText.textContent = t(`training.loss.general.${verdict}`, {
        trained: fixed(a, 2),
        trainedLoss: fixed(trained.loss, 2),
        lengths,
        heldOut: fixed(b, 2),
        heldOutLoss: fixed(heldOut.loss, 2),
      });
    },
  };
}
