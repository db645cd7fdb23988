// The training view's controls: the task (with what a model can learn from it), the model's size
// and parts, the optimizer, and the run buttons. Changing a setting builds a new model (the
// view resets); the buttons start, pause, step and reset the run.
import { el } from '../dom/dom.js';
import { english } from '../model/model.js';
import { DEFAULTS, LIMITS, POSITIONS, divisorsOf, normalizeSettings } from './config.js';

let nextId = 0;
const uid = (name) => `train-${name}-${++nextId}`;

function numberField(key, label, hint) {
  const [min, max, step] = LIMITS[key];
  const wrap = el('div', 'field');
  const input = el('input', 'number');
  input.type = 'number';
  input.id = uid(key);
  input.min = String(min);
  input.max = String(max);
  input.step = String(step);
  input.dataset.setting = key;
  const lab = el('label', '', label);
  lab.htmlFor = input.id;
  wrap.append(lab, input);
  if (hint) wrap.append(el('span', 'field-hint', hint));
  return { wrap, input };
}

function selectField(key, label, options, hint) {
  const wrap = el('div', 'field');
  const select = el('select');
  select.id = uid(key);
  select.dataset.setting = key;
  for (const [value, text] of options) {
    const o = el('option', '', text);
    o.value = value;
    select.append(o);
  }
  const lab = el('label', '', label);
  lab.htmlFor = select.id;
  wrap.append(lab, select);
  if (hint) wrap.append(el('span', 'field-hint', hint));
  return { wrap, input: select };
}

// The key/value head choices for `heads` query heads: each divisor, named MHA, GQA or MQA.
function kvHeadOptions(select, heads, { t }) {
  if (select.dataset.heads === String(heads)) return;
  select.dataset.heads = String(heads);
  select.replaceChildren(
    ...divisorsOf(heads).map((k) => {
      const kind = k === heads ? 'training.kvHeads.mha' : k === 1 ? 'training.kvHeads.mqa' : 'training.kvHeads.gqa';
      const o = el('option', '', t(kind, { k, share: heads / k }));
      o.value = String(k);
      return o;
    }),
  );
}

function checkField(key, label) {
  const wrap = el('div', 'field check-field');
  const input = el('input');
  input.type = 'checkbox';
  input.id = uid(key);
  input.dataset.setting = key;
  const lab = el('label', '', label);
  lab.htmlFor = input.id;
  wrap.append(input, lab);
  return { wrap, input };
}

function button(action, text, className = 'small-button') {
  const b = el('button', className, text);
  b.type = 'button';
  b.dataset.action = action;
  return b;
}

// The task choice, what the chosen task teaches, and the text field of the text task.
function taskFieldset({ t }) {
  const task = el('fieldset', 'task-choice');
  task.append(el('legend', '', t('training.task.legend')));
  const radios = {};
  const name = uid('task');
  for (const [key, label] of [
    ['repeated', t('training.task.repeated')],
    ['text', t('training.task.text')],
  ]) {
    const r = el('input');
    r.type = 'radio';
    r.name = name;
    r.value = key;
    r.id = uid(`task-${key}`);
    const lab = el('label', '', label);
    lab.htmlFor = r.id;
    const row = el('div', 'radio-row');
    row.append(r, lab);
    task.append(row);
    radios[key] = r;
  }
  const explanation = el('p', 'hint task-explanation');
  const textWrap = el('div', 'field');
  const textArea = el('textarea');
  textArea.id = uid('text');
  textArea.rows = 3;
  textArea.placeholder = t('training.task.textPlaceholder');
  const textLabel = el('label', '', t('training.task.textLabel'));
  textLabel.htmlFor = textArea.id;
  textWrap.append(textLabel, textArea);
  task.append(explanation, textWrap);
  return { el: task, radios, explanation, textWrap, textArea };
}

// The model's size and parts and the optimizer's settings.
function modelFieldset({ t }) {
  const model = el('fieldset', 'model-settings');
  model.append(el('legend', '', t('training.model.legend')));
  const numbers = {
    layers: numberField('layers', t('training.setting.layers')),
    heads: numberField('heads', t('training.setting.heads')),
    dModel: numberField('dModel', 'd_model', t('training.setting.dModelHint')),
    lr: numberField('lr', t('training.setting.lr')),
    batch: numberField('batch', t('training.setting.batch')),
    seed: numberField('seed', t('training.setting.seed')),
  };
  // d_model is the variable's name, as the code and the papers write it.
  numbers.dModel.wrap.querySelector('label').setAttribute('translate', 'no');
  const checks = {
    mlp: checkField('mlp', t('training.setting.mlp')),
    layerNorm: checkField('layerNorm', t('training.setting.layerNorm')),
  };
  const selects = {
    positions: selectField(
      'positions',
      t('training.setting.positions'),
      Object.entries(POSITIONS).map(([key, message]) => [key, t(message)]),
    ),
    kvHeads: selectField('kvHeads', t('training.setting.kvHeads'), [], t('training.setting.kvHeadsHint')),
  };
  numbers.windowSize = numberField(
    'windowSize',
    t('training.setting.windowSize'),
    t('training.setting.windowSizeHint'),
  );
  const grid = el('div', 'settings-grid');
  grid.append(...Object.values(numbers).map((f) => f.wrap));
  model.append(grid, ...Object.values(selects).map((f) => f.wrap), ...Object.values(checks).map((f) => f.wrap));
  return { el: model, numbers, checks, selects };
}

