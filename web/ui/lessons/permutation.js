// "Permutation equivariance": swap two tokens (their rows of Q and of K, V; or of X) and compute
// again in the core. Without positions, attention cannot tell the order: the output rows swap with
// the tokens and are otherwise unchanged. A causal mask is tied to positions, so with it they are
// not; nor with a positional encoding added to X, where the words swap but the positions stay.
import { el, failureLine, field, lessonPanel, setSentence, setText, sideBySide, userText } from './dom.js';
import { compare, diffText } from './compare.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { dims, english, maskOptions, positionVector, setLesson } from '../model/model.js';

// X with the words at positions perm[r] moved to r while every position keeps its own vector:
// X'[r] = X[perm[r]] − P[perm[r]] + P[r].
function swappedWords(attn, state, perm) {
  const X = state.matrices.X;
  const E = X.cols;
  const P = perm.map((_, p) => positionVector(attn, state.positional, p, E, state.seed));
  const data = new Float32Array(X.rows * E);
  for (let r = 0; r < X.rows; r++)
    for (let c = 0; c < E; c++) data[r * E + c] = X.data[perm[r] * E + c] - P[perm[r]][c] + P[r][c];
  return { data, shape: [X.rows, E] };
}

// The options of the two token pickers, rebuilt only when the names change (key: the names so far).
function fillTokenOptions(selects, names, key) {
  const next = names.join('\u0000');
  if (next === key) return key;
  for (const select of selects) {
    select.replaceChildren(
      ...names.map((t, i) => {
        const o = el('option', '', t);
        o.value = String(i);
        o.translate = false; // a number and the token's label
        return o;
      }),
    );
  }
  return next;
}

// The permutation: positions i and j trade places, in the queries and in the keys/values.
function swapIndices(d, i, j) {
  const perm = Array.from({ length: Math.max(d.n, d.m) }, (_, k) => k);
  perm[i] = j;
  perm[j] = i;
  return { qIndex: perm.slice(0, d.n), kIndex: perm.slice(0, d.m) };
}

// Masks travel with their tokens, except the causal one, which is about positions.
function movedMasks(opts, d, qIndex, kIndex) {
  const moved = {};
  if (opts.causal) moved.causal = true;
  if (opts.keyPaddingMask)
    moved.keyPaddingMask = { data: Uint8Array.from(kIndex, (k) => opts.keyPaddingMask.data[k]), shape: [d.m] };
  if (opts.mask) {
    const data = new Uint8Array(d.n * d.m);
    for (let r = 0; r < d.n; r++)
      for (let c = 0; c < d.m; c++) data[r * d.m + c] = opts.mask.data[qIndex[r] * d.m + kIndex[c]];
    moved.mask = { data, shape: [d.n, d.m] };
  }
  return moved;
}

// Why the order may matter here: a causal mask, positions added to X (or their absence), several heads.
// Each note is a sentence of its own (lessons.permutation.note.*).
function orderNotes(state, d, positions, { t }) {
  const notes = [];
  if (state.mask.kind === 'causal') notes.push(t('lessons.permutation.note.causal'));
  if (positions)
    notes.push(
      t(state.positional === 'sinusoidal' ? 'lessons.permutation.note.sinusoidal' : 'lessons.permutation.note.learned'),
    );
  else if (d.sentence) notes.push(t('lessons.permutation.note.none'));
  if (dims(state).multi) notes.push(t('lessons.permutation.note.multi'));
  return notes;
}

// Row r of the swapped output should be row qIndex[r] of the original.
function showVerdict(verdict, swapped, out, qIndex, [i, j], i18n) {
  const cols = out.shape[1];
  const c = compare(swapped.data, out.data, (k) => qIndex[Math.floor(k / cols)] * cols + (k % cols));
  const equal = c.differ.size === 0;
  verdict.dataset.equal = String(equal);
  verdict.dataset.maxDiff = String(c.maxDiff);
  const diff = i18n.decimal(diffText(c.maxDiff));
  setText(
    verdict,
    equal
      ? i18n.t('lessons.permutation.swapped', { i: i + 1, j: j + 1, diff })
      : i18n.t('lessons.permutation.changed', { count: c.differ.size, diff }),
  );
}

