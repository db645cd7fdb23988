// The embed builder (the stand-alone page's "Embed a lesson" view): pick a lesson and its options,
// see it live in an actual embedded frame of embed.html, and copy the element or the iframe.
// Test hooks: the form's controls carry data-field (lesson, controls, readonly, reveal, theme, lang
// and the starting numbers q, k, v, x, sentence, mask); the preview is iframe[data-preview]; the
// snippets are textarea[data-snippet="element"] and [data-snippet="iframe"], copied by
// [data-action="copy-element"] and [data-action="copy-iframe"].
import { el, markLanguage, widgetTranslator } from '../dom/dom.js';
import { elementSnippet, embedAddress, iframeSnippet } from './embed-snippets.js';
import {
  english,
  lessonIds,
  lessonSpec,
  lessonTitle as titleOf,
  loadEnglishParts,
  STARTING_FIELDS,
} from '../model/model.js';
import { MESSAGE_PREFIX } from '../../embed-protocol.js';

const PREVIEW_MS = 400;
// The languages an embed can be set to ('' leaves it to the reader's browser).
const LANGUAGE_CHOICES = ['', 'en', 'de', 'es'];

/** A lesson's title for the menu, in the translator's language. */
export function lessonTitle(id, i18n = english) {
  return titleOf(id, i18n);
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

function lessonMenu(i18n) {
  const { t } = i18n;
  const select = el('select');
  select.dataset.field = 'lesson';
  const whole = el('option', '', t('explorer.builder.whole'));
  whole.value = '';
  select.append(whole);
  for (const [group, ids] of Object.entries(lessonIds())) {
    const optgroup = el('optgroup');
    optgroup.label = t(`explorer.builder.group.${group}`);
    for (const id of ids) {
      const o = el('option', '', t('explorer.builder.lessonOption', { title: lessonTitle(id, i18n), id }));
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
function builderForm(i18n) {
  const { t } = i18n;
  const form = el('div', 'builder-form');
  const lesson = lessonMenu(i18n);
  const controls = choice(
    'controls',
    ['', 'none', 'minimal', 'full'].map((v) => [v, t(`explorer.builder.controls.${v || 'own'}`)]),
  );
  const readOnly = check('readonly', t('explorer.builder.readOnly'));
  const reveal = check('reveal', t('explorer.builder.reveal'));
  const revealNote = el('p', 'help');
  const theme = choice(
    'theme',
    ['auto', 'light', 'dark'].map((v) => [v, t(`explorer.builder.theme.${v}`)]),
  );
  const lang = choice(
    'lang',
    LANGUAGE_CHOICES.map((v) => [v, t(`explorer.builder.lang.${v || 'reader'}`)]),
  );
  const start = el('fieldset', 'builder-start');
  start.append(el('legend', '', t('explorer.builder.start')));
  const starts = {};
  for (const name of STARTING_FIELDS) {
    const input = el(['sentence', 'mask'].includes(name) ? 'input' : 'textarea');
    if (input.tagName === 'TEXTAREA') input.rows = 2;
    else input.type = 'text';
    input.dataset.field = name;
    input.spellcheck = false;
    input.autocomplete = 'off';
    starts[name] = input;
    const f = field(name, input, t(`explorer.builder.hint.${name}`));
    f.querySelector('label').translate = false;
    start.append(f);
  }
  form.append(
    field(t('explorer.builder.lesson'), lesson),
    field(t('explorer.builder.controls'), controls),
    readOnly.label,
    reveal.label,
    revealNote,
    field(t('explorer.builder.theme'), theme),
    field(t('explorer.builder.lang'), lang, t('explorer.builder.langHint')),
    start,
  );
  return {
    el: form,
    inputs: [lesson, controls, readOnly.input, reveal.input, theme, lang, ...Object.values(starts)],
    read() {
      const spec = lessonSpec(lesson.value);
      const predict = Boolean(spec?.predict);
      reveal.input.disabled = !predict;
      revealNote.textContent = predict ? '' : t('explorer.builder.noQuestion');
      const trains = spec?.kind === 'train';
      start.disabled = trains;
      return {
        lesson: lesson.value,
        controls: controls.value,
        readOnly: readOnly.input.checked,
        reveal: predict && reveal.input.checked,
        theme: theme.value,
        lang: lang.value,
        start: trains ? {} : Object.fromEntries(Object.entries(starts).map(([name, input]) => [name, input.value])),
      };
    },
  };
}

function snippetBox(kind, title, { t }) {
  const wrap = el('div', 'builder-snippet');
  const text = el('textarea', 'share-text');
  text.readOnly = true;
  text.rows = kind === 'element' ? 3 : 4;
  text.dataset.snippet = kind;
  const copy = el('button', 'small-button', t(`explorer.builder.copy.${kind}`));
  copy.type = 'button';
  copy.dataset.action = `copy-${kind}`;
  wrap.append(field(title, text), copy);
  return { el: wrap, text, copy };
}

/**
 * Mounts the builder into `root`. options: { embed (embed.html), element (attention-explorer.js) }
 * where this page is served, and i18n, a translator (default: the one of ?lang= or the browser).
 * Resolves with { destroy() }.
 */
export async function mountEmbedBuilder(root, options) {
  await loadEnglishParts('explorer-later'); // the builder's English text (every language's fallback)
  const i18n = options.i18n ?? (await widgetTranslator({ attribute: options.lang }));
  markLanguage(root, i18n);
  return buildEmbedBuilder(root, options, i18n);
}

function buildEmbedBuilder(root, urls, i18n) {
  const { t } = i18n;
  const section = el('section', 'embed-builder');
  section.setAttribute('aria-labelledby', 'builder-title');
  const title = el('h2', '', t('explorer.builder.title'));
  title.id = 'builder-title';
  const intro = el('p', 'section-sub', t('explorer.builder.intro'));
  const form = builderForm(i18n);
  const element = snippetBox('element', t('explorer.builder.elementSnippet'), i18n);
  const frame = snippetBox('iframe', t('explorer.builder.iframeSnippet'), i18n);
  const status = el('p', 'share-status builder-status');
  status.setAttribute('role', 'status');
  const preview = el('iframe', 'builder-preview');
  preview.dataset.preview = '';
  preview.title = t('explorer.builder.preview');
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
    const lessonName = spec ? lessonTitle(options.lesson, i18n) : t('explorer.builder.whole');
    frame.text.value = iframeSnippet(urls.embed, options, {
      height,
      title: t('explorer.builder.frameTitle', { lesson: lessonName }),
    });
    const src = embedAddress(urls.embed, options);
    if (src !== shown) {
      shown = src;
      clearTimeout(timer);
      timer = setTimeout(() => {
        preview.src = src;
      }, PREVIEW_MS);
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
  for (const input of form.inputs)
    input.addEventListener(input.tagName === 'SELECT' || input.type === 'checkbox' ? 'change' : 'input', write);
  for (const box of [element, frame]) {
    box.copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(box.text.value);
        status.textContent = t(box === element ? 'explorer.builder.copied.element' : 'explorer.builder.copied.iframe');
      } catch {
        status.textContent = t('explorer.builder.copyByHand');
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
