// Saving a transformer's parameters as safetensors (F32, the getState names, metadata format: 'pt')
// straight from WebAssembly memory: the sync form copies each tensor once into the output bytes;
// the async form copies slice by slice into Blob parts, so at most one slice exists outside the
// Blob's own storage, reporting progress and stopping at an AbortSignal.
import { encodeSafetensorsHeader } from './safetensors.js';
import { progressContext } from './checkpoint.js';

const SLICE_BYTES = 16 << 20;

// `block()` gives the live { module, base, tensors } of the model's parameters.
function layoutOf(block) {
  const { tensors } = block();
  const byName = new Map(tensors.map((t) => [t.name, t]));
  const file = encodeSafetensorsHeader(
    tensors.map((t) => ({ name: t.name, dtype: 'F32', shape: t.shape })),
    { format: 'pt' },
  );
  return { ...file, source: (name) => byName.get(name) };
}

/** The parameters as the bytes of a safetensors file (one copy, from WASM memory to the output). */
export function saveSafetensors(block) {
  const { bytes: header, tensors, dataLength, source } = layoutOf(block);
  const out = new Uint8Array(header.length + dataLength);
  out.set(header);
  const { module, base } = block();
  for (const placed of tensors) {
    const t = source(placed.name);
    const from = base + t.offset * 4;
    out.set(module.HEAPU8.subarray(from, from + t.size * 4), header.length + placed.begin);
  }
  return out;
}

/** The parameters as a Blob holding a safetensors file, made slice by slice (see attention.d.ts). */
export async function saveSafetensorsAsync(block, options) {
  const ctx = progressContext(options, 'toSafetensorsAsync');
  try {
    return await writeParts(block, ctx);
  } finally {
    ctx.done();
  }
}

async function writeParts(block, ctx) {
  ctx.check();
  const { bytes: header, tensors, dataLength, source } = layoutOf(block);
  const total = header.length + dataLength;
  const parts = [new Blob([header])];
  ctx.progress(header.length, total);
  for (const placed of tensors) {
    const t = source(placed.name);
    for (let at = 0; at < t.size * 4; at += SLICE_BYTES) {
      const stop = Math.min(t.size * 4, at + SLICE_BYTES);
      const { module, base } = block(); // again each slice: the model may be disposed meanwhile
      const from = base + t.offset * 4;
      parts.push(new Blob([module.HEAPU8.slice(from + at, from + stop)]));
      ctx.progress(header.length + placed.begin + stop, total);
      await ctx.pause();
    }
  }
  ctx.check();
  return new Blob(parts, { type: 'application/octet-stream' });
}
