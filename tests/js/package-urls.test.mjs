// The share controls' URLs: served as the package ships (npm start, a static host, Vite's dev
// server on node_modules) the page, the iframe page and the element module sit next to web/ui/; bundled into an
// app's chunk they do not exist, and no URL is made up for them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOST_PLACEHOLDER, NO_PAGE_MESSAGE, packageUrls } from '../../web/ui/model/package-urls.js';
import { embedSnippet } from '../../web/ui/share.js';

test('as shipped, the page and the element are next to web/ui/', () => {
  assert.deepEqual(packageUrls('https://lessons.example/explorer/ui/explorer.js'), {
    page: 'https://lessons.example/explorer/index.html',
    embed: 'https://lessons.example/explorer/embed.html',
    element: 'https://lessons.example/explorer/attention-explorer.js',
  });
  // Vite's dev server adds a version query to modules it serves from node_modules.
  assert.deepEqual(packageUrls('http://localhost:5173/node_modules/attention-explorer/web/ui/explorer.js?v=3f2a1b'), {
    page: 'http://localhost:5173/node_modules/attention-explorer/web/index.html',
    embed: 'http://localhost:5173/node_modules/attention-explorer/web/embed.html',
    element: 'http://localhost:5173/node_modules/attention-explorer/web/attention-explorer.js',
  });
});

test('bundled into a chunk, there is no page, iframe page or element to point at', () => {
  for (const chunk of [
    'http://localhost:4173/assets/index-BvX1c2.js',
    'https://app.example/static/js/main.8a7b.js',
    'not a url',
  ])
    assert.deepEqual(packageUrls(chunk), { page: null, embed: null, element: null }, chunk);
  assert.match(NO_PAGE_MESSAGE, /host attention-explorer's web\/ folder.*link-base/);
  const snippet = embedSnippet(`${HOST_PLACEHOLDER}attention-explorer.js`, 'v1.abc');
  assert.match(snippet, /src="https:\/\/YOUR-HOST\/attention-explorer\/web\/attention-explorer\.js"/);
});
