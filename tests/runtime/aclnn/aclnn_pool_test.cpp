// SPDX-License-Identifier: Apache-2.0
// Pooling (runtime/aclnn/pool.cpp): MaxPool2dWithIndices, MaxPool, AvgPool2d, AdaptiveAvgPool2d
// on the Ascend C twin through FakeBackend against a double host reference. Max pooling is exact
// (selection); AvgPool2d float 1e-5 relative, FLOAT16 2e-3, BF16 1e-2.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "runtime/aclnn/meta.h"
#include "tests/runtime/aclnn/shape_support.h"

namespace npusim::rt::testing::shape_test {
namespace {

// ------------------------------------------------------------------------------ Pooling

struct PoolSpec {
  std::vector<std::int64_t> shape;  // 3-D or 4-D
  std::int64_t kh, kw, sh, sw, ph, pw, dh = 1, dw = 1;
  bool ceil = false;
  bool include_pad = true;
  std::int64_t divisor = 0;
  bool adaptive = false;
  std::int64_t oh = 0, ow = 0;  // adaptive output size
};

std::int64_t pool_out(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p,
                      std::int64_t d, bool ceil) {
  const std::int64_t span = in + 2 * p - d * (k - 1) - 1;
  std::int64_t o = (ceil ? (span + s - 1) / s : span / s) + 1;
  if (ceil && (o - 1) * s >= in + p) --o;
  return o;
}

// Host reference: max (value, first index) or average, in double.
void pool_ref(const PoolSpec& c, bool max, const std::vector<double>& x, std::int64_t& ho,
              std::int64_t& wo, std::vector<double>& y, std::vector<std::int32_t>& idx) {
  const std::size_t r = c.shape.size();
  const std::int64_t h = c.shape[r - 2], w = c.shape[r - 1];
  const std::int64_t planes = numel(c.shape) / (h * w);
  // (adaptive pooling, or output sizes given for asymmetric padding)
  ho = c.oh ? c.oh : pool_out(h, c.kh, c.sh, c.ph, c.dh, c.ceil);
  wo = c.ow ? c.ow : pool_out(w, c.kw, c.sw, c.pw, c.dw, c.ceil);
  y.assign(static_cast<std::size_t>(planes * ho * wo), 0);
  idx.assign(y.size(), 0);
  for (std::int64_t pl = 0; pl < planes; ++pl) {
    for (std::int64_t i = 0; i < ho; ++i) {
      for (std::int64_t j = 0; j < wo; ++j) {
        std::int64_t hs, he, ws, we;
        double div;
        if (c.adaptive) {
          hs = i * h / ho;
          he = ((i + 1) * h + ho - 1) / ho;
          ws = j * w / wo;
          we = ((j + 1) * w + wo - 1) / wo;
          div = static_cast<double>((he - hs) * (we - ws));
        } else {
          hs = i * c.sh - c.ph;
          ws = j * c.sw - c.pw;
          he = std::min(hs + (c.kh - 1) * c.dh + 1, h + c.ph);
          we = std::min(ws + (c.kw - 1) * c.dw + 1, w + c.pw);
          const double pool = static_cast<double>((he - hs) * (we - ws));
          const std::int64_t hs0 = std::max<std::int64_t>(hs, 0),
                             ws0 = std::max<std::int64_t>(ws, 0);
          const double valid =
              static_cast<double>((std::min(he, h) - hs0) * (std::min(we, w) - ws0));
          div = c.divisor ? static_cast<double>(c.divisor) : c.include_pad ? pool : valid;
        }
        double best = -INFINITY, sum = 0;
        std::int32_t at = 0;
        const std::int64_t step_h = c.adaptive ? 1 : c.dh, step_w = c.adaptive ? 1 : c.dw;
        for (std::int64_t a = hs; a < he; a += step_h) {
          for (std::int64_t b = ws; b < we; b += step_w) {
            if (a < 0 || a >= h || b < 0 || b >= w) continue;
            const double v = x[static_cast<std::size_t>((pl * h + a) * w + b)];
            sum += v;
            if (v > best) {
              best = v;
              at = static_cast<std::int32_t>(a * w + b);
            }
          }
        }
        const auto o = static_cast<std::size_t>((pl * ho + i) * wo + j);
        y[o] = max ? best : sum / div;
        idx[o] = at;
      }
    }
  }
}

class PoolTest : public ShapeOpsTest {
 protected:
  // Device input of `type` from values (rounded to the type); returns the rounded values.
  std::uint8_t* input(const std::vector<std::int64_t>& shape, aclDataType type,
                      std::vector<double>& vals, int seed, bool ties = false) {
    const std::int64_t n = numel(shape);
    const std::size_t es = type == ACL_FLOAT ? 4 : 2;
    auto* p = static_cast<std::uint8_t*>(alloc(static_cast<std::size_t>(n) * es));
    vals.resize(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      // Integers with repeats (ties for max pooling) plus a fraction.
      const float f = ties ? static_cast<float>((i * i + seed) % 3)  // many equal maxima
                           : static_cast<float>(((i * 37 + seed) % 101) - 50) * 0.25f +
                                 static_cast<float>((i * 13) % 7) * 0.01f;
      aclnn::store(type, p, i, f);  // rounded to the type, as the device holds it
      vals[static_cast<std::size_t>(i)] = static_cast<double>(aclnn::load(type, p, i));
    }
    return p;
  }
  static double value(const std::uint8_t* p, aclDataType type, std::int64_t i) {
    return static_cast<double>(aclnn::load(type, p, i));
  }
  std::vector<std::int64_t> out_dims(const PoolSpec& c, std::int64_t ho, std::int64_t wo) {
    std::vector<std::int64_t> d(c.shape.begin(), c.shape.end() - 2);
    d.push_back(ho);
    d.push_back(wo);
    return d;
  }
};

TEST_F(PoolTest, MaxPool2dWithIndicesIsExact) {
  const std::vector<std::pair<PoolSpec, aclDataType>> cases = {
      {{{1, 2, 9, 9}, 3, 3, 2, 2, 1, 1}, ACL_FLOAT},
      {{{2, 3, 7, 8}, 2, 2, 2, 2, 0, 0, 1, 1, true}, ACL_FLOAT},  // ceil mode
      {{{1, 1, 10, 12}, 3, 3, 1, 1, 1, 1, 2, 2}, ACL_FLOAT},      // dilation
      {{{3, 5, 6}, 2, 3, 1, 2, 1, 1}, ACL_FLOAT},                 // 3-D, unequal kernel
      {{{1, 8, 112, 112}, 3, 3, 2, 2, 1, 1}, ACL_FLOAT16},        // ResNet stem
      {{{2, 9, 10}, 3, 2, 2, 2, 1, 1}, ACL_BF16},
  };
  for (const bool ties : {false, true}) {
    for (const auto& [c, type] : cases) {
      SCOPED_TRACE("H " + std::to_string(c.shape[c.shape.size() - 2]) + " k " +
                   std::to_string(c.kh));
      std::vector<double> xv, want;
      std::vector<std::int32_t> want_idx;
      std::int64_t ho, wo;
      auto* x = input(c.shape, type, xv, 5, ties);
      pool_ref(c, true, xv, ho, wo, want, want_idx);
      const std::size_t es = type == ACL_FLOAT ? 4 : 2;
      auto* y = static_cast<std::uint8_t*>(alloc(want.size() * es));
      auto* yi = static_cast<std::int32_t*>(alloc(want.size() * 4));
      uint64_t ws = 0;
      aclOpExecutor* ex = nullptr;
      ASSERT_EQ(
          aclnnMaxPool2dWithIndicesGetWorkspaceSize(
              tensor(c.shape, type, x), ints({c.kh, c.kw}), ints({c.sh, c.sw}), ints({c.ph, c.pw}),
              ints({c.dh, c.dw}), c.ceil, tensor(out_dims(c, ho, wo), type, y),
              tensor(out_dims(c, ho, wo), ACL_INT32, yi), &ws, &ex),
          ACLNN_SUCCESS);
      ASSERT_EQ(run(aclnnMaxPool2dWithIndices, ws, ex), ACL_SUCCESS);
      for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(value(y, type, static_cast<std::int64_t>(i)), want[i]) << "element " << i;
        ASSERT_EQ(yi[i], want_idx[i]) << "element " << i;
      }
    }
  }
}

TEST_F(PoolTest, MaxPoolTakesOnnxPadsAndCeilMode) {
  {  // the documented example: 2x2 windows, stride 2, ceil mode on 3x3 planes
    auto* x = static_cast<float*>(alloc(36 * 4));
    auto* y = static_cast<float*>(alloc(16 * 4));
    for (int i = 0; i < 36; ++i) x[i] = static_cast<float>(i + 1);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnMaxPoolGetWorkspaceSize(tensor({2, 2, 3, 3}, ACL_FLOAT, x), ints({2, 2}),
                                           ints({2, 2}), 0, ints({0, 0, 0, 0}), ints({1, 1}), 1,
                                           tensor({2, 2, 2, 2}, ACL_FLOAT, y), &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnMaxPool, ws, ex), ACL_SUCCESS);
    const float want[16] = {5, 6, 8, 9, 14, 15, 17, 18, 23, 24, 26, 27, 32, 33, 35, 36};
    for (int i = 0; i < 16; ++i) EXPECT_EQ(y[i], want[i]) << i;
  }
  {  // (top, left, bottom, right) = (1, 0, 0, 1): Ho = (5 + 1 - 3) / 2 + 1, Wo = (6 + 1 - 3) / 2 +
     // 1
    PoolSpec c{{1, 3, 5, 6}, 3, 3, 2, 2, 1, 0};
    c.oh = 2;
    c.ow = 3;
    std::vector<double> xv, want;
    std::vector<std::int32_t> unused;
    std::int64_t ho, wo;
    auto* x = input(c.shape, ACL_FLOAT16, xv, 2);
    pool_ref(c, true, xv, ho, wo, want, unused);
    auto* y = static_cast<std::uint8_t*>(alloc(want.size() * 2));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnMaxPoolGetWorkspaceSize(tensor(c.shape, ACL_FLOAT16, x), ints({3}), ints({2}), 0,
                                           ints({1, 0, 0, 1}), ints({}), 0,
                                           tensor({1, 3, 2, 3}, ACL_FLOAT16, y), &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnMaxPool, ws, ex), ACL_SUCCESS);
    for (std::size_t i = 0; i < want.size(); ++i)
      EXPECT_EQ(value(y, ACL_FLOAT16, static_cast<std::int64_t>(i)), want[i]) << i;
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* x = arg({1, 1, 4, 4});
  aclTensor* y = arg({1, 1, 2, 2});
  EXPECT_EQ(
      aclnnMaxPoolGetWorkspaceSize(x, ints({2}), ints({2}), 1, ints({}), ints({}), 0, y, &ws, &ex),
      ACLNN_ERR_PARAM_INVALID);  // autoPad
  EXPECT_EQ(
      aclnnMaxPoolGetWorkspaceSize(x, ints({2}), ints({2}), 0, ints({}), ints({2}), 0, y, &ws, &ex),
      ACLNN_ERR_PARAM_INVALID);  // dilation
  EXPECT_EQ(aclnnMaxPoolGetWorkspaceSize(x, ints({2}), ints({2}), 0, ints({1, 1, 1}), ints({}), 0,
                                         y, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // three pads
  EXPECT_EQ(aclnnMaxPoolGetWorkspaceSize(x, ints({2}), ints({2}), 0, ints({2, 0, 1, 0}), ints({}),
                                         0, y, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // pads beyond the kernel
  EXPECT_EQ(
      aclnnMaxPoolGetWorkspaceSize(x, nullptr, ints({2}), 0, ints({}), ints({}), 0, y, &ws, &ex),
      ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(PoolTest, AvgPool2dMatchesTheReference) {
  struct Case {
    PoolSpec spec;
    aclDataType type;
    double tol;
  };
  std::vector<Case> cases = {
      {{{1, 2, 9, 9}, 3, 3, 2, 2, 1, 1}, ACL_FLOAT, 1e-5},
      {{{1, 2, 9, 9}, 3, 3, 2, 2, 1, 1}, ACL_FLOAT, 1e-5},
      {{{1, 1, 7, 7}, 3, 3, 2, 2, 1, 1, 1, 1, true}, ACL_FLOAT, 1e-5},
      {{{2, 3, 8, 10}, 2, 3, 2, 1, 1, 1}, ACL_FLOAT, 1e-5},
      {{{1, 4, 14, 14}, 2, 2, 2, 2, 0, 0}, ACL_FLOAT16, 2e-3},
      {{{4, 6, 6}, 3, 3, 3, 3, 0, 0}, ACL_BF16, 1e-2},
  };
  cases[1].spec.include_pad = false;
  cases[3].spec.divisor = 5;
  for (const Case& c : cases) {
    SCOPED_TRACE("case type " + std::to_string(c.type) + " include_pad " +
                 std::to_string(c.spec.include_pad) + " divisor " + std::to_string(c.spec.divisor));
    std::vector<double> xv, want;
    std::vector<std::int32_t> unused;
    std::int64_t ho, wo;
    auto* x = input(c.spec.shape, c.type, xv, 3);
    pool_ref(c.spec, false, xv, ho, wo, want, unused);
    const std::size_t es = c.type == ACL_FLOAT ? 4 : 2;
    auto* y = static_cast<std::uint8_t*>(alloc(want.size() * es));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnAvgPool2dGetWorkspaceSize(
                  tensor(c.spec.shape, c.type, x), ints({c.spec.kh, c.spec.kw}),
                  ints({c.spec.sh, c.spec.sw}), ints({c.spec.ph, c.spec.pw}), c.spec.ceil,
                  c.spec.include_pad, c.spec.divisor, 0,
                  tensor(out_dims(c.spec, ho, wo), c.type, y), &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnAvgPool2d, ws, ex), ACL_SUCCESS);
    for (std::size_t i = 0; i < want.size(); ++i) {
      ASSERT_NEAR(value(y, c.type, static_cast<std::int64_t>(i)), want[i],
                  c.tol * (std::fabs(want[i]) + 12.5))  // inputs up to 12.5 in magnitude
          << "element " << i;
    }
  }
}

TEST_F(PoolTest, AdaptiveAvgPool2dMatchesTheReference) {
  struct Case {
    std::vector<std::int64_t> shape;
    std::int64_t oh, ow;
    aclDataType type;
    double tol;
  };
  const std::vector<Case> cases = {
      {{2, 3, 7, 7}, 1, 1, ACL_FLOAT, 1e-5},   // ResNet's global pool
      {{1, 2, 10, 9}, 3, 4, ACL_FLOAT, 1e-5},  // uneven windows
      {{1, 64, 7, 7}, 1, 1, ACL_FLOAT16, 2e-3},
      {{5, 6, 6}, 6, 6, ACL_FLOAT, 1e-5},  // identity windows, 3-D
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("out " + std::to_string(c.oh) + "x" + std::to_string(c.ow));
    PoolSpec spec{c.shape, 1, 1, 1, 1, 0, 0};
    spec.adaptive = true;
    spec.oh = c.oh;
    spec.ow = c.ow;
    std::vector<double> xv, want;
    std::vector<std::int32_t> unused;
    std::int64_t ho, wo;
    auto* x = input(c.shape, c.type, xv, 11);
    pool_ref(spec, false, xv, ho, wo, want, unused);
    const std::size_t es = c.type == ACL_FLOAT ? 4 : 2;
    auto* y = static_cast<std::uint8_t*>(alloc(want.size() * es));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(
        aclnnAdaptiveAvgPool2dGetWorkspaceSize(tensor(c.shape, c.type, x), ints({c.oh, c.ow}),
                                               tensor(out_dims(spec, ho, wo), c.type, y), &ws, &ex),
        ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnAdaptiveAvgPool2d, ws, ex), ACL_SUCCESS);
    for (std::size_t i = 0; i < want.size(); ++i) {
      ASSERT_NEAR(value(y, c.type, static_cast<std::int64_t>(i)), want[i],
                  c.tol * (std::fabs(want[i]) + 12.5))
          << "element " << i;
    }
  }
}

TEST_F(PoolTest, PoolingRejectsBadArguments) {
  aclTensor* x = arg({1, 2, 8, 8});
  aclTensor* y = arg({1, 2, 4, 4});
  aclTensor* yi = arg({1, 2, 4, 4}, ACL_INT32);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto maxpool = [&](const aclTensor* self, aclIntArray* k, aclIntArray* pad, aclTensor* out,
                     aclTensor* idx) {
    return aclnnMaxPool2dWithIndicesGetWorkspaceSize(self, k, ints({2, 2}), pad, ints({1, 1}),
                                                     false, out, idx, &ws, &ex);
  };
  EXPECT_EQ(maxpool(x, ints({2, 2}), ints({0, 0}), y, yi), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnMaxPool2dWithIndices(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(maxpool(nullptr, ints({2, 2}), ints({0, 0}), y, yi), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(maxpool(x, nullptr, ints({0, 0}), y, yi), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(maxpool(x, ints({2, 2}), ints({0, 0}), y, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(maxpool(x, ints({0, 2}), ints({0, 0}), y, yi), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(maxpool(x, ints({2, 2}), ints({2, 0}), y, yi), ACLNN_ERR_PARAM_INVALID);  // pad > k/2
  EXPECT_EQ(maxpool(x, ints({2, 2, 2}), ints({0, 0}), y, yi), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(maxpool(x, ints({2, 2}), ints({0, 0}), arg({1, 2, 5, 4}), yi),
            ACLNN_ERR_PARAM_INVALID);  // out shape
  EXPECT_EQ(maxpool(x, ints({2, 2}), ints({0, 0}), y, arg({1, 2, 4, 4}, ACL_INT64)),
            ACLNN_ERR_PARAM_INVALID);  // indices type
  EXPECT_EQ(maxpool(arg({1, 2, 8, 8}, ACL_INT32), ints({2, 2}), ints({0, 0}),
                    arg({1, 2, 4, 4}, ACL_INT32), yi),
            ACLNN_ERR_PARAM_INVALID);  // self type
  EXPECT_EQ(maxpool(arg({16, 8}), ints({2, 2}), ints({0, 0}), y, yi),
            ACLNN_ERR_PARAM_INVALID);  // 2-D self
  EXPECT_EQ(aclnnAvgPool2dGetWorkspaceSize(x, ints({2, 2}), ints({2, 2}), ints({0, 0}), false, true,
                                           0, 0, y, &ws, &ex),
            ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAvgPool2d(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAvgPool2dGetWorkspaceSize(x, ints({2, 2}), ints({2, 2}), ints({0, 0}), false, true,
                                           -1, 0, y, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // negative divisor
  EXPECT_EQ(aclnnAvgPool2dGetWorkspaceSize(x, ints({2, 2}), ints({2, 2}), ints({0, 0}), false, true,
                                           0, 7, y, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // cubeMathType
  EXPECT_EQ(aclnnAvgPool2dGetWorkspaceSize(x, ints({2, 2}), nullptr, ints({0, 0}), false, true, 0,
                                           0, y, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnAdaptiveAvgPool2dGetWorkspaceSize(x, ints({4, 4}), y, &ws, &ex), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAdaptiveAvgPool2d(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAdaptiveAvgPool2dGetWorkspaceSize(x, ints({0, 4}), y, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnAdaptiveAvgPool2dGetWorkspaceSize(x, ints({3, 4}), y, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // out shape
  EXPECT_EQ(aclnnAdaptiveAvgPool2dGetWorkspaceSize(x, nullptr, y, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing::shape_test
