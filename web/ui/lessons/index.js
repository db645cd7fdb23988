// The lesson panels: one experiment each, on the explorer's own numbers and computed by the core.
// createLessons() builds them behind a row of tabs; only the open panel is computed and drawn, so
// the lessons add nothing to a redraw of the explorer while they are closed.
//
// Each lesson's module is loaded when its tab is opened (a click loads it before the tab opens,
// so the redraw that shows the tab draws the lesson), and all of them in the browser's idle time
// after the explorer's first drawing: none of them is in the code the first heatmap waits for.
import { apiReady } from '../../lib/api-parts.js';
import { el } from './dom.js';
import { browserIdle, section } from '../dom/dom.js';
import { english, LESSON_PANELS, loadEnglishParts, setLesson } from '../model/model.js';

// One import() each, written out so that bundlers split every lesson into a chunk of its own.
const MODULES = {
  'sqrt-dk': () =>
    import('./sqrt-dk.js').then(
      (m) => (ctx) => m.createSqrtDkPanel({ attn: ctx.attn, update: ctx.update, i18n: ctx.i18n }),
    ),
  pitfalls: () => import('./pitfalls.js').then((m) => (ctx) => m.createPitfallsPanel(ctx)),
  hull: () => import('./hull.js').then((m) => (ctx) => m.createHullPanel({ update: ctx.update, i18n: ctx.i18n })),
  cost: () =>
    import('./cost.js').then((m) => (ctx) => m.createCostPanel({ attn: ctx.attn, update: ctx.update, i18n: ctx.i18n })),
  steps: () =>
    import('./steps.js').then(
      (m) => (ctx) => m.createStepsPanel({ computer: ctx.computer, update: ctx.update, i18n: ctx.i18n }),
    ),
  permutation: () => import('./permutation.js').then((m) => (ctx) => m.createPermutationPanel(ctx)),
  gradients: () =>
    import('./gradients.js').then(
      (m) => (ctx) => m.createGradientsPanel({ attn: ctx.attn, update: ctx.update, i18n: ctx.i18n }),
    ),
  'flash-attention': () =>
    import('./flash-attention.js').then(
      (m) => (ctx) => m.createFlashAttentionPanel({ attn: ctx.attn, update: ctx.update, i18n: ctx.i18n }),
    ),
  'kv-cache': () =>
    import('./kv-cache.js').then(
      (m) => (ctx) => m.createKvCachePanel({ attn: ctx.attn, update: ctx.update, i18n: ctx.i18n }),
    ),
  positions: () =>
    import('./positions.js').then(
      (m) => (ctx) => m.createPositionsPanel({ attn: ctx.attn, update: ctx.update, i18n: ctx.i18n }),
    ),
};
const loaded = new Map(); // id → Promise of the panel's maker, shared by every explorer on the page

// The parts of the API that the bundled site loads after the first drawing (lib/api-parts.js)
// which a lesson calls: the kv-cache lesson decodes with a transformer, the gradients lesson
// differentiates, the FlashAttention lesson traces, the positions lesson turns q and k by RoPE.
// The others need none of them.
const API_PARTS = {
  'kv-cache': ['transformer'],
  gradients: ['gradients'],
  'flash-attention': ['flash-lesson'],
  positions: ['rope'],
};

/**
 * The maker of lesson `id`'s panel, its module loaded once per page, together with the API parts
 * it calls (so it can call them synchronously) and the lessons' English text.
 */
function loadLesson(id) {
  if (!loaded.has(id)) {
    const needs = [MODULES[id](), loadEnglishParts('lessons', 'inference')];
    if (API_PARTS[id]) needs.push(apiReady(...API_PARTS[id]));
    const promise = Promise.all(needs).then(([make]) => make);
    loaded.set(id, promise);
    promise.catch(() => loaded.delete(id)); // a failed load (offline) is tried again next time
  }
  return loaded.get(id);
}

