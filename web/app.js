// Entry module of the stand-alone page: mounts the explorer into <main id="app">, with the theme
// and palette tools in the page header, or the training view when the address says #view=train
// (a switch in the header goes between them).
import { mountExplorer } from './ui/explorer.js';
import { createViewSwitch, viewFromHash } from './ui/view-switch.js';
import { showStartFailure } from './ui/dom/dom.js';

const root = document.getElementById('app');
const tools = document.getElementById('display-tools');
let current = null;
let shown = null;
let seq = 0;

const skip = document.querySelector('.skip-link');
const SKIP = {
  explorer: [skip?.getAttribute('href'), skip?.textContent], train: ['#training-heads', 'Skip to the heads'],
  embed: ['#builder-title', 'Skip to the embed builder'],
};

// The embed builder: a lesson and its options, a live embedded preview, the snippets to copy.
async function mountBuilder() {
  const { mountEmbedBuilder } = await import('./ui/embed-builder/embed-builder.js');
  const at = (file) => new URL(file, window.location.href).href;
  const handle = mountEmbedBuilder(root, { embed: at('embed.html'), element: at('attention-explorer.js') });
  root.dataset.ready = 'true';
  root.setAttribute('aria-busy', 'false');
  return handle;
}

async function show(view, extra = {}) {
  if (!view || (view === shown && !extra.force)) return;
  if (skip) {
    skip.setAttribute('href', SKIP[view][0]);
    skip.textContent = SKIP[view][1];
  }
  const mine = ++seq;
  shown = view;
  viewSwitch.select(view);
  current?.destroy();
  current = null;
  root.replaceChildren();
  delete root.dataset.ready;
  root.setAttribute('aria-busy', 'true');
  try {
    let handle;
    if (view === 'train') handle = await (await import('./ui/training/training.js')).mountTrainingPage(root, { onOpenHead: (head) => openHead(head) });
    else if (view === 'embed') handle = await mountBuilder();
    else handle = await mountExplorer(root, { toolbarHost: tools, documentTheme: true, syncUrl: true, startHere: true, ...extra.options });
    if (mine !== seq) handle.destroy();
    else current = handle;
  } catch (err) {
    if (mine === seq) showStartFailure(root, err);
  }
}

// "Open in the explorer": the head's weights and the probe's inputs become the explorer's example.
async function openHead(head) {
  const { headState } = await import('./ui/model/model.js');
  // A checkpoint's head comes as the explorer state itself (web/ui/checkpoint/).
  const state = head.explorerState ?? await headState(head);
  history.pushState(null, '', '#');
  await show('explorer', { force: true, options: { state, syncUrl: true } });
}

const viewSwitch = createViewSwitch();
document.querySelector('.site-header .brand')?.after(viewSwitch.el);

// On a phone the theme, sharing and export tools fold behind one button, so the first screen
// holds the explorer rather than its tools.
const toolsToggle = document.createElement('button');
toolsToggle.type = 'button';
toolsToggle.className = 'small-button tools-toggle';
toolsToggle.textContent = 'Tools';
toolsToggle.setAttribute('aria-label', 'Theme, sharing and export tools');
toolsToggle.setAttribute('aria-controls', 'display-tools');
toolsToggle.setAttribute('aria-expanded', 'false');
toolsToggle.addEventListener('click', () => {
  const open = tools.classList.toggle('open');
  toolsToggle.setAttribute('aria-expanded', String(open));
});
viewSwitch.el.after(toolsToggle);
window.addEventListener('hashchange', () => show(viewFromHash(window.location.hash)));
show(viewFromHash(window.location.hash) ?? 'explorer');
