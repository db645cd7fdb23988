// The explorer's messages for its first drawing (English, the source of truth): the page, its
// controls, panels, explanations and exports. Those of later views are in explorer-later.js.
export default {
  // The page (index.html, embed.html) and its header.
  'explorer.page.title': 'Attention explorer: scaled dot-product and multi-head attention, live',
  'explorer.page.embedTitle': 'Attention explorer (embedded)',
  'explorer.page.description':
    'Edit queries, keys, values or a sentence and watch every step of softmax(QKᵀ/√dₖ)V update live, computed in WebAssembly.',
  'explorer.page.heading': 'Attention explorer',
  'explorer.page.tagline': ', computed live in WebAssembly.',
  'explorer.page.taglineMore': ' Change any number and watch every step follow.',
  'explorer.page.skipSteps': 'Skip to the attention steps',
  'explorer.page.skipHeads': 'Skip to the heads',
  'explorer.page.skipBuilder': 'Skip to the embed builder',
  'explorer.page.tools': 'Tools',
  'explorer.page.toolsLabel': 'Theme, sharing and export tools',
  'explorer.views.label': 'Views',
  'explorer.views.explorer': 'Explorer',
  'explorer.views.train': 'Train',
  'explorer.views.trainMore': ' a tiny transformer',
  'explorer.views.trainName': 'Train a tiny transformer',
  'explorer.views.embed': 'Embed',
  'explorer.views.embedMore': ' a lesson',
  'explorer.views.embedName': 'Embed a lesson',
  // The explorer's status line and notices.
  'explorer.status.loading': 'Loading the attention core…',
  'explorer.status.coreFailed': 'The attention core could not be loaded: {reason}',
  'explorer.status.drawFailed': 'Something went wrong while drawing: {reason}',
  'explorer.notice.trainingLesson': 'The lesson “{id}” is in the training view (view="train").',
  'explorer.notice.unknownLesson': 'There is no lesson called “{id}”. Lessons: {ids}.',
  'explorer.notice.badParentOrigin':
    'The parentOrigin setting is not a list of origins such as https://lessons.example: messages from the lesson page are ignored.',
  // The fallback when the clipboard refuses (share.js and the embed builder).
  // Ready-made examples (model/presets.js), by id.
  'explorer.preset.lesson.label': 'Lesson NumPy example (seed 42, X 4×8, W 8×4)',
  'explorer.preset.lesson.description':
    'np.random.seed(42); X = randn(4, 8); Wq, Wk, Wv = three randn(8, 4). The weights match the lesson’s printout (0.85 and 0.62 rows).',
  'explorer.preset.hand.label': 'By hand: 3 tokens, dₖ = 2',
  'explorer.preset.hand.description': 'Small whole numbers you can check on paper.',
  'explorer.preset.causal.label': 'Causal mask (GPT-style decoder)',
  'explorer.preset.causal.description':
    'Each token sees only itself and earlier tokens: the upper triangle of the weights is exactly 0.',
  'explorer.preset.padding.label': 'Padding mask ([PAD] tokens)',
  'explorer.preset.padding.description': 'A short sentence padded to length 6; nobody attends to the [PAD] keys.',
  'explorer.preset.saturation.label': 'Why √dₖ: unit-variance Q and K with dₖ = 32',
  'explorer.preset.saturation.description':
    'Switch √dₖ off: the scores spread to about ±√32 and the weights saturate towards one-hot.',
  'explorer.preset.heads.label': 'Four heads, four jobs (d_model = 16, h = 4)',
  'explorer.preset.heads.description': 'Hand-built heads: previous token, same word, first token, and a broad average.',
  'explorer.preset.mixing.label': 'Mixing in the plane: 4 tokens, dᵥ = 2',
  'explorer.preset.mixing.description':
    'Each value is a point in the plane; every output is a weighted average of them and lands inside their hull. Drag the points in the “Mixing” lesson below.',
  'explorer.preset.fully-masked.label': 'A fully masked row (custom mask)',
  'explorer.preset.fully-masked.description':
    'Query 2 may see no key at all: its weights are 0, not NaN, and its output is 0.',
  // The control panel (controls.js).
  'explorer.controls.label': 'Controls',
  'explorer.controls.hide': 'Hide the controls',
  'explorer.controls.show': 'Show the controls',
  'explorer.controls.example': 'Example',
  'explorer.controls.choose': 'Choose an example…',
  'explorer.controls.preset': 'Preset',
  'explorer.controls.presetHelp': 'Pick a ready-made example, or edit any number.',
  'explorer.controls.input': 'Input',
  'explorer.controls.mode.sentence': 'Sentence → X·W',
  'explorer.controls.mode.qkv': 'Q, K, V directly',
  'explorer.controls.tokens.self': {
    one: 'n = m = {count} token (from the sentence).',
    other: 'n = m = {count} tokens (from the sentence).',
  },
  'explorer.controls.tokens.cross': 'n = {n} query tokens, m = {m} memory tokens (from the sentences).',
  'explorer.controls.tokens.perHead': 'Each head gets dₖ = dᵥ = d_model / h.',
  'explorer.controls.sizes': 'Sizes',
  'explorer.controls.size.n': 'n (queries)',
  'explorer.controls.size.m': 'm (keys)',
  'explorer.controls.size.heads': 'heads h',
  'explorer.controls.random': 'Random values',
  'explorer.controls.randomize': 'Randomize',
  'explorer.controls.randomizeTitle': 'Draw new values with the next seed',
  'explorer.controls.seed': 'Seed',
  'explorer.controls.temperature': 'Temperature T',
  'explorer.controls.temperatureNumber': 'Temperature T (number)',
  'explorer.controls.temperatureReset': 'Reset to T = 1',
  'explorer.controls.scaling': 'Scaling',
  'explorer.controls.sqrtDk': 'divide by √dₖ',
  'explorer.controls.scaledBy': 'QKᵀ scaled by {scale}',
  'explorer.controls.scaleNote.multi':
    'Every head is scaled by 1/(T·√dₖ) with its own dₖ = d_model / h. T < 1 sharpens the softmax, T > 1 flattens it.',
  'explorer.controls.scaleNote.one':
    'T < 1 sharpens the softmax, T > 1 flattens it. Turn √dₖ off to see the weights saturate.',
  'explorer.controls.mask': 'Mask',
  'explorer.controls.mask.none': 'None',
  'explorer.controls.mask.causal': 'Causal',
  'explorer.controls.mask.padding': 'Padding',
  'explorer.controls.mask.custom': 'Custom',
  'explorer.controls.maskHelp.none': 'Every query sees every key.',
  'explorer.controls.maskHelp.causal': 'Query i sees keys 1..i only: no peeking at later tokens.',
  'explorer.controls.maskHelp.padding': 'Keys marked [PAD] are hidden from every query. Toggle keys below.',
  'explorer.controls.maskHelp.custom':
    'Click a cell of the scores (or press Enter on it) to hide or show that query–key pair.',
  'explorer.controls.padKeys': 'Keys marked as [PAD]',
  'explorer.controls.padOn': '{key} is [PAD] (hidden); click to unmark',
  'explorer.controls.padOff': 'Mark {key} as [PAD]',
  'explorer.controls.showAllPairs': 'Show all pairs',
  'explorer.controls.headShown': 'Head shown',
  'explorer.controls.headShownLabel': 'Head shown in the steps',
  'explorer.controls.head': 'Head {k}',
  'explorer.controls.headNamed': 'Head {k}: {name}',
  'explorer.display.theme': 'Theme',
  'explorer.display.theme.auto': 'System',
  'explorer.display.theme.light': 'Light',
  'explorer.display.theme.dark': 'Dark',
  'explorer.display.palette': 'Weights palette',
  'explorer.display.palette.viridis': 'Viridis',
  'explorer.display.palette.cividis': 'Cividis',
  'explorer.display.palette.blues': 'Blues',
  // Bias and cross-attention (extras-controls.js).
  'explorer.extras.legend': 'Bias and cross-attention',
  'explorer.extras.bias': 'Add a bias matrix B to the scores',
  'explorer.extras.biasStarts': 'B starts as',
  'explorer.extras.biasPreset.zeros': 'zeros (no effect)',
  'explorer.extras.biasPreset.alibi': 'ALiBi-style: −0.5 × |i − j|',
  'explorer.extras.biasPreset.causal-inf': 'causal, −∞ above the diagonal',
  'explorer.extras.biasPreset.causal-large': 'causal, −10000 above the diagonal',
  'explorer.extras.biasPreset.random': 'random (seeded)',
  'explorer.extras.biasHelp':
    'B is added to the scaled scores before the softmax (an additive mask); it combines with the mask above. Type -inf in a cell to hide a pair.',
  'explorer.extras.biases': 'Projection biases b_Q, b_K, b_V, b_O',
  'explorer.extras.biasesHelp.qkv': 'Sentence mode only: the biases belong to the projections X·W.',
  'explorer.extras.biasesHelp.multi':
    'Q = X·W_Q + b_Q (and K, V alike), output = concat·W_O + b_O: the layer is built with bias: true.',
  'explorer.extras.biasesHelp.one':
    'Q = X·W_Q + b_Q, K = X·W_K + b_K, V = X·W_V + b_V (one head has no W_O, so no b_O).',
  'explorer.extras.cross': 'Cross-attention: keys and values from a memory sentence',
  'explorer.extras.memory': 'Memory sentence (keys and values)',
  'explorer.extras.crossHelp.qkv':
    'Sentence mode only (with Q, K, V typed directly, K and V may already have m ≠ n rows).',
  'explorer.extras.crossHelp.on':
    'Queries from the sentence (n = {n}), keys and values from the memory (m = {m} tokens, at most {max}): K = X_mem·W_K, V = X_mem·W_V.',
  'explorer.extras.crossHelp.self': 'Self-attention: queries, keys and values all come from the sentence.',
  // Token vectors from (vector-source.js) and the trained heads (model/trained-vectors.js).
  'explorer.vectors.from': 'Token vectors from',
  'explorer.vectors.source.random': 'Random per word',
  'explorer.vectors.source.text-model': 'The trained text model',
  'explorer.vectors.source.trained-head': 'A trained head (layer, head, probe)',
  'explorer.vectors.source.checkpoint': 'The opened checkpoint (GPT-2)',
  'explorer.vectors.layer': 'Model layer',
  'explorer.vectors.head': 'Model head',
  'explorer.vectors.layerN': 'Layer {k}',
  'explorer.vectors.headN': 'Head {k}',
  'explorer.vectors.loadingModel': 'Loading the trained text model…',
  'explorer.vectors.modelFailed': 'The text model could not be loaded: {reason}',
  'explorer.vectors.randomNote':
    'Random per word: each word’s vector is random but fixed, from the seed; no model has learned them, so the attention patterns mean nothing yet.',
  'explorer.vectors.handBuiltNote':
    'Written by hand for this example: each word’s vector holds the features its heads read (where the word is, which word it is), so each head shows the pattern it is named for. Changing the sentence, the seed, d_model or the positions makes the vectors random per word again, and the heads lose their names.',
  'explorer.vectors.randomNoteLeft':
    'Random per word: each word’s vector is random but fixed, from the seed; no model has learned them, so the attention patterns mean nothing yet. (The trained head’s X belonged to its probe sequence and sizes: after that change X is random per word again; the weights stay as they were until you change them.)',
  'explorer.vectors.readingCheckpoint': 'Reading the sentence with the checkpoint…',
  'explorer.vectors.typeFirst': 'Type a sentence first.',
  'explorer.vectors.checkpointFailed': 'The checkpoint could not read the sentence: {reason}',
  'explorer.vectors.openedCheckpoint': 'The opened checkpoint ({name})',
  // Sharing (share.js).
  'explorer.share.link': 'Copy link',
  'explorer.share.linkTitle': 'Copy a link that opens this exact example',
  'explorer.share.embed': 'Copy embed code',
  'explorer.share.embedTitle':
    'Copy HTML for the <attention-explorer> element (needs the explorer’s files on your lesson’s site)',
  'explorer.share.iframe': 'Copy iframe code',
  'explorer.share.iframeTitle': 'Copy an <iframe> that shows this example from this site, on any lesson page',
  'explorer.share.textToCopy': 'Text to copy',
  // Start here (start-here.js).
  'explorer.start.title': 'Start here',
  'explorer.start.gotIt': 'Got it',
  'explorer.start.gotItLabel': 'Got it: hide Start here',
  'explorer.start.one': 'Type a sentence: each word becomes a row and a column.',
  'explorer.start.oneAction': 'Type',
  'explorer.start.two': 'Point at a weight to see how it was computed.',
  'explorer.start.twoAction': 'Show me',
  'explorer.start.three': 'Hide the future with the causal mask.',
  'explorer.start.threeAction': 'Causal mask',
  'explorer.start.hide': 'Hide',
  'explorer.start.show': 'Three things to try',
  // The sentence field (sentence-box.js).
  'explorer.sentence.label': 'Sentence',
  'explorer.sentence.addPad': 'Append a padding token (hide it with the padding mask)',
  'explorer.sentence.tokens': 'Tokens',
  'explorer.sentence.empty': 'Type at least one word: the tokens label the rows and columns.',
  'explorer.sentence.help': {
    one: '{count} token (at most {max}); words and punctuation become tokens, {pad} is a padding token.',
    other: '{count} tokens (at most {max}); words and punctuation become tokens, {pad} is a padding token.',
  },
  'explorer.sentence.positional': 'Position information added to X',
  'explorer.sentence.positional.none': 'none (attention cannot tell the order)',
  'explorer.sentence.positional.sinusoidal': 'sinusoidal (sin/cos of the position)',
  'explorer.sentence.positional.learned': 'learned-style (a random vector per position)',
  'explorer.sentence.vectorsNote':
    'Each word’s vector is random but fixed: the same word always gets the same vector (from NumPy’s generator, seeded by a hash of the lower-cased word and the seed). No model has learned them, so similar words are not close. Changing the sentence, the seed, d_model or the positions rebuilds X; edits to X last until then.',
  // The inputs (inputs-panel.js, input-matrix-card.js, bias-matrix.js).
  'explorer.inputs.title': 'Inputs',
  'explorer.inputs.title.Q': 'Queries Q',
  'explorer.inputs.title.K': 'Keys K',
  'explorer.inputs.title.V': 'Values V',
  'explorer.inputs.title.X': 'Token vectors X',
  'explorer.inputs.title.XM': 'Memory vectors X_mem',
  'explorer.inputs.hint.Q': 'What each query token is looking for.',
  'explorer.inputs.hint.K': 'What each key token offers to be matched on.',
  'explorer.inputs.hint.V': 'What each key token passes on when attended to.',
  'explorer.inputs.hint.X':
    'One row per token (for a typed sentence: its word’s vector plus its position’s). Edit it to change what a token "means".',
  'explorer.inputs.hint.WQ': 'Projects a token vector to its query.',
  'explorer.inputs.hint.WK': 'Projects a token vector to its key.',
  'explorer.inputs.hint.WV': 'Projects a token vector to its value.',
  'explorer.inputs.hint.WO': 'Mixes the concatenated head outputs into the layer output.',
  'explorer.inputs.hint.XM':
    'One row per memory token (cross-attention): the keys and values are computed from these rows.',
  'explorer.inputs.hint.BQ': 'Added to every row of Q = X·W_Q + b_Q.',
  'explorer.inputs.hint.BK':
    'Added to every row of K. A bias on the keys shifts every score of a query equally, so the softmax cancels it.',
  'explorer.inputs.hint.BV':
    'Added to every row of V, so it passes unchanged into every output row (weights sum to 1).',
  'explorer.inputs.hint.BO': 'Added to every row of the layer output.',
  'explorer.inputs.projectionLabel': '{name} = X times W_{name}',
  'explorer.inputs.split':
    'Columns are split into {heads} heads of {width}: head 1 reads columns 1–{width}, and so on.',
  'explorer.inputs.projections': 'Projections, computed by the core',
  'explorer.inputs.sub.sentenceOnly': 'Type a sentence: every number below follows at once.',
  'explorer.inputs.sub.sentence':
    'Type a sentence, then edit the token vectors and the projection weights (d_model = {dModel}). Every number below follows at once.',
  'explorer.inputs.sub.qkvOnly': 'Edit any number. Every number below follows at once.',
  'explorer.inputs.sub.qkv': 'Edit any query, key or value. Every number below follows at once.',
  'explorer.inputs.biasShape': '1 × {c}, one per column of {of}',
  'explorer.inputs.biasShapeOutput': '1 × {c}, one per column of the output',
  'explorer.inputs.reset': 'Reset',
  'explorer.inputs.resetTitle': 'Put {name} back to the example’s exact values',
  'explorer.inputs.resetLabel': 'Reset {name} to the example’s values',
  'explorer.inputs.showMatrix': 'Show the matrix',
  'explorer.inputs.hideMatrix': 'Hide the matrix',
  'explorer.inputs.showMatrixCells': {
    one: 'Show the matrix ({count} cell)',
    other: 'Show the matrix ({count} cells)',
  },
  'explorer.bias.title': 'Bias matrix B',
  'explorer.bias.formula': 'added to S′ before the softmax',
  'explorer.bias.hint':
    'An additive mask: each entry is added to its scaled score. 0 changes nothing, negative numbers push a key down, −∞ (type ‑inf) hides it exactly like a mask.',
  'explorer.bias.reset': 'Reset the bias matrix B to its preset’s values',
  'explorer.bias.fullyMasked': {
    one: '{count} row of the scores is −∞ everywhere: the core gives such a row weights 0 and output 0 instead of NaN.',
    other:
      '{count} rows of the scores are −∞ everywhere: the core gives such a row weights 0 and output 0 instead of NaN.',
  },
  // The steps (pipeline.js) and the float64 check under them (agreement-check.js).
  'explorer.pipeline.title': 'Attention, step by step',
  'explorer.pipeline.sub.multi':
    'Showing head {k} of {heads} (dₖ = d_model / h = {dk}). Pick another head in the controls or in the head grid below.',
  'explorer.pipeline.sub.one': 'n = {n} queries, m = {m} keys, dₖ = {dk}, dᵥ = {dv}.',
  'explorer.pipeline.sub.cross':
    'Cross-attention: rows are the sentence’s {n} tokens (queries), columns the memory’s {m} tokens (keys and values).',
  'explorer.pipeline.scaledNoSqrt': 'S′ = S / T  (no √dₖ) = S × ',
  'explorer.pipeline.scalingOff': 'S′ = S  (scaling off)',
  'explorer.pipeline.scalingOffNote': "Scaling is off: compare the weights' entropy with √dₖ on.",
  'explorer.pipeline.sameScale':
    'Every head uses the same scale (its own dₖ = {dk}); torch.nn.MultiheadAttention always uses 1/√dₖ.',
  'explorer.pipeline.summary':
    'Mean entropy {entropy} nats (uniform attention over {m} keys: ln {m} = {uniform}); mean max weight {max}.',
  'explorer.pipeline.allMasked': 'Every row is fully masked: no query sees any key.',
  'explorer.pipeline.stat.sum': 'row sum (1 unless every key is hidden)',
  'explorer.pipeline.stat.entropy': 'entropy of the row in nats',
  'explorer.pipeline.stat.max': 'max',
  'explorer.pipeline.stat.maxTitle': 'largest weight in the row',
  'explorer.pipeline.quoted': '“{label}”',
  'explorer.pipeline.fullyMasked': {
    one: 'Fully masked row {names}: no visible key, so the weights are all 0 (not NaN) and the output row is 0.',
    other: 'Fully masked rows {names}: no visible key, so the weights are all 0 (not NaN) and the output row is 0.',
  },
  'explorer.pipeline.scores': 'Scores',
  'explorer.pipeline.scoresHint':
    'Row = query, column = key: the dot product says how well each key matches what the query looks for.',
  'explorer.pipeline.customNote': 'Custom mask: click a cell (or press Enter on it) to hide or show that pair.',
  'explorer.pipeline.scaled': 'Scaled scores',
  'explorer.pipeline.scaledHint':
    'Dot products grow with dₖ; dividing by √dₖ keeps their spread near 1 so the softmax stays soft.',
  'explorer.pipeline.maskName.none': 'no mask',
  'explorer.pipeline.maskName.causal': 'causal mask',
  'explorer.pipeline.maskName.padding': 'padding mask',
  'explorer.pipeline.maskName.custom': 'custom mask',
  'explorer.pipeline.masked': 'M = S′ + mask  ({mask})',
  'explorer.pipeline.maskedBias': 'M = S′ + B + mask  ({mask}; score + bias = masked score)',
  'explorer.pipeline.maskedTitle': 'Masked scores',
  'explorer.pipeline.maskedFormula': 'M = S′ + mask',
  'explorer.pipeline.maskedHint':
    'Hidden pairs become −∞ before the softmax, so they get exactly zero weight and the rest still sum to 1.',
  'explorer.pipeline.noMask': 'No mask: M = S′, the same numbers as step 2. Choose a mask to hide query–key pairs.',
  'explorer.pipeline.weights': 'Attention weights',
  'explorer.pipeline.weightsFormula': 'A = softmax(M), row by row',
  'explorer.pipeline.weightsHint':
    'Each row is a probability distribution over the keys. H is its entropy in nats: near 0 means one key takes almost everything.',
  'explorer.pipeline.output': 'Output',
  'explorer.pipeline.outputHint':
    'Each output row is a weighted average of the value rows: attention mixes values, it never invents new ones.',
  'explorer.pipeline.error': 'Cannot compute: {reason}',
  'explorer.pipeline.titleHead': '{title} — head {k}',
  'explorer.pipeline.titleHeadNamed': '{title} — head {k} ({name})',
  'explorer.agree.agree':
    'Two implementations agree: the page (WebAssembly, float32) and plain float64 JavaScript written from the formula.',
  'explorer.agree.disagree':
    'Two implementations disagree: the page (WebAssembly, float32) and plain float64 JavaScript written from the formula.',
  'explorer.agree.difference':
    'Largest difference over {weightCount} weights: {weights}; over {outputCount} outputs: {outputs}.',
  'explorer.agree.differenceRelative':
    'Largest difference over {weightCount} weights: {weights}; over {outputCount} outputs: {outputs} ({relative} of the largest output).',
  'explorer.agree.tooLarge': 'That is more than float32 rounding explains.',
  'explorer.agree.rounding': 'That is float32 rounding, below 1e−6.',
  'explorer.agree.roundingLarge':
    'That is float32 rounding: above 1e−6 here because the scores reach ±{scores}, and float32 keeps about 7 significant digits of each.',
  // Heatmaps (heatmap/) and editable matrices (matrix-editor/).
  'explorer.heatmap.allHidden': 'all hidden',
  'explorer.heatmap.hiddenCell': '{value}, hidden',
  'explorer.heatmap.legendHidden': 'hidden (−∞ before softmax)',
  'explorer.heatmap.legendValues': 'values {min} to {max}, centred on 0',
  'explorer.heatmap.legendNone': 'no visible values',
  'explorer.heatmap.legendWeights': 'weights from {min} to {max}',
  'explorer.heatmap.legendLabel': 'Colour scale from {min} to {max}',
  'explorer.matrix.cell': '{matrix}, row {row}, column {col}',
  'explorer.matrix.cellNamed': '{matrix}, row {row} ({label}), column {col}',
  // The heads panel (heads-panel.js) and the parameter counts (parameter-count.js).
  'explorer.heads.all': 'All heads',
  'explorer.heads.allHint':
    'Each head attends with its own slice of W_Q, W_K and W_V, so each can follow a different relationship. Pick one to see its steps above.',
  'explorer.heads.allHintAlone':
    'Each head attends with its own slice of W_Q, W_K and W_V, so each can follow a different relationship.',
  'explorer.heads.average': 'Head average',
  'explorer.heads.averageHint':
    'The weights torch.nn.MultiheadAttention returns by default. An average can hide what single heads do.',
  'explorer.heads.averageLabel': 'Head average of the attention weights',
  'explorer.heads.concat': 'Concatenated heads',
  'explorer.heads.concatHint': 'The head outputs side by side: no head has seen another yet.',
  'explorer.heads.concatLabel': 'Concatenated head outputs',
  'explorer.heads.output': 'Layer output',
  'explorer.heads.outputHint': 'W_O is the only place where information from different heads combines.',
  'explorer.heads.outputLabel': 'Multi-head output, concat times W_O',
  'explorer.heads.tileLabel': 'Head {k} attention weights',
  'explorer.heads.sizes': '{heads} heads of dₕ = {width} features each (d_model = {dModel}).',
  'explorer.heads.seeAll':
    'Every head sees all {m} tokens: each of the {heads} weight maps below is {n} × {m}. The heads differ only in which {width} of the {dModel} columns of Q, K and V they read, the subspace W_Q, W_K and W_V project to. Splitting into heads is a reshape of Q ({n} × {dModel} → {heads} × {n} × {width}), not a loop over tokens or heads.',
  'explorer.params.layerBiases': 'This layer has the biases b_Q, b_K, b_V, b_O: {count} parameters.',
  'explorer.params.layerNoBiases': 'This layer has no biases: {count} parameters.',
  'explorer.params.oneHead':
    'W_Q, W_K, W_V and W_O hold {weights} weights (4·d_model²), or {withBiases} with the biases b_Q, b_K, b_V, b_O (4·d_model² + 4·d_model), with one head that is d_model = {dModel} wide. More heads split those columns between them, so the count stays the same for any h.',
  'explorer.params.heads':
    'W_Q, W_K, W_V and W_O hold {weights} weights (4·d_model²), or {withBiases} with the biases b_Q, b_K, b_V, b_O (4·d_model² + 4·d_model), whatever the number of heads: not h × 4·d_model² = {wrong}, because the {heads} heads split d_model = {dModel} between them instead of each getting full-size matrices.',
  'explorer.params.single':
    'This single head has W_Q and W_K (d_model × d_k = {dModel} × {dk}) and W_V ({dModel} × {dv}): {count} parameters (d_model·(2d_k + d_v)), and no W_O: its output is the head’s own. A layer of one head (nn.MultiheadAttention with num_heads = 1) makes each W d_model wide and adds W_O: {layerCount} parameters (4·d_model²).',
  'explorer.params.singleBiases':
    'This single head has W_Q and W_K (d_model × d_k = {dModel} × {dk}) and W_V ({dModel} × {dv}) with their biases: {count} parameters (d_model·(2d_k + d_v) + 2d_k + d_v), and no W_O: its output is the head’s own. A layer of one head (nn.MultiheadAttention with num_heads = 1) makes each W d_model wide and adds W_O: {layerCount} parameters (4·d_model² + 4·d_model).',
  // The export menu (export/export.js).
  'explorer.export.menu': 'Export',
  'explorer.export.loadFailed': 'Could not load the export code: {reason}',
  // How was this number computed? (explain/).
  'explorer.explain.title': 'How was this number computed?',
  'explorer.explain.idle':
    'Point at, tap or focus any cell to see how it was computed. In a matrix, arrow keys move between cells.',
  'explorer.explain.idleLesson': 'Point at, tap or focus any number of this lesson to see how it was computed.',
  'explorer.explain.hide': 'Hide',
  'explorer.explain.show': 'Show',
  'explorer.explain.hideLabel': 'Hide the explanation',
  'explorer.explain.showLabel': 'Show the explanation',
  // The notices.
  'explorer.notice.unknownPreset': 'There is no example called “{name}”. Showing the default example instead.',
  'explorer.notice.badLink': 'This link’s example could not be opened: {reason}. Showing the default example instead.',
  'explorer.notice.badState': 'The example could not be opened: {reason}. Showing the default example instead.',
  'explorer.notice.badStart': 'Some starting numbers could not be used: {reasons}.',
  'explorer.notice.unknownPresetKept': 'There is no example called “{name}”. The example shown is unchanged.',
  'explorer.notice.badLinkKept': 'This link’s example could not be opened: {reason}. The example shown is unchanged.',
  // Maps drawn as pictures (heatmap/pixel-map.js).
  'explorer.pixelMap.cell': 'query {row} “{query}” → key {col} “{key}”: {value}',
  'explorer.pixelMap.label': '{label}: {rows} × {cols} weights drawn as a picture. Arrow keys read one cell.',
  'explorer.pixelMap.labelPooled':
    '{label}: {rows} × {cols} weights drawn as a picture (each pixel the largest of about {across} × {down} cells). Arrow keys read one cell.',
  'explorer.pixelMap.idle': 'Point at the map, or focus it and use the arrow keys, to read a cell.',
  'explorer.headSplit.each': '{count} each',
  'explorer.headSplit.eachRange': '{low} or {high} each',
  'explorer.headSplit.padded': ', at the start of its {columns} columns; the others are 0',
  'explorer.headSplit.split':
    'The single head’s {dk} columns of W_Q and W_K and {dv} of W_V were split among the {heads} heads ({each}{padded}): the heads’ raw scores QKᵀ add up to the single head’s.',
  'explorer.headSplit.identity':
    'W_O is the identity: it puts the heads’ value columns back in the single head’s order, so had each head attended as the single head did, the output’s first {dv} columns would be its output.',
  'explorer.headSplit.permutation':
    'W_O is a permutation: it puts the heads’ value columns back in the single head’s order, so had each head attended as the single head did, the output’s first {dv} columns would be its output.',
};
