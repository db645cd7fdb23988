// embed.html: the explorer alone, made for an <iframe> in a lesson page. The page talks to its
// parent with window.postMessage; every message is a plain object
//   { type: 'attention-explorer:<kind>', version: 1, ... }
//
// To the parent (sent to parentOrigin when configured, else to any origin; the state is the
// example on screen, nothing private):
//   ready  { state }                  once, after the first drawing
//   state  { state, source }          after every change (coalesced over EMIT_MS); source is
//                                     'user', 'parent' (a set-state was applied) or 'request'
//   error  { error, request }         a message from the parent was refused (the reason, in words)
//   height { height }                 the page's height in CSS pixels, after the first drawing and
//                                     whenever it changes, so the parent can size the iframe (the
//                                     training view too)
//   answer { lesson, correct, guess, answer, … }
//                                     a learner answered a predict-then-reveal question (reveal=predict)
// From the parent (only from window.parent, and only from parentOrigin when configured):
//   set-state { state } or { link }   replace the example: a state object or "v1.…" link text;
//                                     checked field by field, a bad one is refused with an error
//   get-state {}                      answered with a state message (source 'request')
//
// Query parameters: parentOrigin (one or more origins, space or comma separated), preset, panels,
// theme, readonly, lesson, controls, reveal, lang and the starting numbers q, k, v, x, sentence, mask
// (as the <attention-explorer> attributes), view=train (the training view; with example=induction
// or text, a trained example). The hash may hold a state (#s=v1.…).
import { mountView } from './ui/mount.js';
import { markLanguage, showStartFailure, translateStatic, widgetTranslator } from './ui/dom/dom.js';
import { decodeState, startingFields, stateFromHash, validateState } from './ui/model/model.js';
import { ANSWER_EVENT, MESSAGE_PREFIX as PREFIX, MESSAGE_VERSION, versionError } from './embed-protocol.js';

export { MESSAGE_VERSION };
const EMIT_MS = 120;

const root = document.getElementById('app');
const params = new URLSearchParams(window.location.search);
const list = (text) =>
  String(text ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
const framed = window.parent !== window;

// Origins the parent may have; null when any is accepted, [] when the setting is unusable.
function parseOrigins(text) {
  if (text === null) return null;
  const origins = [];
  for (const item of list(text)) {
    try {
      const url = new URL(item);
      if ((url.protocol === 'https:' || url.protocol === 'http:') && url.origin === item.replace(/\/$/, ''))
        origins.push(url.origin);
      else return [];
    } catch {
      return [];
    }
  }
  return origins;
}
const allowed = parseOrigins(params.get('parentOrigin'));
const targets = allowed ?? ['*'];

function post(kind, body) {
  if (!framed) return;
  for (const origin of targets)
    window.parent.postMessage({ ...body, type: PREFIX + kind, version: MESSAGE_VERSION }, origin);
}

const options = { documentTheme: true }; // the page is all explorer: its background follows the theme
if (params.get('preset')) options.preset = params.get('preset');
if (params.has('panels')) options.panels = list(params.get('panels'));
if (['auto', 'light', 'dark'].includes(params.get('theme'))) options.theme = params.get('theme');
if (params.has('readonly'))
  options.readOnly = list(params.get('readonly')).length ? list(params.get('readonly')) : true;
for (const name of ['lesson', 'controls', 'reveal', 'view', 'example'])
  if (params.get(name)) options[name] = params.get(name).trim();
options.start = startingFields((name) => params.get(name));
options.params = params; // the training view's settings
const link = stateFromHash(window.location.hash);
if (link !== null) options.link = link;

let i18n;

async function main() {
  // The frame's language (?lang=, else the reader's browser): its title and every word inside.
  i18n = await widgetTranslator();
  markLanguage(document.documentElement, i18n);
  translateStatic(document.documentElement, i18n);
  options.i18n = i18n;
  // A learner's answer to a predict-then-reveal question, for the lesson page to record.
  root.addEventListener(ANSWER_EVENT, (event) => post('answer', event.detail));
  const explorer = await mountView(root, options);
  if (explorer.view === 'train') {
    post('ready', { view: 'train' });
    reportHeight();
    return;
  }
  if (allowed && allowed.length === 0) explorer.notify(i18n.t('explorer.notice.badParentOrigin'));

  let timer = 0;
  let lastSource = 'user';
  explorer.onChange((state, meta) => {
    lastSource = meta?.source === 'parent' ? 'parent' : 'user'; // the latest change names the burst
    clearTimeout(timer);
    timer = setTimeout(() => {
      post('state', { state: explorer.getState(), source: lastSource });
      lastSource = 'user';
    }, EMIT_MS);
  });

  window.addEventListener('message', async (event) => {
    if (!framed || event.source !== window.parent) return;
    if (allowed && !allowed.includes(event.origin)) return;
    const data = event.data;
    if (data === null || typeof data !== 'object' || typeof data.type !== 'string' || !data.type.startsWith(PREFIX))
      return;
    const kind = data.type.slice(PREFIX.length);
    const refuse = (error) => post('error', { error, request: kind });
    const badVersion = versionError(data.version);
    if (badVersion) {
      refuse(badVersion);
      return;
    }
    if (kind === 'get-state') {
      post('state', { state: explorer.getState(), source: 'request' });
    } else if (kind === 'set-state') {
      let state;
      if (typeof data.link === 'string') {
        // (A link codec that did not load is refused like a bad link; the next message tries again.)
        const r = await decodeState(data.link).catch((err) => ({ ok: false, error: err.message }));
        if (!r.ok) {
          refuse(r.error);
          return;
        }
        state = r.state;
      } else {
        try {
          state = validateState(data.state);
        } catch (err) {
          refuse(err.message);
          return;
        }
      }
      explorer.notify('');
      explorer.setState(state, { source: 'parent' });
    } else {
      refuse(`unknown message type ${data.type.slice(0, 60)}`);
    }
  });

  post('ready', { state: explorer.getState() });
  reportHeight();
}

// The document's own height (the <html> box, not the viewport), sent when it changes; once per
// frame at most, and only while framed.
function reportHeight() {
  if (!framed) return;
  let last = 0;
  let queued = false;
  const send = () => {
    queued = false;
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    post('height', { height });
  };
  new ResizeObserver(() => {
    if (!queued) requestAnimationFrame(send);
    queued = true;
  }).observe(document.documentElement);
  send();
}

main().catch((err) => showStartFailure(root, err, i18n));
