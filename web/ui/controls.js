// The control panel: example presets, input mode, sizes, seeded randomness, scaling, masks and
// the selected head. Every control is a labelled native form element; the panel reads the state
// and sends pure state transitions back, it keeps no state of its own.
import {
  describeDModel,
  describeHeadSplit,
  describeShown,
  dims,
  english,
  formatNumber,
  LIMITS,
  PRESETS,
  setHeads,
  togglePad,
} from './model/model.js';
import { el, numberInput, selectOf, setAttr, setDisabled, setHidden, setText } from './dom/dom.js';
import { createExtrasControls } from './extras-controls.js';
import { createVectorSource } from './vector-source.js';

const SUB_K = 'ₖ';
let uid = 0;

function fieldset(legend, className = '') {
  const f = el('fieldset', `control-group ${className}`.trim());
  f.append(el('legend', '', legend));
  return f;
}

function labelled(labelText, input, hintText) {
  const wrap = el('div', 'field');
  const id = input.id || `ctl-${++uid}`;
  input.id = id;
  const label = el('label', '', labelText);
  label.htmlFor = id;
  wrap.append(label, input);
  if (hintText) {
    const hint = el('span', 'field-hint', hintText);
    hint.id = `${id}-hint`;
    input.setAttribute('aria-describedby', hint.id);
    wrap.append(hint);
  }
  return wrap;
}

function radioGroup(name, options, className = 'radios') {
  const wrap = el('div', className);
  const inputs = {};
  for (const [value, text] of options) {
    const label = el('label', 'radio');
    const input = el('input');
    input.type = 'radio';
    input.name = name;
    input.value = value;
    label.append(input, el('span', '', text));
    wrap.append(label);
    inputs[value] = input;
  }
  return { el: wrap, inputs };
}

// The focused element of the input's own document or shadow root (document.activeElement is the
// host element when the explorer lives in a shadow root).
const isFocused = (input) => input.getRootNode().activeElement === input;

const setIfIdle = (input, value) => {
  if (!isFocused(input) && input.value !== String(value)) input.value = String(value);
};

// Example: the preset menu and its description.
function exampleGroup(applyPreset, i18n) {
  const { t } = i18n;
  const group = fieldset(t('explorer.controls.example'), 'example');
  const preset = el('select');
  preset.id = 'preset';
  const placeholder = el('option', '', t('explorer.controls.choose'));
  placeholder.value = '';
  preset.append(
    placeholder,
    ...PRESETS.map((p) => {
      const o = el('option', '', t(`explorer.preset.${p.id}.label`));
      o.value = p.id;
      return o;
    }),
  );
  const presetHelp = el('p', 'help');
  presetHelp.id = 'preset-help';
  preset.setAttribute('aria-describedby', presetHelp.id);
  group.append(labelled(t('explorer.controls.preset'), preset), presetHelp);
  preset.addEventListener('change', () => {
    if (preset.value) applyPreset(preset.value);
  });
  return {
    el: group,
    preset,
    render(state) {
      const presetDef = PRESETS.find((p) => p.id === preset.value);
      // No preset: the menu says what is shown when it is something of its own (a trained head).
      const shown = presetDef ? null : describeShown(state, i18n);
      setText(placeholder, shown ? shown.option : t('explorer.controls.choose'));
      setText(
        presetHelp,
        presetDef
          ? t(`explorer.preset.${presetDef.id}.description`)
          : shown
            ? shown.help
            : t('explorer.controls.presetHelp'),
      );
    },
  };
}

