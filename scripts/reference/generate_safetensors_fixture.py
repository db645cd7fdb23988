#!/usr/bin/python3
"""Safetensors files for tests/js/safetensors.test.mjs, written independently of web/lib/safetensors.js.

Run from the repository root (`npm run reference` runs every generator):

    /usr/bin/python3 scripts/reference/generate_safetensors_fixture.py

The `safetensors` Python package is not packaged for Debian 12 (and only Debian's and npm's
registries are reachable here), so this is a small writer following the format specification
(https://huggingface.co/docs/safetensors/index, "Format"; the reference Rust implementation is
github.com/huggingface/safetensors, safetensors/src/tensor.rs):
- 8 bytes: N, an unsigned little-endian 64-bit integer, the size of the header;
- N bytes: a UTF-8 JSON object {"__metadata__": {str: str}, name: {"dtype", "shape",
  "data_offsets": [BEGIN, END]}}, written compactly (serde_json::to_string) with __metadata__
  first, padded with spaces (0x20) to a multiple of 8 bytes;
- the byte buffer: tensors little-endian, row-major, contiguous, in the order of the header, which
  sorts them by dtype alignment (largest first) then by name; offsets are relative to the buffer
  and tile it with no gap.
Values are computed with NumPy (float16 is IEEE half; bfloat16 is the upper 16 bits of a float32,
here of values that bfloat16 holds exactly) and stored in tests/data/safetensors/expected.json.
"""

import json
import os
import struct

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT_DIR = os.path.join(ROOT, "tests", "data", "safetensors")
ALIGN = {"F32": 4, "F16": 2, "BF16": 2}
# Every dtype the issue lists, by the NumPy type that stores it (BF16 is written from float32 bits).
NUMPY = {"BOOL": "?", "U8": "<u1", "I8": "<i1", "U16": "<u2", "I16": "<i2", "U32": "<u4", "I32": "<i4",
         "U64": "<u8", "I64": "<i8", "F16": "<f2", "F32": "<f4", "F64": "<f8"}
# The reference writer's order: its Dtype enum, highest first (safetensors/src/tensor.rs, `prepare`).
RANK = ["BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0", "F8_E4M3FNUZ",
        "F8_E5M2FNUZ", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64", "F64", "I64", "U64"]


def bf16_bytes(values):
    bits = np.asarray(values, dtype="<f4").view("<u4")
    assert np.all(bits & 0xFFFF == 0), "bfloat16 fixture values must be exact"
    return (bits >> 16).astype("<u2").tobytes()


def raw_bytes(dtype, array):
    if dtype == "BF16":
        return bf16_bytes(array)
    return np.asarray(array, dtype=NUMPY[dtype]).tobytes()


def as_float32(dtype, array):
    """What a reader must return: the stored values as float32 (exact for all three dtypes)."""
    if dtype == "F16":
        return np.asarray(array, dtype="<f2").astype(np.float32)
    return np.asarray(array, dtype=np.float32)


def write(path, tensors, metadata=None):
    """tensors: {name: (dtype, ndarray)} → the file, and the expected decoded content."""
    order = sorted(tensors, key=lambda n: (-RANK.index(tensors[n][0]), n.encode("utf-8")))
    header, chunks, offset = {}, [], 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for name in order:
        dtype, array = tensors[name]
        data = raw_bytes(dtype, array)
        header[name] = {"dtype": dtype, "shape": list(np.shape(array)), "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for c in chunks:
            f.write(c)
    expected = {}
    for name, (dtype, array) in tensors.items():
        expected[name] = {"dtype": dtype, "shape": list(np.shape(array)), "data": expected_values(dtype, array)}
    return {"metadata": metadata, "tensors": expected}


def expected_values(dtype, array):
    """Floats as float32 values ("inf"/"-inf" as strings); integers exactly, 64-bit ones as strings
    (JSON numbers lose them past 2^53); BOOL as 0/1."""
    if dtype in ("F16", "BF16", "F32"):
        values = as_float32(dtype, array).reshape(-1)
        return [v if np.isfinite(v) else str(v) for v in map(float, values)]
    flat = np.asarray(array, dtype=NUMPY[dtype]).reshape(-1)
    if dtype == "F64":
        return [float(v) for v in flat]
    if dtype in ("U64", "I64"):
        return [str(int(v)) for v in flat]
    return [int(v) for v in flat]


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    rng = np.random.RandomState(7)
    expected = {}
    # Float32 only, with metadata: encodeSafetensors must produce these bytes exactly.
    expected["f32.safetensors"] = write(os.path.join(OUT_DIR, "f32.safetensors"), {
        "wte.weight": ("F32", rng.standard_normal((3, 4)).astype(np.float32)),
        "h.0.attn.c_attn.bias": ("F32", rng.standard_normal(6).astype(np.float32)),
        "ln_f.weight": ("F32", np.array([1.0, -0.0, 1e-40, 3.4e38], dtype=np.float32)),
    }, metadata={"format": "pt"})
    # Every supported dtype and the edge cases of their conversion; a scalar and an empty tensor.
    half = np.array([[0.0, -0.0, 1.0, -2.5], [65504.0, 2.0 ** -24, 6.1e-5, float("inf")]], dtype=np.float16)
    brain = np.array([1.0, -3.0, 2.0 ** -126, 1.5 * 2.0 ** 100, -float("inf")], dtype=np.float32)
    expected["mixed.safetensors"] = write(os.path.join(OUT_DIR, "mixed.safetensors"), {
        "half": ("F16", half),
        "brain": ("BF16", brain),
        "scalar": ("F32", np.array(0.25, dtype=np.float32)),
        "empty": ("F32", np.zeros((0, 3), dtype=np.float32)),
        "z.last": ("F32", np.array([[1.5, -2.0]], dtype=np.float32)),
    })
    # Every dtype of the format that holds numbers, at its extremes, written by NumPy.
    expected["dtypes.safetensors"] = write(os.path.join(OUT_DIR, "dtypes.safetensors"), {
        "bool": ("BOOL", np.array([[True, False, True]])),
        "u8": ("U8", np.array([0, 1, 255], dtype=np.uint8)),
        "i8": ("I8", np.array([-128, -1, 127], dtype=np.int8)),
        "u16": ("U16", np.array([0, 65535], dtype=np.uint16)),
        "i16": ("I16", np.array([-32768, 32767, 7], dtype=np.int16)),
        "u32": ("U32", np.array([4294967295, 0], dtype=np.uint32)),
        "i32": ("I32", np.array([[-2147483648, 2147483647], [5, -6]], dtype=np.int32)),
        "u64": ("U64", np.array([18446744073709551615, 9007199254740993], dtype=np.uint64)),
        "i64": ("I64", np.array([-9223372036854775808, 9223372036854775807, -3], dtype=np.int64)),
        "f16": ("F16", np.array([65504.0, -2.0 ** -24], dtype=np.float16)),
        "bf16": ("BF16", np.array([-1.5, 2.0 ** 127], dtype=np.float32)),
        "f32": ("F32", np.array([0.1, -3.4028234663852886e38], dtype=np.float32)),
        "f64": ("F64", np.array([0.1, 1e300, -5e-324], dtype=np.float64)),
        "position_ids": ("I64", np.arange(6, dtype=np.int64).reshape(1, 6)),
    })
    with open(os.path.join(OUT_DIR, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")
    print("wrote %s" % OUT_DIR)


if __name__ == "__main__":
    main()
