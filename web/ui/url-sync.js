// The address bar follows the state (replaceState: no history entry per keystroke), and a link or
// a #preset= pasted into the address bar of an open page is loaded like a fresh one.
import { decodeState, encodeState, english, presetById, presetFromHash, stateFromHash } from './model/model.js';

// The address bar follows the state this long after the last change.
const URL_DEBOUNCE_MS = 300;

/**
 * store: the explorer's store; showNotice(text); loadState(state) and loadPreset(id) apply an
 * example from the address bar. Returns { changed() (call after every change), writeNow(),
 * destroy() }.
 */
export function createUrlSync({ store, showNotice, loadState, loadPreset, i18n: { t } = english }) {
  let timer = 0;
  let seq = 0;
  let written = null;
  let destroyed = false;

  async function write() {
    const mine = ++seq;
    let hash;
    try {
      hash = `#s=${await encodeState(store.get())}`;
    } catch (err) {
      // The codec did not load (offline): the address stays as it is, and the next change tries again.
      if (err.name === 'LoadError') return;
      hash = ''; // too large for a link: the address shows no state rather than an old one
    }
    if (mine !== seq || destroyed) return;
    written = hash;
    const url = new URL(window.location.href);
    url.hash = hash;
    window.history.replaceState(window.history.state, '', url.href);
  }

  function presetLink(hash) {
    const id = presetFromHash(hash);
    if (id == null) return; // an in-page anchor such as #pipeline
    if (!presetById(id)) {
      showNotice(t('explorer.notice.unknownPresetKept', { name: String(id).slice(0, 40) }));
      return;
    }
    showNotice('');
    loadPreset(id);
  }

  async function onHashChange() {
    const hash = window.location.hash;
    if (hash === written) return;
    const text = stateFromHash(hash);
    if (text == null) return presetLink(hash);
    // (A codec that did not load reads as a link not opened: the next change of address tries again.)
    const r = await decodeState(text).catch((err) => ({ ok: false, error: err.message }));
    if (destroyed) return undefined;
    if (!r.ok) {
      showNotice(t('explorer.notice.badLinkKept', { reason: r.error }));
      return undefined;
    }
    showNotice('');
    loadState(r.state);
    return undefined;
  }
  window.addEventListener('hashchange', onHashChange);

  return {
    changed() {
      clearTimeout(timer);
      timer = setTimeout(write, URL_DEBOUNCE_MS);
    },
    writeNow: write,
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      window.removeEventListener('hashchange', onHashChange);
    },
  };
}
