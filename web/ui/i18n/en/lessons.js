// The lesson tabs (web/ui/lessons/, the inference lessons aside): tab names, titles, controls,
// explanations, plot labels and verdicts. Formulas inside messages stay as written in every
// language; {name} placeholders are filled with numbers already in the locale's decimal separator.
export default {
  'lessons.error.compute': 'Cannot compute: {error}',
  'lessons.error.refused': 'The core refused: {error}',

  'lessons.plot.computing': 'Plot, being computed',
  'lessons.plot.sigma': '±1 std = ±{std}',

  'lessons.sqrtDk.intro':
    'A dot product adds up dₖ products. If every entry of q and k has mean 0 and variance 1, each product has variance 1, so the sum has variance dₖ: its spread grows like √dₖ. Dividing by √dₖ brings it back to 1, whatever dₖ is. Here the core draws the vectors (NumPy’s generator, seeded) and measures.',
  'lessons.sqrtDk.dkSlider': 'dₖ (slider, logarithmic)',
  'lessons.sqrtDk.dkField': 'dₖ, the length of q and k',
  'lessons.sqrtDk.pairs': 'pairs N',
  'lessons.sqrtDk.seed': 'seed',
  'lessons.sqrtDk.row': 'keys in the row',
  'lessons.sqrtDk.newSeed': 'New seed',
  'lessons.sqrtDk.rawTitle': 'Raw scores q·k',
  'lessons.sqrtDk.rawCaption': 'std {std} {expected}, variance {variance} (target dₖ), mean {mean}',
  'lessons.sqrtDk.scaledTitle': 'Scaled scores q·k / √dₖ',
  'lessons.sqrtDk.scaledCaption': 'std {std} (target 1), variance {variance} (target 1), mean {mean}',
  'lessons.sqrtDk.rawDescription':
    'Histogram of {count} raw dot products for dₖ = {dk}: from {lo} to {hi}, standard deviation {std}.',
  'lessons.sqrtDk.scaledDescription':
    'Histogram of the same {count} dot products divided by √{dk}: standard deviation {std}.',
  'lessons.sqrtDk.softRawTitle': 'softmax(scores), unscaled',
  'lessons.sqrtDk.softScaledTitle': 'softmax(scores / √dₖ)',
  'lessons.sqrtDk.softCaption': 'entropy {entropy} nats, largest weight {max}',
  'lessons.sqrtDk.uniform': {
    one: 'For comparison, equal weights over {count} key have entropy ln {count} = {entropy} nats; a one-hot row has 0. Near 0, the softmax passes almost all weight to one key and its gradient almost vanishes.',
    other:
      'For comparison, equal weights over {count} keys have entropy ln {count} = {entropy} nats; a one-hot row has 0. Near 0, the softmax passes almost all weight to one key and its gradient almost vanishes.',
  },
  'lessons.sqrtDk.softIntro':
    'Now one row of attention: {count} keys whose scores are the first {count} dot products above (dₖ = {dk}), through a softmax without and with the scaling.',
  'lessons.sqrtDk.softRawDescription':
    'Softmax of {count} unscaled scores: largest weight {max}, entropy {entropy} nats.',
  'lessons.sqrtDk.softScaledDescription':
    'Softmax of the same scores divided by √{dk}: largest weight {max}, entropy {entropy} nats.',
  'lessons.sqrtDk.failed': 'The core could not sample: {error}',
  'lessons.sqrtDk.status': '{count} pairs of standard-normal vectors of length {dk}, seed {seed}.',
  'lessons.sqrtDk.sampling': 'Sampling {count} pairs of vectors of length {dk}…',
  'lessons.pitfalls.intro':
    'The explorer’s own Q, K and V (its example and mask), computed right and computed with one classic mistake. Cells that differ are outlined; Σ is each row’s sum.',
  'lessons.pitfalls.mistake': 'Mistake',
  'lessons.pitfalls.useCausal': 'Use the causal mask',
  'lessons.pitfalls.correct': 'Correct',
  'lessons.pitfalls.wrong': 'With the mistake',
  'lessons.pitfalls.weights': 'Attention weights',
  'lessons.pitfalls.averageWeights': 'Head-averaged attention weights',
  'lessons.pitfalls.output': 'Output',
  'lessons.pitfalls.headOutput': 'Output A·V',
  'lessons.pitfalls.layerOutput': 'Layer output (concat·W_O)',
  'lessons.pitfalls.layerOutputNoWo': 'Layer output (the concatenation, no W_O)',
  'lessons.pitfalls.weightsLabel': '{side}: attention weights',
  'lessons.pitfalls.outputLabel': '{side}: output',
  'lessons.pitfalls.rowSum': 'row sum',
  'lessons.pitfalls.noMask':
    'This mistake only matters where keys are hidden, and no mask is chosen: both sides are the same.',
  'lessons.pitfalls.ownScale': 'The correct side uses the explorer’s scale (×{scale}); the mistake replaces it.',
  'lessons.pitfalls.nothing': 'Nothing to compare yet.',
  'lessons.pitfalls.weightsDiffer': '{count} of {total} weights differ (by up to {diff})',
  'lessons.pitfalls.weightsSame': 'The weights are the same',
  'lessons.pitfalls.outputDiffers': '{count} of {total} output values differ (by up to {diff})',
  'lessons.pitfalls.outputSame': 'the output is the same',
  'lessons.pitfalls.rowsShort': {
    one: '{count} row sums to less than 1 (smallest {smallest})',
    other: '{count} rows sum to less than 1 (smallest {smallest})',
  },
  'lessons.pitfalls.summary': '{weights}; {output}.',
  'lessons.pitfalls.summaryShort': '{weights}; {output}; {short}.',
  'lessons.pitfalls.mask-after-softmax.label': 'Mask applied after the softmax',
  'lessons.pitfalls.mask-after-softmax.text':
    'The softmax runs over every key, then the hidden weights are set to 0. Nothing renormalizes the rest, so a row that hid keys sums to less than 1 and its output shrinks towards 0.',
  'lessons.pitfalls.mask-value-zero.label': 'Mask value 0 instead of −∞',
  'lessons.pitfalls.mask-value-zero.text':
    'Hidden scores become 0 instead of −∞. But e⁰ = 1 is an ordinary weight: hidden keys still take part, and they win whenever the visible scores are negative.',
  'lessons.pitfalls.scale-by-dk.label': 'Scaling by dₖ instead of √dₖ',
  'lessons.pitfalls.scale-by-dk.text':
    'Dividing by dₖ shrinks the scores √dₖ times too much: the weights drift towards uniform and the model can no longer focus (no difference at dₖ = 1).',
  'lessons.pitfalls.scale-by-dmodel.label': 'Scaling by √d_model instead of the head’s √dₖ',
  'lessons.pitfalls.scale-by-dmodel.text':
    "Each head sums over its own dₖ = d_model / h features, so that is the spread to correct. Dividing by √d_model makes every head's scores √h times too small.",
  'lessons.pitfalls.skip-wo.label': 'W_O skipped',
  'lessons.pitfalls.skip-wo.text':
    'The concatenated heads are returned as they are. The weights do not change, but each output column now comes from one head only: the heads never mix.',
  'lessons.hull.intro':
    'Each output row is a weighted average of the value vectors: the weights are never negative and sum to 1. With two numbers per value (dᵥ = 2) the values are points in the plane, and every output lands inside the shape they span, their convex hull. Attention can only mix what the values offer.',
  'lessons.hull.convert': 'Use this example with dᵥ = 2',
  'lessons.hull.tableCaption': 'Outputs, computed by the core',
  'lessons.hull.column.query': 'query',
  'lessons.hull.column.output': 'output (x, y)',
  'lessons.hull.column.inside': 'inside the hull',
  'lessons.hull.draggable': 'draggable point',
  'lessons.hull.headDims':
    'Each head here has {count} value dimensions. Set d_model = 2 × heads (for example d_model 8 with 4 heads), or copy this head into Q, K, V mode with two value dimensions:',
  'lessons.hull.valueDims':
    'The values here have {count} dimensions. Set dᵥ = 2, or copy this example’s Q and K (and the first two columns of V) into Q, K, V mode:',
  'lessons.hull.drag':
    'Drag a value point (or focus it and use the arrow keys; Shift for small steps): V changes, and every output moves with it, never leaving the hull.',
  'lessons.hull.fromX': 'Here the values come from X·W_V. To drag them, copy this example into Q, K, V mode:',
  'lessons.hull.legend':
    'Circles: the values v₁…{last}; diamonds: the outputs. Lines: the weights of “{query}” (thicker = more weight); pick another output to see its weights.',
  'lessons.hull.outside': {
    one: '{count} output lies outside the hull.',
    other: '{count} outputs lie outside the hull.',
  },
  'lessons.hull.inside': 'All {count} outputs lie inside the hull of the {values} values.',
  'lessons.hull.plotLabel':
    'Value vectors as points, their convex hull with {corners} corners, and the {count} outputs inside it',
  'lessons.hull.valuePoint': '{name}: the value of {key}, at {point}',
  'lessons.hull.valuePointDrag':
    '{name}: the value of {key}, at {point}. Arrow keys move it; Shift+arrow moves it a little.',
  'lessons.hull.outputPoint': '{query}: its output, at {point}; show its weights',
  'lessons.hull.noKey': 'no visible key: output 0',
  'lessons.hull.yes': 'yes',
  'lessons.hull.no': 'no',
  'lessons.cost.intro':
    'The projections cost the same per token however long the text is; the score matrix grows with n × m. For short inputs the projections dominate, for long ones the quadratic term does, and the h attention matrices must also fit in memory. Numbers from attn.lessons.attentionCost for a layer; while the explorer shows a single head (which has no W_O), from that head’s own matrices (a multiply–add counts as 2 FLOPs).',
  'lessons.cost.follow': 'Use the explorer’s sizes',
  'lessons.cost.field.n': 'n (queries)',
  'lessons.cost.field.m': 'm (keys)',
  'lessons.cost.field.heads': 'heads h',
  'lessons.cost.parameters.label': 'Parameters: W_Q, W_K, W_V, W_O and their biases',
  'lessons.cost.parameters.headLabel': 'Parameters: W_Q, W_K, W_V and their biases (no W_O)',
  'lessons.cost.parameters.layer': '4·d² + 4·d, whatever h is',
  'lessons.cost.parameters.head': 'd·(2dₖ + dᵥ), no W_O (+ 2dₖ + dᵥ with biases)',
  'lessons.cost.projectionFlops.label': 'Projections Q, K, V and the output',
  'lessons.cost.projectionFlops.headLabel': 'Projections Q, K, V (no output projection)',
  'lessons.cost.projectionFlops.layer': '2·d²·(2n + 2m): linear in n',
  'lessons.cost.projectionFlops.head': '2·d·(n·dₖ + m·dₖ + m·dᵥ), no output projection',
  'lessons.cost.scoreFlops.label': 'Scores Q·Kᵀ and weights·V',
  'lessons.cost.scoreFlops.layer': '4·n·m·d: quadratic in n',
  'lessons.cost.scoreFlops.head': '2·n·m·(dₖ + dᵥ): quadratic in n',
  'lessons.cost.softmaxFlops.label': 'Softmax',
  'lessons.cost.softmaxFlops.layer': 'about 5 per weight: 5·h·n·m',
  'lessons.cost.softmaxFlops.head': 'about 5 per weight: 5·n·m',
  'lessons.cost.totalFlops.label': 'Total',
  'lessons.cost.attentionMatrixBytes.label': 'Attention matrices (h of n × m, float32)',
  'lessons.cost.attentionMatrixBytes.headLabel': 'Attention matrix (n × m, float32)',
  'lessons.cost.attentionMatrixBytes.layer': '4·h·n·m bytes',
  'lessons.cost.attentionMatrixBytes.head': '4·n·m bytes (one matrix)',
  'lessons.cost.legend.proj': 'projections (∝ n·d²)',
  'lessons.cost.legend.quad': 'scores, weights·V and softmax (∝ n²·d)',
  'lessons.cost.legend.now': 'the chosen n',
  'lessons.cost.xLabel': 'tokens n (self-attention, m = n)',
  'lessons.cost.yLabel': 'FLOPs',
  'lessons.cost.failed': 'The core cannot cost these sizes: {error}',
  'lessons.cost.captionHead':
    'n = {n}, m = {m}, the explorer’s single head: d_model = {dModel}, dₖ = {dk}, dᵥ = {dv} (no W_O)',
  'lessons.cost.captionTyped':
    'n = {n}, m = {m}, the explorer’s single head: Q, K, V typed directly, dₖ = {dk}, dᵥ = {dv} (no W_O)',
  'lessons.cost.captionLayer': 'n = {n}, m = {m}, d_model = {dModel}, h = {heads} (head width {width})',
  'lessons.cost.typed': 'Q, K and V are typed directly: there are no projection weights to count.',
  'lessons.cost.verdictTyped':
    'With Q, K, V typed directly there are no projections: every FLOP is in the scores, the weights·V and the softmax. The attention matrix needs {bytes} at n = {n}, m = {m}.',
  'lessons.cost.verdictHead':
    'For this head (d_model = {dModel}, dₖ = {dk}, dᵥ = {dv}), the quadratic terms cost more than the projections from n = {star} tokens on. Its attention matrix needs {bytes} at n = {n}, m = {m}.',
  'lessons.cost.verdictLayer': {
    one: 'With d_model = {dModel} and {count} head, the quadratic terms cost more than the projections from n = {star} tokens on (about 2·d_model). The h attention matrices need {bytes} at n = {n}, m = {m}.',
    other:
      'With d_model = {dModel} and {count} heads, the quadratic terms cost more than the projections from n = {star} tokens on (about 2·d_model). The h attention matrices need {bytes} at n = {n}, m = {m}.',
  },
  'lessons.cost.equalAt': 'equal at n = {n}',
  'lessons.cost.plotDescription':
    'FLOPs against n on log-log axes: the projections grow linearly, the quadratic terms overtake them at n = {n}.',
  'lessons.steps.intro':
    'A model writing text has, at step i, only tokens 1..i. Training runs every step at once on the whole sentence, with the causal mask hiding each query’s future. The two give the same numbers, which is what makes that parallel training honest.',
  'lessons.steps.token': 'Token i',
  'lessons.steps.previous': '◀ Previous',
  'lessons.steps.next': 'Next ▶',
  'lessons.steps.play': 'Play',
  'lessons.steps.pause': 'Pause',
  'lessons.steps.strip': 'Tokens generated so far',
  'lessons.steps.future': 'not generated yet',
  'lessons.steps.fullTitle': 'Causal attention over the whole sentence (all rows at once)',
  'lessons.steps.fullLabel': 'Causal attention weights, all rows',
  'lessons.steps.weightsLabel': '{side}: weights',
  'lessons.steps.outputLabel': '{side}: output',
  'lessons.steps.output': 'Output',
  'lessons.steps.causalRow': 'Row i of causal attention',
  'lessons.steps.prefixRow': 'Query i over keys 1..i only',
  'lessons.steps.causalHeading': 'Row {i} of causal attention',
  'lessons.steps.prefixHeading': {
    one: 'Query {i} over keys 1..{count} only ({count} key)',
    other: 'Query {i} over keys 1..{count} only ({count} keys)',
  },
  'lessons.steps.valueText': 'token {i} of {n}: {token}',
  'lessons.steps.position': '{i} of {n}',
  'lessons.steps.ignoresMask.padding':
    'This view always applies the causal mask and ignores the padding mask chosen in the explorer.',
  'lessons.steps.ignoresMask.custom':
    'This view always applies the causal mask and ignores the custom mask chosen in the explorer.',
  'lessons.steps.identical': 'Equal: the causal row gives the keys after {k} exactly 0, and the rest are identical.',
  'lessons.steps.rounding':
    'Equal: the causal row gives the keys after {k} exactly 0, and the rest match to float32 rounding (largest difference {diff}).',
  'lessons.steps.notEqual': 'Not equal: largest difference {diff}.',
  'lessons.steps.leaked': {
    one: 'Not equal: largest difference {diff}, {count} future key with weight.',
    other: 'Not equal: largest difference {diff}, {count} future keys with weight.',
  },
  'lessons.permutation.intro':
    'Attention compares every query with every key, and nothing in that comparison knows where a token stands. Swap two tokens and the outputs are the same rows, swapped. That is why transformers add position information to the token vectors.',
  'lessons.permutation.swap': 'Swap token',
  'lessons.permutation.with': 'with token',
  'lessons.permutation.before': 'Output, tokens in order',
  'lessons.permutation.after': 'Output with the two tokens swapped',
  'lessons.permutation.outputLabel': '{side}: output',
  'lessons.permutation.order': 'order: {tokens}',
  'lessons.permutation.needsTwo': 'Swapping needs two different tokens.',
  'lessons.permutation.note.causal':
    'The explorer’s mask is causal: it hides keys by position, so after the swap each token sees a different set of keys.',
  'lessons.permutation.note.sinusoidal':
    'Positions are added to X (sinusoidal): the two words swap places but each position keeps its own vector, so the swapped tokens’ vectors change.',
  'lessons.permutation.note.learned':
    'Positions are added to X (learned-style): the two words swap places but each position keeps its own vector, so the swapped tokens’ vectors change.',
  'lessons.permutation.note.none':
    'No position information is added to X (see “Position information” under the sentence): choose one to see the order matter.',
  'lessons.permutation.note.multi': 'The whole multi-head layer is compared (concat·W_O).',
  'lessons.permutation.swapped':
    'Rows {i} and {j} of the output swapped places; every row is otherwise the same (largest difference {diff}).',
  'lessons.permutation.changed':
    'The rows did not just swap: {count} values changed (by up to {diff}). Position matters here.',
  'lessons.gradients.intro':
    'Every weight in attention moves by a gradient. Choose what the head should learn; the core runs the backward pass of the explorer’s head and shows each step of it, from the loss back to Q, K and V.',
  'lessons.gradients.headNote':
    'Several heads: this is head {head}’s backward pass (chosen by the explorer’s “Head shown”), with the head’s own output as O and its slices of the projections as Q, K, V.',
  'lessons.gradients.goal': 'What to learn',
  'lessons.gradients.goal.target': 'Reach a target output T: L = ½‖O − T‖²',
  'lessons.gradients.goal.cell': 'Raise one output cell: L = O[i, j]',
  'lessons.gradients.row': 'Row i',
  'lessons.gradients.column': 'Column j',
  'lessons.gradients.targetLabel': 'Target output T',
  'lessons.gradients.targetTitle': 'Target T (editable)',
  'lessons.gradients.copyOutput': 'T = current output',
  'lessons.gradients.loss': 'Loss L = {loss}',
  'lessons.gradients.mapsNote':
    'Forward: scores S → softmax A → output O = A·V. Backward runs the other way: dO → dA → dS → dQ, dK (and dV straight from dO). Click a cell of dQ, dK or dV to nudge that input below.',
  'lessons.gradients.mapLabel': 'Gradient {formula}',
  'lessons.gradients.explainTitle': 'How was this number computed?',
  'lessons.gradients.explainIdle': 'Point at, tap or focus any cell of the gradients to see how it was computed.',
  'lessons.gradients.explain.terms': '{count} terms',
  'lessons.gradients.explain.dOCell': 'The loss is one output cell, so only that cell passes gradient back.',
  'lessons.gradients.explain.dOTarget':
    'For the loss ½‖O − T‖² each output cell is pushed by how far it is from its target.',
  'lessons.gradients.explain.dOTitle': 'dO: gradient of the loss at output [{i},{j}]',
  'lessons.gradients.explain.dA':
    'How much the loss would change per unit of weight on key {j}: its value row against the push on output {i}.',
  'lessons.gradients.explain.dATitle': 'dA: gradient at weight [{i},{j}]',
  'lessons.gradients.explain.dSHidden':
    'This key is hidden: its weight is exactly 0, so its score gets no gradient and cannot learn.',
  'lessons.gradients.explain.dSHiddenTitle': 'dS: hidden cell [{i},{j}]',
  'lessons.gradients.explain.dS':
    'The softmax passes back the weight times how much better than average this key would do; a key with weight near 0 gets almost nothing.',
  'lessons.gradients.explain.dSTitle': 'dS: gradient at score [{i},{j}]',
  'lessons.gradients.explain.dQ': 'dQ[{i},{j}] = scale × Σ over keys l: dS[{i},l]·K[l,{j}]',
  'lessons.gradients.explain.dK': 'dK[{i},{j}] = scale × Σ over queries l: dS[l,{i}]·Q[l,{j}]',
  'lessons.gradients.explain.dQTitle': 'dQ: gradient at query [{i},{j}]',
  'lessons.gradients.explain.dKTitle': 'dK: gradient at key [{i},{j}]',
  'lessons.gradients.explain.dVSum': 'dV[{i},{j}] = Σ over queries l: A[l,{i}]·dO[l,{j}] = {sum}',
  'lessons.gradients.explain.dV': 'A value row learns from every query that reads it, in proportion to its weight.',
  'lessons.gradients.explain.dVTitle': 'dV: gradient at value [{i},{j}]',
  'lessons.gradients.nudgeTitle': 'Nudge check',
  'lessons.gradients.nudgeNote':
    'Add ε to one input and run the forward pass again: the loss changes by ε × gradient, to first order.',
  'lessons.gradients.nudge':
    '{cell} + {eps}: the loss goes from {before} to {after}, a change of {change}; ε × gradient = {eps} × {gradient} = {predicted}.',
  'lessons.gradients.stepsTitle': 'Gradient steps',
  'lessons.gradients.stepsNote':
    'x ← x − learning rate × ∂L/∂x on the chosen matrix, with a new backward pass before every step, written back into the explorer: watch the explorer’s weights move and the loss fall.',
  'lessons.gradients.update': 'Update',
  'lessons.gradients.rate': 'Learning rate',
  'lessons.gradients.perClick': 'Steps per click',
  'lessons.gradients.takeSteps': { one: 'Take one step', other: 'Take {count} steps' },
  'lessons.gradients.useQkv': 'Use Q, K, V directly',
  'lessons.gradients.stepsTaken': {
    one: '{count} step on {matrix}: loss {losses}',
    other: '{count} steps on {matrix}: loss {losses}',
  },
  'lessons.gradients.projected':
    'Here Q, K and V are projections of X (sentence mode): switch the explorer to free Q, K, V to step on them directly.',
  'lessons.gradients.stepsUpdate': 'Steps update {matrix} in the explorer’s inputs.',
  'lessons.gradients.history': 'Loss after each click: {losses}',
  'lessons.gradients.keys.title': 'Which keys learn?',
  'lessons.gradients.keys.note':
    'dₖ = 64, one query, 64 random keys, 200 samples (standard normal, from the core’s generator). Raw scores spread like √64 = 8, the softmax saturates, and almost every key gets no gradient; scaled scores pass gradient to most of them.',
  'lessons.gradients.keys.threshold': '|dS| threshold',
  'lessons.gradients.keys.column.scores': 'scores',
  'lessons.gradients.keys.column.keys': 'keys with |dS| above the threshold (of 64)',
  'lessons.gradients.keys.column.norm': 'gradient norm ‖(dQ, dK, dV)‖',
  'lessons.gradients.keys.scaled': 'scores ÷ √dₖ',
  'lessons.gradients.keys.unscaled': 'raw scores (no ÷√dₖ)',
  'lessons.gradients.keys.norm':
    'The norm is larger without the scaling: dQ and dK carry the scale factor, so the few keys that still learn get 8× larger, spikier updates, while the rest get none.',
};
