// What ablating heads costs, in words: the probe's loss with and without them, and the heads whose
// scores fell the most (ablating a previous-token head in layer 1 typically breaks the induction
// head in layer 2 that reads its output). Heads are named as the page names them, from 1.
import { english } from '../model/model.js';
import { headShort } from './config.js';

const NAMES = ['previousToken', 'induction', 'duplicateToken'];

function ablationDrops(base, without) {
  const drops = [];
  base.headScores.forEach((layer, l) => {
    for (const key of NAMES) {
      layer[key].forEach((v, h) => {
        const after = without.headScores[l][key][h];
        if (v - after > 0.05) drops.push({ layer: l, head: h, key, before: v, after });
      });
    }
  });
  return drops.sort((a, b) => b.before - b.after - (a.before - a.after));
}

/** The sentence for `list` ablated (probes `base` and `without`), in i18n's language. */
export function describeAblation(base, without, list, i18n = english) {
  const { t } = i18n;
  const fixed = (x) => i18n.decimal(x.toFixed(2));
  const heads = list.map(({ layer, head }) => headShort(layer, head)).join(', ');
  const drops = ablationDrops(base, without)
    .slice(0, 3)
    .map((d) =>
      t('training.ablation.drop', {
        head: headShort(d.layer, d.head),
        score: t(`training.score.${d.key}`),
        before: fixed(d.before),
        after: fixed(d.after),
      }),
    );
  const loss = { heads, before: fixed(base.loss), after: fixed(without.loss) };
  return drops.length
    ? t('training.ablation.drops', { ...loss, drops: drops.join('; ') })
    : t('training.ablation.none', loss);
}
