// The Export menu's panel: the matrix or panel to save, the formats, the scripts, and what a save
// said. It loads after the first drawing with the files' code it drives (export-files.js) and its
// English text (export.js loadMenu), so the first heatmap waits for neither; the script writers
// (code-export.js) load when a script is first asked for.
import { el } from '../dom/dom.js';
import { scopeIds } from '../scope-ids.js';
import * as files from './export-files.js';

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

// The matrices and panels offered: none that a predict question covers (withheld(matrix), or
// null), for a file of it would be a copy of the answer; a panel keeps its other matrices.
function offered({ matrices, panels }, withheld) {
  if (!withheld) return { matrices, panels };
  const open = (m) => !withheld(m);
  return {
    matrices: matrices.filter(open),
    panels: panels.map((p) => ({ ...p, items: p.items.filter(open) })).filter((p) => p.items.length),
  };
}

// The chosen matrices or panel written as `format`; returns the file's name.
async function write(format, { id, current, view, root }) {
  const { state, display, pitfall = null } = view;
  const { download, toCsv, toJsonObject, prettyJson, scene, sceneToSvg, sceneToPng } = files;
  if (format === 'numpy' || format === 'pytorch') {
    // With the pitfalls panel open, the script also computes its "with the mistake" side.
    const { numpyCode, torchCode } = await import('./code-export.js');
    const text = (format === 'numpy' ? numpyCode : torchCode)(state, { pitfall });
    const file = format === 'numpy' ? 'attention_numpy.py' : 'attention_pytorch.py';
    download(new Blob([text], { type: 'text/x-python' }), file, root);
    return file;
  }
  const panelDef = current.panels.find((p) => p.id === id);
  const items = panelDef ? panelDef.items : current.matrices.filter((m) => m.id === id);
  if (!items.length) return null;
  const name = `attention-${id.replace(/[^a-z0-9-]/gi, '_')}`;
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
  return `${name}.${format}`;
}

/**
 * Builds the panel into `root` (the menu's <details>, `summary` its button), its ids scoped with
 * `idPrefix` as the rest of the explorer's are. getView(): as createExportControls's (export.js).
 * Returns { render() }, which keeps the list of matrices current while the menu is open.
 */
export function createExportMenu({ root, summary, getView, i18n, idPrefix }) {
  const { t } = i18n;
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
  scopeIds(panel, root.getRootNode(), idPrefix);
  root.append(panel);

  let key = '';
  let current = { matrices: [], panels: [] };

  // The list of matrices and panels.
  function refresh() {
    const { state, result, withheld } = getView();
    current = offered(files.catalogue(state, result), withheld);
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
    csv.disabled = pick.value.startsWith('panel-');
  }

  async function save(format) {
    try {
      refresh();
      const file = await write(format, { id: pick.value, current, view: getView(), root });
      if (!file) throw new Error(t('explorer.export.nothing'));
      out.textContent = t('explorer.export.saved', { file });
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
  const toggled = () => {
    if (root.open) {
      refresh();
      keepInView(panel);
      document.addEventListener('pointerdown', outside);
    } else {
      document.removeEventListener('pointerdown', outside);
    }
  };
  root.addEventListener('toggle', toggled);
  root.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !root.open) return;
    e.preventDefault();
    root.open = false;
    summary.focus();
  });
  if (root.open) toggled(); // opened while this module was loading

  return {
    render() {
      if (root.open) refresh();
    },
  };
}