// Input mode: sentence or Q, K, V typed directly.
function modeGroup({ update, leavePreset, i18n }) {
  const { t } = i18n;
  const group = fieldset(t('explorer.controls.input'));
  const mode = radioGroup('mode', [
    ['sentence', t('explorer.controls.mode.sentence')],
    ['qkv', t('explorer.controls.mode.qkv')],
  ]);
  const vectorSource = createVectorSource({ update, onChoose: leavePreset, i18n }); // sentence mode: random or trained vectors
  group.append(mode.el, vectorSource.el);
  for (const input of Object.values(mode.inputs)) {
    input.addEventListener('change', () => {
      leavePreset();
      update((s) => ({ ...s, mode: input.value }));
    });
  }
  return {
    el: group,
    render(state) {
      mode.inputs[state.mode].checked = true;
      vectorSource.render(state);
    },
  };
}

// The token count shown under the sizes in sentence mode (the sentence sets n and m).
function tokenCountText(d, { t }) {
  if (!d.sentence) return '';
  const tokens = d.cross
    ? t('explorer.controls.tokens.cross', { n: d.n, m: d.m })
    : t('explorer.controls.tokens.self', { count: d.n });
  return d.multi ? `${tokens} ${t('explorer.controls.tokens.perHead')}` : tokens;
}

// Sizes: n and m typed directly, d_model and h from a sentence; d_k and d_v follow from h.
function sizesGroup({ update, leavePreset, i18n }) {
  const { t } = i18n;
  const group = fieldset(t('explorer.controls.sizes'), 'sizes');
  const sizeInputs = {
    n: numberInput(LIMITS.n, 1, i18n),
    m: numberInput(LIMITS.m, 1, i18n),
    dModel: numberInput(LIMITS.dModel, 1, i18n),
    heads: numberInput(LIMITS.heads, 1, i18n),
    dk: numberInput(LIMITS.dk, 1, i18n),
    dv: numberInput(LIMITS.dv, 1, i18n),
  };
  for (const [key, input] of Object.entries(sizeInputs)) input.id = `size-${key}`;
  const sizeFields = {
    n: labelled(t('explorer.controls.size.n'), sizeInputs.n),
    m: labelled(t('explorer.controls.size.m'), sizeInputs.m),
    dModel: labelled('d_model', sizeInputs.dModel),
    heads: labelled(t('explorer.controls.size.heads'), sizeInputs.heads),
    dk: labelled(`d${SUB_K}`, sizeInputs.dk),
    dv: labelled('dᵥ', sizeInputs.dv),
  };
  for (const name of ['dModel', 'dk', 'dv']) sizeFields[name].querySelector('label').translate = false;
  const tokenCount = el('p', 'help');
  group.append(...Object.values(sizeFields), tokenCount);
  for (const [key, input] of Object.entries(sizeInputs)) {
    input.addEventListener('change', () => {
      const v = Number(input.value);
      if (!Number.isFinite(v)) return;
      leavePreset();
      // From one head to several (and back) the weights are shared out, not drawn anew.
      update((s) => (key === 'heads' ? setHeads(s, v) : { ...s, [key]: v, headNames: [] }));
    });
  }
  return {
    el: group,
    render(state, d) {
      setHidden(sizeFields.n, d.sentence);
      setHidden(sizeFields.m, d.sentence);
      setHidden(sizeFields.dModel, !d.sentence);
      setHidden(sizeFields.heads, !d.sentence);
      setIfIdle(sizeInputs.n, state.n);
      setIfIdle(sizeInputs.m, state.m);
      setIfIdle(sizeInputs.dModel, state.dModel);
      setIfIdle(sizeInputs.heads, state.heads);
      setDisabled(sizeInputs.dk, d.multi);
      setDisabled(sizeInputs.dv, d.multi);
      setIfIdle(sizeInputs.dk, d.multi ? (d.divisible ? d.dk : '') : state.dk);
      setIfIdle(sizeInputs.dv, d.multi ? (d.divisible ? d.dv : '') : state.dv);
      setText(
        tokenCount,
        `${tokenCountText(d, i18n)} ${describeDModel(state, i18n)} ${describeHeadSplit(state, i18n)}`.trim(),
      );
      setHidden(tokenCount, !d.sentence);
    },
  };
}

