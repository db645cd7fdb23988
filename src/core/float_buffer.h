// An owned, 64-byte aligned block of floats that grows on request and reports failure instead of
// throwing: the WebAssembly build has no exceptions, and running out of memory must be an error
// message, not an abort. Kept between calls so a training step allocates nothing after the first.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace attn {

class FloatBuffer {
 public:
  FloatBuffer() = default;
  FloatBuffer(const FloatBuffer&) = delete;
  FloatBuffer& operator=(const FloatBuffer&) = delete;
  ~FloatBuffer() { std::free(block_); }

  // Makes room for at least `floats` (contents are not kept when it grows); false when out of
  // memory.
  bool reserve(size_t floats) {
    if (floats <= capacity_ && block_) return true;
    std::free(block_);
    block_ = nullptr;
    capacity_ = 0;
    if (floats > (SIZE_MAX - kAlign) / sizeof(float)) return false;
    block_ = static_cast<char*>(std::malloc(floats * sizeof(float) + kAlign));
    if (!block_) return false;
    capacity_ = floats;
    return true;
  }
  // Gives the block back (a later reserve allocates anew).
  void release() {
    std::free(block_);
    block_ = nullptr;
    capacity_ = 0;
  }
  void zero() {
    if (block_) std::memset(data(), 0, capacity_ * sizeof(float));
  }
  float* data() const {
    if (!block_) return nullptr;
    const uintptr_t at = reinterpret_cast<uintptr_t>(block_);
    return reinterpret_cast<float*>((at + kAlign - 1) / kAlign * kAlign);
  }
  size_t capacity() const { return capacity_; }

 private:
  static constexpr size_t kAlign = 64;
  char* block_ = nullptr;
  size_t capacity_ = 0;
};

}  // namespace attn