/** Starts loading lesson `id` (a tab shown from the start), ahead of the explorer's core. */
export function prepareLesson(id) {
  if (IDS.has(id)) loadLesson(id).catch(() => {}); // a failure shows when the tab opens
}

// After the first drawing, when the browser is idle: every lesson, so a tab opens at once.
function prefetchWhenIdle() {
  browserIdle().then(async () => {
    // One after another: the browser's idle time is not a burst of ten imports.
    for (const id of LESSON_PANELS) await loadLesson(id).catch(() => {});
  });
}

// Each tab's short name (lessonTabs.tab.ID) and full title (lessonTabs.title.ID) are in the catalogues.
const IDS = new Set(Object.keys(MODULES));

/** Lesson `id`'s full title in the translator's language (its id when there is no such lesson). */
export function lessonTitle(id, i18n = english) {
  return IDS.has(id) ? i18n.t(`lessonTabs.title.${id}`) : id;
}

// The element holding lesson `id`'s panel (its title first), and its tab when `onClick` is given
// (the tabbed lessons; a lesson shown alone has none). Returns { holder, tab }.
function holderFor(id, onClick, { t }) {
  const holder = el('div', 'lesson-holder');
  holder.id = `lesson-panel-${id}`;
  holder.hidden = true;
  holder.append(el('h3', 'lesson-title', t(`lessonTabs.title.${id}`)));
  if (!onClick) return { holder, tab: null };
  const tab = el('button', 'lesson-tab', t(`lessonTabs.tab.${id}`));
  tab.type = 'button';
  tab.id = `lesson-tab-${id}`;
  tab.setAttribute('role', 'tab');
  tab.setAttribute('aria-controls', `lesson-panel-${id}`);
  tab.dataset.panel = id;
  tab.addEventListener('click', onClick);
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

// The lessons' section: its heading, the row of tabs (none for a lesson shown alone) and the card
// that holds the panels. Returns { root, tabs, card }.
function lessonsSection(only, i18n) {
  const { t } = i18n;
  const { root, heading } = only
    ? section('lessons single-lesson', 'lessons', lessonTitle(only, i18n))
    : section('lessons', 'lessons', t('lessonTabs.section.title'), t('lessonTabs.section.intro'));
  // A lesson alone: its panel's own title shows (and its headings keep their levels); the section's names it for landmarks.
  if (only) heading.classList.add('visually-hidden');
  root.id = 'lessons';
  const tabs = el('div', 'lesson-tabs');
  tabs.setAttribute('role', 'tablist');
  tabs.setAttribute('aria-label', t('lessonTabs.tabs.label'));
  const card = el('div', 'card lesson-card');
  if (only) root.append(card);
  else root.append(tabs, card);
  return { root, tabs, card };
}

// Arrow keys move between tabs (and open them), as in the WAI-ARIA tabs pattern.
function moveBetweenTabs(tabs, buttons, openTab) {
  tabs.addEventListener('keydown', (e) => {
    const i = LESSON_PANELS.indexOf(e.target.dataset?.panel);
    if (i < 0) return;
    const last = LESSON_PANELS.length - 1;
    const j = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: last }[e.key];
    if (j === undefined) return;
    e.preventDefault();
    const id = LESSON_PANELS[(j + LESSON_PANELS.length) % LESSON_PANELS.length];
    buttons[id].focus();
    openTab(id);
  });
}

/**
 * attn: the API; computer: the explorer's createComputer() (its variant() reruns the explorer's
 * attention on chosen rows, masks or mistakes); update(fn): the explorer's state transition;
 * only: one lesson id to show alone (a single-lesson embed: no tabs, that panel only, its title
 * as the section's heading); i18n: the explorer's translator (English when absent), handed to
 * every lesson's maker.
 * Returns { el, render(state, result, display), dispose(), holder(id) }.
 */
