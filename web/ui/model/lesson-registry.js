// Every lesson a page can show alone (<attention-explorer lesson="ID">, embed.html?lesson=ID): the
// lesson tabs, the pipeline's steps and the training view's tasks, with what each needs on screen.
// Pure data, no DOM: the explorer, the element, embed.html and the embed builder all read it.
//
// Adding a lesson tab to LESSON_PANELS (state.js) and its module to lessons/index.js makes it
// embeddable as it is; an entry in TAB_LESSONS below only changes its defaults (its example, the
// explorer controls it shows, its predict-then-reveal question).
import { english } from './i18n.js';
import { LESSON_PANELS } from './state.js';

/** Control groups of the explorer's control panel (controls.js), in page order. */
export const CONTROL_GROUPS = ['example', 'input', 'sizes', 'random', 'scaling', 'mask', 'extras', 'head'];
/** The groups a whole explorer shows with controls="minimal". */
export const MINIMAL_EXPLORER_GROUPS = ['example', 'scaling', 'mask', 'head'];
const CONTROL_LEVELS = ['none', 'minimal', 'full'];
/** Pipeline cards (pipeline.js), in page order. */
export const PIPELINE_STEPS = ['scores', 'scaled', 'masked', 'weights', 'output'];

// The pipeline's steps as lessons. steps: the cards shown; inputs: the matrices shown above them
// (Q, K, V: the editors in Q/K/V mode, the projections of a sentence); groups: the control groups
// of controls="minimal"; preset: the example when the embed names none.
const STEP_LESSONS = {
  scores: {
    title: 'Scores: one dot product per query–key pair',
    steps: ['scores'],
    inputs: ['Q', 'K'],
    groups: [],
    preset: 'hand',
  },
  scaled: {
    title: 'Scaling the scores by √dₖ',
    steps: ['scores', 'scaled'],
    inputs: [],
    groups: ['scaling'],
    preset: 'saturation',
  },
  mask: {
    title: 'Masking before the softmax',
    steps: ['masked', 'weights'],
    inputs: [],
    groups: ['mask'],
    preset: 'causal',
  },
  'softmax-row': {
    title: 'The softmax, row by row',
    steps: ['masked', 'weights'],
    inputs: [],
    groups: ['scaling'],
    preset: 'lesson',
    predict: 'top-key',
  },
  weights: {
    title: 'Attention weights',
    steps: ['weights'],
    inputs: ['Q', 'K'],
    groups: ['scaling', 'mask'],
    preset: 'hand',
    predict: 'top-key',
  },
  output: {
    title: 'The output: a weighted average of the values',
    steps: ['weights', 'output'],
    inputs: ['V'],
    groups: [],
    preset: 'mixing',
  },
};

// Lesson tabs whose defaults differ from "its panel alone, on the default example". start: starting
// numbers (starting-numbers.js) over the preset, when the embed names no example of its own.
const TAB_LESSONS = {
  'sqrt-dk': { predict: 'entropy' },
  pitfalls: { groups: ['mask'], preset: 'lesson', start: { mask: 'causal' }, predict: 'row-sum' },
  hull: { preset: 'mixing' },
  steps: { preset: 'causal' },
};

const TRAIN_LESSONS = {
  induction: {
    title: 'An induction head',
    example: 'induction',
    predict: 'induction-head',
    panels: ['controls', 'heads'],
  },
  text: { title: 'A character-level text model', example: 'text', panels: ['controls', 'your-text'] },
};

// cards: the heads panel's cards shown (every head's weights side by side).
const HEADS_LESSON = { title: 'Multi-head attention', groups: [], preset: 'heads', cards: ['grid'] };

/**
 * The lesson with id `id`, or null when there is none:
 * { id, kind: 'tab' | 'step' | 'heads' | 'train', title?, steps?, inputs?, groups, preset?,
 *   predict?, example?, panels? }. Returned objects are fresh copies.
 */
export function lessonSpec(id) {
  if (typeof id !== 'string') return null;
  if (LESSON_PANELS.includes(id)) return { id, kind: 'tab', groups: [], ...structuredClone(TAB_LESSONS[id] ?? {}) };
  if (Object.hasOwn(STEP_LESSONS, id)) return { id, kind: 'step', ...structuredClone(STEP_LESSONS[id]) };
  if (id === 'heads') return { id, kind: 'heads', ...structuredClone(HEADS_LESSON) };
  if (Object.hasOwn(TRAIN_LESSONS, id)) return { id, kind: 'train', groups: [], ...structuredClone(TRAIN_LESSONS[id]) };
  return null;
}

/** Every lesson id, grouped as the embed builder lists them. */
export function lessonIds() {
  return {
    tabs: [...LESSON_PANELS],
    steps: [...Object.keys(STEP_LESSONS), 'heads'],
    training: Object.keys(TRAIN_LESSONS),
  };
}

/** Every lesson id in one list. */
export const allLessonIds = () => Object.values(lessonIds()).flat();

/** What predict-then-reveal questions a lesson has ('' when none). */
export const predictKind = (id) => lessonSpec(id)?.predict ?? '';

/**
 * The controls setting as a level: 'none', 'minimal' or 'full'; anything else gives `fallback`
 * (a lesson's default is 'minimal', the whole explorer's 'full').
 */
export function controlLevel(value, fallback) {
  return CONTROL_LEVELS.includes(value) ? value : fallback;
}

/** The explorer's control groups for a level and a lesson spec (null: the whole explorer). */
export function controlGroups(level, spec) {
  if (level === 'none') return [];
  if (level === 'full') return [...CONTROL_GROUPS];
  return spec ? [...spec.groups] : [...MINIMAL_EXPLORER_GROUPS];
}

/** A message for a lesson id that does not exist, listing the ones that do. */
export function unknownLessonMessage(id, { t } = english) {
  return t('explorer.notice.unknownLesson', { id: String(id).slice(0, 40), ids: allLessonIds().join(', ') });
}

/** A lesson's title in the translator's language (its id when it has none). */
export function lessonTitle(id, { t, has } = english) {
  return has(`common.lesson.${id}`) ? t(`common.lesson.${id}`) : String(id);
}
