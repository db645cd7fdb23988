// Picks and instantiates one of the two WebAssembly builds (SIMD128 or scalar) in browsers,
// workers and Node. The .wasm is fetched (or, from a file: URL in Node, read from disk) and
// compiled here, in parallel with the loader's script, and handed to the loader's instantiateWasm
// hook, so a failure names its real cause: the URL, the HTTP status, the content type, or the file
// that is missing.

// (module (func (result v128) i32.const 0 i8x16.splat)): validates only where SIMD128 exists.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11,
]);
const WASM_MAGIC = [0, 97, 115, 109]; // "\0asm"
const BUILD_HINT = 'run "npm run build" in the attention-explorer checkout first';

export function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

// Node (and runtimes that follow it) by its version, not by a missing `window`: test
// environments such as Jest's jsdom or happy-dom define `window` inside Node.
export const isNode =
  typeof process === 'object' &&
  process !== null &&
  typeof process.versions === 'object' &&
  typeof process.versions?.node === 'string';

/** Throws a clear Error when this engine has no WebAssembly at all. */
export function requireWebAssembly() {
  if (typeof WebAssembly === 'object' && WebAssembly !== null && typeof WebAssembly.instantiate === 'function') return;
  throw new Error(
    'WebAssembly is not available in this JavaScript engine, and attention-explorer computes ' +
      'everything in WebAssembly. It is missing when Node runs with --jitless (or --no-expose-wasm), and in ' +
      'browsers or WebViews where a policy or a "lockdown" mode turns it off; run without that flag or policy.',
  );
}

export function chooseVariant(simd) {
  if (simd === undefined || simd === 'auto') return simdSupported() ? 'simd' : 'scalar';
  if (simd === true) {
    if (!simdSupported())
      throw new Error('simd: true was requested, but this engine has no WebAssembly SIMD; use simd: "auto"');
    return 'simd';
  }
  if (simd === false) return 'scalar';
  throw new Error(`simd must be "auto", true or false, got ${JSON.stringify(simd)}`);
}

/**
 * The instantiated module of `variant` ('simd' or 'scalar'), in the whole build or the base one
 * (attention-<variant>-base: the bundled page's first module, see api-parts.js).
 */
export async function loadModule(variant, build = 'whole') {
  const name = build === 'base' ? `attention-${variant}-base` : `attention-${variant}`;
  const jsUrl = new URL(`./wasm/${name}.mjs`, import.meta.url);
  const wasmUrl = new URL(`./wasm/${name}.wasm`, import.meta.url);
  // The .wasm is fetched and compiled while the loader's script loads: neither waits for the other.
  // (Its own URL, not its name next to the .mjs: a bundler (Vite, webpack) that emits both as
  // hashed assets rewrites these new URL(…, import.meta.url) expressions.)
  const compiled = compileWasm(wasmUrl);
  compiled.catch(() => {}); // a failed loader import is the error to report; this one waits
  let factory;
  try {
    factory = (await import(/* @vite-ignore */ jsUrl.href)).default;
  } catch (err) {
    throw new Error(
      `could not load the ${variant} WebAssembly build's loader ${jsUrl.href}: ` +
        `${await explainFailure(jsUrl, 'javascript', err)}`,
      { cause: err },
    );
  }
  if (typeof factory !== 'function')
    throw new Error(`${jsUrl.href} is not the attention-explorer WebAssembly loader (it has no default export)`);
  const module = await compiled;
  // The loader's instantiateWasm hook gets the compiled module; a failure there rejects here
  // instead of leaving the loader's promise pending.
  return new Promise((resolve, reject) => {
    factory({
      // The loader otherwise resolves its .wasm against its own import.meta.url, which is no base
      // URL when the loader was imported from a data: URL (the single-file page).
      locateFile: () => wasmUrl.href,
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(module, imports).then(
          (instance) => receive(instance, module),
          (err) =>
            reject(
              new Error(
                `could not instantiate ${wasmUrl.href} (is it from the same build as ${jsUrl.href}?): ${err.message}`,
                { cause: err },
              ),
            ),
        );
        return {};
      },
    }).then(resolve, reject);
  });
}

