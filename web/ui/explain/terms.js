// Shared pieces of the written-out computations in "how was this number computed?": reading a
// cell, quoting a token and shortening a long sum.
export const SUB_K = '\u2096';
const MAX_TERMS = 8;

export const at = (t, i, j) => t.data[i * t.shape[1] + j];
export const quote = (s) => `\u201c${s}\u201d`;

// "a + b + … + z (12 terms)" keeping the first terms and the last one.
export function sum(terms) {
  if (terms.length <= MAX_TERMS) return terms.join(' + ');
  return `${terms.slice(0, MAX_TERMS - 2).join(' + ')} + \u2026 + ${terms[terms.length - 1]}  (${terms.length} terms)`;
}
