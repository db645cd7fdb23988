// Reads every stylesheet of the page with esbuild's CSS parser and fails on anything it warns
// about (an unclosed block, for one, silently nests every later rule inside a media query).
import { readdirSync, readFileSync } from 'node:fs';
import { transformSync } from 'esbuild';

const SHEETS = readdirSync('web', { recursive: true })
  .filter((f) => f.endsWith('.css'))
  .map((f) => `web/${f}`);
let failed = 0;
for (const file of SHEETS) {
  const { warnings } = transformSync(readFileSync(file, 'utf8'), { loader: 'css', sourcefile: file });
  for (const w of warnings) {
    failed++;
    console.error(`${file}:${w.location?.line ?? '?'}: ${w.text}`);
  }
}
if (failed) process.exit(1);
console.log(`${SHEETS.length} stylesheets parse cleanly`);
