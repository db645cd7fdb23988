// The sentence field of the inputs (sentence mode): the sentence, a [PAD] button, the tokens it
// becomes and how the token vectors X are made from them.
import { english, isPad, MAX_TOKENS, PAD } from './model/model.js';
import { describeVectorsIn } from './vector-source.js';
import { el, selectOf, sentenceInput, setText } from './dom/dom.js';

const POSITIONAL = ['none', 'sinusoidal', 'learned'];

// What the token vectors are: nothing here is trained, so say how they are made.
function positionalField(onPositional, { t }) {
  const positional = selectOf(
    'positional',
    POSITIONAL.map((k) => [k, t(`explorer.sentence.positional.${k}`)]),
  );
  positional.addEventListener('change', () => onPositional(positional.value));
  const positionalLabel = el('label', '', t('explorer.sentence.positional'));
  positionalLabel.htmlFor = positional.id;
  const positionalRow = el('div', 'field positional-field');
  positionalRow.append(positionalLabel, positional);
  const vectorsNote = el('p', 'help vectors-note');
  vectorsNote.id = 'vectors-note';
  vectorsNote.textContent = t('explorer.sentence.vectorsNote');
  positional.setAttribute('aria-describedby', vectorsNote.id);
  return { positional, positionalRow, vectorsNote };
}

/** onSentence(text) returns whether the text has a token; onPositional(kind) sets the positions. */
export function createSentenceBox({ onSentence, onPositional, i18n = english }) {
  const { t } = i18n;
  const sentenceBox = el('div', 'sentence-box');
  const sentenceLabel = el('label', '', t('explorer.sentence.label'));
  sentenceLabel.htmlFor = 'sentence';
  const sentenceRow = el('div', 'sentence-row');
  const sentence = sentenceInput('sentence');
  sentence.setAttribute('aria-describedby', 'sentence-help');
  sentence.translate = false;
  const addPad = el('button', 'small-button', `+ ${PAD}`);
  addPad.type = 'button';
  addPad.title = t('explorer.sentence.addPad');
  addPad.translate = false;
  sentenceRow.append(sentence, addPad);
  const help = el('p', 'help');
  help.id = 'sentence-help';
  const tokenList = el('ol', 'tokens');
  tokenList.setAttribute('aria-label', t('explorer.sentence.tokens'));
  const { positional, positionalRow, vectorsNote } = positionalField(onPositional, i18n);
  sentenceBox.append(sentenceLabel, sentenceRow, help, tokenList);
  // How X is made from the tokens: beside the sentence, or with X when the sentence leads the page.
  const vectors = el('div', 'sentence-vectors');
  vectors.append(positionalRow, vectorsNote);

  let lastSentence = null;
  sentence.addEventListener('input', () => {
    const ok = onSentence(sentence.value);
    sentence.setAttribute('aria-invalid', ok ? 'false' : 'true');
    help.classList.toggle('invalid', !ok);
    if (!ok) help.textContent = t('explorer.sentence.empty');
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
      if (sentence.getRootNode().activeElement !== sentence && sentence.value !== state.sentence)
        sentence.value = state.sentence;
      if (lastSentence !== state.tokens.join('\u0000')) {
        lastSentence = state.tokens.join('\u0000');
        tokenList.replaceChildren(
          ...state.tokens.map((tok) => {
            const li = el('li', isPad(tok) ? 'token pad' : 'token', tok);
            li.translate = false;
            return li;
          }),
        );
      }
      if (positional.value !== state.positional) positional.value = state.positional;
      if (!help.classList.contains('invalid') || sentence.getAttribute('aria-invalid') !== 'true')
        setText(help, t('explorer.sentence.help', { count: state.tokens.length, max: MAX_TOKENS, pad: PAD }));
      describeVectorsIn(state, { help, note: vectorsNote, positionalRow }, i18n); // trained or random vectors
    },
  };
}