// Random values: the seed, and a button for the next one.
function randomGroup({ randomize, leavePreset, i18n: { t }, i18n }) {
  const group = fieldset(t('explorer.controls.random'));
  const seed = numberInput(LIMITS.seed, 1, i18n);
  seed.id = 'seed';
  const again = el('button', 'button', t('explorer.controls.randomize'));
  again.type = 'button';
  again.title = t('explorer.controls.randomizeTitle');
  group.append(labelled(t('explorer.controls.seed'), seed), again);
  seed.addEventListener('change', () => {
    const v = Number(seed.value);
    if (Number.isInteger(v) && v >= 0 && v <= LIMITS.seed[1]) {
      leavePreset();
      randomize(v);
    }
  });
  again.addEventListener('click', () => {
    leavePreset();
    randomize(null);
  });
  return {
    el: group,
    render(state) {
      setIfIdle(seed, state.seed);
    },
  };
}

// The temperature as a log-scale slider and a number field side by side, with a reset to T = 1.
function temperatureFields(setT, i18n) {
  const { t } = i18n;
  const tempRange = el('input');
  tempRange.type = 'range';
  tempRange.min = String(Math.log10(LIMITS.temperature[0]));
  tempRange.max = String(Math.log10(LIMITS.temperature[1]));
  tempRange.step = '0.01';
  tempRange.id = 'temperature-range';
  const tempNumber = numberInput(LIMITS.temperature, 0.05, i18n);
  tempNumber.inputMode = 'decimal';
  tempNumber.id = 'temperature';
  const tempRow = el('div', 'temp-row');
  const tempLabel = el('label', '', t('explorer.controls.temperature'));
  tempLabel.htmlFor = tempRange.id;
  tempRow.append(tempRange, tempNumber);
  tempNumber.setAttribute('aria-label', t('explorer.controls.temperatureNumber'));
  const resetT = el('button', 'small-button', 'T = 1');
  resetT.type = 'button';
  resetT.setAttribute('aria-label', t('explorer.controls.temperatureReset'));
  tempRow.append(resetT);
  tempRange.addEventListener('input', () => setT(Number((10 ** Number(tempRange.value)).toPrecision(3))));
  tempNumber.addEventListener('change', () => {
    const T = Number(tempNumber.value);
    if (Number.isFinite(T) && T > 0) setT(T);
  });
  resetT.addEventListener('click', () => setT(1));
  return { tempRange, tempNumber, tempLabel, tempRow };
}

// Scaling: divide by √d_k or not, and the temperature.
function scalingGroup({ update, i18n }) {
  const { t } = i18n;
  const group = fieldset(t('explorer.controls.scaling'), 'scaling');
  const sqrt = el('input');
  sqrt.type = 'checkbox';
  sqrt.id = 'sqrt-dk';
  const sqrtLabel = el('label', 'check');
  sqrtLabel.append(sqrt, el('span', '', t('explorer.controls.sqrtDk')));
  const setT = (T) => update((s) => ({ ...s, scaling: { ...s.scaling, temperature: T } }));
  const { tempRange, tempNumber, tempLabel, tempRow } = temperatureFields(setT, i18n);
  const scaleOut = el('output', 'scale-out');
  scaleOut.setAttribute('aria-live', 'polite');
  const scaleNote = el('p', 'help');
  group.append(sqrtLabel, tempLabel, tempRow, scaleOut, scaleNote);
  sqrt.addEventListener('change', () => update((s) => ({ ...s, scaling: { ...s.scaling, sqrtDk: sqrt.checked } })));
  return {
    el: group,
    render(state, result, d) {
      sqrt.checked = state.scaling.sqrtDk;
      const T = state.scaling.temperature;
      if (!isFocused(tempRange)) tempRange.value = String(Math.log10(T));
      setIfIdle(tempNumber, T);
      setAttr(tempRange, 'aria-valuetext', `T = ${i18n.decimal(formatNumber(T, 3))}`);
      setText(
        scaleOut,
        !result.error && result.head
          ? t('explorer.controls.scaledBy', { scale: i18n.decimal(formatNumber(result.head.scale, 4)) })
          : '',
      );
      setText(scaleNote, t(d.multi ? 'explorer.controls.scaleNote.multi' : 'explorer.controls.scaleNote.one'));
    },
  };
}

