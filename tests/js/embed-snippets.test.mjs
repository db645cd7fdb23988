// The embed builder's snippets (web/ui/embed-builder/embed-snippets.js), in Node: the element's attributes
// and the iframe address's fields are the same settings, defaults are left out, and a teacher's
// text cannot break out of an attribute.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elementSnippet, embedAddress, embedFields, iframeSnippet } from '../../web/ui/embed-builder/embed-snippets.js';

const ELEMENT = 'https://explorer.example/attention-explorer.js';
const EMBED = 'https://explorer.example/embed.html';

test('a lesson’s defaults are left out; every other setting is written, in a fixed order', () => {
  assert.deepEqual(embedFields({ lesson: 'weights' }), [['lesson', 'weights']]);
  assert.deepEqual(embedFields({ lesson: 'weights', controls: 'minimal', theme: 'auto', lang: '' }), [
    ['lesson', 'weights'],
  ]);
  assert.deepEqual(embedFields({}), [], 'the whole explorer with its defaults');
  assert.deepEqual(
    embedFields({ lesson: 'weights', lang: 'en' }),
    [
      ['lesson', 'weights'],
      ['lang', 'en'],
    ],
    'a chosen language is written, English too (without it the reader’s browser decides)',
  );
  assert.deepEqual(embedFields({ lang: 'de' }), [['lang', 'de']]);
  assert.deepEqual(embedFields({ controls: 'full' }), [], 'full is the whole explorer’s default');
  assert.deepEqual(
    embedFields({
      lesson: 'pitfalls',
      controls: 'none',
      readOnly: true,
      reveal: true,
      theme: 'dark',
      start: { q: ' 1 0; 0 1 ', k: '', mask: 'causal' },
    }),
    [
      ['lesson', 'pitfalls'],
      ['controls', 'none'],
      ['readonly', true],
      ['reveal', 'predict'],
      ['theme', 'dark'],
      ['q', '1 0; 0 1'],
      ['mask', 'causal'],
    ],
  );
});

test('the element snippet: the module script and the element with its attributes', () => {
  assert.equal(
    elementSnippet(ELEMENT, { lesson: 'softmax-row', readOnly: true, reveal: true }),
    `<script type="module" src="${ELEMENT}"></script>\n<attention-explorer lesson="softmax-row" readonly reveal="predict"></attention-explorer>`,
  );
});

test('hostile text stays inside its attribute and its address field', () => {
  const start = { sentence: '"><script>alert(1)</script>', mask: '[[0, 1]] & <b>' };
  const element = elementSnippet(ELEMENT, { lesson: 'scores', start });
  assert.ok(!element.includes('<script>alert'), element);
  assert.match(element, /sentence="&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;"/);
  assert.match(element, /mask="\[\[0, 1\]\] &amp; &lt;b&gt;"/);
  const address = new URL(embedAddress(EMBED, { lesson: 'scores', start }));
  assert.equal(address.searchParams.get('sentence'), start.sentence);
  assert.equal(address.searchParams.get('mask'), start.mask);
  const frame = iframeSnippet(EMBED, { lesson: 'scores', start }, { height: 612.4, title: 'A "lesson"' });
  assert.ok(!frame.includes('<script>'), frame);
  assert.match(frame, /title="A &quot;lesson&quot;" width="100%" height="612"/);
});

test('the iframe address holds the same settings the element does', () => {
  const options = { lesson: 'induction', controls: 'full', readOnly: true, reveal: true };
  const params = new URL(embedAddress(EMBED, options)).searchParams;
  assert.deepEqual(
    [...params],
    embedFields(options).map(([k, v]) => [k, v === true ? '' : v]),
  );
  assert.match(iframeSnippet(EMBED, options, { height: 80 }), /height="200"/, 'never a frame too small to see');
});
