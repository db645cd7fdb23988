// The lesson panels: one experiment each, on the explorer's own numbers and computed by the core.
// createLessons() builds them behind a row of tabs; only the open panel is computed and drawn, so
// the lessons add nothing to a redraw of the explorer while they are closed.
import { el } from './dom.js';
import { section } from '../dom/dom.js';
import { createCostPanel } from './cost.js';
import { createFlashAttentionPanel } from './flash-attention.js';
import { createKvCachePanel } from './kv-cache.js';
import { createPositionsPanel } from './positions.js';
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
  'flash-attention': ['FlashAttention', 'FlashAttention, tile by tile'],
  'kv-cache': ['KV cache', 'The KV cache: decoding one token at a time'],
  positions: ['Positions', 'Where positions come from: sinusoidal, learned, RoPE, ALiBi'],
};

/**
 * attn: the API; computer: the explorer's createComputer() (its variant() reruns the explorer's
 * attention on chosen rows, masks or mistakes); update(fn): the explorer's state transition.
 * Returns { el, render(state, result, display), dispose() }.
 */
export function createLessons({ attn, computer, update }) {
  const { root } = section('lessons', 'lessons', 'Lessons, measured', 'Experiments on the numbers above, each computed by the same WebAssembly core.');
  root.id = 'lessons';
  const tabs = el('div', 'lesson-tabs');
  tabs.setAttribute('role', 'tablist');
  tabs.setAttribute('aria-label', 'Lessons');
  const card = el('div', 'card lesson-card');
  root.append(tabs, card);

  const make = {
    'sqrt-dk': () => createSqrtDkPanel({ attn, update }),
    pitfalls: () => createPitfallsPanel({ attn, computer, update }),
    hull: () => createHullPanel({ update }),
    cost: () => createCostPanel({ attn, update }),
    steps: () => createStepsPanel({ computer, update }),
    permutation: () => createPermutationPanel({ attn, computer, update }),
    gradients: () => createGradientsPanel({ attn, update }),
    'flash-attention': () => createFlashAttentionPanel({ attn, update }),
    'kv-cache': () => createKvCachePanel({ attn, update }),
    positions: () => createPositionsPanel({ attn, update }),
  };
  const panels = {};
  const buttons = {};
  const holders = {};
  for (const id of LESSON_PANELS) {
    const tab = el('button', 'lesson-tab', TITLES[id][0]);
    tab.type = 'button';
    tab.id = `lesson-tab-${id}`;
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-controls', `lesson-panel-${id}`);
    tab.dataset.panel = id;
    tab.addEventListener('click', () => update((s) => setLesson(s, 'panel', id)));
    tabs.append(tab);
    buttons[id] = tab;
    const holder = el('div', 'lesson-holder');
    holder.id = `lesson-panel-${id}`;
    holder.setAttribute('role', 'tabpanel');
    holder.setAttribute('aria-labelledby', tab.id);
    holder.tabIndex = 0;
    holder.hidden = true;
    const title = el('h3', 'lesson-title', TITLES[id][1]);
    holder.append(title);
    card.append(holder);
    holders[id] = holder;
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
      const id = state.lessons.panel;
      if (id !== open) {
        if (open) panels[open]?.pause?.();  // e.g. stop the token-by-token animation
        open = id;
        for (const p of LESSON_PANELS) {
          const on = p === id;
          buttons[p].setAttribute('aria-selected', String(on));
          buttons[p].tabIndex = on ? 0 : -1;
          holders[p].hidden = !on;
        }
      }
      // Panels are built the first time they are opened.
      if (!panels[id]) {
        panels[id] = make[id]();
        holders[id].append(panels[id].el);
      }
      panels[id].render(state, result, display);
    },
    dispose() {
      for (const p of Object.values(panels)) p.dispose?.();
    },
  };
}
