// Glossary (kept throughout): attention weights = Aufmerksamkeitsgewichte; query/key/value =
// Query/Key/Value; head = Kopf; mask = Maske; scores = Scores; token = Token; training = Training.
export default {
  'common.loading': 'Wird geladen\u2026',
};
