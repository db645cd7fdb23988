// Each matrix as the example last set it (a preset, a link, new random values, new words, a
// resize): cell edits (changes with meta.source 'edit') leave it alone, so a matrix's Reset can
// bring back its exact values.

// Whether matrix a no longer holds b's values (same shape, some cell changed).
function differs(a, b) {
  if (!a || !b || a === b || a.rows !== b.rows || a.cols !== b.cols) return false;
  for (let k = 0; k < a.data.length; k++) if (!Object.is(a.data[k], b.data[k])) return true;
  return false;
}

export function trackOrigins(store) {
  const origin = { ...store.get().matrices };
  store.subscribe((s, prev, meta) => {
    if (meta.source === 'edit') return;
    for (const [name, m] of Object.entries(s.matrices)) if (m !== prev.matrices[name]) origin[name] = m;
  });
  return {
    /** Whether `name` holds values other than the example's. */
    edited: (name) => differs(store.get().matrices[name], origin[name]),
    /** Puts `name` back to the example's values (when the shapes still agree). */
    reset(name) {
      const m = origin[name];
      if (!m) return;
      store.update(
        (s) =>
          s.matrices[name]?.rows === m.rows && s.matrices[name]?.cols === m.cols
            ? { ...s, matrices: { ...s.matrices, [name]: m } }
            : s,
        { source: 'reset' },
      );
    },
  };
}
