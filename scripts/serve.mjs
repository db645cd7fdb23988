// Static server with the strict Content-Security-Policy lesson platforms use, so the page is always
// tried under the rules it must live with. It serves the production site, dist/ (npm run build
// bundles web/ into it), or with SERVE=web the unbundled source, web/ (npm run start:dev).
// `node scripts/serve.mjs [port]` prints its URL; tests import startServer() and get a free port.
// Responses carry an ETag, so a page that embeds the explorer three times revalidates its files
// instead of downloading them three times.
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
export const WEB_ROOT = resolve(fileURLToPath(new URL('../web/', import.meta.url)));
export const DIST_ROOT = resolve(fileURLToPath(new URL('../dist/', import.meta.url)));
/** The folder served when none is given: dist/, or web/ when the SERVE variable says web. */
export const DEFAULT_ROOT = process.env.SERVE === 'web' ? WEB_ROOT : DIST_ROOT;
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ts': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

function notFound(root) {
  return root === DIST_ROOT ? 'not found (dist/ is the production site: "npm run build" makes it)' : 'not found';
}

async function resolveFile(root, urlPath) {
  const rel = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '');
  const file = resolve(root, rel);
  if (file !== root && !file.startsWith(root + sep)) return null; // no escaping the root
  const info = await stat(file).catch(() => null);
  if (!info) return null;
  return info.isDirectory() ? resolveFile(root, join(rel, 'index.html')) : file;
}

/**
 * Serves `root` (default DEFAULT_ROOT). csp: the Content-Security-Policy header (null: none);
 * cors: also send Access-Control-Allow-Origin: * (what a sandboxed frame's module scripts need).
 */
export function startServer({
  root = DEFAULT_ROOT,
  port = 0,
  host = '127.0.0.1',
  csp = STRICT_CSP,
  cors = false,
} = {}) {
  const server = createServer(async (req, res) => {
    try {
      const file = await resolveFile(root, new URL(req.url, 'http://x').pathname);
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(notFound(root));
        return;
      }
      const body = await readFile(file);
      const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
      const headers = {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-cache',
        etag,
        ...(csp ? { 'content-security-policy': csp } : {}),
        ...(cors ? { 'access-control-allow-origin': '*' } : {}),
      };
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers).end();
        return;
      }
      res.writeHead(200, headers);
      res.end(body);
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      ok({
        server,
        url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${actual}/`,
        close: () => new Promise((done) => server.close(done)),
      });
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
      const what = DEFAULT_ROOT === WEB_ROOT ? 'the unbundled source, web/' : 'the production site, dist/';
      console.log(`attention-explorer (${what}) is being served at ${url}  (Ctrl+C to stop)`);
      break;
    } catch (err) {
      if (err.code !== 'EADDRINUSE' || port >= wanted + 20) throw err;
    }
  }
}
