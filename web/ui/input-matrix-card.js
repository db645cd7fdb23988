// One editable input matrix of the inputs panel: a card holding the matrix editor in a fold, with
// a Reset button in its header. Its render sizes, labels and folds the editor for the state.
import { createCard, el, setAttr } from './dom/dom.js';
import { createMatrixEditor } from './matrix-editor/matrix-editor.js';
import { subscript } from './model/model.js';

const SUB_K = 'ₖ';
// Matrices with more cells start folded and are built when opened: every <input> is its own paint
// chunk, and a thousand of them cost the browser more than a frame on each redraw.
const COLLAPSE_CELLS = 300;

function rowLabelsFor(name, title, r, labels) {
  if (name === 'X') return labels.queries;
  if (name === 'Q') return labels.queries;
  if (name === 'K' || name === 'XM') return labels.keys;
  if (r === 1 && name.startsWith('B')) return [title];
  if (name === 'V') return labels.keys.map((_, j) => `v${subscript(j + 1)}`);
  return Array.from({ length: r }, (_, i) => String(i + 1));
}

// The shape formula under a bias's or a projection weight's title (null for the others).
function formulaFor(name, r, c, d, { t }) {
  if (name.startsWith('B'))
    return name === 'BO'
      ? t('explorer.inputs.biasShapeOutput', { c })
      : t('explorer.inputs.biasShape', { c, of: name[1] });
  if (!name.startsWith('W')) return null;
  return name === 'WO'
    ? `d_model × d_model = ${r} × ${c}`
    : d.multi
      ? `d_model × (h·d${SUB_K}) = ${r} × ${c}`
      : `d_model × d${name === 'WV' ? 'ᵥ' : SUB_K} = ${r} × ${c}`;
}

function resetButton(name, title, onReset, { t }) {
  const reset = el('button', 'small-button reset-matrix', t('explorer.inputs.reset'));
  reset.type = 'button';
  reset.dataset.reset = name;
  reset.title = t('explorer.inputs.resetTitle', { name: title });
  reset.setAttribute('aria-label', t('explorer.inputs.resetLabel', { name: title }));
  reset.addEventListener('click', () => onReset(name));
  return reset;
}

/** canReset(name) says whether the matrix has been edited since the example set it. */
export function createInputMatrixCard({ name, title, hint, onEdit, onInspect, onReset, canReset, i18n }) {
  const { t } = i18n;
  const card = createCard({ title, hint, className: 'matrix-card' });
  const editor = createMatrixEditor({
    name,
    label: title,
    onEdit,
    onInspect: (n, i, j) => onInspect({ kind: 'input', name: n, i, j }),
    i18n,
  });
  const fold = el('details', 'fold');
  const summary = el('summary', '', t('explorer.inputs.showMatrix'));
  fold.append(summary, editor.el);
  fold.addEventListener('toggle', () => {
    editor.setActive(fold.open);
    summary.textContent = fold.open
      ? t('explorer.inputs.hideMatrix')
      : t('explorer.inputs.showMatrixCells', { count: Number(fold.dataset.cells) });
  });
  const reset = resetButton(name, title, onReset, i18n);
  card.el.querySelector('.card-header').append(reset);
  card.body.append(fold);
  const foldedShapes = new Set();

  // Small matrices are always open; large ones start folded, then keep the reader's choice.
  const syncFold = (r, c) => {
    const small = r * c <= COLLAPSE_CELLS;
    setAttr(fold, 'data-cells', String(r * c));
    fold.classList.toggle('always-open', small);
    const key = `${r}x${c}`;
    if (small) {
      if (!fold.open) fold.open = true;
    } else if (!foldedShapes.has(key)) {
      foldedShapes.add(key);
      fold.open = false;
      fold.firstChild.textContent = t('explorer.inputs.showMatrixCells', { count: r * c });
    }
  };

  return {
    el: card.el,
    editor,
    /** shape: [rows, cols] while the matrix is in use, else undefined (the card hides). */
    render({ state, d, labels, display, shape }) {
      card.setVisible(!!shape);
      if (!shape || !state.matrices[name]) {
        editor.setActive(false);
        return;
      }
      const [r, c] = shape;
      card.setShape(`${r} × ${c}`);
      const rowLabels = rowLabelsFor(name, title, r, labels);
      syncFold(r, c);
      editor.setActive(fold.open);
      const formula = formulaFor(name, r, c, d, i18n);
      if (formula !== null) card.setFormula(formula);
      editor.update({ matrix: state.matrices[name], rowLabels, theme: display.theme });
      const locked = !canReset(name);
      if (reset.disabled !== locked) reset.disabled = locked;
    },
  };
}
