// What ablating heads costs, in words: the probe's loss with and without them, and the heads whose
// scores fell the most (ablating a previous-token head in layer 1 typically breaks the induction
// head in layer 2 that reads its output). Heads are named as the page names them, from 1.
import { headShort } from './config.js';

const NAMES = { previousToken: 'previous-token', induction: 'induction', duplicateToken: 'duplicate-token' };

export function ablationDrops(base, without) {
  const drops = [];
  base.headScores.forEach((layer, l) => {
    for (const key of Object.keys(NAMES)) {
      layer[key].forEach((v, h) => {
        const after = without.headScores[l][key][h];
        if (v - after > 0.05) drops.push({ layer: l, head: h, key, before: v, after });
      });
    }
  });
  return drops.sort((a, b) => (b.before - b.after) - (a.before - a.after));
}

export function describeAblation(base, without, list) {
  const heads = list.map(({ layer, head }) => headShort(layer, head)).join(', ');
  const drops = ablationDrops(base, without).slice(0, 3)
    .map((d) => `${headShort(d.layer, d.head)} ${NAMES[d.key]} ${d.before.toFixed(2)} → ${d.after.toFixed(2)}`);
  return `Without ${heads}: probe loss ${base.loss.toFixed(2)} → ${without.loss.toFixed(2)}.`
    + (drops.length ? ` Scores lost: ${drops.join('; ')}.` : ' No head loses more than 0.05 of a score.');
}
