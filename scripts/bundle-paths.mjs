// Paths and settings shared by scripts/bundle.mjs (dist/) and scripts/bundle-single.mjs (the
// single file), apart so that each can import them while the other runs as the main module.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../', import.meta.url)));
export const WEB = join(ROOT, 'web');
export const DIST = join(ROOT, 'dist');
// The oldest syntax the page already uses (private class fields, ??=, optional chaining).
export const TARGET = ['es2022'];
