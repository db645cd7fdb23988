// Runs a ```js example of the README (or of a page of docs/) as written, as a file at the
// repository root (where the package resolves by its own name through package.json "exports"),
// and returns what it prints.
import assert from 'node:assert/strict';
import { readFile, writeFile, rm } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const root = new URL('../../../', import.meta.url);

/** The first ```js block after the heading `section` (from the top when it is null) of `doc`. */
export async function runReadmeExample(section, fileName, doc = 'README.md') {
  const readme = await readFile(new URL(doc, root), 'utf8');
  const from = section === null ? 0 : readme.indexOf(section);
  assert.ok(from >= 0, `${doc} has a section "${section}"`);
  const example = readme.slice(from).match(/```js\n([\s\S]*?)```/)?.[1];
  assert.ok(example, `${doc}${section === null ? '' : ` section "${section}"`} has a \`\`\`js example`);
  const file = new URL(fileName, root);
  await writeFile(file, example);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [file.pathname], { cwd: root.pathname });
    return stdout;
  } finally {
    await rm(file, { force: true });
  }
}
