// Controls for what the core computes beyond the basic example: the bias matrix B (on/off and
// its preset), the projection biases b_Q, b_K, b_V, b_O, and cross-attention with its memory
// sentence. Labelled native form elements; state transitions go back through `update`.
import { BIAS_PRESETS, dims, english, MAX_TOKENS, setBiasMatrix, setMemory, tokenize } from './model/model.js';
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

export function createExtrasControls({ update, i18n = english }) {
  const { t } = i18n;
  const root = el('fieldset', 'control-group extras');
  root.append(el('legend', '', t('explorer.extras.legend')));

  const bias = checkbox('bias-matrix', t('explorer.extras.bias'));
  const preset = selectOf(
    'bias-preset',
    BIAS_PRESETS.map(([id]) => [id, t(`explorer.extras.biasPreset.${id}`)]),
  );
  const presetLabel = el('label', '', t('explorer.extras.biasStarts'));
  presetLabel.htmlFor = preset.id;
  const presetRow = el('div', 'field');
  presetRow.append(presetLabel, preset);
  const biasHelp = help('bias-matrix-help', t('explorer.extras.biasHelp'));
  bias.input.setAttribute('aria-describedby', biasHelp.id);
  bias.input.addEventListener('change', () => update((s) => setBiasMatrix(s, { on: bias.input.checked })));
  preset.addEventListener('change', () => update((s) => setBiasMatrix(s, { on: true, preset: preset.value })));

  const biases = checkbox('projection-biases', t('explorer.extras.biases'));
  const biasesHelp = help('projection-biases-help');
  biases.input.setAttribute('aria-describedby', biasesHelp.id);
  biases.input.addEventListener('change', () => update((s) => ({ ...s, biases: biases.input.checked })));

  const cross = checkbox('cross-attention', t('explorer.extras.cross'));
  const memory = sentenceInput('memory-sentence');
  memory.translate = false;
  const memoryLabel = el('label', '', t('explorer.extras.memory'));
  memoryLabel.htmlFor = memory.id;
  const memoryRow = el('div', 'field memory-field');
  memoryRow.append(memoryLabel, memory);
  const crossHelp = help('cross-attention-help');
  cross.input.setAttribute('aria-describedby', crossHelp.id);
  memory.setAttribute('aria-describedby', crossHelp.id);
  cross.input.addEventListener('change', () =>
    update((s) => ({ ...s, cross: { ...s.cross, on: cross.input.checked } })),
  );
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
      setText(
        biasesHelp,
        t(
          !d.sentence
            ? 'explorer.extras.biasesHelp.qkv'
            : d.multi
              ? 'explorer.extras.biasesHelp.multi'
              : 'explorer.extras.biasesHelp.one',
        ),
      );
      setDisabled(cross.input, !d.sentence);
      cross.input.checked = d.cross;
      setHidden(memoryRow, !d.cross);
      if (memory.getRootNode().activeElement !== memory && memory.value !== state.cross.sentence)
        memory.value = state.cross.sentence;
      setText(
        crossHelp,
        !d.sentence
          ? t('explorer.extras.crossHelp.qkv')
          : d.cross
            ? t('explorer.extras.crossHelp.on', { n: d.n, m: d.m, max: MAX_TOKENS })
            : t('explorer.extras.crossHelp.self'),
      );
    },
  };
}
