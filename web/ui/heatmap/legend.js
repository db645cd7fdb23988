// The colour legend under a heatmap: the gradient with its true range (weights 0..1, a diverging
// range symmetric about 0 with the data's actual min and max), plus a swatch for hidden cells.
import { english, formatNumber } from '../model/model.js';
import { el, setText } from '../dom/dom.js';

export function createLegend({ t, decimal } = english) {
  const num = (v) => decimal(formatNumber(v, 3));
  const root = el('div', 'legend');
  const bar = el('div', 'legend-bar');
  bar.setAttribute('aria-hidden', 'true');
  const ticks = el('div', 'legend-ticks');
  const lo = el('span', 'tick-lo');
  const mid = el('span', 'tick-mid');
  const hi = el('span', 'tick-hi');
  ticks.append(lo, mid, hi);
  const note = el('div', 'legend-note');
  const hidden = el('span', 'legend-hidden');
  const swatch = el('span', 'swatch masked');
  swatch.setAttribute('aria-hidden', 'true');
  hidden.append(swatch, el('span', '', t('explorer.heatmap.legendHidden')));
  const scaleBox = el('div', 'legend-scale');
  scaleBox.append(bar, ticks);
  root.append(scaleBox, note, hidden);
  let last = '';

  return {
    el: root,
    /** scale from makeScale; dataMin/dataMax are the finite values actually present. */
    update(scale, dataMin, dataMax, anyHidden) {
      const key = `${scale.gradient}|${scale.min}|${scale.max}|${dataMin}|${dataMax}|${anyHidden}`;
      if (key === last) return;
      last = key;
      if (bar.style.backgroundImage !== scale.gradient) bar.style.backgroundImage = scale.gradient;
      if (scale.kind === 'diverging') {
        const M = Math.max(Math.abs(scale.min), Math.abs(scale.max));
        setText(lo, num(-M));
        setText(mid, '0');
        setText(hi, num(M));
        setText(
          note,
          Number.isFinite(dataMin)
            ? t('explorer.heatmap.legendValues', { min: num(dataMin), max: num(dataMax) })
            : t('explorer.heatmap.legendNone'),
        );
      } else {
        setText(lo, num(scale.min));
        setText(mid, num((scale.min + scale.max) / 2));
        setText(hi, num(scale.max));
        setText(
          note,
          Number.isFinite(dataMin) ? t('explorer.heatmap.legendWeights', { min: num(dataMin), max: num(dataMax) }) : '',
        );
      }
      if (hidden.hidden !== !anyHidden) hidden.hidden = !anyHidden;
      const label = t('explorer.heatmap.legendLabel', { min: lo.textContent, max: hi.textContent });
      if (root.getAttribute('aria-label') !== label) root.setAttribute('aria-label', label);
    },
    /** No range while the map is covered (a diverging scale's ends follow its values). */
    clear() {
      last = '';
      for (const part of [lo, mid, hi, note]) setText(part, '');
      hidden.hidden = true;
      root.removeAttribute('aria-label');
    },
  };
}
