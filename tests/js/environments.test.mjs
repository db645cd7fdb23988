// Where the package must load, and what it says when it cannot: Node with a global `window` (as
// Jest's jsdom environment makes it), Node without WebAssembly (--jitless), the element module
// imported in plain Node (it must do nothing and let the process exit), missing build files, and
// HTTP answers that are not the file (status, content type, Vite's pre-bundling). Also the
// embedded page's message-version rule.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { explainFailure, readWasm } from '../../web/lib/load-module.js';
import { versionError } from '../../web/embed-protocol.js';

const LIB = new URL('../../web/lib/', import.meta.url);
const ELEMENT = new URL('../../web/attention-explorer.js', import.meta.url);

// Runs an ES module snippet in a fresh Node; resolves { code, stdout, stderr } (code null = killed).
function runNode(source, flags = [], timeout = 30000) {
  return new Promise((resolve) => {
    execFile(process.execPath, [...flags, '--input-type=module', '-e', source], { timeout }, (err, stdout, stderr) => {
      resolve({ code: err ? (err.killed ? null : err.code) : 0, stdout, stderr });
    });
  });
}

describe('where the package loads', () => {
  test('Node with a global window (Jest jsdom, happy-dom) still reads the .wasm from disk', async () => {
    const r = await runNode(`globalThis.window = globalThis; globalThis.document = {};
      const { createAttention } = await import(${JSON.stringify(new URL('attention.js', LIB).href)});
      const attn = await createAttention();
      console.log(attn.scaledDotProductAttention([[1, 0]], [[1, 0]], [[2, 3]]).output.data.join(','));`);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), '2,3');
  });

  test('without WebAssembly (node --jitless) createAttention rejects saying what is missing and why', async () => {
    const r = await runNode(
      `const { createAttention } = await import(${JSON.stringify(new URL('attention.js', LIB).href)});
      try { await createAttention(); console.log('loaded'); } catch (e) { console.log(e.constructor.name + ': ' + e.message); }`,
      ['--jitless'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Error: WebAssembly is not available in this JavaScript engine/);
    assert.match(r.stdout, /--jitless/);
  });

  test('importing the element module in plain Node defines nothing, starts nothing and exits', async () => {
    const r = await runNode(
      `const m = await import(${JSON.stringify(ELEMENT.href)});
      console.log(typeof m.AttentionExplorerElement);`,
      [],
      20000,
    );
    assert.notEqual(r.code, null, 'the process did not exit (something keeps the event loop alive)');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'function');
  });
});

describe('load failures name their cause', () => {
  let dir;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'attn-lib-'));
    for (const name of await readdir(LIB)) if (name.endsWith('.js')) await cp(new URL(name, LIB), join(dir, name));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('a copy of the library without its wasm/ folder says the file is missing and how to build it', async () => {
    const { createAttention } = await import(pathToFileURL(join(dir, 'attention.js')).href);
    await assert.rejects(
      createAttention({ simd: false }),
      /could not load the scalar WebAssembly build's loader .*attention-scalar\.mjs: the file is missing \(run "npm run build"/,
    );
    await cp(fileURLToPath(new URL('wasm/attention-scalar.mjs', LIB)), join(dir, 'wasm', 'attention-scalar.mjs'));
    await assert.rejects(
      createAttention({ simd: false }),
      /the WebAssembly file .*attention-scalar\.wasm is missing \(run "npm run build"/,
    );
  });

  describe('over HTTP', () => {
    let server, base;
    const wasm = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
    before(async () => {
      server = createServer((req, res) => {
        const routes = {
          '/ok.wasm': [200, 'application/octet-stream', wasm],
          '/page.wasm': [200, 'text/html; charset=utf-8', '<!doctype html><p>app</p>'],
          '/broken.wasm': [500, 'text/plain', 'oops'],
          '/loader.mjs': [200, 'text/html', '<!doctype html>'],
          '/script.mjs': [200, 'text/javascript', 'export default 1'],
        };
        const [status, type, body] = routes[req.url] ?? [404, 'text/plain', 'not found'];
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${server.address().port}`;
    });
    after(() => server.close());

    test('a missing .wasm gives the URL and HTTP 404, with the build hint', async () => {
      await assert.rejects(
        readWasm(new URL(`${base}/gone.wasm`)),
        (err) => err.message.includes(`${base}/gone.wasm`) && /HTTP 404.*npm run build/.test(err.message),
      );
    });

    test('a server error gives the status and no build hint', async () => {
      await assert.rejects(
        readWasm(new URL(`${base}/broken.wasm`)),
        (err) => /HTTP 500/.test(err.message) && !/npm run build/.test(err.message),
      );
    });

    test('an HTML page where the .wasm should be names the content type, not the build', async () => {
      await assert.rejects(
        readWasm(new URL(`${base}/page.wasm`)),
        (err) =>
          /page\.wasm is not a WebAssembly file: the server answered with text\/html/.test(err.message) &&
          !/npm run build/.test(err.message),
      );
    });

    test('a .wasm served with a generic content type is accepted by its bytes', async () => {
      assert.deepEqual(await readWasm(new URL(`${base}/ok.wasm`)), wasm);
    });

    test("a loader served as HTML, or moved by Vite's pre-bundling, is explained", async () => {
      const html = await explainFailure(
        new URL(`${base}/loader.mjs`),
        'javascript',
        new TypeError('Failed to fetch dynamically imported module'),
      );
      assert.match(html, /answered with text\/html, but a module script must be served as text\/javascript/);
      const vite = await explainFailure(
        new URL(`${base}/node_modules/.vite/deps/wasm/attention-simd.mjs`),
        'javascript',
        new TypeError('x'),
      );
      assert.match(vite, /HTTP 404.*optimizeDeps: \{ exclude: \['attention-explorer'\] \}/);
      assert.doesNotMatch(vite, /npm run build/);
      const thrown = await explainFailure(
        new URL(`${base}/script.mjs`),
        'javascript',
        new SyntaxError('Unexpected token'),
      );
      assert.equal(thrown, 'Unexpected token');
    });
  });
});

describe('embedded page messages', () => {
  test('version 1 (the number) is accepted; other values get a correct reason', () => {
    assert.equal(versionError(1), null);
    assert.match(versionError('1'), /version "1" is a string: send the number 1/);
    assert.match(versionError(2), /^unsupported message version 2 \(this page speaks version 1, a number\)$/);
    assert.match(versionError(undefined), /no version: add version: 1/);
    assert.match(versionError({}), /unsupported message version of type object/);
    assert.doesNotMatch(versionError('1'), /unsupported message version 1 \(this page speaks version 1/);
  });
});