/**
 * The compiled WebAssembly.Module at `url`. Served as application/wasm, it compiles while it
 * downloads (compileStreaming); otherwise (a generic content type, a file: URL in Node) from its
 * bytes, checked by readWasm.
 */
export async function compileWasm(url) {
  let module;
  if (!(isNode && url.protocol === 'file:') && typeof WebAssembly.compileStreaming === 'function') {
    const response = await fetchWasm(url);
    if (/^application\/wasm\b/i.test(response.headers.get('content-type') ?? '')) {
      try {
        module = await WebAssembly.compileStreaming(response);
      } catch (err) {
        throw new Error(`could not compile the WebAssembly file ${url.href}: ${err.message}`, { cause: err });
      }
      return module;
    }
    return compileBytes(url, await checkedBytes(response, url));
  }
  return compileBytes(url, await readWasm(url));
}

async function compileBytes(url, bytes) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (err) {
    throw new Error(`could not compile the WebAssembly file ${url.href}: ${err.message}`, { cause: err });
  }
}

/** The .wasm bytes at `url`, or an Error naming why not (exported for the tests). */
export async function readWasm(url) {
  if (isNode && url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    try {
      return await readFile(url);
    } catch (err) {
      if (err?.code === 'ENOENT')
        throw new Error(`the WebAssembly file ${url.href} is missing (${BUILD_HINT})`, { cause: err });
      throw new Error(`could not read the WebAssembly file ${url.href}: ${err.message}`, { cause: err });
    }
  }
  return checkedBytes(await fetchWasm(url), url);
}

// The response for `url` when the server answered 2xx, or an Error naming the HTTP status.
async function fetchWasm(url) {
  let response;
  try {
    response = await fetch(url.href, { credentials: 'same-origin' });
  } catch (err) {
    throw new Error(
      `could not fetch the WebAssembly file ${url.href}: ${err.message} ` +
        "(is it served over http(s), and does the page's Content-Security-Policy connect-src allow it?)",
      { cause: err },
    );
  }
  if (!response.ok) throw new Error(`could not load the WebAssembly file ${url.href}: ${statusText(response, url)}`);
  return response;
}

async function checkedBytes(response, url) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!WASM_MAGIC.every((b, i) => bytes[i] === b)) {
    const type = response.headers.get('content-type') || 'no content type';
    throw new Error(
      `${url.href} is not a WebAssembly file: the server answered with ${type}` +
        (/html/i.test(type)
          ? ' (a page, not the .wasm: the file is not where the server looks for it; host web/lib/wasm/ next to attention.js)'
          : ''),
    );
  }
  return bytes;
}

function statusText(response, url) {
  const text = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status !== 404) return text;
  return `${text}: the file is not there${bundlerHint(url) || `; ${BUILD_HINT}, or host web/lib/wasm/ next to attention.js`}`;
}

// Vite's dependency pre-bundling moves attention.js to node_modules/.vite/deps/ without its wasm/.
function bundlerHint(url) {
  return /\/\.vite\/deps(_temp[^/]*)?\//.test(url.pathname)
    ? " (Vite pre-bundled attention-explorer away from its wasm/ folder: add optimizeDeps: { exclude: ['attention-explorer'] } to vite.config)"
    : '';
}

// Why an import() of a URL failed: the file is missing, the server answered with an error or with
// something other than JavaScript, or the script itself threw.
export async function explainFailure(url, kind, err) {
  const reason = err?.message ?? String(err);
  if (isNode && url.protocol === 'file:') {
    const { access } = await import('node:fs/promises');
    try {
      await access(url);
    } catch {
      return `the file is missing (${BUILD_HINT})`;
    }
    return reason;
  }
  try {
    const response = await fetch(url.href, { credentials: 'same-origin' });
    if (!response.ok) return statusText(response, url);
    const type = response.headers.get('content-type') || 'no content type';
    if (!new RegExp(kind, 'i').test(type))
      return `the server answered with ${type}, but a module script must be served as text/javascript${bundlerHint(url)}`;
  } catch {
    // fetch itself failed (offline, CSP connect-src): the import's own message is all there is
  }
  return reason;
}
