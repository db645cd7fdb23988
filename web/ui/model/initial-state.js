// The explorer's first example: a link (options.link, or the address bar with syncUrl), a state
// object (options.state), or a preset (options.preset, or #preset= in the address bar). Whatever
// cannot be opened is named in a notice and the default example is shown instead.
import { english } from './i18n.js';
import { presetById } from './presets.js';
import { loadTrainedSources, usesTrainedSource } from './trained-vectors.js';
import { decodeState } from './link-codec.js';
import { validateState } from './state-check.js';
import { presetFromHash, stateFromHash } from './url-hash.js';

export const DEFAULT_PRESET = 'lesson';

const name40 = (id) => String(id).slice(0, 40);

/**
 * options.start: starting numbers as text ({ q, k, v, x, sentence, mask }, starting-numbers.js),
 * applied over the example; a field that fails its checks is named in the notice and left out.
 * Returns { state, checked, presetId, hashLink }: `checked` is the state from a link or object
 * when it passed its checks (else null), `hashLink` the link text found in `hash` (the address
 * bar's, when the explorer syncs with it).
 */
export async function initialState(options, hash, attn, show, { t } = english) {
  // Several problems (an unknown example and bad starting numbers) are all named, not the last one.
  const notes = [];
  const showNotice = (message) => {
    notes.push(message);
    show(notes.join(' '));
  };
  const hashLink = options.syncUrl ? stateFromHash(hash) : null;
  const hashPreset = options.syncUrl ? presetFromHash(hash) : null;
  const presetId = [options.preset, hashPreset].find((id) => presetById(id)) ?? DEFAULT_PRESET;
  if (options.preset && !presetById(options.preset))
    showNotice(t('explorer.notice.unknownPreset', { name: name40(options.preset) }));
  let checked = null;
  const linkText = options.link ?? hashLink;
  if (linkText != null) {
    // (A codec that cannot load rejects: the start fails with that message, and the link stays.)
    const r = await decodeState(linkText);
    if (r.ok) checked = r.state;
    else showNotice(t('explorer.notice.badLink', { reason: r.error }));
  } else if (options.state !== undefined) {
    try {
      checked = validateState(options.state);
    } catch (err) {
      showNotice(t('explorer.notice.badState', { reason: err.message }));
    }
  }
  let state = checked ?? presetById(presetId).build(attn);
  if (options.start && Object.keys(options.start).length) {
    // A teacher's own numbers as text (q, k, v, x, sentence, mask), over the example; their parser
    // loads only then.
    const { applyStartingNumbers } = await import('./starting-numbers.js');
    const started = applyStartingNumbers(state, options.start);
    state = started.state;
    if (started.errors.length) showNotice(t('explorer.notice.badStart', { reasons: started.errors.join('; ') }));
  }
  if (options.theme) state = { ...state, display: { ...state.display, theme: options.theme } };
  // Token vectors from a trained source: what it says and builds loads before the first drawing.
  if (usesTrainedSource(state)) await loadTrainedSources();
  return { state, checked, presetId, hashLink };
}
