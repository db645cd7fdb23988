// Fixed ids (#preset, #pipeline, …) are test hooks and label targets. The first explorer in a
// document or shadow root keeps them; a later one gets a prefix so no id is ever duplicated.

const ID_REFS = ['for', 'aria-labelledby', 'aria-describedby', 'aria-controls'];

/**
 * Prefixes every id in `tree` (and the attributes that refer to them) with `prefix`, or with a
 * fresh one when no prefix is given and one of the ids is already taken in `scope`. Returns the
 * prefix used ('' for none).
 */
export function scopeIds(tree, scope, prefix) {
  const withId = [...tree.querySelectorAll('[id]')];
  if (!prefix) {
    const taken = withId.some((e) => scope.getElementById?.(e.id) ?? scope.querySelector?.(`#${CSS.escape(e.id)}`));
    if (!taken) return '';
    prefix = `ae${Math.random().toString(36).slice(2, 8)}-`;
  }
  const ids = new Set(withId.map((e) => e.id));
  for (const e of withId) e.id = prefix + e.id;
  for (const attr of ID_REFS) {
    for (const e of tree.querySelectorAll(`[${attr}]`)) {
      const value = e
        .getAttribute(attr)
        .split(/\s+/)
        .map((id) => (ids.has(id) ? prefix + id : id))
        .join(' ');
      e.setAttribute(attr, value);
    }
  }
  return prefix;
}
