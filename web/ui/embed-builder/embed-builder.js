// The embed builder (the stand-alone page's "Embed a lesson" view): pick a lesson and its options,
// see it live in an actual embedded frame of embed.html, and copy the element or the iframe.
// Test hooks: the form's controls carry data-field (lesson, controls, readonly, reveal, theme, lang
// and the starting numbers q, k, v, x, sentence, mask); the preview is iframe[data-preview]; the
// snippets are textarea[data-snippet="element"] and [data-snippet="iframe"], copied by
// [data-action="copy-element"] and [data-action="copy-iframe"].
import { el } from '../dom/dom.js';
import { LESSON_TITLES } from '../lessons/index.js';
import { elementSnippet, embedAddress, iframeSnippet, lessonIds, lessonSpec, STARTING_FIELDS } from '../model/model.js';
import { MESSAGE_PREFIX } from '../../embed-protocol.js';

const PREVIEW_MS = 400;
const GROUPS = { tabs: 'Lessons', steps: 'Steps of the pipeline', training: 'Training a transformer' };
const START_HINTS = {
  q: 'queries, one row each: [[1, 0], [0, 1]] or 1 0; 0 1', k: 'keys, the same number of columns as q',
  v: 'values, one row per key (optional)', x: 'token vectors, one row per word of the sentence',
  sentence: 'words: they label the rows', mask: 'none, causal, padding, custom, or JSON 0/1 rows',
};

/** A lesson's title for the menu. */
export function lessonTitle(id) {
  return LESSON_TITLES[id] ?? lessonSpec(id)?.title ?? id;
}

let uid = 0;
function field(labelText, control, hintText = '') {
  const wrap = el('div', 'field builder-field');
  control.id ||= `builder-${++uid}`;
  const label = el('label', '', labelText);
  label.htmlFor = control.id;
  wrap.append(label, control);
  if (hintText) {
    const hint = el('span', 'field-hint', hintText);
    hint.id = `${control.id}-hint`;
    control.setAttribute('aria-describedby', hint.id);
    wrap.append(hint);
  }
  return wrap;
}

function lessonMenu() {
  const select = el('select');
  select.dataset.field = 'lesson';
  const whole = el('option', '', 'The whole explorer');
  whole.value = '';
  select.append(whole);
  for (const [group, ids] of Object.entries(lessonIds())) {
    const optgroup = el('optgroup');
    optgroup.label = GROUPS[group];
    for (const id of ids) {
      const o = el('option', '', `${lessonTitle(id)} (${id})`);
      o.value = id;
      optgroup.append(o);
    }
    select.append(optgroup);
  }
  select.value = 'weights';
  return select;
}

function choice(name, options) {
  const select = el('select');
  select.dataset.field = name;
  for (const [value, text] of options) {
    const o = el('option', '', text);
    o.value = value;
    select.append(o);
  }
  return select;
}

function check(name, text) {
  const label = el('label', 'check');
  const input = el('input');
  input.type = 'checkbox';
  input.dataset.field = name;
  label.append(input, el('span', '', text));
  return { label, input };
}

// The form: lesson, options, starting numbers; read() gives the builder's options.
function builderForm() {
  const form = el('div', 'builder-form');
  const lesson = lessonMenu();
  const controls = choice('controls', [['', 'The lesson\u2019s own (minimal)'], ['none', 'None'], ['minimal', 'Minimal'], ['full', 'All of them']]);
  const readOnly = check('readonly', 'Read-only: numbers and settings cannot be edited');
  const reveal = check('reveal', 'Predict, then reveal: the learner guesses before the answer shows');
  const revealNote = el('p', 'help');
  const theme = choice('theme', [['auto', 'The reader\u2019s system'], ['light', 'Light'], ['dark', 'Dark']]);
  const lang = choice('lang', [['en', 'English']]);
  const start = el('fieldset', 'builder-start');
  start.append(el('legend', '', 'Starting numbers (optional)'));
  const starts = {};
  for (const name of STARTING_FIELDS) {
    const input = el(['sentence', 'mask'].includes(name) ? 'input' : 'textarea');
    if (input.tagName === 'TEXTAREA') input.rows = 2;
    else input.type = 'text';
    input.dataset.field = name;
    input.spellcheck = false;
    input.autocomplete = 'off';
    starts[name] = input;
    start.append(field(name, input, START_HINTS[name]));
  }
  form.append(field('Lesson', lesson), field('Controls', controls), readOnly.label, reveal.label, revealNote,
    field('Theme', theme), field('Language', lang, 'More languages are coming; the lesson follows this setting once they are there.'), start);
  return {
    el: form,
    inputs: [lesson, controls, readOnly.input, reveal.input, theme, lang, ...Object.values(starts)],
    read() {
      const spec = lessonSpec(lesson.value);
      const predict = Boolean(spec?.predict);
      reveal.input.disabled = !predict;
      revealNote.textContent = predict ? '' : 'This lesson has no question: choose weights, softmax-row, pitfalls, sqrt-dk or induction.';
      const trains = spec?.kind === 'train';
      start.disabled = trains;
      return {
        lesson: lesson.value, controls: controls.value, readOnly: readOnly.input.checked, reveal: predict && reveal.input.checked,
        theme: theme.value, lang: lang.value,
        start: trains ? {} : Object.fromEntries(Object.entries(starts).map(([name, input]) => [name, input.value])),
      };
    },
  };
}

