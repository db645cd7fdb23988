// Types of the safetensors reader and writer (web/lib/safetensors.js).

export interface Float32Tensor {
  data: Float32Array;
  shape: number[];
}

/**
 * Reads a safetensors file: name → { data: Float32Array, shape }. F32 is copied as is; F16 and
 * BF16 convert exactly to float32; other dtypes are refused. The bytes are treated as untrusted: a
 * truncated file, a header length past the end, a header that is not a UTF-8 JSON object, offsets
 * outside the data, overlapping tensors, gaps or trailing bytes, a shape that disagrees with its
 * byte count, or absurd sizes throw an Error ("safetensors: …") naming the tensor; nothing is read
 * out of bounds.
 */
export function decodeSafetensors(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): Record<string, Float32Tensor>;

/** The `__metadata__` object (string → string) of a safetensors file, or null; checks the whole file. */
export function decodeSafetensorsMetadata(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): Record<string, string> | null;

/**
 * Writes tensors as an F32 safetensors file laid out as the reference implementation lays it out:
 * names sorted, compact JSON header (`__metadata__` first) padded with spaces to a multiple of 8.
 */
export function encodeSafetensors(
  tensors: Record<string, { data: Float32Array | Float64Array | number[]; shape: number[] }>,
  metadata?: Record<string, string>,
): Uint8Array;
