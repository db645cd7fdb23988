// The colour legend under a heatmap: the gradient with its true range (weights 0..1, a diverging
// range symmetric about 0 with the data's actual min and max), plus a swatch for hidden cells.
import { formatNumber } from '../model/model.js';
import { el, setText } from '../dom/dom.js';

export function createLegend() {
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
  hidden.append(swatch, el('span', '', 'hidden (\u2212\u221e before softmax)'));
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
        setText(lo, formatNumber(-M, 3));
        setText(mid, '0');
        setText(hi, formatNumber(M, 3));
        setText(note, Number.isFinite(dataMin)
          ? `values ${formatNumber(dataMin, 3)} to ${formatNumber(dataMax, 3)}, centred on 0`
          : 'no visible values');
      } else {
        setText(lo, formatNumber(scale.min, 3));
        setText(mid, formatNumber((scale.min + scale.max) / 2, 3));
        setText(hi, formatNumber(scale.max, 3));
        setText(note, Number.isFinite(dataMin)
          ? `weights from ${formatNumber(dataMin, 3)} to ${formatNumber(dataMax, 3)}`
          : '');
      }
      if (hidden.hidden !== !anyHidden) hidden.hidden = !anyHidden;
      const label = `Colour scale from ${lo.textContent} to ${hi.textContent}`;
      if (root.getAttribute('aria-label') !== label) root.setAttribute('aria-label', label);
    },
  };
}
