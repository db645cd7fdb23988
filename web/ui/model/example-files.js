// The trained examples (web/trained/, made by `npm run train-examples`). The page opens each from
// its .safetensors file alone: the weights, with the settings, the steps and the step at which the
// heads formed in the file's metadata. (The <id>.json beside it says the same for people; a bundler
// may inline so small a file as a data: URL, which a strict connect-src refuses to fetch.)
// Every URL is written out in full, as `new URL('literal', import.meta.url)`, because that is the
// form bundlers (Vite, webpack) follow: they then ship the files with an app that bundles the
// element. A folder URL joined with a name at run time would point at files never copied.
import { decodeSafetensors, decodeSafetensorsMetadata } from '../../lib/safetensors.js';

const FILES = Object.freeze({
  induction: new URL('../../trained/induction.safetensors', import.meta.url),
  text: new URL('../../trained/text.safetensors', import.meta.url),
});

/**
 * The example's weights (a state dict) and what its metadata says:
 * { state, settings (as saved), steps, formedAt (a step, or null), history (the run's losses and
 * head scores every few steps, see scripts/examples/train-examples.mjs; null if the file has none) }.
 */
export async function fetchExample(id) {
  const url = Object.hasOwn(FILES, id) ? FILES[id] : null;
  if (!url) throw new Error(`There is no trained example called “${String(id).slice(0, 40)}”.`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${id}.safetensors: HTTP ${response.status}`);
  return readExample(new Uint8Array(await response.arrayBuffer()));
}

/** What fetchExample gives, from an example file's bytes. */
export function readExample(bytes) {
  const meta = decodeSafetensorsMetadata(bytes) ?? {};
  return {
    state: decodeSafetensors(bytes),
    settings: JSON.parse(meta.settings ?? 'null'),
    steps: Number(meta.step) || 0,
    formedAt: meta.formedAt === undefined ? null : Number(meta.formedAt),
    history: meta.history === undefined ? null : JSON.parse(meta.history),
  };
}
