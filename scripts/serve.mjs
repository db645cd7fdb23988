// Static server for web/ with the strict Content-Security-Policy lesson platforms use, so the page
// is always tried under the rules it must live with. `node scripts/serve.mjs [port]` prints its URL;
// tests import startServer() and get a free port.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
const WEB_ROOT = resolve(fileURLToPath(new URL('../web/', import.meta.url)));
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.ts': 'text/plain; charset=utf-8', '.md': 'text/plain; charset=utf-8',
};

async function resolveFile(root, urlPath) {
  const rel = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '');
  const file = resolve(root, rel);
  if (file !== root && !file.startsWith(root + sep)) return null;  // no escaping the root
  const info = await stat(file).catch(() => null);
  if (!info) return null;
  return info.isDirectory() ? resolveFile(root, join(rel, 'index.html')) : file;
}

export function startServer({ root = WEB_ROOT, port = 0, host = '127.0.0.1', csp = STRICT_CSP } = {}) {
  const server = createServer(async (req, res) => {
    try {
      const file = await resolveFile(root, new URL(req.url, 'http://x').pathname);
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': csp,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-cache',
      });
      res.end(body);
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      ok({ server, url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${actual}/`,
           close: () => new Promise((done) => server.close(done)) });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const wanted = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  const host = process.env.HOST ?? '127.0.0.1';
  // A busy port (another server, an earlier npm start) moves on to the next few.
  for (let port = wanted; ; port++) {
    try {
      const { url } = await startServer({ port, host });
      console.log(`attention-explorer is being served at ${url}  (Ctrl+C to stop)`);
      break;
    } catch (err) {
      if (err.code !== 'EADDRINUSE' || port >= wanted + 20) throw err;
    }
  }
}