export function createPermutationPanel({ attn, computer, update, i18n = english }) {
  const { t } = i18n;
  const { root, intro } = lessonPanel('permutation', t('lessons.permutation.intro'));
  const a = el('select');
  a.dataset.control = 'swap-a';
  const b = el('select');
  b.dataset.control = 'swap-b';
  const controls = el('div', 'lesson-controls');
  controls.append(field(t('lessons.permutation.swap'), a), field(t('lessons.permutation.with'), b));
  const setSwap = () => update((s) => setLesson(s, 'swap', [Number(a.value), Number(b.value)]));
  a.addEventListener('change', setSwap);
  b.addEventListener('change', setSwap);
  const note = el('p', 'lesson-note');

  const side = (title, key) => {
    const col = el('div', 'lesson-side');
    const h = el('h4', '', title);
    const order = el('p', 'lesson-note mono');
    const tokens = userText('');
    const map = createHeatmap({
      name: `perm-${key}`,
      label: t('lessons.permutation.outputLabel', { side: title }),
      kind: 'diverging',
      i18n,
    });
    col.append(h, order, map.el);
    return { el: col, h, order, tokens, map };
  };
  const before = side(t('lessons.permutation.before'), 'original');
  const after = side(t('lessons.permutation.after'), 'swapped');
  const { sides, verdict } = sideBySide(before.el, after.el, 'perm-verdict');
  const body = el('div');
  const failure = failureLine(body);
  body.append(note, sides, verdict);
  root.append(intro, controls, failure.el, body);
  let optionsKey = '';

  return {
    el: root,
    render(state, result, display) {
      if (result.error) return failure.fail(t('lessons.error.compute', { error: result.error }));
      const d = result.dims;
      const { queries } = result.labels;
      const count = Math.min(d.n, d.m);
      const names = queries.slice(0, count).map((q, i) => `${i + 1}: ${q}`);
      optionsKey = fillTokenOptions([a, b], names, optionsKey);
      const [i, j] = state.lessons.swap;
      a.value = String(i);
      b.value = String(j);
      if (count < 2 || i === j) {
        failure.fail(t('lessons.permutation.needsTwo'));
        return;
      }

      const { qIndex, kIndex } = swapIndices(d, i, j);
      const opts = maskOptions(state);
      const moved = movedMasks(opts, d, qIndex, kIndex);
      const positions = d.sentence && state.positional !== 'none';
      let base;
      let swapped;
      try {
        base = computer.variant(opts);
        swapped = positions
          ? computer.variant({ x: swappedWords(attn, state, qIndex), ...moved })
          : computer.variant({ queries: qIndex, keys: kIndex, ...moved });
      } catch (err) {
        failure.fail(t('lessons.error.refused', { error: err.message }));
        return;
      }
      failure.ok();

      const out = base.output;
      const cols = out.shape[1];
      const colLabels = Array.from({ length: cols }, (_, c) => String(c + 1));
      const swappedLabels = qIndex.map((r) => queries[r]);
      before.map.update({ tensor: out, rowLabels: queries, colLabels, ...display });
      after.map.update({ tensor: swapped.output, rowLabels: swappedLabels, colLabels, ...display });
      const rows = new Set([i, j]);
      before.map.setHighlight({ rows });
      after.map.setHighlight({ rows });
      for (const [part, labels] of [
        [before, queries],
        [after, swappedLabels],
      ]) {
        setText(part.tokens, labels.join(' · '));
        setSentence(part.order, i18n, 'lessons.permutation.order', {}, { tokens: part.tokens });
      }
      setText(note, orderNotes(state, d, positions, i18n).join(' '));
      note.hidden = !note.textContent;
      showVerdict(verdict, swapped.output, out, qIndex, [i, j], i18n);
    },
  };
}
