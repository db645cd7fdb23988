// "How was this number computed?": the panel that explains the hovered or focused cell. The
// explanation writes the computation out with the actual operands (products left unevaluated) and
// the result the core produced, so a reader can check it by hand. Text only (textContent).
import { factor, formatNumber, subscript } from './format.js';
import { dims } from './state.js';
import { el, setText } from './dom.js';
import { explainMasked, explainProjectionInput, projectionTerms } from './explain-extras.js';

const MAX_TERMS = 8;
const SUB_K = '\u2096';

const at = (t, i, j) => t.data[i * t.shape[1] + j];
const quote = (s) => `\u201c${s}\u201d`;

// "a + b + … + z (12 terms)" keeping the first terms and the last one.
function sum(terms) {
  if (terms.length <= MAX_TERMS) return terms.join(' + ');
  return `${terms.slice(0, MAX_TERMS - 2).join(' + ')} + \u2026 + ${terms[terms.length - 1]}  (${terms.length} terms)`;
}

const MATRIX_TEXT = {
  Q: 'Q', K: 'K', V: 'V', X: 'X', WQ: 'W_Q', WK: 'W_K', WV: 'W_V', WO: 'W_O',
  XM: 'X_mem', B: 'B', BQ: 'b_Q', BK: 'b_K', BV: 'b_V', BO: 'b_O',
};

export function maskReason(state, i, j, labels) {
  const reasons = [];
  const d = dims(state);
  if (d.biasMatrix && state.matrices.B.data[i * d.m + j] === -Infinity) reasons.push(`bias matrix: B[${i + 1},${j + 1}] = \u2212\u221e`);
  if (state.mask.kind === 'causal' && j > i) reasons.push(`causal mask: key ${j + 1} (${quote(labels.keys[j])}) comes after query ${i + 1}, so it is in the future`);
  if (state.mask.kind === 'padding' && state.mask.pad[j]) reasons.push(`padding mask: key ${j + 1} is a [PAD] token, hidden from every query`);
  if (state.mask.kind === 'custom' && state.mask.custom[i * d.m + j]) reasons.push('custom mask: this pair was hidden by a click (click again to show it)');
  return reasons.length ? reasons.join('; ') : 'masked';
}

// The matrix a target points into, to check that it still exists after a resize.
function targetShape(target, state, result) {
  const m = result.multi;
  switch (target.kind) {
    case 'scores': case 'scaled': case 'masked': case 'weights': return result.head.scores.shape;
    case 'output': return result.head.output.shape;
    case 'proj': return result.proj?.[target.name]?.shape;
    case 'input': {
      const M = state.matrices[target.name];
      return M ? [M.rows, M.cols] : null;
    }
    case 'head': return m?.heads[target.head]?.shape;
    case 'average': return m?.average.shape;
    case 'concat': return m?.concat.shape;
    case 'mha-output': return m?.output.shape;
    default: return null;
  }
}

/**
 * Builds { title, lines: [{ text, kind }] } for a target { kind, i, j, name?, head? }, or null
 * when there is nothing to explain (an error, or a cell that no longer exists).
 */
