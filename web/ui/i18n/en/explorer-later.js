// The explorer's messages that its first drawing does not need (English, the source of truth):
// the embed builder, predict-then-reveal questions, the explanation of a cell, the export menu's
// panel and what sharing says once pressed. They join the English catalogue when the code that
// shows them loads (loadEnglishParts('explorer-later'), web/ui/i18n/index.js), so the first
// heatmap does not wait for their text; German and Spanish keep them in explorer.js.
export default {
  // The embed builder.
  'explorer.builder.title': 'Embed a lesson',
  'explorer.builder.intro':
    'Pick a lesson and its options; the frame on the right is the lesson as your readers will see it. Copy the element (for a page that can host the explorer’s files) or the iframe (for any lesson platform). docs/embedding.md has every option.',
  'explorer.builder.whole': 'The whole explorer',
  'explorer.builder.group.tabs': 'Lessons',
  'explorer.builder.group.steps': 'Steps of the pipeline',
  'explorer.builder.group.training': 'Training a transformer',
  'explorer.builder.lessonOption': '{title} ({id})',
  'explorer.builder.controls.own': 'The lesson’s own (minimal)',
  'explorer.builder.controls.none': 'None',
  'explorer.builder.controls.minimal': 'Minimal',
  'explorer.builder.controls.full': 'All of them',
  'explorer.builder.readOnly': 'Read-only: numbers and settings cannot be edited',
  'explorer.builder.reveal': 'Predict, then reveal: the learner guesses before the answer shows',
  'explorer.builder.theme.auto': 'The reader’s system',
  'explorer.builder.theme.light': 'Light',
  'explorer.builder.theme.dark': 'Dark',
  'explorer.builder.lang.reader': 'The reader’s browser language',
  'explorer.builder.lang.en': 'English',
  'explorer.builder.lang.de': 'German (Deutsch)',
  'explorer.builder.lang.es': 'Spanish (Español)',
  'explorer.builder.start': 'Starting numbers (optional)',
  'explorer.builder.hint.q': 'queries, one row each: [[1, 0], [0, 1]] or 1 0; 0 1',
  'explorer.builder.hint.k': 'keys, the same number of columns as q',
  'explorer.builder.hint.v': 'values, one row per key (optional)',
  'explorer.builder.hint.x': 'token vectors, one row per word of the sentence',
  'explorer.builder.hint.sentence': 'words: they label the rows',
  'explorer.builder.hint.mask': 'none, causal, padding, custom, or JSON 0/1 rows',
  'explorer.builder.lesson': 'Lesson',
  'explorer.builder.controls': 'Controls',
  'explorer.builder.theme': 'Theme',
  'explorer.builder.lang': 'Language',
  'explorer.builder.langHint':
    'The language of the lesson’s words and numbers; without a choice the lesson follows the reader’s browser.',
  'explorer.builder.noQuestion':
    'This lesson has no question: choose weights, softmax-row, pitfalls, sqrt-dk or induction.',
  'explorer.builder.copy.element': 'Copy the element',
  'explorer.builder.copy.iframe': 'Copy the iframe',
  'explorer.builder.elementSnippet': 'Element (<attention-explorer>)',
  'explorer.builder.iframeSnippet': 'iframe (embed.html)',
  'explorer.builder.preview': 'Preview of the embedded lesson',
  'explorer.builder.frameTitle': 'Attention explorer: {lesson}',
  'explorer.builder.copied.element':
    'Element copied. It needs the explorer’s files on your lesson’s site: change the script address to that copy.',
  'explorer.builder.copied.iframe': 'iframe copied. It loads the lesson from this site and works on any lesson page.',
  // Predict, then reveal (predict/).
  'explorer.predict.lead': 'Predict first: ',
  'explorer.predict.check': 'Check my answer',
  'explorer.predict.again': 'Ask again',
  'explorer.predict.cover': 'Hidden until you answer',
  'explorer.predict.pickFirst': 'Pick an answer first.',
  'explorer.predict.right': 'Right.',
  'explorer.predict.wrong': 'Not quite.',
  'explorer.predict.topKey.none': 'every query sees fewer than two keys here, so there is nothing to choose between.',
  'explorer.predict.topKey.question': 'which key gets the most weight from the query {query} (row {row})?',
  'explorer.predict.topKey.hint':
    'The weights are the softmax of the row of scores: think about which score is largest.',
  'explorer.predict.topKey.right':
    '{key} takes {weight} of {query}’s attention: the softmax keeps the order of the scores, so the largest score gets the largest weight.',
  'explorer.predict.topKey.wrong':
    'You chose {guess} ({guessWeight}); {key} takes the most, {weight}. The softmax keeps the order of the scores: the largest score in the row gets the largest weight.',
  'explorer.predict.rowSum.exactly-1': 'exactly 1',
  'explorer.predict.rowSum.less-than-1': 'less than 1',
  'explorer.predict.rowSum.more-than-1': 'more than 1',
  'explorer.predict.rowSum.question':
    'with the mask applied after the softmax (the mistake), what does the row of {query} (row {row}) of the weights sum to?',
  'explorer.predict.rowSum.hint':
    'The mask is a {mask}: the softmax runs over every key first, then hidden weights are set to 0.',
  'explorer.predict.rowSum.whyLess':
    'The softmax already gave part of the row to the hidden keys; zeroing them afterwards throws that part away and nothing renormalizes the rest.',
  'explorer.predict.rowSum.whyAll':
    'This row hides no key, so zeroing hidden weights after the softmax takes nothing away. Rows that hide keys sum to less than 1.',
  'explorer.predict.rowSum.sums': 'The row of {query} sums to {sum}.',
  'explorer.predict.entropy.unscaled': 'without √dₖ (the raw scores)',
  'explorer.predict.entropy.scaled': 'with √dₖ (the scores divided by √dₖ)',
  'explorer.predict.entropy.same': 'the same',
  'explorer.predict.entropy.question':
    'one row of {row} scores (q·k with dₖ = {dk}) goes through a softmax twice: as it is, and divided by √dₖ = {sqrt}. Which weights are spread more evenly (the higher entropy)?',
  'explorer.predict.entropy.hint': 'The histograms below show how far the scores spread before and after the division.',
  'explorer.predict.entropy.why.scaled':
    'Without the division the scores spread about √{dk} times wider, so the softmax puts almost everything on the largest (largest weight {maxRaw}, entropy {raw} nats). Divided by √dₖ the row stays soft: entropy {scaled} nats, largest weight {maxScaled}.',
  'explorer.predict.entropy.why.same':
    'With dₖ = {dk}, √dₖ = 1: dividing changes nothing (entropy {raw} nats both ways).',
  'explorer.predict.entropy.why.unscaled': 'Here the raw row has entropy {raw} nats and the scaled one {scaled}.',
  'explorer.predict.induction.question': 'which head is an induction head? Judge from the attention maps below.',
  'explorer.predict.induction.hint':
    'Each map is a probe sequence: BOS, a run of tokens, the same run again. On the second copy an induction head attends to the token just after the earlier occurrence of the current token.',
  'explorer.predict.induction.yours': '{head} has an induction score of {score}.',
  'explorer.predict.induction.heads':
    'Induction heads here (score ≥ {threshold}): {list}; the highest is {best} at {score}.',
  'explorer.predict.induction.noneYet': 'none yet',
  'explorer.predict.induction.why':
    'On the second copy an induction head looks at the token that followed the same token in the first copy: a diagonal stripe one step right of the earlier copy.',
  // How was this number computed? (explain/explainers.js): what a cell's explanation says.
  'explorer.explain.ofHead': ' (head {k})',
  'explorer.explain.terms': '({count} terms)',
  'explorer.explain.reason.bias': 'bias matrix: B[{i},{j}] = −∞',
  'explorer.explain.reason.causal': 'causal mask: key {j} ({key}) comes after query {i}, so it is in the future',
  'explorer.explain.reason.padding': 'padding mask: key {j} is a [PAD] token, hidden from every query',
  'explorer.explain.reason.custom': 'custom mask: this pair was hidden by a click (click again to show it)',
  'explorer.explain.reason.masked': 'masked',
  'explorer.explain.scores.sum': '{cell} = Σ over dₖ = {dk} dimensions',
  'explorer.explain.scores.meaning':
    'How much key {key} matches what query {query} looks for{head}. Large and positive: a strong match.',
  'explorer.explain.scores.title': 'Score: {query} → {key}',
  'explorer.explain.scaled.none': '1 (no scaling)',
  'explorer.explain.scaled.scale': 'scale = {how} = {scale}',
  'explorer.explain.scaled.title': 'Scaled score: {query} → {key}',
  'explorer.explain.masked.title': 'After the mask: {query} → {key}',
  'explorer.explain.masked.titleBias': 'After the bias and the mask: {query} → {key}',
  'explorer.explain.masked.hidden': 'Hidden by the {reason}.',
  'explorer.explain.masked.thenMask': '{how}, then the mask makes it −∞',
  'explorer.explain.masked.zero': '{how}  →  exp(−∞) = 0, so this key gets exactly zero weight.',
  'explorer.explain.masked.infNote':
    'A −∞ in B hides a pair exactly as a boolean mask does; a large negative number such as −10000 only nearly does (a row of them still shares its weight).',
  'explorer.explain.masked.noMask': 'No mask is applied: the scaled score passes through unchanged.',
  'explorer.explain.masked.visible': 'This pair is visible: the scaled score passes through unchanged.',
  'explorer.explain.masked.bias':
    'The bias matrix B is added to the scaled score before the softmax: score + bias = masked score.',
  'explorer.explain.masked.negative':
    "A negative bias lowers this key's weight by a factor {power} = {factor} before the row is normalized.",
  'explorer.explain.softmax.hidden': 'This key is hidden: {cell} exactly.',
  'explorer.explain.softmax.hiddenKeys': {
    one: '{count} hidden key adds e^−∞ = 0 to the sum.',
    other: '{count} hidden keys add e^−∞ = 0 to the sum.',
  },
  'explorer.explain.softmax.stable':
    '(The core subtracts the row maximum before exp; the ratio is the same and nothing overflows.)',
  'explorer.explain.weights.rowInf': 'Row {row} of M is −∞ everywhere ({reason}, and so on for every key).',
  'explorer.explain.weights.allHidden':
    'Every key is hidden from query {query}. A softmax over nothing would be 0 / 0 = NaN; the core flags the row and gives it all-zero weights and a zero output instead.',
  'explorer.explain.weights.titleMasked': 'Weight: {query} → {key} (row fully masked)',
  'explorer.explain.weights.row':
    'Row {query}: sum = {sum}, max = {max}, entropy H = {entropy} nats (uniform over {m} would be ln {m} = {uniform}).',
  'explorer.explain.weights.title': 'Weight: how much {query} attends to {key}{head}',
  'explorer.explain.output.sum': 'O[{i},{j}] = Σ over keys of A[{i},key] × V[key,{j}]',
  'explorer.explain.output.none': 'This query sees no key, so its output row is all zeros.',
  'explorer.explain.output.average':
    'A weighted average of column {col} of V: the output always lies between the smallest and largest value.',
  'explorer.explain.output.title': 'Output of {query}, dimension {col}{head}',
  'explorer.explain.head.text':
    "Head {k} runs the same softmax(QₕKₕᵀ/√dₕ)Vₕ on its own {width}-column slice of Q, K and V. Click (or Enter) to show this head's steps.",
  'explorer.explain.head.title': 'Head {k}: {query} → {key}',
  'explorer.explain.average.text':
    'The mean over heads, which torch.nn.MultiheadAttention returns by default (average_attn_weights=True).',
  'explorer.explain.average.title': 'Head average: {query} → {key}',
  'explorer.explain.concat.text':
    'Columns {from}–{to} hold head {k}. Concatenation only places heads side by side; they have not interacted yet.',
  'explorer.explain.concat.title': 'Concatenated heads: {query}, column {col}',
  'explorer.explain.mha.sum': '{formula}, over the {columns} columns of concat',
  'explorer.explain.mha.text': 'W_O is where the heads mix: every output feature reads every head.',
  'explorer.explain.mha.title': 'Multi-head output: {query}, feature {col}',
  'explorer.explain.proj.sum': '{formula}, over d_model = {dModel}',
  'explorer.explain.proj.head': 'Column {col} belongs to head {k}.',
  'explorer.explain.proj.role.Q': 'Row {token} of Q: what this token is looking for.',
  'explorer.explain.proj.role.K': 'Row {token} of K: what this token offers to be found by.',
  'explorer.explain.proj.role.V': 'Row {token} of V: what this token passes on when attended to.',
  'explorer.explain.proj.title': '{title}: token {token}, column {col}',
  'explorer.explain.input.Q': 'Query {query}: changes row {i} of the scores.',
  'explorer.explain.input.K': 'Key {key}: changes column {i} of the scores.',
  'explorer.explain.input.V':
    'Value of {key}: changes column {j} of every output row, in proportion to how much each query attends to {key}.',
  'explorer.explain.input.X': 'Feature {j} of the vector of {token}: changes row {i} of Q, K and V.',
  'explorer.explain.input.W': 'Weight from input feature {i} to column {j} of {of} (for every token).',
  'explorer.explain.input.WO': 'Weight from column {i} of the concatenated heads to output feature {j}.',
  'explorer.explain.input.B':
    'Added to the scaled score of query {query} and key {key} before the softmax. Type -inf to hide the pair; a row of −∞ gives weights 0 (not NaN).',
  'explorer.explain.input.XM':
    'Feature {j} of the memory token {key}: changes row {i} of K and V (the keys and values come from the memory).',
  'explorer.explain.input.bias':
    'Bias of column {j} of {of}: added to that column for every token ({of} = X·W_{of} + b_{of}).',
  'explorer.explain.input.BO':
    'Bias of output feature {j}: added to every output row (a query that sees no key outputs b_O).',
  'explorer.explain.input.edit':
    'Type a new number: every step below updates at once. Arrows move, Enter commits and moves down, Esc restores.',
  'explorer.explain.input.title': 'Input {name}, row {row}, column {col}',
  'explorer.explain.trained.ones':
    'Column {col} of X is 1 for every token: it meets the last row of W_Q, W_K and W_V, which is the head’s bias, so X·W adds the bias as the model does.',
  'explorer.explain.trained.input':
    'Trained input: feature {feature} of what layer {layer}’s attention sees for {token} (the residual stream after the layer’s LayerNorm), recomputed from the model.',
  'explorer.explain.trained.bias':
    'Row {row} is head {head}’s bias: {name} in the model’s file; it meets X’s column of ones.',
  'explorer.explain.trained.weight': 'Trained weight of head {head} (layer {layer}): {name} in the model’s file.',
  'explorer.explain.split.same':
    'Column {row} of the concatenation (head {head}’s column {col}) goes to output column {to}: this W_O only moves columns, back to where the single head had them (see Sizes).',
  'explorer.explain.split.other':
    'Column {row} of the concatenation (head {head}’s column {col}) goes to output column {to}, not to {cell}: this W_O only moves columns (see Sizes).',
  // The export menu's panel (export/export-menu.js).
  'explorer.export.pick': 'Matrix or panel',
  'explorer.export.saveAs': 'Save the chosen matrix or panel as',
  'explorer.export.png': 'Save as a PNG image',
  'explorer.export.svg': 'Save as an SVG image',
  'explorer.export.csv': 'Save the numbers as CSV (one matrix)',
  'explorer.export.json': 'Save the numbers as JSON',
  'explorer.export.code': 'The whole example as Python code',
  'explorer.export.numpy': 'NumPy code',
  'explorer.export.numpyTitle': 'A NumPy script that recomputes these numbers',
  'explorer.export.pytorch': 'PyTorch code',
  'explorer.export.pytorchTitle': 'A PyTorch script that recomputes these numbers',
  'explorer.export.script': 'The whole example as a script:',
  'explorer.export.saved': 'Saved {file}.',
  'explorer.export.nothing': 'nothing to export yet',
  'explorer.export.failed': 'Could not export: {reason}',
  'explorer.export.title.Q': 'Queries Q',
  'explorer.export.title.K': 'Keys K',
  'explorer.export.title.V': 'Values V',
  'explorer.export.title.X': 'Token vectors X',
  'explorer.export.title.XM': 'Memory vectors X_mem',
  'explorer.export.title.B': 'Bias matrix B',
  'explorer.export.title.scores': 'Scores S = Q·Kᵀ',
  'explorer.export.title.scaled': 'Scaled scores S′',
  'explorer.export.title.masked': 'Masked scores M',
  'explorer.export.title.weights': 'Attention weights A = softmax(M)',
  'explorer.export.title.output': 'Output O = A·V',
  'explorer.export.title.average': 'Head average',
  'explorer.export.title.concat': 'Concatenated heads',
  'explorer.export.title.mha-output': 'Multi-head output concat·W_O',
  'explorer.export.title.panel-inputs': 'Inputs panel',
  'explorer.export.title.panel-pipeline': 'Attention steps panel',
  'explorer.export.title.panel-heads': 'Multi-head panel',
  'explorer.export.option': '{title} [{id}]',
  // What sharing says once a button is pressed (share.js).
  'explorer.builder.copyByHand': 'Copy this text (Ctrl+C or ⌘C):',
  'explorer.share.hostNote': "Replace {placeholder} with where attention-explorer's web/ folder is hosted.",
  'explorer.share.noPage':
    "This app bundles the explorer without its stand-alone page, so there is no page to link to: host attention-explorer's web/ folder (the output of npm run build, or node_modules/attention-explorer/web) and give its index.html as link-base.",
  'explorer.share.copied.link': 'Link copied.',
  'explorer.share.copied.embed':
    'Embed code copied. It needs the explorer’s files hosted on your lesson’s site: change the script address to that copy (a script from another site is blocked).',
  'explorer.share.copied.iframe':
    'iframe code copied. It loads the explorer from this site and works on any lesson page; the frame reports its height (docs/embedding.md).',
};
