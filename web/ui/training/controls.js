// The training view's controls: the task (with what a model can learn from it), the model's size
// and parts, the optimizer, and the run buttons. Changing a setting builds a new model (the
// view resets); the buttons start, pause, step and reset the run.
import { el } from '../dom/dom.js';
import { DEFAULTS, LIMITS, POSITIONS, TASKS, divisorsOf, normalizeSettings } from './config.js';

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
function kvHeadOptions(select, heads) {
  if (select.dataset.heads === String(heads)) return;
  select.dataset.heads = String(heads);
  select.replaceChildren(...divisorsOf(heads).map((k) => {
    const o = el('option', '', `${k} (${k === heads ? 'MHA: one per head' : k === 1 ? 'MQA: one shared' : `GQA: ${heads / k} heads share each`})`);
    o.value = String(k);
    return o;
  }));
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
function taskFieldset() {
  const task = el('fieldset', 'task-choice');
  task.append(el('legend', '', 'Task'));
  const radios = {};
  const name = uid('task');
  for (const [key, label] of [['repeated', 'Repeated random tokens'], ['text', 'Character-level text']]) {
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
  textArea.placeholder = 'Empty: the bundled short stories (about 6,000 characters)';
  const textLabel = el('label', '', 'Your text (optional)');
  textLabel.htmlFor = textArea.id;
  textWrap.append(textLabel, textArea);
  task.append(explanation, textWrap);
  return { el: task, radios, explanation, textWrap, textArea };
}

// The model's size and parts and the optimizer's settings.
function modelFieldset() {
  const model = el('fieldset', 'model-settings');
  model.append(el('legend', '', 'Model and optimizer'));
  const numbers = {
    layers: numberField('layers', 'Layers'),
    heads: numberField('heads', 'Heads per layer'),
    dModel: numberField('dModel', 'd_model', 'a multiple of the heads'),
    lr: numberField('lr', 'Learning rate (Adam)'),
    batch: numberField('batch', 'Batch'),
    seed: numberField('seed', 'Seed'),
  };
  const checks = { mlp: checkField('mlp', 'MLP in each block (off: attention only)'), layerNorm: checkField('layerNorm', 'LayerNorm') };
  const selects = {
    positions: selectField('positions', 'Positions', Object.entries(POSITIONS)),
    kvHeads: selectField('kvHeads', 'Key/value heads', [], 'shared by the query heads: a smaller KV cache'),
  };
  numbers.windowSize = numberField('windowSize', 'Attention window', '0 = none; else each token sees only the last W');
  const grid = el('div', 'settings-grid');
  grid.append(...Object.values(numbers).map((f) => f.wrap));
  model.append(grid, ...Object.values(selects).map((f) => f.wrap), ...Object.values(checks).map((f) => f.wrap));
  return { el: model, numbers, checks, selects };
}

function runButtons() {
  const buttons = el('div', 'run-buttons');
  const train = button('train', 'Train', 'primary-button');
  const pause = button('pause', 'Pause');
  const step = button('step', 'One step');
  const reset = button('reset', 'Reset');
  const defaults = button('defaults', 'Defaults');
  buttons.append(train, pause, step, reset, defaults);
  return { el: buttons, train, pause, step, reset, defaults };
}

/**
 * onSettings(settings, text): a setting changed; onAction(name): train, pause, step, reset.
 * text: the pasted text for the text task ('' = the bundled corpus).
 */
export function createTrainingControls({ onSettings, onAction }) {
  const root = el('section', 'training-controls card');
  const heading = el('h2', 'card-title', 'Train a tiny transformer');
  heading.id = uid('heading');
  root.setAttribute('aria-labelledby', heading.id);
  const task = taskFieldset();
  const { radios, explanation, textWrap, textArea } = task;
  const model = modelFieldset();
  const { numbers, checks, selects } = model;
  const buttons = runButtons();
  const { train, pause, step, reset, defaults } = buttons;
  const status = el('p', 'run-status');
  status.setAttribute('role', 'status');
  root.append(heading, buttons.el, status, task.el, model.el);

  let settings = { ...DEFAULTS };
  function show(s) {
    radios[s.task].checked = true;
    explanation.textContent = TASKS[s.task];
    textWrap.hidden = s.task !== 'text';
    for (const [key, f] of Object.entries(numbers)) f.input.value = String(s[key]);
    for (const [key, f] of Object.entries(checks)) f.input.checked = s[key];
    kvHeadOptions(selects.kvHeads.input, s.heads);
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
  for (const f of [...Object.values(numbers), ...Object.values(checks), ...Object.values(selects)]) f.input.addEventListener('change', changed);
  // A change event comes on each blur after an edit, even one already applied: build only once.
  let appliedText = '';
  textArea.addEventListener('change', () => {
    if (textArea.value === appliedText) return;
    appliedText = textArea.value;
    changed();
  });
  for (const b of [train, pause, step, reset]) b.addEventListener('click', () => onAction(b.dataset.action));
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
      train.disabled = running || busy;
      pause.disabled = !running || busy;
      step.disabled = running || busy;
      reset.disabled = busy;
    },
    setStatus(text, error = false) {
      status.textContent = text;
      status.classList.toggle('error', error);
    },
  };
}
