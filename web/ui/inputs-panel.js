// The inputs: either Q, K, V typed directly, or a sentence whose tokens label the rows, the token
// vectors X and the projection matrices W_Q, W_K, W_V (and W_O with several heads), followed by
// the projections Q = X·W_Q, K = X·W_K, V = X·W_V the core computes from them.
import { createCard } from './card.js';
import { createHeatmap } from './heatmap.js';
import { createMatrixEditor } from './matrix-editor.js';
import { activeMatrices, dims, MAX_TOKENS } from './state.js';
import { isPad, PAD } from './tokenizer.js';
import { describeVectorsIn } from './vector-source.js';
import { subscript } from './format.js';
import { el, section, selectOf, sentenceInput, setAttr, setHidden, setText } from './dom.js';

const SUB_K = '\u2096';
// Matrices with more cells start folded and are built when opened: every <input> is its own paint
// chunk, and a thousand of them cost the browser more than a frame on each redraw.
const COLLAPSE_CELLS = 300;

const TITLES = {
  Q: ['Queries Q', 'What each query token is looking for.'],
  K: ['Keys K', 'What each key token offers to be matched on.'],
  V: ['Values V', 'What each key token passes on when attended to.'],
  X: ['Token vectors X', 'One row per token (for a typed sentence: its word\u2019s vector plus its position\u2019s). Edit it to change what a token "means".'],
  WQ: ['W_Q', 'Projects a token vector to its query.'],
  WK: ['W_K', 'Projects a token vector to its key.'],
  WV: ['W_V', 'Projects a token vector to its value.'],
  WO: ['W_O', 'Mixes the concatenated head outputs into the layer output.'],
  XM: ['Memory vectors X_mem', 'One row per memory token (cross-attention): the keys and values are computed from these rows.'],
  BQ: ['b_Q', 'Added to every row of Q = X\u00b7W_Q + b_Q.'],
  BK: ['b_K', 'Added to every row of K. A bias on the keys shifts every score of a query equally, so the softmax cancels it.'],
  BV: ['b_V', 'Added to every row of V, so it passes unchanged into every output row (weights sum to 1).'],
  BO: ['b_O', 'Added to every row of the layer output.'],
};
// The editors in page order: each projection bias right after its W.
const EDITOR_NAMES = ['Q', 'K', 'V', 'X', 'XM', 'WQ', 'BQ', 'WK', 'BK', 'WV', 'BV', 'WO', 'BO'];

const POSITIONAL_LABELS = [
  ['none', 'none (attention cannot tell the order)'],
  ['sinusoidal', 'sinusoidal (sin/cos of the position)'],
  ['learned', 'learned-style (a random vector per position)'],
];

/**
 * onReset(name) puts a matrix back to the example's values; canReset(name) says whether it has
 * been edited since the example set it.
 */