// One toggle per key marking it [PAD]; rebuilt only when the keys change.
function padToggles(update, { t }) {
  const padList = el('div', 'pad-toggles');
  padList.setAttribute('role', 'group');
  padList.setAttribute('aria-label', t('explorer.controls.padKeys'));
  let padButtons = [];
  let padKey = '';
  return {
    el: padList,
    render(state, keys) {
      const key = keys.join('\u0000');
      if (key !== padKey) {
        padKey = key;
        padButtons = keys.map((label, j) => {
          const b = el('button', 'pad-toggle', label);
          b.type = 'button';
          b.translate = false;
          b.addEventListener('click', () => update((s) => togglePad(s, j)));
          return b;
        });
        padList.replaceChildren(...padButtons);
      }
      padButtons.forEach((b, j) => {
        setAttr(b, 'aria-pressed', String(!!state.mask.pad[j]));
        setAttr(
          b,
          'title',
          t(state.mask.pad[j] ? 'explorer.controls.padOn' : 'explorer.controls.padOff', { key: keys[j] }),
        );
      });
    },
  };
}

// Mask: none, causal, padding (with its key toggles) or custom (with a reset).
function maskGroup({ update, i18n }) {
  const { t } = i18n;
  const group = fieldset(t('explorer.controls.mask'), 'mask');
  const mask = radioGroup(
    'mask',
    ['none', 'causal', 'padding', 'custom'].map((k) => [k, t(`explorer.controls.mask.${k}`)]),
  );
  const maskHelp = el('p', 'help');
  const pads = padToggles(update, i18n);
  const clearCustom = el('button', 'small-button', t('explorer.controls.showAllPairs'));
  clearCustom.type = 'button';
  group.append(mask.el, maskHelp, pads.el, clearCustom);
  for (const input of Object.values(mask.inputs))
    input.addEventListener('change', () => update((s) => ({ ...s, mask: { ...s.mask, kind: input.value } })));
  clearCustom.addEventListener('click', () =>
    update((s) => ({ ...s, mask: { ...s.mask, custom: s.mask.custom.map(() => 0) } })),
  );
  return {
    el: group,
    render(state, result) {
      mask.inputs[state.mask.kind].checked = true;
      setText(maskHelp, t(`explorer.controls.maskHelp.${state.mask.kind}`));
      setHidden(pads.el, state.mask.kind !== 'padding');
      setHidden(clearCustom, state.mask.kind !== 'custom');
      pads.render(state, result.labels.keys);
    },
  };
}

// Heads: one button per head, choosing the head shown in the steps.
function headGroup({ update, i18n: { t } }) {
  const group = fieldset(t('explorer.controls.headShown'), 'head-select');
  const headWrap = el('div', 'segmented');
  headWrap.setAttribute('role', 'group');
  headWrap.setAttribute('aria-label', t('explorer.controls.headShownLabel'));
  group.append(headWrap);
  let headButtons = [];
  return {
    el: group,
    render(state, d) {
      setHidden(group, !d.multi || !d.divisible);
      if (group.hidden) return;
      if (headButtons.length !== d.heads) {
        headButtons = Array.from({ length: d.heads }, (_, k) => {
          const b = el('button', 'segment', String(k + 1));
          b.type = 'button';
          b.setAttribute('aria-label', t('explorer.controls.head', { k: k + 1 }));
          b.addEventListener('click', () => update((s) => ({ ...s, view: { ...s.view, head: k } })));
          return b;
        });
        headWrap.replaceChildren(...headButtons);
      }
      headButtons.forEach((b, k) => {
        setAttr(b, 'aria-pressed', String(k === state.view.head));
        setAttr(
          b,
          'title',
          state.headNames[k]
            ? t('explorer.controls.headNamed', { k: k + 1, name: state.headNames[k] })
            : t('explorer.controls.head', { k: k + 1 }),
        );
      });
    },
  };
}

