// The explorer's messages that its first drawing does not need (English, the source of truth):
// the embed builder and predict-then-reveal questions. They join the English catalogue when the
// code that shows them loads (loadEnglishParts('explorer-later'), web/ui/i18n/index.js), so the
// first heatmap does not wait for their text; German and Spanish keep them in explorer.js.
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
  'explorer.predict.entropy.hint': 'The histograms above show how far the scores spread before and after the division.',
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
};
