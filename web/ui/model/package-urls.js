// Where the stand-alone page, the iframe page and the element module are. Served as the package ships them
// (web/ui/explorer.js next to web/index.html and web/attention-explorer.js: npm start, a static
// host, node_modules/attention-explorer/web), both sit next to this folder. A bundler (Vite,
// webpack) folds the modules into chunks of its own, where neither file exists: then all are
// null, and the share controls ask for a link-base and say where to host the explorer instead of
// copying links that lead nowhere.
export const HOST_PLACEHOLDER = 'https://YOUR-HOST/attention-explorer/web/';

export function packageUrls(moduleUrl) {
  let path = '';
  try {
    path = new URL(moduleUrl).pathname;
  } catch {
    // not a URL: treated as bundled
  }
  if (!path.endsWith('/ui/explorer.js')) return { page: null, embed: null, element: null };
  // Built from a variable, so a bundler does not copy these files as loose assets.
  const base = new URL('../', moduleUrl);
  const at = (file) => new URL(file, base).href;
  return { page: at('index.html'), embed: at('embed.html'), element: at('attention-explorer.js') };
}

export const NO_PAGE_MESSAGE =
  'This app bundles the explorer without its stand-alone page, so there is no page to ' +
  "link to: host attention-explorer's web/ folder (the output of npm run build, or " +
  'node_modules/attention-explorer/web) and give its index.html as link-base.';