function runButtons({ t }) {
  const buttons = el('div', 'run-buttons');
  const train = button('train', t('training.action.train'), 'primary-button');
  const pause = button('pause', t('training.action.pause'));
  const step = button('step', t('training.action.step'));
  const reset = button('reset', t('training.action.reset'));
  const defaults = button('defaults', t('training.action.defaults'));
  buttons.append(train, pause, step, reset, defaults);
  return { el: buttons, train, pause, step, reset, defaults };
}

/**
 * onSettings(settings, text): a setting changed; onAction(name): train, pause, step, reset.
 * text: the pasted text for the text task ('' = the bundled corpus). i18n: the view's translator.
 */
export function createTrainingControls({ onSettings, onAction, i18n = english }) {
  const root = el('section', 'training-controls card');
  const heading = el('h2', 'card-title', i18n.t('training.controls.title'));
  heading.id = uid('heading');
  root.setAttribute('aria-labelledby', heading.id);
  const task = taskFieldset(i18n);
  const { radios, explanation, textWrap, textArea } = task;
  const model = modelFieldset(i18n);
  const { numbers, checks, selects } = model;
  const buttons = runButtons(i18n);
  const { train, pause, step, reset, defaults } = buttons;
  const status = el('p', 'run-status');
  status.setAttribute('role', 'status');
  root.append(heading, buttons.el, status, task.el, model.el);

  let settings = { ...DEFAULTS };
  function show(s) {
    radios[s.task].checked = true;
    explanation.textContent = i18n.t(`training.task.explain.${s.task}`);
    textWrap.hidden = s.task !== 'text';
    for (const [key, f] of Object.entries(numbers)) f.input.value = String(s[key]);
    for (const [key, f] of Object.entries(checks)) f.input.checked = s[key];
    kvHeadOptions(selects.kvHeads.input, s.heads, i18n);
    for (const [key, f] of Object.entries(selects)) f.input.value = String(s[key]);
  }
  function read() {
    const raw = { task: radios.text.checked ? 'text' : 'repeated' };
    for (const [key, f] of Object.entries(numbers)) raw[key] = f.input.value;
    for (const [key, f] of Object.entries(checks)) raw[key] = f.input.checked;
    for (const [key, f] of Object.entries(selects)) raw[key] = f.input.value;
    // New heads: keep the grouping's share of the heads where it can (a number of KV heads that
    // no longer divides them gives the largest divisor below it).
    if (Number(raw.heads) !== settings.heads && settings.kvHeads === settings.heads) raw.kvHeads = raw.heads;
    return normalizeSettings(raw);
  }
  const changed = () => {
    settings = read();
    show(settings);
    onSettings(settings, textArea.value);
  };
  for (const r of Object.values(radios)) r.addEventListener('change', changed);
  for (const f of [...Object.values(numbers), ...Object.values(checks), ...Object.values(selects)])
    f.input.addEventListener('change', changed);
  // A change event comes on each blur after an edit, even one already applied: build only once.
  let appliedText = '';
  textArea.addEventListener('change', () => {
    if (textArea.value === appliedText) return;
    appliedText = textArea.value;
    changed();
  });
  for (const b of [train, pause, step, reset]) b.addEventListener('click', () => onAction(b.dataset.action));
  const runs = [train, pause, step, reset];
  let kept = null; // the run button that had the focus when it turned itself off
  root.addEventListener('pointerdown', (e) => {
    if (!runs.includes(e.target)) kept = null;
  });
  defaults.addEventListener('click', () => {
    settings = { ...DEFAULTS };
    textArea.value = '';
    appliedText = '';
    show(settings);
    onSettings(settings, '');
  });

  return {
    el: root,
    set(s, text = '') {
      settings = normalizeSettings(s);
      textArea.value = text;
      appliedText = text;
      show(settings);
    },
    get: () => settings,
    /** running: whether training runs; busy: a model is being built. */
    setRunning(running, busy = false) {
      const active = root.ownerDocument.activeElement;
      if (runs.includes(active)) kept = active;
      else if (active && active !== root.ownerDocument.body) kept = null;
      train.disabled = running || busy;
      pause.disabled = !running || busy;
      step.disabled = running || busy;
      reset.disabled = busy;
      // A pressed button that turns itself off (Train, Pause, Reset while the model is built) would
      // drop a keyboard's focus on the page: it goes to the button that undoes it, or comes back.
      if (kept && !kept.disabled && kept === active) kept = null;
      if (!kept) return;
      const next = [kept.disabled ? (kept === train ? pause : train) : kept, train, pause, step, reset].find(
        (b) => !b.disabled,
      );
      if (next) {
        next.focus();
        kept = null;
      }
    },
    setStatus(text, error = false) {
      status.textContent = text;
      status.classList.toggle('error', error);
    },
  };
}