export function explain(target, state, result) {
  if (!result || result.error) return null;
  const shape = targetShape(target, state, result);
  if (!shape || target.i >= shape[0] || target.j >= shape[1]) return null;
  const { labels } = result;
  const d = result.dims;
  const head = result.head;
  const { i, j } = target;
  const q = labels.queries[i];
  const k = labels.keys[j];
  const lines = [];
  const line = (text, kind = 'mono') => lines.push({ text, kind });
  const hn = d.multi ? ` (head ${head.index + 1})` : '';

  switch (target.kind) {
    case 'scores': {
      const terms = [];
      for (let c = 0; c < head.q.shape[1]; c++) terms.push(`${factor(at(head.q, i, c))}\u00d7${factor(at(head.k, j, c))}`);
      line(`S[${i + 1},${j + 1}] = q${subscript(i + 1)} \u00b7 k${subscript(j + 1)} = \u03a3 over d${SUB_K} = ${head.q.shape[1]} dimensions`, 'text');
      line(`= ${sum(terms)}`);
      line(`= ${formatNumber(at(head.scores, i, j))}`, 'result');
      line(`How much key ${quote(k)} matches what query ${quote(q)} looks for${hn}. Large and positive: a strong match.`, 'text');
      return { title: `Score: ${quote(q)} \u2192 ${quote(k)}`, lines };
    }
    case 'scaled': {
      const s = at(head.scores, i, j);
      const how = state.scaling.sqrtDk
        ? (state.scaling.temperature !== 1 ? `1 / (T\u00b7\u221ad${SUB_K}) = 1 / (${formatNumber(state.scaling.temperature)}\u00b7\u221a${head.dk})` : `1 / \u221ad${SUB_K} = 1 / \u221a${head.dk}`)
        : (state.scaling.temperature !== 1 ? `1 / T = 1 / ${formatNumber(state.scaling.temperature)}` : '1 (no scaling)');
      line(`scale = ${how} = ${formatNumber(head.scale)}`, 'text');
      line(`S\u2032[${i + 1},${j + 1}] = ${factor(s, 4)} \u00d7 ${formatNumber(head.scale)}`);
      line(`= ${formatNumber(at(head.scaled, i, j))}`, 'result');
      return { title: `Scaled score: ${quote(q)} \u2192 ${quote(k)}`, lines };
    }
    case 'masked': {
      explainMasked({ state, result, i, j, line, reason: () => maskReason(state, i, j, labels), d });
      return { title: `After the ${d.biasMatrix ? 'bias and the ' : ''}mask: ${quote(q)} \u2192 ${quote(k)}`, lines };
    }
    case 'weights': {
      const w = at(head.weights, i, j);
      const m = head.masked.shape[1];
      if (result.fullyMasked.has(i)) {
        if (d.biasMatrix) line(`Row ${i + 1} of M is \u2212\u221e everywhere (${maskReason(state, i, j, labels)}, and so on for every key).`, 'text');
        line(`Every key is hidden from query ${quote(q)}. A softmax over nothing would be 0 / 0 = NaN; the core flags the row and gives it all-zero weights and a zero output instead.`, 'text');
        line(`A[${i + 1},${j + 1}] = 0`, 'result');
        return { title: `Weight: ${quote(q)} \u2192 ${quote(k)} (row fully masked)`, lines };
      }
      const denom = [];
      for (let c = 0; c < m; c++) {
        const mv = at(head.masked, i, c);
        if (mv !== -Infinity) denom.push(`e^${factor(mv, 3)}`);
      }
      const hiddenCount = m - denom.length;
      if (at(head.masked, i, j) === -Infinity) {
        line(`This key is hidden: A[${i + 1},${j + 1}] = exp(\u2212\u221e) / \u03a3 = 0 exactly.`, 'text');
        line(`= 0`, 'result');
      } else {
        line(`A[${i + 1},${j + 1}] = exp(M[${i + 1},${j + 1}]) / \u03a3${SUB_K} exp(M[${i + 1},k])`, 'text');
        line(`= e^${factor(at(head.masked, i, j), 3)} / (${sum(denom)})`);
        line(`= ${formatNumber(w)}`, 'result');
        if (hiddenCount) line(`${hiddenCount} hidden key${hiddenCount > 1 ? 's' : ''} add e^\u2212\u221e = 0 to the sum.`, 'text');
        line('(The core subtracts the row maximum before exp; the ratio is the same and nothing overflows.)', 'note');
      }
      const st = result.stats;
      line(`Row ${quote(q)}: sum = ${formatNumber(st.rowSums[i], 6)}, max = ${formatNumber(st.maxWeight[i])}, entropy H = ${formatNumber(st.entropy[i], 3)} nats (uniform over ${m} would be ln ${m} = ${formatNumber(st.uniformEntropy, 3)}).`, 'text');
      return { title: `Weight: how much ${quote(q)} attends to ${quote(k)}${hn}`, lines };
    }
    case 'output': {
      const m = head.weights.shape[1];
      const terms = [];
      for (let r = 0; r < m; r++) terms.push(`${formatNumber(at(head.weights, i, r), 3)}\u00d7${factor(at(head.v, r, j))}`);
      line(`O[${i + 1},${j + 1}] = \u03a3 over keys of A[${i + 1},key] \u00d7 V[key,${j + 1}]`, 'text');
      line(`= ${sum(terms)}`);
      line(`= ${formatNumber(at(head.output, i, j))}`, 'result');
      line(result.fullyMasked.has(i)
        ? 'This query sees no key, so its output row is all zeros.'
        : `A weighted average of column ${j + 1} of V: the output always lies between the smallest and largest value.`, 'text');
      return { title: `Output of ${quote(q)}, dimension ${j + 1}${hn}`, lines };
    }
    case 'proj': {
      // Q, K or V = X·W (full projection in sentence mode).
      const name = target.name;
      const { xName, terms, bias } = projectionTerms(state, d, name, i, j);
      const t = result.proj[name];
      line(`${name}[${i + 1},${j + 1}] = \u03a3 over d_model = ${terms.length} of ${xName}[${i + 1},r] \u00d7 W_${name}[r,${j + 1}]${bias === null ? '' : ` + b_${name}[${j + 1}]`}`, 'text');
      line(`= ${sum(terms.map(([a, b]) => `${factor(a)}\u00d7${factor(b)}`))}${bias === null ? '' : ` + ${factor(bias)}`}`);
      line(`= ${formatNumber(at(t, i, j))}`, 'result');
      if (d.multi) line(`Column ${j + 1} belongs to head ${Math.floor(j / (d.dModel / d.heads)) + 1}.`, 'text');
      const role = { Q: 'what this token is looking for', K: 'what this token offers to be found by', V: 'what this token passes on when attended to' }[name];
      const token = name === 'Q' ? labels.queries[i] : labels.keys[i];
      line(`Row ${quote(token)} of ${name}: ${role}.`, 'text');
      return { title: `${name} = ${xName}\u00b7W_${name}${bias === null ? '' : ` + b_${name}`}: token ${quote(token)}, column ${j + 1}`, lines };
    }
    case 'input': {
      const name = target.name;
      const M = state.matrices[name];
      const v = M.data[i * M.cols + j];
      line(`${MATRIX_TEXT[name]}[${i + 1},${j + 1}] = ${formatNumber(v, 8)}`, 'result');
      const uses = {
        Q: `Query ${quote(q)}: changes row ${i + 1} of the scores.`,
        K: `Key ${quote(labels.keys[i])}: changes column ${i + 1} of the scores.`,
        V: `Value of ${quote(labels.keys[i])}: changes column ${j + 1} of every output row, in proportion to how much each query attends to ${quote(labels.keys[i])}.`,
        X: `Feature ${j + 1} of the vector of ${quote(labels.queries[i])}: changes row ${i + 1} of Q, K and V.`,
        WQ: `Weight from input feature ${i + 1} to column ${j + 1} of Q (for every token).`,
        WK: `Weight from input feature ${i + 1} to column ${j + 1} of K (for every token).`,
        WV: `Weight from input feature ${i + 1} to column ${j + 1} of V (for every token).`,
        WO: `Weight from column ${i + 1} of the concatenated heads to output feature ${j + 1}.`,
      }[name] ?? explainProjectionInput(name, i, j, labels);
      line(uses, 'text');
      line('Type a new number: every step below updates at once. Arrows move, Enter commits and moves down, Esc restores.', 'note');
      return { title: `Input ${MATRIX_TEXT[name]}, row ${i + 1}, column ${j + 1}`, lines };
    }
    case 'head': {
      const m = result.multi;
      const w = at(m.heads[target.head], i, j);
      line(`A${subscript(target.head + 1)}[${i + 1},${j + 1}] = ${formatNumber(w)}`, 'result');
      line(`Head ${target.head + 1} runs the same softmax(Q\u2095K\u2095\u1d40/\u221ad\u2095)V\u2095 on its own ${m.headDim}-column slice of Q, K and V. Click (or Enter) to show this head's steps.`, 'text');
      return { title: `Head ${target.head + 1}: ${quote(q)} \u2192 ${quote(k)}`, lines };
    }
    case 'average': {
      const m = result.multi;
      const terms = m.heads.map((h) => formatNumber(at(h, i, j), 3));
      line(`(${terms.join(' + ')}) / ${m.heads.length}`);
      line(`= ${formatNumber(at(m.average, i, j))}`, 'result');
      line('The mean over heads, which torch.nn.MultiheadAttention returns by default (average_attn_weights=True).', 'text');
      return { title: `Head average: ${quote(q)} \u2192 ${quote(k)}`, lines };
    }
    case 'concat': {
      const m = result.multi;
      const h = Math.floor(j / m.headDim);
      const c = j - h * m.headDim;
      line(`concat[${i + 1},${j + 1}] = head ${h + 1} output [${i + 1},${c + 1}] = ${formatNumber(at(m.concat, i, j))}`, 'result');
      line(`Columns ${h * m.headDim + 1}\u2013${(h + 1) * m.headDim} hold head ${h + 1}. Concatenation only places heads side by side; they have not interacted yet.`, 'text');
      return { title: `Concatenated heads: ${quote(q)}, column ${j + 1}`, lines };
    }
    case 'mha-output': {
      const m = result.multi;
      const W = state.matrices.WO;
      const terms = [];
      for (let r = 0; r < W.rows; r++) terms.push(`${factor(at(m.concat, i, r))}\u00d7${factor(W.data[r * W.cols + j])}`);
      const bo = d.biases ? state.matrices.BO.data[j] : null;
      line(`out[${i + 1},${j + 1}] = \u03a3 over ${W.rows} columns of concat[${i + 1},r] \u00d7 W_O[r,${j + 1}]${bo === null ? '' : ` + b_O[${j + 1}]`}`, 'text');
      line(`= ${sum(terms)}${bo === null ? '' : ` + ${factor(bo)}`}`);
      line(`= ${formatNumber(at(m.output, i, j))}`, 'result');
      line('W_O is where the heads mix: every output feature reads every head.', 'text');
      return { title: `Multi-head output: ${quote(q)}, feature ${j + 1}`, lines };
    }
    default:
      return null;
  }
}

