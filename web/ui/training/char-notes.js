// What a character-level model made of a learner's text (model/char-tokens.js's result), in the
// view's language: the characters it read as others, and the cut at the context length. The
// characters named are the learner's own; the sentence around them is the catalogue's.
import { charLabel, english } from '../model/model.js';

const SHOWN = 12;

/**
 * One sentence about the replacements and the clamp, or '' when there is nothing to say. why:
 * 'context' (the model's context length is the limit) or 'room' (the prompt must leave room for
 * new tokens).
 */
export function describeTokens(result, maxTokens, { why = 'context', i18n = english } = {}) {
  const { t } = i18n;
  const parts = [];
  if (result.replaced.length) {
    const pairs = result.replaced
      .slice(0, SHOWN)
      .map(([c, r]) => t('training.chars.pair', { typed: charLabel(c), read: charLabel(r) }));
    const more = result.replaced.length - SHOWN;
    const list = pairs.join(', ');
    parts.push(
      more > 0 ? t('training.chars.replacedMore', { list, count: more }) : t('training.chars.replaced', { list }),
    );
  }
  if (result.clamped) parts.push(t(`training.chars.clamped.${why}`, { max: maxTokens, total: result.total }));
  return parts.join(' ');
}