export function createLessons({ attn, computer, update, only = null, i18n: given }) {
  const i18n = given ?? english;
  const { t } = i18n;
  const ids = only ? [only] : LESSON_PANELS;
  const { root, tabs, card } = lessonsSection(only, i18n);

  const ctx = { attn, computer, update, i18n };
  const makers = {}; // id → the panel's maker, once its module has loaded
  const pending = new Set(); // ids whose module is on its way to this explorer
  let disposed = false;
  // Opens tab `id` once its module is there (at once when it is).
  const openTab = (id) => {
    if (makers[id]) {
      update((s) => setLesson(s, 'panel', id));
      return;
    }
    holders[id].setAttribute('aria-busy', 'true');
    loadLesson(id).then(
      (make) => {
        makers[id] = make;
        if (!disposed) update((s) => setLesson(s, 'panel', id));
      },
      () => {
        if (!disposed) update((s) => setLesson(s, 'panel', id)); // the panel then says it failed
      },
    );
  };
  const panels = {};
  const buttons = {};
  const holders = {};
  for (const id of ids) {
    const { holder, tab } = holderFor(id, only ? null : () => openTab(id), i18n);
    holders[id] = holder;
    card.append(holder);
    if (tab) {
      buttons[id] = tab;
      tabs.append(tab);
    }
  }
  moveBetweenTabs(tabs, buttons, openTab);

  let open = null;
  let last = null; // the latest render's arguments, for a panel whose module arrives later
  let prefetched = false;
  // Builds panel `id` when its module is there; until then the holder says it is loading, and the
  // panel is drawn with the latest arguments when the module arrives.
  const build = (id) => {
    if (panels[id]) return true;
    if (makers[id]) {
      panels[id] = makers[id](ctx);
      holders[id].removeAttribute('aria-busy');
      holders[id].querySelector(':scope > .lesson-loading')?.remove();
      holders[id].append(panels[id].el);
      if (only) foldSections(panels[id].el);
      return true;
    }
    if (!holders[id].querySelector(':scope > .lesson-loading')) {
      holders[id].setAttribute('aria-busy', 'true');
      holders[id].append(el('p', 'lesson-status lesson-loading', t('lessonTabs.loading')));
    }
    if (pending.has(id)) return false;
    pending.add(id);
    // The tab open in the first drawing (the lessons are below the fold) loads when the page is
    // idle; a lesson shown alone is the widget's content and loads at once.
    const loading = renders === 1 && !only ? browserIdle().then(() => loadLesson(id)) : loadLesson(id);
    loading.then(
      (make) => {
        pending.delete(id);
        makers[id] = make;
        if (!disposed && open === id && last && build(id)) panels[id].render(...last);
      },
      (err) => {
        pending.delete(id); // the next drawing tries again
        const line = holders[id].querySelector(':scope > .lesson-loading');
        if (disposed || !line) return;
        line.textContent = t('lessonTabs.loadFailed', { error: err.message });
        line.classList.add('error');
        holders[id].removeAttribute('aria-busy');
      },
    );
    return false;
  };
  // Lessons another explorer on this page has loaded already.
  for (const [id, promise] of loaded)
    promise.then(
      (make) => {
        makers[id] = make;
      },
      () => {},
    );
  let renders = 0;
  return {
    el: root,
    render(state, result, display) {
      const id = only ?? state.lessons.panel;
      if (id !== open) {
        if (open) panels[open]?.pause?.(); // e.g. stop the token-by-token animation
        open = id;
        for (const p of ids) {
          const on = p === id;
          buttons[p]?.setAttribute('aria-selected', String(on));
          if (buttons[p]) buttons[p].tabIndex = on ? 0 : -1;
          holders[p].hidden = !on;
        }
      }
      last = [state, result, display];
      renders += 1;
      if (!prefetched && !only) {
        prefetched = true;
        prefetchWhenIdle();
      }
      // Panels are built the first time they are opened.
      if (build(id)) panels[id].render(state, result, display);
    },
    dispose() {
      disposed = true;
      for (const p of Object.values(panels)) p.dispose?.();
    },
    /** The element holding lesson `id`'s panel (#lesson-panel-ID). */
    holder: (id) => holders[id] ?? null,
  };
}
