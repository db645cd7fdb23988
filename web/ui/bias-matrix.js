// The bias matrix B as a step of the pipeline, between the scaled scores and the softmax: an
// editable n × m matrix (the same editor as every other matrix) with Reset; its switch and preset
// menu are in the controls (extras-controls.js).
// Its cells accept −∞: "-inf" (or −∞, -infinity) typed into a cell is read as −Infinity, other
// text as a finite number.
import { createCard, el } from './dom/dom.js';
import { createMatrixEditor } from './matrix-editor/matrix-editor.js';
import { english, parseNumber } from './model/model.js';

const NEG_INF_TEXT = /^\s*[-\u2212\u2011]\s*(inf|infinity|\u221e)\s*$/i;

/** Whether a cell's text means −∞. */
const isNegInfText = (text) => NEG_INF_TEXT.test(String(text));

/** A bias cell's text as a number: −Infinity, a finite number, or NaN if it is neither. */
export const parseBias = (text) => (isNegInfText(text) ? -Infinity : (parseNumber(text) ?? NaN));

export function createBiasCard({ onEdit, onInspect, onReset, canReset, i18n = english }) {
  const { t } = i18n;
  const card = createCard({
    step: '2b',
    title: t('explorer.bias.title'),
    formula: t('explorer.bias.formula'),
    hint: t('explorer.bias.hint'),
  });
  card.el.dataset.card = 'bias-matrix';
  const editor = createMatrixEditor({
    name: 'B',
    label: t('explorer.bias.title'),
    onEdit,
    parse: parseBias,
    onInspect: (n, i, j) => onInspect({ kind: 'input', name: n, i, j }),
    i18n,
  });
  const reset = el('button', 'small-button reset-matrix', t('explorer.inputs.reset'));
  reset.type = 'button';
  reset.dataset.reset = 'B';
  reset.setAttribute('aria-label', t('explorer.bias.reset'));
  reset.addEventListener('click', () => onReset('B'));
  card.el.querySelector('.card-header').append(reset);
  card.body.append(editor.el);

  return {
    el: card.el,
    editor,
    render(state, result, display) {
      const on = result.dims.biasMatrix && !result.error && Boolean(state.matrices.B);
      card.setVisible(on);
      editor.setActive(on);
      if (!on) return;
      const B = state.matrices.B;
      card.setShape(`${B.rows} × ${B.cols}`);
      editor.update({ matrix: B, rowLabels: result.labels.queries, theme: display.theme });
      reset.disabled = !canReset('B');
      const rows = result.fullyMasked.size;
      card.setNote(rows ? t('explorer.bias.fullyMasked', { count: rows }) : '');
    },
  };
}
