// The cells related to the one being explained, outlined across panels: the inputs a score reads,
// the row of weights an output averages over, the column of W that made a projection, and so on.

// [component, spec] pairs for `target` in `result`; spec is { rows, cols, cells } of Sets.
function plan(target, result, { inputs, pipeline, heads }) {
  const out = [];
  const d = result.dims;
  const { i, j } = target;
  const m = d.m;
  const off = d.multi ? result.head.index * result.head.dk : 0;
  const qkv = (name) => inputs.target(name, d.sentence);
  const cell = (r, c, cols) => new Set([r * cols + c]);
  const row = (r) => ({ rows: new Set([r]) });
  const col = (c) => ({ cols: new Set([c]) });
  const P = pipeline.maps;
  const H = heads.maps;
  switch (target.kind) {
    case 'scores':
      out.push([qkv('Q'), row(i)], [qkv('K'), row(j)], [P.scores, { cells: cell(i, j, m) }]);
      break;
    case 'scaled':
      out.push([P.scores, { cells: cell(i, j, m) }], [P.scaled, { cells: cell(i, j, m) }]);
      break;
    case 'masked':
      out.push([P.scaled, { cells: cell(i, j, m) }], [P.masked, { cells: cell(i, j, m) }]);
      break;
    case 'weights':
      out.push([P.masked, row(i)], [P.weights, { cells: cell(i, j, m) }]);
      break;
    case 'output':
      out.push(
        [P.weights, row(i)],
        [qkv('V'), col(off + j)],
        [P.output, { cells: cell(i, j, result.head.output.shape[1]) }],
      );
      break;
    case 'proj':
      out.push(
        [inputs.editors[d.cross && target.name !== 'Q' ? 'XM' : 'X'], row(i)],
        [inputs.editors[`W${target.name}`], col(j)],
      );
      break;
    case 'input':
      out.push(...inputPlan(target, d, inputs, P, H));
      break;
    case 'head':
    case 'average':
      if (d.multi) for (const map of [...heads.headMaps(), H.average]) out.push([map, { cells: cell(i, j, m) }]);
      break;
    case 'mha-output':
      out.push([H.concat, row(i)], [inputs.editors.WO, col(j)], [H['mha-output'], { cells: cell(i, j, d.dModel) }]);
      break;
    default:
      break;
  }
  return out;
}

// An input cell: what it feeds.
function inputPlan({ name, i, j }, d, inputs, P, H) {
  const out = [];
  if (name === 'Q') out.push([P.scores, { rows: new Set([i]) }]);
  if (name === 'K') out.push([P.scores, { cols: new Set([i]) }]);
  if (name === 'V') out.push([P.output, { cols: new Set([j]) }]);
  if (name === 'X' && d.sentence)
    for (const n of d.cross ? ['Q'] : ['Q', 'K', 'V']) out.push([inputs.projMaps[n], { rows: new Set([i]) }]);
  if (name === 'XM') for (const n of ['K', 'V']) out.push([inputs.projMaps[n], { rows: new Set([i]) }]);
  if (name === 'B') out.push([P.masked, { cells: new Set([i * d.m + j]) }]);
  if (['WQ', 'WK', 'WV'].includes(name)) out.push([inputs.projMaps[name[1]], { cols: new Set([j]) }]);
  if (name === 'WO' && d.multi) out.push([H['mha-output'], { cols: new Set([j]) }]);
  return out;
}

/** panels: { inputs, pipeline, heads }. update(target, result) outlines what target relates to. */
export function createHighlighter(panels) {
  let lit = [];
  return {
    update(target, result) {
      const steps = target && result && !result.error ? plan(target, result, panels) : [];
      const next = steps.filter(([component]) => component).map(([component]) => component);
      for (const c of lit) if (!next.includes(c)) c.setHighlight({});
      for (const [component, spec] of steps) component?.setHighlight(spec);
      lit = next;
    },
  };
}
