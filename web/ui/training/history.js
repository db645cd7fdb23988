// A trained example's run, drawn as it happened: the loss curves and every head's scores over the
// steps from the history its file carries (scripts/examples/train-examples.mjs records them every
// few steps), instead of a line from the untrained model straight to the trained one.

/**
 * Redraws `loss` (the loss panel) and `cards` (the head cards) from `history`:
 * { step: [], train: [], repeated: [], all: [], scores: { previousToken: [l][h][k], … } }.
 * Entries that are null (no training loss at step 0) are left out of their line.
 */
export function replayHistory({ loss, cards }, history) {
  loss.reset();
  const all = cards.all();
  for (const card of all) card.chart.reset();
  const scores = history.scores;
  history.step.forEach((step, k) => {
    const value = (series) => (series?.[k] === null || series?.[k] === undefined ? NaN : series[k]);
    loss.push(step, { train: value(history.train), repeated: value(history.repeated), all: value(history.all) });
    scores.induction.forEach((layer, l) =>
      layer.forEach((series, h) => {
        cards.card(l, h)?.chart.push(step, {
          previousToken: scores.previousToken[l][h][k],
          induction: series[k],
          duplicateToken: scores.duplicateToken[l][h][k],
        });
      }),
    );
  });
}
