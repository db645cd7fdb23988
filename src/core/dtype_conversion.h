// Conversion of stored tensor elements (the floating dtypes of a safetensors checkpoint) to the
// float32 a model computes in. F16 and BF16 convert exactly (float32 holds every value, NaN
// payloads included); F64 rounds to nearest, ties to even, as a C++ cast does. Each call also
// finds the first element that is not finite, because a model's parameters must never be NaN or
// ±Infinity and the scan costs nothing extra while the values pass through registers.
#pragma once
#include <cstddef>
#include <cstdint>

namespace attn {

// Source element formats, numbered as the JavaScript layer passes them.
enum class StoredFloat : int { f32 = 0, f16 = 1, bf16 = 2, f64 = 3 };

// One IEEE half (binary16) bit pattern → float32, exactly.
float half_to_float(uint16_t bits);

// src: count elements of `format`, little-endian, packed (any alignment) -> dst: count floats.
// src and dst must not overlap. Returns the index of the first element whose float32 value is
// NaN or ±Infinity, or count when all are finite. An unknown format converts nothing and
// returns 0.
size_t convert_to_float32(StoredFloat format, const void* src, size_t count, float* dst);

// x: count floats -> the index of the first NaN or ±Infinity, or count.
size_t find_non_finite(const float* x, size_t count);

}  // namespace attn
