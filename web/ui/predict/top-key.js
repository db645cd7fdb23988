// "Which key gets the most weight?" (the weights and softmax-row lessons): one query's row of the
// attention weights is hidden; the learner picks a key from the scores (or Q and K) in view. The
// row asked about is the one whose largest weight leads the next by the most, so the answer is
// clear on screen once revealed; keys the query cannot see are not offered.

import { english } from '../model/model.js';

// Key labels made unique for the choices ("the (1)", "the (5)" when a word repeats).
function keyNames(keys) {
  const count = new Map();
  for (const k of keys) count.set(k, (count.get(k) ?? 0) + 1);
  return keys.map((k, j) => (count.get(k) > 1 ? `${k} (${j + 1})` : k));
}

/** The row to ask about and its visible keys, from the weights [n, m] and the hidden pairs. */
function pickRow(weights, hidden, fullyMasked) {
  const [n, m] = weights.shape;
  let best = null;
  for (let i = 0; i < n; i++) {
    if (fullyMasked.has(i)) continue;
    const seen = [];
    for (let j = 0; j < m; j++) if (!hidden?.[i * m + j]) seen.push(j);
    if (seen.length < 2) continue;
    const w = seen.map((j) => weights.data[i * m + j]).sort((a, b) => b - a);
    const lead = w[0] - w[1];
    if (!best || lead > best.lead + 1e-9) best = { row: i, keys: seen, lead };
  }
  return best;
}

export function createTopKeyQuestion(box, ctx) {
  const { t, decimal } = ctx.i18n ?? english;
  const quote = (label) => t('explorer.pipeline.quoted', { label });
  let shown = null; // { row, keys, weights row, labels }
  const hideWeights = () => {
    const card = ctx.pipeline?.card('weights');
    return card ? [card.body] : [];
  };
  return {
    targets: hideWeights,
    render(state, result) {
      if (result.error || !result.head) return;
      const weights = result.head.weights;
      const pick = pickRow(weights, result.hidden, result.fullyMasked);
      if (!pick) {
        shown = null;
        box.ask(t('explorer.predict.topKey.none'), []);
        return;
      }
      const m = weights.shape[1];
      const names = keyNames(result.labels.keys);
      const query = result.labels.queries[pick.row];
      shown = { ...pick, query, names, values: pick.keys.map((j) => weights.data[pick.row * m + j]) };
      box.ask(
        t('explorer.predict.topKey.question', { query: quote(query), row: pick.row + 1 }),
        pick.keys.map((j) => ({ value: j, label: names[j], data: true })),
        t('explorer.predict.topKey.hint'),
      );
    },
    judge(guess) {
      if (!shown) return null;
      const g = Number(guess);
      const top = Math.max(...shown.values);
      const answer = shown.keys[shown.values.indexOf(top)];
      const guessWeight = shown.values[shown.keys.indexOf(g)];
      // A tie at the top: either key is right.
      const alsoRight = shown.keys.filter((j, k) => top - shown.values[k] <= 1e-6 && j !== answer);
      const correct = top - guessWeight <= 1e-6;
      const name = (j) => quote(shown.names[j]);
      const weight = (v) => decimal(v.toFixed(2));
      return {
        correct,
        answer,
        alsoRight,
        answerLabel: shown.names[answer],
        guess: g,
        query: shown.query,
        row: shown.row,
        weights: Object.fromEntries(shown.keys.map((j, k) => [shown.names[j], shown.values[k]])),
        feedback: correct
          ? t('explorer.predict.topKey.right', { key: name(answer), weight: weight(top), query: quote(shown.query) })
          : t('explorer.predict.topKey.wrong', {
              guess: name(g),
              guessWeight: weight(guessWeight),
              key: name(answer),
              weight: weight(top),
            }),
      };
    },
  };
}
