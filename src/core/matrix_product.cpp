#include "matrix_product.h"

#include "kernels.h"

namespace attn {

Status matrix_product(const float* a, const float* b, float* c, size_t n, size_t k, size_t m) {
  if (n == 0 || k == 0 || m == 0) return Status::error("matrix sizes must be positive");
  if (!a || !b || !c) return Status::error("missing matrix");
  kernels::matmul(a, k, b, m, c, m, n, m, k, 1.0f, false);
  return Status::success();
}

}  // namespace attn
