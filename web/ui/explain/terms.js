// Shared pieces of the written-out computations in "how was this number computed?": reading a
// cell, quoting a token and shortening a long sum.
export const SUB_K = 'ₖ';
const MAX_TERMS = 8;

export const at = (t, i, j) => t.data[i * t.shape[1] + j];
// A token or word quoted as the translator's language quotes it (“cat”, „cat“, «cat»).
export const quote = (s, t) => (t ? t('explorer.pipeline.quoted', { label: s }) : `“${s}”`);

// "a + b + … + z (12 terms)" keeping the first terms and the last one.
export function sum(terms, t) {
  if (terms.length <= MAX_TERMS) return terms.join(' + ');
  const count = t ? t('explorer.explain.terms', { count: terms.length }) : `(${terms.length} terms)`;
  return `${terms.slice(0, MAX_TERMS - 2).join(' + ')} + … + ${terms[terms.length - 1]}  ${count}`;
}
