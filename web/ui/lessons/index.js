// The lesson panels: one experiment each, on the explorer's own numbers and computed by the core.
// createLessons() builds them behind a row of tabs; only the open panel is computed and drawn, so
// the lessons add nothing to a redraw of the explorer while they are closed.
import { el } from './dom.js';
import { section } from '../dom/dom.js';
import { createCostPanel } from './cost.js';
import { createGradientsPanel } from './gradients.js';
import { createHullPanel } from './hull.js';
import { createPermutationPanel } from './permutation.js';
import { createPitfallsPanel } from './pitfalls.js';
import { createSqrtDkPanel } from './sqrt-dk.js';
import { createStepsPanel } from './steps.js';
import { LESSON_PANELS, setLesson } from '../model/model.js';

const TITLES = {
  'sqrt-dk': ['Why \u221ad\u2096', 'Why \u221ad\u2096, measured'],
  pitfalls: ['Pitfalls', 'Pitfalls side by side'],
  hull: ['Mixing', 'Attention mixes, never invents'],
  cost: ['Cost', 'Cost and size'],
  steps: ['Token by token', 'Autoregressive view: token by token'],
  permutation: ['Swapping tokens', 'Permutation equivariance'],
  gradients: ['Gradients', 'Gradients: how attention learns'],
};
/** Each lesson tab's full title, by id (the embed builder's menu). */
export const LESSON_TITLES = Object.fromEntries(Object.entries(TITLES).map(([id, [, title]]) => [id, title]));

// The element holding lesson `id`'s panel (its title first), and its tab when `update` is given
// (the tabbed lessons; a lesson shown alone has none). Returns { holder, tab }.
function holderFor(id, update) {
  const holder = el('div', 'lesson-holder');
  holder.id = `lesson-panel-${id}`;
  holder.hidden = true;
  holder.append(el('h3', 'lesson-title', TITLES[id][1]));
  if (!update) return { holder, tab: null };
  const tab = el('button', 'lesson-tab', TITLES[id][0]);
  tab.type = 'button';
  tab.id = `lesson-tab-${id}`;
  tab.setAttribute('role', 'tab');
  tab.setAttribute('aria-controls', `lesson-panel-${id}`);
  tab.dataset.panel = id;
  tab.addEventListener('click', () => update((s) => setLesson(s, 'panel', id)));
  holder.setAttribute('role', 'tabpanel');
  holder.setAttribute('aria-labelledby', tab.id);
  holder.tabIndex = 0;
  return { holder, tab };
}

// A lesson shown alone keeps to a lesson page's height: its further sections (a .lesson-gap block
// opening with an h4: the gradients' nudge check, gradient step and keys) fold under their titles.
function foldSections(panel) {
  for (const part of panel.querySelectorAll(':scope > .lesson-gap')) {
    const title = part.firstElementChild;
    if (title?.tagName !== 'H4') continue;
    const fold = el('details', 'lesson-more');
    const summary = el('summary');
    summary.append(title);
    part.before(fold);
    fold.append(summary, part);
  }
}

/**
 * attn: the API; computer: the explorer's createComputer() (its variant() reruns the explorer's
 * attention on chosen rows, masks or mistakes); update(fn): the explorer's state transition;
 * only: one lesson id to show alone (a single-lesson embed: no tabs, that panel only, its title
 * as the section's heading).
 * Returns { el, render(state, result, display), dispose(), holder(id) }.
 */
export function createLessons({ attn, computer, update, only = null }) {
  const ids = only ? [only] : LESSON_PANELS;
  const { root, heading } = only
    ? section('lessons single-lesson', 'lessons', TITLES[only]?.[1] ?? only)
    : section('lessons', 'lessons', 'Lessons, measured', 'Experiments on the numbers above, each computed by the same WebAssembly core.');
  // A lesson alone: its panel's own title shows (and its headings keep their levels); the section's names it for landmarks.
  if (only) heading.classList.add('visually-hidden');
  root.id = 'lessons';
  const tabs = el('div', 'lesson-tabs');
  tabs.setAttribute('role', 'tablist');
  tabs.setAttribute('aria-label', 'Lessons');
  const card = el('div', 'card lesson-card');
  if (only) root.append(card);
  else root.append(tabs, card);

  const make = {
    'sqrt-dk': () => createSqrtDkPanel({ attn, update }),
    pitfalls: () => createPitfallsPanel({ attn, computer, update }),
    hull: () => createHullPanel({ update }),
    cost: () => createCostPanel({ attn, update }),
    steps: () => createStepsPanel({ computer, update }),
    permutation: () => createPermutationPanel({ attn, computer, update }),
    gradients: () => createGradientsPanel({ attn, update }),
  };
  const panels = {};
  const buttons = {};
  const holders = {};
  for (const id of ids) {
    const { holder, tab } = holderFor(id, only ? null : update);
    holders[id] = holder;
    card.append(holder);
    if (tab) {
      buttons[id] = tab;
      tabs.append(tab);
    }
  }
  // Arrow keys move between tabs (and open them), as in the WAI-ARIA tabs pattern.
  tabs.addEventListener('keydown', (e) => {
    const i = LESSON_PANELS.indexOf(e.target.dataset?.panel);
    if (i < 0) return;
    const last = LESSON_PANELS.length - 1;
    const j = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: last }[e.key];
    if (j === undefined) return;
    e.preventDefault();
    const id = LESSON_PANELS[(j + LESSON_PANELS.length) % LESSON_PANELS.length];
    buttons[id].focus();
    update((s) => setLesson(s, 'panel', id));
  });

  let open = null;
  return {
    el: root,
    render(state, result, display) {
      const id = only ?? state.lessons.panel;
      if (id !== open) {
        if (open) panels[open]?.pause?.();  // e.g. stop the token-by-token animation
        open = id;
        for (const p of ids) {
          const on = p === id;
          buttons[p]?.setAttribute('aria-selected', String(on));
          if (buttons[p]) buttons[p].tabIndex = on ? 0 : -1;
          holders[p].hidden = !on;
        }
      }
      // Panels are built the first time they are opened.
      if (!panels[id]) {
        panels[id] = make[id]();
        holders[id].append(panels[id].el);
        if (only) foldSections(panels[id].el);
      }
      panels[id].render(state, result, display);
    },
    dispose() {
      for (const p of Object.values(panels)) p.dispose?.();
    },
    /** The element holding lesson `id`'s panel (#lesson-panel-ID). */
    holder: (id) => holders[id] ?? null,
  };
}
