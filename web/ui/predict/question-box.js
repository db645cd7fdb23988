// The question box of predict-then-reveal (predict.js): the question, its choices as radio
// buttons, Check my answer, the feedback, and the covering of the elements holding the answer.
import { el, setCovered, setText } from '../dom/dom.js';
import { english } from '../model/model.js';

let uid = 0;

// The radio buttons of one question, rebuilt only when the choices change.
function choiceList(fieldset, name) {
  let key = '';
  let radios = [];
  return {
    set(choices) {
      const next = choices.map((c) => `${c.value}\u0000${c.label}`).join('\u0001');
      if (next === key) return;
      const picked = radios.find((r) => r.checked)?.value;
      key = next;
      radios = choices.map((c) => {
        const input = el('input');
        input.type = 'radio';
        input.name = name;
        input.value = String(c.value);
        input.checked = picked === input.value;
        return input;
      });
      fieldset.querySelector('.predict-choices').replaceChildren(
        ...radios.map((input, k) => {
          const label = el('label', 'predict-choice');
          label.dataset.value = input.value;
          const words = el('span', '', choices[k].label);
          if (choices[k].data) words.translate = false; // a token: the learner's data
          label.append(input, words);
          return label;
        }),
      );
    },
    value: () => radios.find((r) => r.checked)?.value ?? null,
    disable(on) {
      for (const r of radios) r.disabled = on;
    },
    clear() {
      for (const r of radios) r.checked = false;
    },
    mark(guess, answers) {
      for (const r of radios) {
        r.parentElement.classList.toggle('is-answer', answers.includes(r.value));
        r.parentElement.classList.toggle('is-guess', r.value === guess);
      }
    },
  };
}

function questionParts(kind, { t }) {
  // Not a <form>: a frame sandboxed without allow-forms (as lesson platforms frame content) blocks
  // a form's submission, and its submit event with it.
  const form = el('div', 'predict card');
  form.dataset.predict = kind;
  form.dataset.state = 'asking';
  const fieldset = el('fieldset', 'predict-fieldset');
  const legend = el('legend', 'predict-question');
  const prompt = el('span', 'predict-lead', t('explorer.predict.lead'));
  const text = el('span');
  legend.append(prompt, text);
  const hint = el('p', 'predict-hint');
  hint.hidden = true;
  fieldset.append(legend, hint, el('div', 'predict-choices'));
  const check = el('button', 'button predict-check', t('explorer.predict.check'));
  check.type = 'button';
  const again = el('button', 'small-button predict-again', t('explorer.predict.again'));
  again.type = 'button';
  again.hidden = true;
  const buttons = el('div', 'predict-buttons');
  buttons.append(check, again);
  const feedback = el('p', 'predict-feedback');
  feedback.setAttribute('role', 'status');
  form.append(fieldset, buttons, feedback);
  return { form, fieldset, text, hint, check, again, feedback };
}

/**
 * The question box. kind: a PREDICT_KINDS entry; lesson: the lesson id reported with the answer;
 * emit(detail): reports an answer (the caller dispatches ANSWER_EVENT); cover: the words over a
 * hidden answer ('' hides it without words: small parts such as labels); onCover(): called when
 * the answer has been covered or revealed (the host's explanation of a covered cell goes). The
 * kind's object is set with box.use(question): { targets() → elements holding the answer,
 * judge(guess) → { correct, answer, answerLabel, feedback, ... } }; box.ask(text, choices, hint)
 * shows the question.
 */
export function createQuestionBox({ kind, lesson, emit, cover: coverWords, onCover, i18n = english }) {
  const { t } = i18n;
  const coverText = coverWords ?? t('explorer.predict.cover');
  const parts = questionParts(kind, i18n);
  const { form, fieldset, text, hint, check, again, feedback } = parts;
  const choices = choiceList(fieldset, `predict-${kind}-${++uid}`);
  let question = null;
  let revealed = false;
  let labels = new Map();

  // Elements holding the answer: covered until revealed, and with no number of it in the page
  // (dom/cover.js) until then.
  function cover() {
    for (const target of question?.targets() ?? []) setCovered(target, !revealed, coverText);
    onCover?.();
  }
  // A lesson loaded after the question was asked draws its answer later: covered as it appears.
  let watching = null;
  function watch() {
    const root = question?.coverRoot?.();
    if (!root || watching === root) return;
    watching = root;
    new MutationObserver(() => {
      if (!revealed) cover();
    }).observe(root, { childList: true, subtree: true });
  }
  async function submit() {
    if (revealed || !question) return;
    // The reveal hides Check my answer and disables the choices: a focus inside the question moves
    // to Ask again, or it would fall back to the page and a keyboard user start over from the top.
    const hadFocus = form.contains(form.getRootNode().activeElement);
    const guess = choices.value();
    if (guess === null) {
      feedback.className = 'predict-feedback';
      setText(feedback, t('explorer.predict.pickFirst'));
      return;
    }
    const verdict = await question.judge(guess);
    if (!verdict) return;
    revealed = true;
    form.dataset.state = 'revealed';
    form.dataset.correct = String(verdict.correct);
    cover();
    choices.disable(true);
    choices.mark(guess, [verdict.answer, ...(verdict.alsoRight ?? [])].map(String));
    check.hidden = true;
    again.hidden = false;
    if (hadFocus) again.focus();
    feedback.className = `predict-feedback ${verdict.correct ? 'right' : 'wrong'}`;
    setText(
      feedback,
      `${t(verdict.correct ? 'explorer.predict.right' : 'explorer.predict.wrong')} ${verdict.feedback}`,
    );
    const { feedback: words, alsoRight, ...rest } = verdict;
    emit({
      lesson,
      question: text.textContent,
      guessLabel: labels.get(guess) ?? guess,
      ...rest,
      feedback: words,
      guess: rest.guess ?? guess,
    });
  }
  check.addEventListener('click', submit);
  // Enter on a choice checks it, as in a form.
  fieldset.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.target.type !== 'radio') return;
    event.preventDefault();
    submit();
  });
  again.addEventListener('click', () => {
    revealed = false;
    form.dataset.state = 'asking';
    delete form.dataset.correct;
    choices.disable(false);
    choices.clear();
    choices.mark(null, []);
    check.hidden = false;
    again.hidden = true;
    setText(feedback, '');
    cover();
    fieldset.querySelector('input')?.focus();
  });

  return {
    el: form,
    use(q) {
      question = q;
    },
    /** Shows the question (its text, choices [{ value, label }] and an optional hint) and covers the answer. */
    ask(questionText, list, hintText = '') {
      setText(text, questionText);
      setText(hint, hintText);
      hint.hidden = !hintText;
      labels = new Map(list.map((c) => [String(c.value), c.label]));
      choices.set(list);
      if (revealed) choices.disable(true);
      cover();
      watch();
    },
    isRevealed: () => revealed,
  };
}
