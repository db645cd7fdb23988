// The training view as an embed sets it up: which panels show (panels, or a lesson's own), how
// many controls (controls="none|minimal|full"), read-only settings (readonly), and the lesson's
// predict-then-reveal question (reveal="predict"). Applied to the mounted view's elements, so the
// view's own modules stay as they are.
//
// Panels: controls, loss, heads, your-text, generate, examples, import, checkpoint.
// controls="minimal" keeps the run
// buttons (Train, Pause, One step, Reset) and their status, without the task and model settings;
// "none" hides the controls. readonly: the settings cannot be changed (their fieldsets are
// disabled, Defaults is gone) and no other model can be opened (model files, imports,
// checkpoints); training, ablating, generating and typing your own text still work.
import { createInductionQuestion, dispatchAnswer } from '../predict/predict.js';
import { THRESHOLDS } from './config.js';

const TRAINING_PANELS = ['controls', 'loss', 'heads', 'your-text', 'generate', 'examples', 'import', 'checkpoint'];
const SELECTORS = {
  controls: '.training-controls',
  loss: '.loss-panel',
  heads: '.head-cards',
  'your-text': '.your-text-panel',
  generate: '.generate-panel',
  examples: '.examples-panel',
  import: '.import-panel',
  checkpoint: '.checkpoint-panels',
};

// The panels shown: all by default; a lesson's own plus what `panels` adds; controls="none" drops them.
function shownPanels({ panels, lesson, controls }) {
  const asked = Array.isArray(panels) ? panels.filter((p) => TRAINING_PANELS.includes(p)) : null;
  const shown = new Set(lesson ? [...lesson.panels, ...(asked ?? [])] : (asked ?? TRAINING_PANELS));
  if (controls === 'none') shown.delete('controls');
  return shown;
}

function applyReadOnly(root) {
  for (const f of root.querySelectorAll('.training-controls fieldset')) f.disabled = true;
  for (const e of root.querySelectorAll(
    '[data-action="defaults"], [data-action="train-yourself"], .examples-panel .file-button, .examples-panel input[type="file"]',
  ))
    e.classList.add('panel-off');
  for (const e of root.querySelectorAll('.import-panel, .checkpoint-panels')) e.classList.add('panel-off');
}

/**
 * root: the training view's root; view: its handle (trainer()); options: { lesson (a registry
 * spec of kind 'train', or null), panels, controls ('none' | 'minimal' | 'full'), readOnly,
 * reveal, i18n (the view's translator, for the question) }. Returns { question } (null without one).
 */
export function applyTrainingOptions(root, view, options) {
  const { lesson = null, readOnly = false, reveal = '', i18n } = options;
  const controls = ['none', 'minimal', 'full'].includes(options.controls)
    ? options.controls
    : lesson
      ? 'minimal'
      : 'full';
  const shown = shownPanels({ ...options, lesson, controls });
  for (const [id, selector] of Object.entries(SELECTORS))
    for (const e of root.querySelectorAll(selector)) e.classList.toggle('panel-off', !shown.has(id));
  root.classList.toggle('training-lesson', Boolean(lesson));
  if (lesson) {
    root.dataset.lesson = lesson.id;
    root.querySelector('.training-layout').id = `lesson-panel-${lesson.id}`; // as every lesson shown alone
  }
  root.classList.toggle('controls-minimal', controls === 'minimal');
  if (readOnly) applyReadOnly(root);
  root.classList.toggle('read-only', Boolean(readOnly));
  if (reveal !== 'predict' || lesson?.predict !== 'induction-head') return { question: null };
  const question = createInductionQuestion({
    root,
    trainer: () => view.trainer(),
    threshold: THRESHOLDS.induction,
    lesson: lesson.id,
    i18n,
    emit: (detail) => dispatchAnswer(root, detail),
  });
  const cards = root.querySelector('.head-cards');
  cards.insertBefore(question.el, cards.querySelector('.head-grid'));
  question.refresh();
  // A new model (other settings) has other heads: ask about those.
  new MutationObserver(() => question.refresh()).observe(cards.querySelector('.head-grid'), { childList: true });
  return { question };
}