/** The panel: shows one explanation at a time, announced politely to screen readers. */
export function createExplainPanel() {
  const root = el('aside', 'explain');
  root.id = 'explain';
  root.setAttribute('aria-labelledby', 'explain-title');
  const title = el('h2', 'explain-title', 'How was this number computed?');
  title.id = 'explain-title';
  const body = el('div', 'explain-body');
  body.id = 'explain-body';
  body.setAttribute('aria-live', 'polite');
  const idle = () => el('p', 'explain-idle', 'Point at, tap or focus any cell to see how it was computed. In a matrix, arrow keys move between cells.');
  body.append(idle());
  // It stays in view at the bottom of the screen, which on a phone is a good part of it: it folds
  // down to its title line (the title still follows the cell explained).
  const toggle = el('button', 'small-button explain-toggle', 'Hide');
  toggle.type = 'button';
  toggle.setAttribute('aria-controls', body.id);
  toggle.setAttribute('aria-expanded', 'true');
  toggle.setAttribute('aria-label', 'Hide the explanation');
  toggle.addEventListener('click', () => {
    const open = body.hidden;
    body.hidden = !open;
    root.classList.toggle('collapsed', !open);
    toggle.textContent = open ? 'Hide' : 'Show';
    toggle.setAttribute('aria-expanded', String(open));
    toggle.setAttribute('aria-label', open ? 'Hide the explanation' : 'Show the explanation');
  });
  const header = el('div', 'explain-header');
  header.append(title, toggle);
  root.append(header, body);
  let shown = '';  // the content on screen, so an unchanged explanation costs no DOM work
  return {
    el: root,
    show(content) {
      const key = content ? `${content.title}\u0000${content.lines.map((l) => `${l.kind}:${l.text}`).join('\u0000')}` : '';
      if (key === shown) return;
      shown = key;
      if (!content) {
        title.textContent = 'How was this number computed?';
        body.replaceChildren(idle());
        return;
      }
      setText(title, content.title);
      // The same kinds of lines as on screen (the next edit of the same cell): only their text
      // changes, and no paragraph is rebuilt.
      const paragraphs = body.children;
      const sameShape = paragraphs.length === content.lines.length
        && content.lines.every((l, k) => paragraphs[k].className === `explain-${l.kind}`);
      if (sameShape) content.lines.forEach((l, k) => setText(paragraphs[k], l.text));
      else body.replaceChildren(...content.lines.map((l) => el('p', `explain-${l.kind}`, l.text)));
    },
  };
}
