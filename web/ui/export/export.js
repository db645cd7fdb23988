// Export the current view: any matrix or heatmap as PNG, SVG, CSV or JSON, a whole panel as PNG,
// SVG or JSON, and the example as a NumPy or PyTorch script. This module is the menu; what it
// writes (export-files.js) and the script writers (code-export.js) load on first use, so the first
// heatmap does not wait for them: the files' code when the menu is first opened or the browser is
// idle after the first drawing, the script writers when a script is asked for.
import { english } from '../model/model.js';
import { browserIdle, el, loadOnce } from '../dom/dom.js';

// One import for the page, shared by every explorer on it; a failed load is tried again next time.
const loadFiles = loadOnce(() => import('./export-files.js'));

// ---- the control ------------------------------------------------------------------------------

// The panel hangs from the Export button. Near the right edge of the window it would widen the page,
// and the click that closes it would then land where the page scrolls back from: shift it left.
function keepInView(panel) {
  panel.style.left = '';
  const overflow = panel.getBoundingClientRect().right - document.documentElement.clientWidth;
  if (overflow > 0) panel.style.left = `${-Math.ceil(overflow) - 8}px`;
}

// The menu's two groups of buttons: image and number formats, and the whole example as code.
function menuButtons(t) {
  const buttons = el('div', 'export-buttons');
  buttons.setAttribute('role', 'group');
  buttons.setAttribute('aria-label', t('explorer.export.saveAs'));
  const make = (format, text, title, name = false) => {
    const b = el('button', 'small-button', text);
    b.translate = !name; // a file format's name is not translated
    b.type = 'button';
    b.dataset.export = format;
    b.title = title;
    return b;
  };
  const png = make('png', 'PNG', t('explorer.export.png'), true);
  const svg = make('svg', 'SVG', t('explorer.export.svg'), true);
  const csv = make('csv', 'CSV', t('explorer.export.csv'), true);
  const json = make('json', 'JSON', t('explorer.export.json'), true);
  buttons.append(png, svg, csv, json);
  const code = el('div', 'export-buttons');
  code.setAttribute('role', 'group');
  code.setAttribute('aria-label', t('explorer.export.code'));
  const numpy = make('numpy', t('explorer.export.numpy'), t('explorer.export.numpyTitle'));
  const torch = make('pytorch', t('explorer.export.pytorch'), t('explorer.export.pytorchTitle'));
  code.append(numpy, torch);
  return { buttons, code, png, svg, csv, json, numpy, torch };
}

/**
 * getView() -> { state, result, display, pitfall } (pitfall: the mistake the open pitfalls panel
 * shows, or null). The control lives in the explorer's toolbar.
 */