/**
 * groups: the control groups to show, by name (CONTROL_GROUPS in model/lesson-registry.js: example,
 * input, sizes, random, scaling, mask, extras, head); default all. The others are not built.
 */
export function createControls({ update, applyPreset, randomize, groups = null, i18n = english }) {
  const { t } = i18n;
  const root = el('section', 'controls');
  root.setAttribute('aria-label', t('explorer.controls.label'));
  const wanted = (name) => !groups || groups.includes(name);
  const example = exampleGroup(applyPreset, i18n);
  // Once the example's shape changes, it is no longer the preset named in the menu.
  const leavePreset = () => {
    example.preset.value = '';
  };
  const parts = {
    example,
    input: modeGroup({ update, leavePreset, i18n }),
    sizes: sizesGroup({ update, leavePreset, i18n }),
    random: randomGroup({ randomize, leavePreset, i18n }),
    scaling: scalingGroup({ update, i18n }),
    mask: maskGroup({ update, i18n }),
    extras: createExtrasControls({ update, i18n }),
    head: headGroup({ update, i18n }),
  };
  const shown = Object.entries(parts).filter(([name]) => wanted(name));
  // On a phone the whole panel folds to one line above the content (a sidebar on wide screens).
  const toggle = el('button', 'small-button controls-toggle', t('explorer.controls.hide'));
  toggle.type = 'button';
  toggle.setAttribute('aria-expanded', 'true');
  const setOpen = (open) => {
    root.classList.toggle('collapsed', !open);
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = t(open ? 'explorer.controls.hide' : 'explorer.controls.show');
  };
  toggle.addEventListener('click', () => setOpen(root.classList.contains('collapsed')));
  setOpen(true);
  if (shown.length > 3) root.append(toggle);
  root.append(...shown.map(([, part]) => part.el));
  const draw = {
    example: (state) => example.render(state),
    input: (state) => parts.input.render(state),
    sizes: (state, result, d) => parts.sizes.render(state, d),
    random: (state) => parts.random.render(state),
    scaling: (state, result, d) => parts.scaling.render(state, result, d),
    extras: (state) => parts.extras.render(state),
    mask: (state, result) => parts.mask.render(state, result),
    head: (state, result, d) => parts.head.render(state, d),
  };

  return {
    el: root,
    /** How many groups are shown (0: the panel has nothing to show). */
    count: shown.length,
    /** Unfolds or folds the panel (on phones, up to 760 px; elsewhere it never folds). */
    setOpen,
    render(state, result) {
      const d = dims(state);
      for (const [name] of shown) draw[name](state, result, d);
    },
    setPreset(id) {
      example.preset.value = id ?? '';
    },
  };
}

/** Theme and palette, shown in the page header. */
export function createDisplayControls({ update, i18n: { t } = english }) {
  const root = el('div', 'display-controls');
  const theme = selectOf(
    'theme',
    ['auto', 'light', 'dark'].map((k) => [k, t(`explorer.display.theme.${k}`)]),
  );
  const palette = selectOf(
    'palette',
    ['viridis', 'cividis', 'blues'].map((k) => [k, t(`explorer.display.palette.${k}`)]),
  );
  root.append(labelled(t('explorer.display.theme'), theme), labelled(t('explorer.display.palette'), palette));
  theme.addEventListener('change', () => update((s) => ({ ...s, display: { ...s.display, theme: theme.value } })));
  palette.addEventListener('change', () =>
    update((s) => ({ ...s, display: { ...s.display, palette: palette.value } })),
  );
  return {
    el: root,
    render(state) {
      theme.value = state.display.theme;
      palette.value = state.display.palette;
    },
  };
}
