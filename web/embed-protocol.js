// The message format embed.html speaks with its parent page (see embed.js): every message is
// { type: 'attention-explorer:<kind>', version: 1, ... }. Kept apart from embed.js, which starts
// the page when imported, so the rules can be checked on their own.

export const MESSAGE_VERSION = 1;
export const MESSAGE_PREFIX = 'attention-explorer:';
/**
 * The DOM event a predict-then-reveal answer is (web/ui/predict/), and the type of the message that
 * carries it to the parent: here, so that the embed page listens for it without loading the
 * questions' code (they load only with reveal="predict").
 */
export const ANSWER_EVENT = `${MESSAGE_PREFIX}answer`;

/**
 * Why a message's `version` is refused, in words for the parent's developer, or null when it is
 * the version this page speaks (the number 1).
 */
export function versionError(version) {
  if (version === MESSAGE_VERSION) return null;
  if (version === undefined) return `the message has no version: add version: ${MESSAGE_VERSION}`;
  let shown;
  if (typeof version === 'string') shown = JSON.stringify(version.slice(0, 20));
  else if (typeof version === 'number' || typeof version === 'boolean' || version === null) shown = String(version);
  else shown = `of type ${typeof version}`;
  if (typeof version === 'string' && Number(version) === MESSAGE_VERSION)
    return `message version ${shown} is a string: send the number ${MESSAGE_VERSION} (version: ${MESSAGE_VERSION}, not "${MESSAGE_VERSION}")`;
  return `unsupported message version ${shown} (this page speaks version ${MESSAGE_VERSION}, a number)`;
}