export function createExportControls({ getView, i18n = english }) {
  const { t } = i18n;
  const root = el('details', 'export-menu');
  const summary = el('summary', 'small-button', t('explorer.export.menu'));
  const panel = el('div', 'export-panel');
  const pick = el('select');
  pick.id = 'export-target';
  const pickLabel = el('label', '', t('explorer.export.pick'));
  pickLabel.htmlFor = pick.id;
  const { buttons, code, png, svg, csv, json, numpy, torch } = menuButtons(t);
  const out = el('output', 'share-status');
  out.setAttribute('aria-live', 'polite');
  const field = el('div', 'field');
  field.append(pickLabel, pick);
  panel.append(field, buttons, el('p', 'help', t('explorer.export.script')), code, out);
  root.append(summary, panel);

  let key = '';
  let current = { matrices: [], panels: [] };
  let files = null; // export-files.js, once loaded
  let prefetch = true;

  // The list of matrices and panels, once the files' code is there.
  function refresh() {
    if (!files) return;
    const { state, result } = getView();
    current = files.catalogue(state, result);
    const entries = [...current.matrices.map((m) => [m.id, m.title]), ...current.panels.map((p) => [p.id, p.title])];
    const next = entries.map(([id, title]) => `${id}\u0000${title}`).join('\u0001');
    if (next !== key) {
      key = next;
      const chosen = pick.value || 'weights';
      pick.replaceChildren(
        ...entries.map(([id, title]) => {
          const named = i18n.has(`explorer.export.title.${id}`) ? t(`explorer.export.title.${id}`) : title;
          const o = el(
            'option',
            '',
            id.startsWith('panel-') ? named : t('explorer.export.option', { title: named, id }),
          );
          o.value = id;
          return o;
        }),
      );
      pick.value = entries.some(([id]) => id === chosen) ? chosen : (entries[0]?.[0] ?? '');
    }
    const isPanel = pick.value.startsWith('panel-');
    csv.disabled = isPanel;
  }

  const slug = (id) => `attention-${id.replace(/[^a-z0-9-]/gi, '_')}`;

  async function save(format) {
    try {
      files = await loadFiles();
      refresh();
      const { state, display, pitfall = null } = getView();
      const id = pick.value;
      const panelDef = current.panels.find((p) => p.id === id);
      const items = panelDef ? panelDef.items : current.matrices.filter((m) => m.id === id);
      const { download, toCsv, toJsonObject, prettyJson, scene, sceneToSvg, sceneToPng } = files;
      if (format === 'numpy' || format === 'pytorch') {
        // With the pitfalls panel open, the script also computes its "with the mistake" side.
        // (The script writers load when first asked for: they are not needed to draw the page.)
        const { numpyCode, torchCode } = await import('./code-export.js');
        const text = (format === 'numpy' ? numpyCode : torchCode)(state, { pitfall });
        download(
          new Blob([text], { type: 'text/x-python' }),
          format === 'numpy' ? 'attention_numpy.py' : 'attention_pytorch.py',
          root,
        );
        out.textContent = t('explorer.export.saved', {
          file: format === 'numpy' ? 'attention_numpy.py' : 'attention_pytorch.py',
        });
        return;
      }
      if (!items.length) throw new Error(t('explorer.export.nothing'));
      const name = slug(id);
      if (format === 'csv') {
        download(new Blob([toCsv(items[0])], { type: 'text/csv' }), `${name}.csv`, root);
      } else if (format === 'json') {
        const body = panelDef ? { panel: panelDef.title, matrices: items.map(toJsonObject) } : toJsonObject(items[0]);
        download(new Blob([`${prettyJson(body)}\n`], { type: 'application/json' }), `${name}.json`, root);
      } else {
        const sc = scene(items, display, panelDef ? panelDef.title : '');
        if (format === 'svg') {
          const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(sceneToSvg(sc, panelDef ? panelDef.title : items[0].title))}\n`;
          download(new Blob([text], { type: 'image/svg+xml' }), `${name}.svg`, root);
        } else {
          download(await sceneToPng(sc), `${name}.png`, root);
        }
      }
      out.textContent = t('explorer.export.saved', { file: `${name}.${format}` });
    } catch (err) {
      out.textContent = t('explorer.export.failed', { reason: err.message });
    }
  }

  for (const b of [png, svg, csv, json, numpy, torch]) b.addEventListener('click', () => save(b.dataset.export));
  pick.addEventListener('change', refresh);
  // A menu: Escape or a click elsewhere closes it (composedPath sees through a shadow root).
  const outside = (e) => {
    if (!e.composedPath().includes(root)) root.open = false;
  };
  root.addEventListener('toggle', () => {
    if (root.open) {
      if (files) refresh();
      else {
        loadFiles().then(
          (m) => {
            files = m;
            if (root.open) refresh();
          },
          (err) => {
            out.textContent = t('explorer.export.loadFailed', { reason: err.message });
          },
        );
      }
      keepInView(panel);
      document.addEventListener('pointerdown', outside);
    } else {
      document.removeEventListener('pointerdown', outside);
    }
  });
  root.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !root.open) return;
    e.preventDefault();
    root.open = false;
    summary.focus();
  });

  return {
    el: root,
    /**
     * Keeps the list of matrices current while the menu is open. The first call (the explorer's
     * first drawing) schedules the files' code for the browser's next idle time.
     */
    render() {
      if (prefetch) {
        prefetch = false;
        browserIdle().then(() =>
          loadFiles().then(
            (m) => {
              files = m;
            },
            () => {},
          ),
        );
      }
      if (root.open) refresh();
    },
    save,
  };
}
