// Entry module of the stand-alone page: mounts the explorer into <main id="app">, with the theme
// and palette tools in the page header.
import { mountExplorer } from './ui/explorer.js';

const root = document.getElementById('app');
mountExplorer(root, {
  toolbarHost: document.getElementById('display-tools'),
  documentTheme: true,
  syncUrl: true,
}).catch((err) => {
  if (root.dataset.ready || root.querySelector(':scope > .status.error')) return;
  const status = document.createElement('p');
  status.className = 'status error';
  status.setAttribute('role', 'status');
  status.textContent = `The explorer could not start: ${err.message}`;
  root.append(status);
  root.setAttribute('aria-busy', 'false');
});