export function createInputsPanel({ onEdit, onInspect, onSentence, onPositional, onReset = () => {}, canReset = () => false }) {
  const { root, sub } = section('inputs', 'inputs', 'Inputs');

  // Sentence field (sentence mode).
  const sentenceBox = el('div', 'sentence-box');
  const sentenceLabel = el('label', '', 'Sentence');
  sentenceLabel.htmlFor = 'sentence';
  const sentenceRow = el('div', 'sentence-row');
  const sentence = sentenceInput('sentence');
  sentence.setAttribute('aria-describedby', 'sentence-help');
  const addPad = el('button', 'small-button', `+ ${PAD}`);
  addPad.type = 'button';
  addPad.title = 'Append a padding token (hide it with the padding mask)';
  sentenceRow.append(sentence, addPad);
  const help = el('p', 'help');
  help.id = 'sentence-help';
  const tokenList = el('ol', 'tokens');
  tokenList.setAttribute('aria-label', 'Tokens');
  // What the token vectors are: nothing here is trained, so say how they are made.
  const positional = selectOf('positional', POSITIONAL_LABELS);
  positional.addEventListener('change', () => onPositional(positional.value));
  const positionalLabel = el('label', '', 'Position information added to X');
  positionalLabel.htmlFor = positional.id;
  const positionalRow = el('div', 'field positional-field');
  positionalRow.append(positionalLabel, positional);
  const vectorsNote = el('p', 'help vectors-note');
  vectorsNote.id = 'vectors-note';
  vectorsNote.textContent = 'Each word\u2019s vector is random but fixed: the same word always gets the same vector (from NumPy\u2019s generator, seeded by a hash of the lower-cased word and the seed). No model has learned them, so similar words are not close. Changing the sentence, the seed, d_model or the positions rebuilds X; edits to X last until then.';
  positional.setAttribute('aria-describedby', vectorsNote.id);
  sentenceBox.append(sentenceLabel, sentenceRow, help, tokenList, positionalRow, vectorsNote);
  root.append(sentenceBox);

  const matrixGrid = el('div', 'matrices');
  root.append(matrixGrid);

  const editors = {};
  const cards = {};
  const folds = {};
  const resets = {};
  for (const name of EDITOR_NAMES) {
    const [title, hint] = TITLES[name];
    const card = createCard({ title, hint, className: 'matrix-card' });
    const editor = createMatrixEditor({ name, label: title, onEdit, onInspect: (n, i, j) => onInspect({ kind: 'input', name: n, i, j }) });
    const details = el('details', 'fold');
    const summary = el('summary', '', 'Show the matrix');
    details.append(summary, editor.el);
    details.addEventListener('toggle', () => {
      editor.setActive(details.open);
      summary.textContent = details.open ? 'Hide the matrix' : `Show the matrix (${details.dataset.cells} cells)`;
    });
    folds[name] = details;
    const reset = el('button', 'small-button reset-matrix', 'Reset');
    reset.type = 'button';
    reset.dataset.reset = name;
    reset.title = `Put ${title} back to the example\u2019s exact values`;
    reset.setAttribute('aria-label', `Reset ${title} to the example\u2019s values`);
    reset.addEventListener('click', () => onReset(name));
    resets[name] = reset;
    card.el.querySelector('.card-header').append(reset);
    card.body.append(details);
    editors[name] = editor;
    cards[name] = card;
    matrixGrid.append(card.el);
  }

  // Projections (sentence mode).
  const projGrid = el('div', 'matrices projections');
  const projMaps = {};
  const projCards = {};
  for (const name of ['Q', 'K', 'V']) {
    const card = createCard({ title: `${name} = X\u00b7W_${name}`, className: 'matrix-card' });
    const map = createHeatmap({ name, label: `${name} = X times W_${name}`, kind: 'diverging', onInspect: (i, j) => onInspect({ kind: 'proj', name, i, j }) });
    card.body.append(map.el);
    projMaps[name] = map;
    projCards[name] = card;
    projGrid.append(card.el);
  }
  const projHeading = el('h3', 'subsection', 'Projections, computed by the core');
  root.append(projHeading, projGrid);

  let lastSentence = null;
  const foldedOnce = new Set();
  sentence.addEventListener('input', () => {
    const ok = onSentence(sentence.value);
    sentence.setAttribute('aria-invalid', ok ? 'false' : 'true');
    help.classList.toggle('invalid', !ok);
    if (!ok) help.textContent = 'Type at least one word: the tokens label the rows and columns.';
  });
  addPad.addEventListener('click', () => {
    sentence.value = `${sentence.value.trimEnd()} ${PAD}`;
    sentence.dispatchEvent(new Event('input'));
  });

  return {
    el: root,
    editors,
    projMaps,
    render(state, result, display) {
      const d = dims(state);
      const labels = result.labels;
      const active = new Map(activeMatrices(state).map(([n, r, c]) => [n, [r, c]]));
      setHidden(sentenceBox, !d.sentence);
      setHidden(projHeading, !d.sentence);
      setHidden(projGrid, !d.sentence);
      setText(sub, d.sentence
        ? `Type a sentence, then edit the token vectors and the projection weights (d_model = ${d.dModel}). Every number below follows at once.`
        : 'Edit any query, key or value. Every number below follows at once.');

      if (d.sentence) {
        if (sentence.getRootNode().activeElement !== sentence && sentence.value !== state.sentence) sentence.value = state.sentence;
        if (lastSentence !== state.tokens.join('\u0000')) {
          lastSentence = state.tokens.join('\u0000');
          tokenList.replaceChildren(...state.tokens.map((t) => {
            const li = el('li', isPad(t) ? 'token pad' : 'token', t);
            return li;
          }));
        }
        if (positional.value !== state.positional) positional.value = state.positional;
        if (!help.classList.contains('invalid') || sentence.getAttribute('aria-invalid') !== 'true')
          setText(help, `${state.tokens.length} token${state.tokens.length > 1 ? 's' : ''} (at most ${MAX_TOKENS}); words and punctuation become tokens, ${PAD} is a padding token.`);
        describeVectorsIn(state, { help, note: vectorsNote, positionalRow });  // trained or random vectors
      }

      for (const [name, editor] of Object.entries(editors)) {
        const shape = active.get(name);
        cards[name].setVisible(!!shape);
        if (!shape || !state.matrices[name]) {
          editor.setActive(false);
          continue;
        }
        const [r, c] = shape;
        const card = cards[name];
        card.setShape(`${r} \u00d7 ${c}`);
        let rowLabels;
        if (name === 'X') rowLabels = labels.queries;
        else if (name === 'Q') rowLabels = labels.queries;
        else if (name === 'K' || name === 'XM') rowLabels = labels.keys;
        else if (r === 1 && name.startsWith('B')) rowLabels = [TITLES[name][0]];
        else if (name === 'V') rowLabels = labels.keys.map((_, j) => `v${subscript(j + 1)}`);
        else rowLabels = Array.from({ length: r }, (_, i) => String(i + 1));
        // Small matrices are always open; large ones start folded, then keep the reader's choice.
        const fold = folds[name];
        const small = r * c <= COLLAPSE_CELLS;
        setAttr(fold, 'data-cells', String(r * c));
        fold.classList.toggle('always-open', small);
        const key = `${name}:${r}x${c}`;
        if (small) fold.open = true;
        else if (!foldedOnce.has(key)) {
          foldedOnce.add(key);
          fold.open = false;
          fold.firstChild.textContent = `Show the matrix (${r * c} cells)`;
        }
        editor.setActive(fold.open);
        if (name.startsWith('B')) card.setFormula(`1 \u00d7 ${c}, one per column of ${name === 'BO' ? 'the output' : name[1]}`);
        if (name.startsWith('W')) {
          const formula = name === 'WO'
            ? `d_model \u00d7 d_model = ${r} \u00d7 ${c}`
            : d.multi ? `d_model \u00d7 (h\u00b7d${SUB_K}) = ${r} \u00d7 ${c}` : `d_model \u00d7 d${name === 'WV' ? '\u1d65' : SUB_K} = ${r} \u00d7 ${c}`;
          card.setFormula(formula);
        }
        editor.update({ matrix: state.matrices[name], rowLabels, theme: display.theme });
        const locked = !canReset(name);
        if (resets[name].disabled !== locked) resets[name].disabled = locked;
      }

      if (d.sentence && !result.error) {
        for (const name of ['Q', 'K', 'V']) {
          const t = result.proj[name];
          const card = projCards[name];
          const src = name !== 'Q' && d.cross ? 'X_mem' : 'X';
          card.setTitle(`${name} = ${src}\u00b7W_${name}${d.biases ? ` + b_${name}` : ''}`);
          card.setShape(`${t.shape[0]} \u00d7 ${t.shape[1]}`);
          card.setHint(d.multi
            ? `Columns are split into ${d.heads} heads of ${t.shape[1] / d.heads}: head 1 reads columns 1\u2013${t.shape[1] / d.heads}, and so on.`
            : '');
          projMaps[name].update({
            tensor: t, rowLabels: name === 'Q' ? labels.queries : labels.keys,
            colLabels: Array.from({ length: t.shape[1] }, (_, c) => String(c + 1)),
            padRows: state.mask.kind === 'padding' && (name !== 'Q' || !d.cross) ? state.mask.pad : null,
            groupCols: d.multi ? t.shape[1] / d.heads : 0,
            ...display,
          });
        }
      }
    },
    /** Editor or projection map by matrix name, for highlighting. */
    target(name, sentenceMode) {
      if (sentenceMode && ['Q', 'K', 'V'].includes(name)) return projMaps[name];
      return editors[name];
    },
  };
}
