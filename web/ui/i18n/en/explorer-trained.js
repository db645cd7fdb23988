// The explorer's messages about a trained source of token vectors (English, the source of truth):
// the text model, a trained head opened from the training view, a checkpoint's head. They join the
// English catalogue with the code that shows them (loadEnglishParts('explorer-trained'),
// web/ui/model/trained-vectors.js loadTrainedSources), which loads only for an example that uses
// one; German and Spanish keep them in explorer.js.
export default {
  'explorer.trained.model.induction': 'the trained induction example',
  'explorer.trained.model.text': 'the trained text example',
  'explorer.trained.model.trained': 'the model trained in the training view',
  'explorer.trained.task.text': 'character-level text',
  'explorer.trained.task.induction': 'repeated random tokens',
  'explorer.trained.heads': { one: '{count} head', other: '{count} heads' },
  'explorer.trained.size': { one: '{count} layer of {heads}', other: '{count} layers of {heads}' },
  'explorer.trained.origin': '{name} of {model} ({size}, {steps} steps on {task})',
  'explorer.trained.shownHelp':
    'Opened from the training view: {origin}, reading its probe sequence. Pick an example to leave it.',
  'explorer.trained.textOption': 'Text model {name}',
  'explorer.trained.textHelp':
    'Your sentence, read by the trained text model’s head (Token vectors from, below). Pick an example to leave it.',
  'explorer.trained.checkpointOption': 'Checkpoint {name}',
  'explorer.trained.checkpointHelp':
    'Your sentence, read by {model}’s head (Token vectors from, below). Pick an example to leave it.',
  'explorer.trained.dModelCheckpoint':
    'd_model = {dModel}: the {rank} directions your sentence’s vectors span in the model’s {width}, plus a column of ones whose row in each W is the head’s bias.',
  'explorer.trained.dModel':
    'd_model = {dModel}: the model’s {features} features plus a column of ones, whose row in each W is the head’s bias (X·W + b = [X, 1]·[W; b]).',
  'explorer.trained.where.first': 'its token embedding plus its position’s learned embedding',
  'explorer.trained.where.later': {
    one: 'its token and position embeddings after layer {range} (the residual stream)',
    other: 'its token and position embeddings after layers {range} (the residual stream)',
  },
  'explorer.trained.inputs.token':
    'each row of X is what layer {layer}’s attention sees for one token: {where}, through the layer’s LayerNorm ({columns} columns), plus a last column of ones. W_Q, W_K and W_V are head {head}’s trained weights, their last row its bias. The model learned its own positions, so they are inside X and no position information is added here.',
  'explorer.trained.inputs.char':
    'each row of X is what layer {layer}’s attention sees for one character: {where}, through the layer’s LayerNorm ({columns} columns), plus a last column of ones. W_Q, W_K and W_V are head {head}’s trained weights, their last row its bias. The model learned its own positions, so they are inside X and no position information is added here.',
  'explorer.trained.probe.text': 'a stretch of the text it trained on',
  'explorer.trained.probe.induction':
    'B (the start token), random tokens, then the same tokens again, each shown by its id',
  'explorer.trained.source':
    'A trained head: {origin}. X and W are the model’s own inputs and weights for its probe sequence, so the weights below are the head’s real attention on it, not an illustration.',
  'explorer.trained.help':
    'The probe sequence the training view shows the heads on: {probe}. Typing a sentence leaves the trained head (X then becomes random per word).',
  'explorer.trained.note': 'Trained vectors: {inputs}',
  'explorer.trained.explorerLimit': 'the explorer shows at most {max} tokens',
  'explorer.trained.chars': {
    one: '{count} character, one token each (at most {max}).',
    other: '{count} characters, one token each (at most {max}).',
  },
  'explorer.trained.textNote':
    'Trained vectors: {inputs} So the weights below are the model’s own attention probabilities for your text (causal: a character sees only those before it).',
  // Token vectors from (vector-source.js), once a trained source is shown.
  'explorer.vectors.trainedOption': 'Trained {name}',
  'explorer.vectors.modelNote':
    'The trained text model: a small transformer trained on this page’s bundled stories (web/trained/text), one character per token; X and W are its real inputs and weights for the chosen head, so the weights are what it really attends to.',
  'explorer.vectors.reopenCheckpoint': 'Open the checkpoint again in the training view to read a new sentence with it.',
};
