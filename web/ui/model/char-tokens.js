// A learner's text as a character-level model's tokens, with one documented rule for characters
// the model never saw (its vocabulary is the characters of its training text): such a character
// is read as its other case when that one is known ("B" → "b"), otherwise as a space. Every
// replacement is named so the page can say it. Used by the training view's "Your text" and the
// explorer's trained-model vectors, so both read a sentence the same way.
import { english } from './i18n.js';

const VISIBLE = { ' ': '␣', '\n': '⏎', '\t': '⇥' };

/** A character as a heatmap label: space, newline and tab made visible. */
export const charLabel = (c) => VISIBLE[c] ?? c;

function replacementFor(c, known) {
  for (const other of [c.toLowerCase(), c.toUpperCase()]) if (other !== c && known.has(other)) return other;
  return known.has(' ') ? ' ' : null;
}

/**
 * `text` as ids of `chars` (the vocabulary: token id = index), at most `maxTokens` of them.
 * Returns { ids, chars (the characters the model reads), labels, replaced: [[typed, read], …]
 * (each typed character once), total (characters typed), clamped (whether any were cut) }.
 * Throws when a character has no replacement (a vocabulary without a space).
 */
export function charTokens(text, chars, maxTokens) {
  const index = new Map(chars.map((c, i) => [c, i]));
  const known = new Set(chars);
  const typed = Array.from(String(text ?? ''));
  const replaced = new Map();
  const read = typed.map((c) => {
    if (known.has(c)) return c;
    const r = replacementFor(c, known);
    if (r === null) throw new Error(`the character ${JSON.stringify(c)} is not in the model's vocabulary`);
    replaced.set(c, r);
    return r;
  });
  const kept = read.slice(0, maxTokens);
  return {
    ids: kept.map((c) => index.get(c)),
    chars: kept,
    labels: kept.map(charLabel),
    replaced: [...replaced],
    total: typed.length,
    clamped: typed.length > maxTokens,
  };
}

/**
 * One sentence about the replacements and the clamp, or '' when there is nothing to say; `why`
 * says where the limit comes from (default: the model's context length), in the language of the
 * translator given last.
 */
export function describeCharTokens(result, maxTokens, why, { t } = english) {
  const parts = [];
  if (result.replaced.length) {
    const list = result.replaced
      .slice(0, 12)
      .map(([c, r]) => t('common.chars.readAs', { typed: charLabel(c), read: charLabel(r) }))
      .join(', ');
    parts.push(
      result.replaced.length > 12
        ? t('common.chars.replacedMore', { list, count: result.replaced.length - 12 })
        : t('common.chars.replaced', { list }),
    );
  }
  const reason = why ?? t('common.chars.contextLength', { max: maxTokens });
  if (result.clamped) parts.push(t('common.chars.clamped', { max: maxTokens, total: result.total, why: reason }));
  return parts.join(' ');
}
