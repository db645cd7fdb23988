// "Your text": with a character-level text model loaded (the trained example or a model trained
// here on text), the learner types a sentence; it is tokenised with the model's own vocabulary
// (char-tokens.js: unknown characters are read as another one and named) and every layer's and
// head's real attention on it is shown, with the heads' scores and labels. The model runs in the
// trainer's Worker (trainer.attend), so typing never waits on the main thread.
// Test hooks: the panel is [data-your-text] with data-tokens (the characters read, joined) and
// data-step (the model's step the maps show); its maps are table[data-heatmap="your-l<l>-h<h>"];
// each head's box is [data-your-head][data-layer][data-head] with data-previous-token,
// data-induction and data-duplicate-token.
import { el } from '../dom/dom.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { charTokens, english } from '../model/model.js';
import { headLabel, scoreNumbers } from './head-cards.js';
import { queueHeatmap } from './queue-heatmap.js';
import { headTitle } from './config.js';
import { describeTokens } from './char-notes.js';

// Short enough for the context, in the corpus's style, with a name that repeats (copying it is
// what a previous-token and an induction head do together). The story is English; so is the
// bundled corpus the text model learns from.
const DEFAULT_TEXT = 'Oskar sold the bell. Oskar sold';
const SCORES = ['previousToken', 'induction', 'duplicateToken'];

function createHeadBox(layer, head, i18n) {
  const box = el('article', 'head-card your-head');
  Object.assign(box.dataset, { yourHead: '', layer: String(layer), head: String(head) });
  const badge = el('span', 'head-badge');
  badge.hidden = true;
  const name = headTitle(layer, head, i18n);
  const title = el('h3', 'head-title', name);
  title.append(' ', badge);
  const { numbers, values } = scoreNumbers(i18n);
  const map = createHeatmap({
    name: `your-l${layer}-h${head}`,
    label: i18n.t('training.yourText.map', { layer: layer + 1, head: head + 1 }),
    kind: 'weights',
    small: true,
    i18n,
  });
  box.append(title, numbers, map.el);
  return {
    el: box,
    show(scores, attention, labels, display) {
      for (const key of SCORES) {
        box.dataset[key] = String(scores[key]);
        values[key].textContent = i18n.decimal(scores[key].toFixed(2));
      }
      const label = headLabel(scores, i18n);
      badge.hidden = !label;
      badge.textContent = label;
      queueHeatmap(map, { tensor: attention, rowLabels: labels, colLabels: labels, ...display });
    },
  };
}

// Head h of a layer's [H, T, T] weights as a [T, T] tensor.
function headOf(a, h) {
  const t = a.shape[1];
  return { data: a.data.subarray(h * t * t, (h + 1) * t * t), shape: [t, t] };
}

/**
 * The panel. attend(ids) → the trainer's attention ({ step, attentions, headScores });
 * display() → { palette, theme }. setModel({ vocabulary, contextLength, layers, heads } | null)
 * shows it for a text model (hidden otherwise); refresh() recomputes the maps (the model trained on).
 * i18n: the view's translator.
 */
export function createYourTextPanel({ attend, display, i18n = english }) {
  const { t } = i18n;
  const root = el('section', 'card your-text-panel');
  root.dataset.yourText = '';
  root.hidden = true;
  const suffix = Math.random().toString(36).slice(2, 8);
  const heading = el('h2', 'section-title', t('training.yourText.title'));
  heading.id = `your-text-title-${suffix}`;
  root.setAttribute('aria-labelledby', heading.id);
  const label = el('label', '', t('training.yourText.label'));
  const input = el('input', 'your-text-input');
  input.setAttribute('translate', 'no'); // the learner's own sentence
  input.type = 'text';
  input.id = `your-text-${suffix}`;
  input.autocomplete = 'off';
  input.spellcheck = false;
  input.maxLength = 200;
  input.value = DEFAULT_TEXT;
  label.htmlFor = input.id;
  const hint = el('p', 'hint');
  hint.id = `your-text-hint-${suffix}`;
  const message = el('p', 'hint your-text-message');
  message.setAttribute('role', 'status');
  input.setAttribute('aria-describedby', `${hint.id}`);
  const grid = el('div', 'head-grid');
  root.append(heading, label, input, hint, message, grid);

  let model = null;
  let boxes = [];
  let asked = 0; // requests sent; only the latest one's answer is shown
  let pending = false;

  async function run() {
    if (!model) return;
    const mine = ++asked;
    let tokens;
    try {
      tokens = charTokens(input.value, model.vocabulary, model.contextLength);
    } catch (err) {
      message.textContent = t('training.yourText.unreadable', { reason: err.message });
      return;
    }
    message.textContent = describeTokens(tokens, model.contextLength, { i18n });
    input.setAttribute('aria-invalid', 'false');
    if (!tokens.ids.length) {
      message.textContent = t('training.yourText.empty');
      return;
    }
    const result = await attend(tokens.ids);
    if (mine !== asked || !model) return;
    root.dataset.tokens = tokens.chars.join('');
    root.dataset.step = String(result.step);
    const shown = display();
    result.attentions.forEach((a, l) => {
      const scores = result.headScores[l];
      for (let h = 0; h < a.shape[0]; h++) {
        boxes[l]?.[h]?.show(
          {
            previousToken: scores.previousToken[h],
            induction: scores.induction[h],
            duplicateToken: scores.duplicateToken[h],
          },
          headOf(a, h),
          tokens.labels,
          shown,
        );
      }
    });
  }

  // At most one request in flight; the latest text wins.
  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      run().catch((err) => {
        message.textContent = t('training.yourText.failed', { reason: err.message.replace(/^trainer: /, '') });
      });
    });
  }
  input.addEventListener('input', schedule);

  return {
    el: root,
    setModel(next) {
      model = next;
      root.hidden = !next;
      asked++;
      delete root.dataset.tokens;
      if (!next) return;
      const known = next.vocabulary
        .map((c) => ({ ' ': t('training.yourText.space'), '\n': t('training.yourText.newLine') })[c] ?? c)
        .join(' ');
      hint.textContent = t('training.yourText.hint', { max: next.contextLength, count: next.vocabulary.length, known });
      boxes = Array.from({ length: next.layers }, (_, l) =>
        Array.from({ length: next.heads }, (_, h) => createHeadBox(l, h, i18n)),
      );
      grid.replaceChildren(...boxes.flat().map((b) => b.el));
      schedule();
    },
    refresh: () => {
      if (model && !root.hidden) schedule();
    },
    input,
  };
}
