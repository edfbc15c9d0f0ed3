// SPDX-License-Identifier: Apache-2.0
// Element access and the product check of the matmul family's tests (matmul_support.h).
#include "tests/runtime/aclnn/matmul_support.h"

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "runtime/core/half_float.h"

namespace npusim::rt::testing::matmul_test {

double put(aclDataType t, void* p, std::size_t i, double v) {
  const auto f = static_cast<float>(v);
  if (t == ACL_FLOAT) {
    static_cast<float*>(p)[i] = f;
    return f;
  }
  if (t == ACL_FLOAT16) {
    static_cast<std::uint16_t*>(p)[i] = float_to_half(f);
    return half_to_float(static_cast<std::uint16_t*>(p)[i]);
  }
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;  // round to nearest even
  static_cast<std::uint16_t*>(p)[i] = static_cast<std::uint16_t>(bits);
  bits <<= 16;
  float r;
  std::memcpy(&r, &bits, 4);
  return r;
}

double get(aclDataType t, const void* p, std::size_t i) {
  if (t == ACL_FLOAT) return static_cast<const float*>(p)[i];
  const std::uint16_t h = static_cast<const std::uint16_t*>(p)[i];
  if (t == ACL_FLOAT16) return half_to_float(h);
  const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float r;
  std::memcpy(&r, &bits, 4);
  return r;
}

std::vector<double> AclnnMatmulTest::fill(aclDataType t, void* p, int64_t batches, int64_t rows,
                                          int64_t cols, bool trans) {
  std::vector<double> values(static_cast<std::size_t>(batches * rows * cols));
  // Logical element (batch, i, j) lives at batch*rows*cols + (trans ? j*rows + i : i*cols + j).
  for (int64_t bt = 0; bt < batches; ++bt)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        const int64_t at = bt * rows * cols + (trans ? j * rows + i : i * cols + j);
        values[static_cast<std::size_t>(bt * rows * cols + i * cols + j)] =
            put(t, p, static_cast<std::size_t>(at), next());
      }
  return values;
}

int AclnnMatmulTest::check_product(int which, std::vector<int64_t> ab, std::vector<int64_t> bb,
                                   int64_t m, int64_t k, int64_t n, aclDataType in,
                                   aclDataType out, bool trans_a, bool trans_b, int8_t cube) {
  std::vector<int64_t> cb(ab.size());
  for (std::size_t d = 0; d < ab.size(); ++d) cb[d] = std::max(ab[d], bb[d]);
  const int64_t na = numel(ab), nbb = numel(bb), nc = numel(cb);
  const std::size_t es = elem_size(in);
  void* pa = alloc(static_cast<std::size_t>(na * m * k) * es);
  void* pb = alloc(static_cast<std::size_t>(nbb * k * n) * es);
  void* pc = alloc(static_cast<std::size_t>(nc * m * n) * elem_size(out));
  const std::vector<double> va = fill(in, pa, na, m, k, trans_a);
  const std::vector<double> vb = fill(in, pb, nbb, k, n, trans_b);
  auto dims_of = [](std::vector<int64_t> batch, int64_t r, int64_t c) {
    batch.push_back(r);
    batch.push_back(c);
    return batch;
  };
  auto strides_of = [&](const std::vector<int64_t>& batch, int64_t r, int64_t c, bool trans) {
    std::vector<int64_t> s = contiguous(dims_of(batch, r, c));
    if (trans) {
      s[s.size() - 2] = 1;
      s[s.size() - 1] = r;
    }
    return s;
  };
  aclTensor* ta = view(dims_of(ab, m, k), strides_of(ab, m, k, trans_a), in, pa, na * m * k);
  aclTensor* tb = view(dims_of(bb, k, n), strides_of(bb, k, n, trans_b), in, pb, nbb * k * n);
  aclTensor* tc = view(dims_of(cb, m, n), contiguous(dims_of(cb, m, n)), out, pc, nc * m * n);
  aclnnStatus st;
  if (which == 0) {
    st = run([&](uint64_t* w,
                 aclOpExecutor** e) { return aclnnMmGetWorkspaceSize(ta, tb, tc, cube, w, e); },
             aclnnMm);
  } else if (which == 1) {
    st = run(
        [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnBatchMatMulGetWorkspaceSize(ta, tb, tc, cube, w, e);
        },
        aclnnBatchMatMul);
  } else {
    st = run(
        [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnMatmulGetWorkspaceSize(ta, tb, tc, cube, w, e);
        },
        aclnnMatmul);
  }
  EXPECT_EQ(st, ACLNN_SUCCESS);
  if (st != ACLNN_SUCCESS) return -1;
  int bad = 0;
  for (int64_t bt = 0; bt < nc; ++bt) {
    // Batch offsets with broadcasting (row-major batch index).
    int64_t ia = 0, ib = 0, rest = bt, sa = 1, sb = 1;
    for (std::size_t d = cb.size(); d-- > 0;) {
      const int64_t i = rest % cb[d];
      rest /= cb[d];
      ia += (ab[d] == 1 ? 0 : i) * sa;
      ib += (bb[d] == 1 ? 0 : i) * sb;
      sa *= ab[d];
      sb *= bb[d];
    }
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double ref = 0, mag = 0;
        for (int64_t q = 0; q < k; ++q) {
          const double p = va[static_cast<std::size_t>(ia * m * k + i * k + q)] *
                           vb[static_cast<std::size_t>(ib * k * n + q * n + j)];
          ref += p;
          mag += std::fabs(p);
        }
        const double got = get(out, pc, static_cast<std::size_t>(bt * m * n + i * n + j));
        if (!(std::fabs(got - ref) <= tolerance(out) * mag + 1e-6)) {
          if (bad < 5) {
            ADD_FAILURE() << "out[" << bt << "][" << i << "][" << j << "] = " << got
                          << ", reference " << ref << " (magnitude " << mag << ")";
          }
          ++bad;
        }
      }
  }
  return bad;
}

}  // namespace npusim::rt::testing::matmul_test