function snippetBox(kind, title) {
  const wrap = el('div', 'builder-snippet');
  const text = el('textarea', 'share-text');
  text.readOnly = true;
  text.rows = kind === 'element' ? 3 : 4;
  text.dataset.snippet = kind;
  const copy = el('button', 'small-button', `Copy the ${kind === 'element' ? 'element' : 'iframe'}`);
  copy.type = 'button';
  copy.dataset.action = `copy-${kind}`;
  wrap.append(field(title, text), copy);
  return { el: wrap, text, copy };
}

/**
 * Mounts the builder into `root`. urls: { embed (embed.html), element (attention-explorer.js) }
 * where this page is served. Returns { destroy() }.
 */
export function mountEmbedBuilder(root, urls) {
  const section = el('section', 'embed-builder');
  section.setAttribute('aria-labelledby', 'builder-title');
  const title = el('h2', '', 'Embed a lesson');
  title.id = 'builder-title';
  const intro = el('p', 'section-sub', 'Pick a lesson and its options; the frame on the right is the lesson as your readers will see it. Copy the element (for a page that can host the explorer\u2019s files) or the iframe (for any lesson platform). docs/embedding.md has every option.');
  const form = builderForm();
  const element = snippetBox('element', 'Element (<attention-explorer>)');
  const frame = snippetBox('iframe', 'iframe (embed.html)');
  const status = el('p', 'share-status builder-status');
  status.setAttribute('role', 'status');
  const preview = el('iframe', 'builder-preview');
  preview.dataset.preview = '';
  preview.title = 'Preview of the embedded lesson';
  let height = 700;
  const side = el('div', 'builder-side');
  side.append(form.el, element.el, frame.el, status);
  const layout = el('div', 'builder-layout');
  layout.append(side, preview);
  section.append(title, intro, layout);
  root.append(section);

  let timer = 0;
  let shown = '';
  const write = () => {
    const options = form.read();
    const spec = lessonSpec(options.lesson);
    element.text.value = elementSnippet(urls.element, options);
    frame.text.value = iframeSnippet(urls.embed, options, { height, title: `Attention explorer: ${spec ? lessonTitle(options.lesson) : 'the whole explorer'}` });
    const src = embedAddress(urls.embed, options);
    if (src !== shown) {
      shown = src;
      clearTimeout(timer);
      timer = setTimeout(() => { preview.src = src; }, PREVIEW_MS);
    }
  };
  // The preview sizes itself from embed.html's height messages, as a lesson page would.
  const onMessage = (event) => {
    if (event.source !== preview.contentWindow || event.data?.type !== `${MESSAGE_PREFIX}height`) return;
    const h = Number(event.data.height);
    if (!Number.isFinite(h) || h <= 0) return;
    height = Math.min(h, 4000);
    preview.style.height = `${height}px`;
    frame.text.value = frame.text.value.replace(/height="\d+"/, `height="${Math.max(200, Math.round(height))}"`);
  };
  window.addEventListener('message', onMessage);
  for (const input of form.inputs) input.addEventListener(input.tagName === 'SELECT' || input.type === 'checkbox' ? 'change' : 'input', write);
  for (const box of [element, frame]) {
    box.copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(box.text.value);
        status.textContent = box === element
          ? 'Element copied. It needs the explorer\u2019s files on your lesson\u2019s site: change the script address to that copy.'
          : 'iframe copied. It loads the lesson from this site and works on any lesson page.';
      } catch {
        status.textContent = 'Copy this text (Ctrl+C or \u2318C):';
        box.text.focus();
        box.text.select();
      }
    });
  }
  write();
  preview.src = shown;
  return {
    destroy() {
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      section.remove();
    },
  };
}
