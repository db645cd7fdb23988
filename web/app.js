// Entry module of the stand-alone page: mounts the explorer into <main id="app">, with the theme
// and palette tools in the page header, or the training view when the address says #view=train
// (a switch in the header goes between them).
import { mountExplorer } from './ui/explorer.js';
import { createViewSwitch, viewFromHash } from './ui/view-switch.js';
import { markLanguage, showStartFailure, translateStatic, widgetTranslator } from './ui/dom/dom.js';

const root = document.getElementById('app');
const tools = document.getElementById('display-tools');
let current = null;
let shown = null;
let seq = 0;

// One translator for the whole page (?lang=, else the browser's languages): the header, the
// switch and every view share it.
let i18n = null;
const skip = document.querySelector('.skip-link');
const SKIP = {
  explorer: [skip?.getAttribute('href'), 'explorer.page.skipSteps'],
  train: ['#training-heads', 'explorer.page.skipHeads'],
  embed: ['#builder-title', 'explorer.page.skipBuilder'],
};

// The embed builder: a lesson and its options, a live embedded preview, the snippets to copy.
async function mountBuilder() {
  const { mountEmbedBuilder } = await import('./ui/embed-builder/embed-builder.js');
  const at = (file) => new URL(file, window.location.href).href;
  const handle = await mountEmbedBuilder(root, { embed: at('embed.html'), element: at('attention-explorer.js'), i18n });
  root.dataset.ready = 'true';
  root.setAttribute('aria-busy', 'false');
  return handle;
}

async function show(view, extra = {}) {
  if (!view || (view === shown && !extra.force)) return;
  if (skip) {
    skip.setAttribute('href', SKIP[view][0]);
    skip.textContent = i18n.t(SKIP[view][1]);
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
    if (view === 'train')
      handle = await (
        await import('./ui/training/training.js')
      ).mountTrainingPage(root, { onOpenHead: (head) => openHead(head), i18n });
    else if (view === 'embed') handle = await mountBuilder();
    else
      handle = await mountExplorer(root, {
        toolbarHost: tools,
        documentTheme: true,
        syncUrl: true,
        startHere: true,
        i18n,
        ...extra.options,
      });
    if (mine !== seq) handle.destroy();
    else current = handle;
  } catch (err) {
    if (mine === seq) showStartFailure(root, err, i18n);
  }
}

// "Open in the explorer": the head's weights and the probe's inputs become the explorer's example.
async function openHead(head) {
  const { headState } = await import('./ui/model/model.js');
  // A checkpoint's head comes as the explorer state itself (web/ui/checkpoint/).
  const state = head.explorerState ?? (await headState(head));
  history.pushState(null, '', '#');
  await show('explorer', { force: true, options: { state, syncUrl: true } });
}

let viewSwitch = null;

// On a phone the theme, sharing and export tools fold behind one button, so the first screen
// holds the explorer rather than its tools.
function toolsButton({ t }) {
  const toolsToggle = document.createElement('button');
  toolsToggle.type = 'button';
  toolsToggle.className = 'small-button tools-toggle';
  toolsToggle.textContent = t('explorer.page.tools');
  toolsToggle.setAttribute('aria-label', t('explorer.page.toolsLabel'));
  toolsToggle.setAttribute('aria-controls', 'display-tools');
  toolsToggle.setAttribute('aria-expanded', 'false');
  toolsToggle.addEventListener('click', () => {
    const open = tools.classList.toggle('open');
    toolsToggle.setAttribute('aria-expanded', String(open));
  });
  return toolsToggle;
}

async function start() {
  try {
    i18n = await widgetTranslator();
  } catch (err) {
    i18n = (await import('./ui/model/model.js')).english;
    console.error(err);
  }
  markLanguage(document.documentElement, i18n);
  translateStatic(document.documentElement, i18n);
  viewSwitch = createViewSwitch(i18n);
  document.querySelector('.site-header .brand')?.after(viewSwitch.el);
  viewSwitch.el.after(toolsButton(i18n));
  window.addEventListener('hashchange', () => show(viewFromHash(window.location.hash)));
  show(viewFromHash(window.location.hash) ?? 'explorer');
}
start();
