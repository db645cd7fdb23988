// Types of the safetensors reader and writer (web/lib/safetensors.js).

/** The element types of the safetensors format (the reference implementation's `Dtype`). */
export type SafetensorsDtype =
  | 'BOOL'
  | 'U8'
  | 'I8'
  | 'U16'
  | 'I16'
  | 'U32'
  | 'I32'
  | 'U64'
  | 'I64'
  | 'F16'
  | 'BF16'
  | 'F32'
  | 'F64'
  | 'F8_E4M3'
  | 'F8_E5M2'
  | 'F8_E8M0'
  | 'F8_E4M3FNUZ'
  | 'F8_E5M2FNUZ'
  | 'F4'
  | 'F6_E2M3'
  | 'F6_E3M2'
  | 'C64';

export interface Float32Tensor {
  data: Float32Array;
  shape: number[];
}

/** A decoded tensor: its stored dtype, its elements and its shape. */
export interface DecodedTensor {
  dtype: SafetensorsDtype;
  /**
   * The elements, row-major, a copy (never a view of the file). By default each dtype comes out
   * as a typed array of its own kind:
   * - U8, I8, U16, I16, U32, I32: Uint8Array … Int32Array; U64 and I64: BigUint64Array and
   *   BigInt64Array (exact, never rounded through a number);
   * - BOOL: Uint8Array of the stored bytes (0 = false, 1 = true);
   * - F32: Float32Array; F64: Float64Array;
   * - F16, BF16 and the F8 formats: Float32Array holding each value exactly (JavaScript has no
   *   16- or 8-bit float array; `as: 'raw'` gives their bit patterns instead, as Uint16Array or
   *   Uint8Array);
   * - C64: Float32Array of 2 × elements, (real, imaginary) pairs;
   * - F4, F6_E2M3, F6_E3M2: Uint8Array of the packed bytes.
   */
  data:
    | Float32Array
    | Float64Array
    | Int8Array
    | Uint8Array
    | Int16Array
    | Uint16Array
    | Int32Array
    | Uint32Array
    | BigInt64Array
    | BigUint64Array;
  shape: number[];
}

export interface DecodeOptions {
  /**
   * 'native' (default): each dtype as described in {@link DecodedTensor}. 'raw': the same, but
   * F16, BF16 and F8 as their bit patterns (what encodeSafetensors writes back unchanged).
   * 'float32' / 'float64': every real dtype converted to Float32Array / Float64Array (integers
   * rounded to the nearest representable value, BOOL as 0/1); C64 and the packed MX formats are
   * refused.
   */
  as?: 'native' | 'raw' | 'float32' | 'float64';
}

/**
 * Reads a safetensors file: name → { dtype, data, shape }. Every dtype of the format is read (see
 * {@link DecodedTensor} for how each comes out). The bytes are treated as untrusted: a truncated
 * file, a header length past the end or above 100 MB, a header that is not a UTF-8 JSON object (a
 * byte-order mark is refused; JSON whitespace around it is allowed), a key given twice, an unknown
 * dtype, offsets outside the data, overlapping tensors, gaps or trailing bytes, a shape that
 * disagrees with its byte count, or absurd sizes throw an Error ("safetensors: …") naming the
 * tensor; nothing is read out of bounds.
 */
export function decodeSafetensors(
  bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
  options?: DecodeOptions,
): Record<string, DecodedTensor>;

/** The `__metadata__` object (string → string) of a safetensors file, or null; checks the whole file. */
export function decodeSafetensorsMetadata(
  bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
): Record<string, string> | null;

/** A tensor to write. Without `dtype`, float arrays and plain arrays are written as F32 and integer typed arrays as their own kind. */
export interface TensorToEncode {
  /**
   * F32/F64: a Float32Array, Float64Array or array of numbers (a finite number beyond float32's
   * range is refused, not written as Infinity); integer dtypes: a typed array or array of
   * integers in range (BigInts or safe integers for 64-bit); BOOL: a Uint8Array of 0/1 or an
   * array of booleans; F16, BF16, F8: their bit patterns (Uint16Array / Uint8Array); C64: a
   * Float32Array of pairs; F4, F6: the packed bytes.
   */
  data: ArrayLike<number | bigint | boolean> | Float32Array | Float64Array;
  shape: number[];
  dtype?: SafetensorsDtype;
}

/**
 * Writes tensors as a safetensors file laid out as the reference implementation lays it out:
 * tensors ordered by dtype (its enum order, highest first) then by name, compact JSON header
 * (`__metadata__` first) padded with spaces to a multiple of 8. Bad data throws an Error naming the
 * tensor and the element.
 */
export function encodeSafetensors(
  tensors: Record<string, TensorToEncode>,
  metadata?: Record<string, string>,
): Uint8Array;

/** A tensor of a header: offsets relative to the start of the data section. */
export interface HeaderTensor {
  name: string;
  dtype: SafetensorsDtype;
  shape: number[];
  count: number;
  begin: number;
  end: number;
}

/**
 * N, the byte length of the JSON header, from the file's first 8 bytes (more may follow), so a
 * reader that streams a file knows how many bytes to read before {@link decodeSafetensorsHeader}.
 */
export function safetensorsHeaderSize(first8Bytes: Uint8Array | ArrayBuffer | ArrayBufferView): number;

/**
 * The checked header of a safetensors file from its first 8 + N bytes (more may follow).
 * `fileSize`: the whole file's size (default: bytes.length); null when it is not known yet (a
 * stream), and the tensors' offsets then define it (the reader must check the stream's length).
 */
export function decodeSafetensorsHeader(
  bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
  options?: { fileSize?: number | null },
): {
  dataStart: number;
  dataLength: number;
  /** In data order. */
  tensors: HeaderTensor[];
  /** In the header's order. */
  entries: HeaderTensor[];
  metadata: Record<string, string> | null;
};

/**
 * The header a writer that streams needs: the 8-byte length and the padded JSON for `tensors`,
 * laid out as encodeSafetensors lays them out; then write each tensor's bytes in `tensors` order.
 */
export function encodeSafetensorsHeader(
  tensors: { name: string; dtype: SafetensorsDtype; shape: number[] }[],
  metadata?: Record<string, string>,
): {
  bytes: Uint8Array;
  tensors: { name: string; dtype: SafetensorsDtype; shape: number[]; begin: number; end: number }[];
  dataLength: number;
};
