// What a cell's explanation says: the computation written out with the actual operands (products
// left unevaluated) and the result the core produced, so a reader can check it by hand. Loaded on
// the first explanation asked for or when the browser is idle after the first drawing
// (loadExplainers in explain.js, with its English text).
import { dims, english, formatNumber } from '../model/model.js';
import { ATTENTION_EXPLAINERS } from './attention.js';
import { INPUT_EXPLAINERS } from './inputs.js';
import { MULTI_HEAD_EXPLAINERS } from './multi-head.js';
import { quote } from './terms.js';

// One function per map kind; each writes its lines with `line(text, kind)` and returns the title.
const EXPLAINERS = { ...ATTENTION_EXPLAINERS, ...INPUT_EXPLAINERS, ...MULTI_HEAD_EXPLAINERS };

export function maskReason(state, i, j, labels, { t } = english) {
  const reasons = [];
  const d = dims(state);
  const at = { i: i + 1, j: j + 1, key: quote(labels.keys[j], t) };
  if (d.biasMatrix && state.matrices.B.data[i * d.m + j] === -Infinity)
    reasons.push(t('explorer.explain.reason.bias', at));
  if (state.mask.kind === 'causal' && j > i) reasons.push(t('explorer.explain.reason.causal', at));
  if (state.mask.kind === 'padding' && state.mask.pad[j]) reasons.push(t('explorer.explain.reason.padding', at));
  if (state.mask.kind === 'custom' && state.mask.custom[i * d.m + j]) reasons.push(t('explorer.explain.reason.custom'));
  return reasons.length ? reasons.join('; ') : t('explorer.explain.reason.masked');
}

// The matrix a target points into, to check that it still exists after a resize.
function targetShape(target, state, result) {
  const m = result.multi;
  switch (target.kind) {
    case 'scores':
    case 'scaled':
    case 'masked':
    case 'weights':
      return result.head.scores.shape;
    case 'output':
      return result.head.output.shape;
    case 'proj':
      return result.proj?.[target.name]?.shape;
    case 'input': {
      const M = state.matrices[target.name];
      return M ? [M.rows, M.cols] : null;
    }
    case 'head':
      return m?.heads[target.head]?.shape;
    case 'average':
      return m?.average.shape;
    case 'concat':
      return m?.concat.shape;
    case 'mha-output':
      return m?.output.shape;
    default:
      return null;
  }
}

/**
 * Builds { title, lines: [{ text, kind }] } for a target { kind, i, j, name?, head? }, or null
 * when there is nothing to explain (an error, or a cell that no longer exists).
 */
export function explain(target, state, result, i18n = english) {
  const { t, decimal } = i18n;
  if (!result || result.error) return null;
  const shape = targetShape(target, state, result);
  if (!shape || target.i >= shape[0] || target.j >= shape[1]) return null;
  const explainer = EXPLAINERS[target.kind];
  if (!explainer) return null;
  const { labels } = result;
  const d = result.dims;
  const head = result.head;
  const { i, j } = target;
  const lines = [];
  // Every number written here takes the locale's decimal separator.
  const line = (text, kind = 'mono', math = false) => lines.push({ text: decimal(text), kind, math });
  const title = explainer({
    target,
    state,
    result,
    d,
    head,
    labels,
    i,
    j,
    q: labels.queries[i],
    k: labels.keys[j],
    line,
    t,
    num: (v, digits) => decimal(formatNumber(v, digits)),
    quote: (s) => quote(s, t),
    hn: d.multi ? t('explorer.explain.ofHead', { k: head.index + 1 }) : '',
    reason: () => maskReason(state, i, j, labels, i18n),
  });
  return { title: decimal(title), lines };
}
