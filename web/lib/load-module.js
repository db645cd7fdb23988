// Picks and instantiates one of the two WebAssembly builds (SIMD128 or scalar) in browsers,
// workers and Node. In Node the .wasm is read from disk and handed over as wasmBinary, because the
// Emscripten loader is built for the web and fetch() cannot read file paths.

// (module (func (result v128) i32.const 0 i8x16.splat)): validates only where SIMD128 exists.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11,
]);

export function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const isNode = typeof process === 'object' && !!process.versions?.node &&
  typeof window === 'undefined' && typeof importScripts !== 'function';

export function chooseVariant(simd) {
  if (simd === undefined || simd === 'auto') return simdSupported() ? 'simd' : 'scalar';
  if (simd === true) {
    if (!simdSupported()) throw new Error('simd: true was requested, but this engine has no WebAssembly SIMD; use simd: "auto"');
    return 'simd';
  }
  if (simd === false) return 'scalar';
  throw new Error(`simd must be "auto", true or false, got ${JSON.stringify(simd)}`);
}

export async function loadModule(variant) {
  const jsUrl = new URL(`./wasm/attention-${variant}.mjs`, import.meta.url);
  const wasmUrl = new URL(`./wasm/attention-${variant}.wasm`, import.meta.url);
  let factory;
  try {
    factory = (await import(jsUrl.href)).default;
  } catch (err) {
    throw new Error(`could not load the ${variant} WebAssembly build from ${jsUrl.href} ` +
      `(run "npm run build" first): ${err.message}`);
  }
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    return factory({ wasmBinary: await readFile(wasmUrl) });
  }
  // The .wasm by its own URL, not by its name next to the .mjs: a bundler (Vite, webpack) that
  // emits both as hashed assets rewrites these new URL(…, import.meta.url) expressions.
  return factory({ locateFile: (file) => (file.endsWith('.wasm') ? wasmUrl.href : new URL(file, jsUrl).href) });
}
