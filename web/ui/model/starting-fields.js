// The starting-number fields a teacher can write (starting-numbers.js reads and applies them): their
// names, which the element and embed.html need at once, apart from the parsing, which loads only
// when an example has some.

/** The fields a teacher can write, in the order they are applied. */
export const STARTING_FIELDS = ['q', 'k', 'v', 'x', 'sentence', 'mask'];

/** The starting-number fields present in a lookup (an element's getAttribute, URLSearchParams.get). */
export function startingFields(get) {
  const out = {};
  for (const name of STARTING_FIELDS) {
    const value = get(name);
    if (value !== null && value !== undefined) out[name] = String(value);
  }
  return out;
}
