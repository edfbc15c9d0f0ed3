// SPDX-License-Identifier: Apache-2.0
// The fixture and double-precision references of the norm family's tests (aclnn_norm_test.cpp,
// aclnn_reduce_test.cpp); the references are in norm_support.cpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "aclnnop/aclnn_layer_norm.h"
#include "runtime/aclnn/meta.h"
#include "tests/runtime/aclnn_support.h"

namespace npusim::rt::testing::norm_test {

using Shape = std::vector<int64_t>;
using Values = std::vector<double>;
using First = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;
using Second = Phase2;

struct Tol {
  double atol, rtol;
};
inline Tol tol_of(aclDataType t) {
  if (t == ACL_FLOAT16) return {2e-3, 2e-3};
  if (t == ACL_BF16) return {2e-2, 1.6e-2};
  return {2e-5, 2e-5};
}

inline int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

inline Values pattern(int64_t n, double seed, double scale = 3.0) {
  Values v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = scale * std::sin(0.37 * static_cast<double>(i) + seed) +
                                     0.5 * std::cos(1.3 * static_cast<double>(i));
  return v;
}

// A case of aclnnRmsNorm / aclnnAddRmsNorm: x's shape and type, gamma's (trailing) shape and type.
struct RmsCase {
  Shape shape, gamma;
  aclDataType type, gamma_type;
};

class NormTest : public OperatorTest {
 protected:
  // aclnnRmsNorm (or, with `add`, aclnnAddRmsNorm) of case c against the double reference.
  void check_rms_norm(const RmsCase& c, double seed, bool add);
  // A contiguous device tensor, filled with `values` (rounded to its type) when given.
  aclTensor* make(const Shape& shape, aclDataType type, const Values& values = {}) {
    const int64_t n = std::max<int64_t>(numel(shape), 1);
    void* dev = alloc(static_cast<std::size_t>(n) * 4);
    for (std::size_t i = 0; i < values.size(); ++i)
      aclnn::store(type, dev, static_cast<int64_t>(i), values[i]);
    return tensor(shape, type, dev);
  }
  // A tensor's elements as the device holds them.
  static Values read(const aclTensor* t) {
    Values v(static_cast<std::size_t>(t->numel()));
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<double>(aclnn::load(t->dtype, t->data, static_cast<int64_t>(i)));
    return v;
  }

  void run(const First& first, Second second) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(first(&ws, &ex), ACLNN_SUCCESS);
    run_phase2(second, ws, ex, stream_);
  }
  // aclnnLayerNorm run to completion (mean and rstd may be null).
  void layer_norm(aclTensor* x, aclIntArray* shape, aclTensor* w, aclTensor* b, double eps,
                  aclTensor* y, aclTensor* mean, aclTensor* rstd) {
    run(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnLayerNormGetWorkspaceSize(x, shape, w, b, eps, y, mean, rstd, ws, ex);
        },
        aclnnLayerNorm);
  }
  static aclnnStatus status(const First& first) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    return first(&ws, &ex);
  }

  static void expect_close(const Values& got, const Values& ref, Tol tol, const char* what) {
    ASSERT_EQ(got.size(), ref.size()) << what;
    int bad = 0;
    for (std::size_t i = 0; i < got.size() && bad < 5; ++i) {
      if (!(std::fabs(got[i] - ref[i]) <= tol.atol + tol.rtol * std::fabs(ref[i]))) {
        ADD_FAILURE() << what << ": element " << i << " is " << got[i] << ", expected " << ref[i];
        ++bad;
      }
    }
  }
};

// ---- references (norm_support.cpp) -------------------------------------------------------

// Softmax over the middle axis of [outer, len, inner].
Values softmax_axis_ref(const Values& x, int64_t len, int64_t inner);
// Softmax over rows of `len`.
Values softmax_ref(const Values& x, int64_t len);

struct NormRef {
  Values y, mean, rstd;
};
// Layer norm (rms: RMS norm, no mean) over rows of `len`, with optional weight and bias.
NormRef norm_ref(const Values& x, int64_t len, const Values* w, const Values* b, double eps,
                 bool rms);

// Reduction of x (shape) over `red` axes: sum or max; also the sum of |x| per output (for the
// fp32 accumulation tolerance).
struct ReduceRef {
  Values y, abs_sum;
  int64_t count = 1;
};
// extreme: 0 sum, 1 max, -1 min.
ReduceRef reduce_ref(const Values& x, const Shape& shape, const std::vector<bool>& red,
                     int extreme);

}  // namespace npusim::rt::testing::norm_test
