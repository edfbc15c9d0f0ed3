// SPDX-License-Identifier: Apache-2.0
// The fixture of the element-wise operator tests (aclnn_elementwise_test.cpp,
// aclnn_activation_test.cpp): device tensors filled from a function, released at TearDown, and
// checks against a double-precision host reference.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "runtime/aclnn/meta.h"
#include "tests/runtime/aclnn_support.h"

namespace npusim::rt::testing::ew_test {

namespace nn = npusim::aclnn;
using Shape = std::vector<std::int64_t>;

inline std::int64_t count(const Shape& s) {
  std::int64_t n = 1;
  for (std::int64_t d : s) n *= d;
  return n;
}

// Element of `in` (broadcast, aligned right) that output element `flat` of `out` reads.
inline std::int64_t source(const Shape& out, const Shape& in, std::int64_t flat) {
  std::int64_t off = 0, stride = 1;
  const std::size_t shift = out.size() - in.size();
  for (std::size_t k = out.size(); k-- > 0;) {
    const std::int64_t idx = flat % out[k];
    flat /= out[k];
    if (k >= shift) {
      const std::int64_t d = in[k - shift];
      if (d != 1) off += idx * stride;
      stride *= d;
    }
  }
  return off;
}

// Deterministic test values in [lo, hi].
inline double value(std::int64_t i, double lo, double hi, std::uint32_t seed = 1) {
  const std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761u + seed * 40503u;
  return lo + (hi - lo) * static_cast<double>(h % 100003u) / 100002.0;
}

inline double rtol_arith(aclDataType t) {
  return t == ACL_FLOAT ? 1e-6 : t == ACL_FLOAT16 ? 1e-3 : t == ACL_BF16 ? 1e-2 : 0;
}

struct Buf {
  void* dev = nullptr;
  aclTensor* t = nullptr;
  Shape shape;
  aclDataType type = ACL_FLOAT;
  double at(std::int64_t i) const { return static_cast<double>(nn::load(type, dev, i)); }
};

class ElementwiseTest : public DeviceTest {
 protected:
  void TearDown() override {
    for (Buf& b : bufs_) {
      EXPECT_EQ(aclDestroyTensor(b.t), ACLNN_SUCCESS);
      aclrtFree(b.dev);
    }
    bufs_.clear();
    DeviceTest::TearDown();
  }

  // A contiguous device tensor holding f(i) converted to `type`.
  Buf tensor(Shape shape, aclDataType type, const std::function<double(std::int64_t)>& f = {}) {
    Buf b;
    b.shape = shape;
    b.type = type;
    const std::int64_t n = count(shape);
    const std::size_t bytes =
        static_cast<std::size_t>(std::max<std::int64_t>(n, 1)) * nn::element_size(type);
    EXPECT_EQ(aclrtMalloc(&b.dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    for (std::int64_t i = 0; i < n; ++i) {
      nn::store(type, b.dev, i, f ? static_cast<long double>(f(i)) : 0.0L);
    }
    b.t = aclCreateTensor(shape.data(), shape.size(), type, nullptr, 0, ACL_FORMAT_ND, shape.data(),
                          shape.size(), b.dev);
    EXPECT_NE(b.t, nullptr);
    bufs_.push_back(b);
    return b;
  }

  // Runs an executor (workspace allocated as asked) to completion.
  void run(Phase2 fn, uint64_t ws, aclOpExecutor* ex) { run_phase2(fn, ws, ex, stream_); }

  // Every output element against ref(i) within rtol * scale(i) + atol.
  static void expect_near(const Buf& out, const std::function<double(std::int64_t)>& ref,
                          const std::function<double(std::int64_t)>& scale, double rtol,
                          double atol, const char* what) {
    int bad = 0;
    for (std::int64_t i = 0; i < count(out.shape) && bad < 5; ++i) {
      const double want = ref(i);
      const double got = out.at(i);
      const double tol = rtol * scale(i) + atol;
      if (!(std::fabs(got - want) <= tol)) {
        ++bad;
        ADD_FAILURE() << what << ": element " << i << " is " << got << ", expected " << want
                      << " (tolerance " << tol << ")";
      }
    }
  }

  // Kernel tasks run so far: blocks run and instructions recorded by the last one.
  const FakeBackend::TaskTrace& last_kernel() { return last_task(TaskKind::kKernel); }

  std::vector<Buf> bufs_;
};

inline aclScalar* scalar(double v, aclDataType type) {
  if (type == ACL_INT32) {
    auto i = static_cast<std::int32_t>(v);
    return aclCreateScalar(&i, type);
  }
  auto f = static_cast<float>(v);
  return aclCreateScalar(&f, ACL_FLOAT);
}

}  // namespace npusim::rt::testing::ew_test
