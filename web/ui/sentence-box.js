// The sentence field of the inputs (sentence mode): the sentence, a [PAD] button, the tokens it
// becomes and how the token vectors X are made from them.
import { isPad, MAX_TOKENS, PAD } from './model/model.js';
import { describeVectorsIn } from './vector-source.js';
import { el, selectOf, sentenceInput, setText } from './dom/dom.js';

const POSITIONAL_LABELS = [
  ['none', 'none (attention cannot tell the order)'],
  ['sinusoidal', 'sinusoidal (sin/cos of the position)'],
  ['learned', 'learned-style (a random vector per position)'],
];

// What the token vectors are: nothing here is trained, so say how they are made.
function positionalField(onPositional) {
  const positional = selectOf('positional', POSITIONAL_LABELS);
  positional.addEventListener('change', () => onPositional(positional.value));
  const positionalLabel = el('label', '', 'Position information added to X');
  positionalLabel.htmlFor = positional.id;
  const positionalRow = el('div', 'field positional-field');
  positionalRow.append(positionalLabel, positional);
  const vectorsNote = el('p', 'help vectors-note');
  vectorsNote.id = 'vectors-note';
  vectorsNote.textContent = 'Each word\u2019s vector is random but fixed: the same word always gets the same vector (from NumPy\u2019s generator, seeded by a hash of the lower-cased word and the seed). No model has learned them, so similar words are not close. Changing the sentence, the seed, d_model or the positions rebuilds X; edits to X last until then.';
  positional.setAttribute('aria-describedby', vectorsNote.id);
  return { positional, positionalRow, vectorsNote };
}

/** onSentence(text) returns whether the text has a token; onPositional(kind) sets the positions. */
export function createSentenceBox({ onSentence, onPositional }) {
  const sentenceBox = el('div', 'sentence-box');
  const sentenceLabel = el('label', '', 'Sentence');
  sentenceLabel.htmlFor = 'sentence';
  const sentenceRow = el('div', 'sentence-row');
  const sentence = sentenceInput('sentence');
  sentence.setAttribute('aria-describedby', 'sentence-help');
  const addPad = el('button', 'small-button', `+ ${PAD}`);
  addPad.type = 'button';
  addPad.title = 'Append a padding token (hide it with the padding mask)';
  sentenceRow.append(sentence, addPad);
  const help = el('p', 'help');
  help.id = 'sentence-help';
  const tokenList = el('ol', 'tokens');
  tokenList.setAttribute('aria-label', 'Tokens');
  const { positional, positionalRow, vectorsNote } = positionalField(onPositional);
  sentenceBox.append(sentenceLabel, sentenceRow, help, tokenList);
  // How X is made from the tokens: beside the sentence, or with X when the sentence leads the page.
  const vectors = el('div', 'sentence-vectors');
  vectors.append(positionalRow, vectorsNote);

  let lastSentence = null;
  sentence.addEventListener('input', () => {
    const ok = onSentence(sentence.value);
    sentence.setAttribute('aria-invalid', ok ? 'false' : 'true');
    help.classList.toggle('invalid', !ok);
    if (!ok) help.textContent = 'Type at least one word: the tokens label the rows and columns.';
  });
  addPad.addEventListener('click', () => {
    sentence.value = `${sentence.value.trimEnd()} ${PAD}`;
    sentence.dispatchEvent(new Event('input'));
  });

  return {
    el: sentenceBox,
    /** The positions and the note on how X is made (placed after `el` by the inputs panel). */
    vectors,
    render(state) {
      if (sentence.getRootNode().activeElement !== sentence && sentence.value !== state.sentence) sentence.value = state.sentence;
      if (lastSentence !== state.tokens.join('\u0000')) {
        lastSentence = state.tokens.join('\u0000');
        tokenList.replaceChildren(...state.tokens.map((t) => {
          const li = el('li', isPad(t) ? 'token pad' : 'token', t);
          return li;
        }));
      }
      if (positional.value !== state.positional) positional.value = state.positional;
      if (!help.classList.contains('invalid') || sentence.getAttribute('aria-invalid') !== 'true')
        setText(help, `${state.tokens.length} token${state.tokens.length > 1 ? 's' : ''} (at most ${MAX_TOKENS}); words and punctuation become tokens, ${PAD} is a padding token.`);
      describeVectorsIn(state, { help, note: vectorsNote, positionalRow });  // trained or random vectors
    },
  };
}
