// Controls for what the core computes beyond the basic example: the bias matrix B (on/off and
// its preset), the projection biases b_Q, b_K, b_V, b_O, and cross-attention with its memory
// sentence. Labelled native form elements; state transitions go back through `update`.
import { BIAS_PRESETS, dims, MAX_TOKENS, setBiasMatrix, setMemory, tokenize } from './model/model.js';
import { el, selectOf, sentenceInput, setDisabled, setHidden, setText } from './dom/dom.js';

function checkbox(id, text) {
  const input = el('input');
  input.type = 'checkbox';
  input.id = id;
  const label = el('label', 'check');
  label.append(input, el('span', '', text));
  return { input, label };
}

function help(id, text = '') {
  const p = el('p', 'help', text);
  p.id = id;
  return p;
}

const memoryTokens = (text) => tokenize(text, MAX_TOKENS).tokens;

export function createExtrasControls({ update }) {
  const root = el('fieldset', 'control-group extras');
  root.append(el('legend', '', 'Bias and cross-attention'));

  const bias = checkbox('bias-matrix', 'Add a bias matrix B to the scores');
  const preset = selectOf('bias-preset', BIAS_PRESETS);
  const presetLabel = el('label', '', 'B starts as');
  presetLabel.htmlFor = preset.id;
  const presetRow = el('div', 'field');
  presetRow.append(presetLabel, preset);
  const biasHelp = help('bias-matrix-help', 'B is added to the scaled scores before the softmax (an additive mask); it combines with the mask above. Type -inf in a cell to hide a pair.');
  bias.input.setAttribute('aria-describedby', biasHelp.id);
  bias.input.addEventListener('change', () => update((s) => setBiasMatrix(s, { on: bias.input.checked })));
  preset.addEventListener('change', () => update((s) => setBiasMatrix(s, { on: true, preset: preset.value })));

  const biases = checkbox('projection-biases', 'Projection biases b_Q, b_K, b_V, b_O');
  const biasesHelp = help('projection-biases-help');
  biases.input.setAttribute('aria-describedby', biasesHelp.id);
  biases.input.addEventListener('change', () => update((s) => ({ ...s, biases: biases.input.checked })));

  const cross = checkbox('cross-attention', 'Cross-attention: keys and values from a memory sentence');
  const memory = sentenceInput('memory-sentence');
  const memoryLabel = el('label', '', 'Memory sentence (keys and values)');
  memoryLabel.htmlFor = memory.id;
  const memoryRow = el('div', 'field memory-field');
  memoryRow.append(memoryLabel, memory);
  const crossHelp = help('cross-attention-help');
  cross.input.setAttribute('aria-describedby', crossHelp.id);
  memory.setAttribute('aria-describedby', crossHelp.id);
  cross.input.addEventListener('change', () => update((s) => ({ ...s, cross: { ...s.cross, on: cross.input.checked } })));
  memory.addEventListener('input', () => {
    const ok = memoryTokens(memory.value).length > 0;
    memory.setAttribute('aria-invalid', ok ? 'false' : 'true');
    if (ok) update((s) => setMemory(s, memory.value, memoryTokens) ?? s);
  });

  root.append(bias.label, presetRow, biasHelp, biases.label, biasesHelp, cross.label, memoryRow, crossHelp);

  return {
    el: root,
    render(state) {
      const d = dims(state);
      bias.input.checked = d.biasMatrix;
      if (preset.value !== state.biasMatrix.preset) preset.value = state.biasMatrix.preset;
      setHidden(presetRow, !d.biasMatrix);
      setDisabled(biases.input, !d.sentence);
      biases.input.checked = d.biases;
      setText(biasesHelp, !d.sentence ? 'Sentence mode only: the biases belong to the projections X\u00b7W.'
        : d.multi ? 'Q = X\u00b7W_Q + b_Q (and K, V alike), output = concat\u00b7W_O + b_O: the layer is built with bias: true.'
          : 'Q = X\u00b7W_Q + b_Q, K = X\u00b7W_K + b_K, V = X\u00b7W_V + b_V (one head has no W_O, so no b_O).');
      setDisabled(cross.input, !d.sentence);
      cross.input.checked = d.cross;
      setHidden(memoryRow, !d.cross);
      if (memory.getRootNode().activeElement !== memory && memory.value !== state.cross.sentence) memory.value = state.cross.sentence;
      setText(crossHelp, !d.sentence ? 'Sentence mode only (with Q, K, V typed directly, K and V may already have m \u2260 n rows).'
        : d.cross ? `Queries from the sentence (n = ${d.n}), keys and values from the memory (m = ${d.m} tokens, at most ${MAX_TOKENS}): K = X_mem\u00b7W_K, V = X_mem\u00b7W_V.`
          : 'Self-attention: queries, keys and values all come from the sentence.');
    },
  };
}
