// Entry module of the stand-alone page: mounts the explorer into <main id="app">, with the theme
// and palette tools in the page header.
import { mountExplorer } from './ui/explorer.js';
import { showStartFailure } from './ui/notice.js';

const root = document.getElementById('app');
mountExplorer(root, {
  toolbarHost: document.getElementById('display-tools'),
  documentTheme: true,
  syncUrl: true,
}).catch((err) => showStartFailure(root, err));
