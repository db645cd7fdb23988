// A plain matrix product for callers that need one step of the pipeline on its own (the page's
// Q = X·W_Q in single-head mode): c (n × m) = a (n × k) · b (k × m), row-major, contiguous.
#pragma once
#include <cstddef>

#include "status.h"

namespace attn {

Status matrix_product(const float* a, const float* b, float* c, size_t n, size_t k, size_t m);

}  // namespace attn
