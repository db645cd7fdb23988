// scripts/bundle.mjs builds dist/ the same from any working directory: the e2e helpers call
// ensureSite() from wherever node --test was started (tests/e2e/, a tool's own folder), and the
// bundler finds each page's output in esbuild's metafile, whose paths are relative to esbuild's
// working directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const BUNDLE = new URL('../../scripts/bundle.mjs', import.meta.url).href;

test('the site builds when the process runs in another folder than the repository', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'attn-bundle-'));
  try {
    const out = join(dir, 'site');
    const script =
      `const { bundleSite } = await import(${JSON.stringify(BUNDLE)});\n` +
      `const { pages } = await bundleSite({ force: true, out: ${JSON.stringify(out)} });\n` +
      'console.log(JSON.stringify(pages));\n';
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir,
    });
    const pages = JSON.parse(stdout);
    assert.deepEqual(Object.keys(pages).sort(), ['app', 'element', 'embed']);
    const html = await readFile(join(out, 'index.html'), 'utf8');
    assert.ok(html.includes(`<script type="module" src="${pages.app.file}">`), 'index.html loads its bundle');
    assert.ok(existsSync(join(out, pages.app.file)), `${pages.app.file} was written`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
