// Non-owning row-major views with a row stride, so one head of a (tokens × E) projection is a view
// of columns [h·d, (h+1)·d) without a copy.
#pragma once
#include <cstddef>

namespace attn {

struct ConstMatrixView {
  const float* data = nullptr;
  size_t rows = 0, cols = 0, ld = 0;  // ld: floats between the starts of consecutive rows
  const float* row(size_t i) const { return data + i * ld; }
};

struct MatrixView {
  float* data = nullptr;
  size_t rows = 0, cols = 0, ld = 0;
  float* row(size_t i) const { return data + i * ld; }
  operator ConstMatrixView() const { return {data, rows, cols, ld}; }
};

}  // namespace attn
