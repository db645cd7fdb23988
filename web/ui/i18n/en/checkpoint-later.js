// The training view's checkpoint panels' messages (English, the source of truth; web/ui/checkpoint/:
// Open a checkpoint, the head sweep, the Generate panel's notes). They join the English catalogue
// with the training view (loadEnglishParts('checkpoint-later'), web/ui/i18n/index.js); German and
// Spanish keep them in checkpoint.js.
export default {
  'checkpoint.title': 'Open a checkpoint',
  'checkpoint.intro':
    'Open a real GPT-2 checkpoint: choose or drop its model.safetensors together with its config.json (gpt2, distilgpt2 and gpt2-medium fit; the files come from your disk and nothing is downloaded from the internet). A teacher can host one on this site and link to it with #checkpoint=models/gpt2/ in the address.',
  'checkpoint.choose': 'Checkpoint files (model.safetensors and config.json)',
  'checkpoint.drop': 'or drop both files here',
  'checkpoint.cancel': 'Cancel',
  'checkpoint.openingLabel': 'Opening the checkpoint',
  'checkpoint.needConfig':
    'Choose the checkpoint’s config.json as well: it says how many layers and heads the model has.',
  'checkpoint.needWeights': 'Choose the model.safetensors file as well: config.json only describes the model.',
  'checkpoint.badJson': 'config.json could not be read: {message}.',
  'checkpoint.otherSite': 'The checkpoint must come from this site; {url} is elsewhere, so it is not opened.',
  'checkpoint.unnamed': 'the checkpoint',
  'checkpoint.opening': 'Opening {name}…',
  'checkpoint.progress': '{loaded} of {total}',
  'checkpoint.cancelled': 'Opening was cancelled; nothing is open.',
  'checkpoint.tooLarge': 'This checkpoint is too large for this tab’s memory: {message}.',
  'checkpoint.notGpt2': 'This is not a GPT-2 checkpoint this page can open: {message}.',
  'checkpoint.failed': 'The checkpoint could not be opened: {message}.',
  'checkpoint.opened':
    '{name} is open: {layers} layers of {heads} heads, d_model {dModel}, {parameters} parameters, a context of {context} tokens.',
  'checkpoint.mainThread': 'It runs on this page’s own thread in slices: this frame cannot start a Worker.',
  'checkpoint.worker': 'It runs in its own Worker, so the page stays responsive.',
  'checkpoint.notTokenizer':
    'Its vocabulary has {vocabulary} tokens, not GPT-2’s 50 257, so this page cannot split text for it; the sweep still works.',
  'checkpoint.tokens': {
    one: '{count} GPT-2 token (Ġ marks a space before a token):',
    other: '{count} GPT-2 tokens (Ġ marks a space before a token):',
  },
  'checkpoint.tokenId': 'id {id}',
  'checkpoint.tokensLabel': 'GPT-2 tokens of the sentence',
  'checkpoint.showHead': 'Show this head in the explorer',
  'checkpoint.layer': 'Layer',
  'checkpoint.head': 'Head',
  'checkpoint.sentence': 'A sentence',
  'checkpoint.layerOption': 'layer {layer}',
  'checkpoint.headOption': 'head {head}',
  'checkpoint.notOpen': 'No checkpoint is open: open one above first.',
  'checkpoint.headFailed': 'This head could not be shown: {message}.',
  'checkpoint.explainTitle': 'How was this number computed?',

  'checkpoint.sweep.title': 'Sweep every head',
  'checkpoint.sweep.run': 'Score every head',
  'checkpoint.sweep.progress': 'Sweep progress',
  'checkpoint.sweep.shown': 'Score shown',
  'checkpoint.sweep.score.induction': 'Induction',
  'checkpoint.sweep.score.previousToken': 'Previous token',
  'checkpoint.sweep.score.duplicateToken': 'Duplicate token',
  'checkpoint.sweep.idle': 'Point at, tap or focus a head of the grid to see its score.',
  'checkpoint.sweep.map': 'Each head’s score: rows are layers, columns heads',
  'checkpoint.sweep.layerRow': 'layer {layer}',
  'checkpoint.sweep.intro':
    'Which heads copy? Each head is scored on {count} sequences of a start token, {repeat} random tokens and the same {repeat} tokens again: a previous-token head attends to the token just before, a duplicate-token head to earlier copies of the current token, an induction head to the token that followed an earlier copy (what lets a model continue a repeat).',
  'checkpoint.sweep.reported':
    'Reported elsewhere for GPT-2 small (layer.head counted from 0, as those papers count): induction heads 5.1, 5.5, 6.9, 7.2 and 7.10 (Olsson et al., 2022; Wang et al., 2022), a previous-token head 4.11 (Wang et al., 2022). The page counts from 1, so 5.1 is layer 6 · head 2; those cells are outlined when the model has GPT-2 small’s shape. They are what a learner should expect to find in the published weights, not something this page has checked; a checkpoint of random weights shows none of them.',
  'checkpoint.sweep.running': 'Sequence {done} of {count}…',
  'checkpoint.sweep.done': { one: 'Scored on {count} sequence.', other: 'Scored on {count} sequences.' },
  'checkpoint.sweep.cancelled': 'The sweep was cancelled.',
  'checkpoint.sweep.failed': 'The sweep stopped: {message}',
  'checkpoint.sweep.none': 'Open a checkpoint first.',
  'checkpoint.sweep.explain.score.induction': 'induction score = {value}',
  'checkpoint.sweep.explain.score.previousToken': 'previous-token score = {value}',
  'checkpoint.sweep.explain.score.duplicateToken': 'duplicate-token score = {value}',
  'checkpoint.sweep.explain.why':
    'Layer {layer} · head {head} ({paper} as the papers count from 0): its mean attention, pooled over every qualifying query of {count} sequences, computed by the core (attn.headScores) on the model’s own attention.',
  'checkpoint.sweep.explain.reported': 'Reported elsewhere as a head of this kind in GPT-2 small.',
  'checkpoint.sweep.explain.title.induction': 'Layer {layer} · head {head}: induction',
  'checkpoint.sweep.explain.title.previousToken': 'Layer {layer} · head {head}: previous token',
  'checkpoint.sweep.explain.title.duplicateToken': 'Layer {layer} · head {head}: duplicate token',

  'checkpoint.generate.ids': {
    one: '{count} token id (this checkpoint has no GPT-2 vocabulary to split text with).',
    other: '{count} token ids (this checkpoint has no GPT-2 vocabulary to split text with).',
  },
  'checkpoint.generate.tokens': { one: '{count} GPT-2 token: {pieces}', other: '{count} GPT-2 tokens: {pieces}' },
  'checkpoint.generate.cut': {
    one: '{count} GPT-2 token: {pieces} … (cut to leave room for new tokens)',
    other: '{count} GPT-2 tokens: {pieces} … (cut to leave room for new tokens)',
  },
};
