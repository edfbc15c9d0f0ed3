// SPDX-License-Identifier: Apache-2.0
// Softmax and the reductions (runtime/aclnn/norm.cpp, reduce.cpp, norm_kernels.cpp,
// reduce_kernels.cpp) on FakeBackend: aclnnSoftmax (last and middle axes), aclnnReduceSum,
// aclnnMean, aclnnAmax, aclnnAmin against double-precision host references, 1 to 3 reduced
// axes, keepdim variants, rows longer than UB (chunked kernels; also with a 16 KiB UB), and
// error codes.
//
// Tolerances: softmax FLOAT atol 1e-7 rtol 1e-5, FLOAT16 / BFLOAT16 as in norm_support.h; sums
// and means within 1e-6 x sum(|x|) + 1e-6 (fp32 accumulation) plus the output type's rounding
// (FLOAT16 1e-3, BFLOAT16 8e-3 relative); Amax / Amin exact.
#include <cmath>
#include <cstdint>
#include <vector>

#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "tests/runtime/aclnn/norm_support.h"

namespace npusim::rt::testing::norm_test {
namespace {

// ---- Softmax -----------------------------------------------------------------------------

TEST_F(NormTest, SoftmaxMatchesDoubleReference) {
  struct Case {
    Shape shape;
    int64_t dim;
    aclDataType type;
  };
  const Case cases[] = {{{3, 37}, -1, ACL_FLOAT},
                        {{5, 1000}, 1, ACL_FLOAT},
                        {{2, 3, 17}, 2, ACL_FLOAT16},
                        {{7, 129}, -1, ACL_BF16},
                        {{4, 7, 1}, 1, ACL_FLOAT},
                        {{200, 24}, -1, ACL_FLOAT16},
                        {{2, 70001}, -1, ACL_FLOAT},
                        {{1, 90000}, 1, ACL_FLOAT16},
                        {{9}, 0, ACL_BF16},
                        // other axes, column-wise
                        {{3, 5, 7}, 1, ACL_FLOAT},
                        {{4, 300, 33}, -2, ACL_FLOAT16},
                        {{2000, 3}, 0, ACL_FLOAT},
                        {{2, 3, 2500, 4}, 1, ACL_BF16},
                        {{5, 3, 1}, 0, ACL_FLOAT}};
  double seed = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message()
                 << "shape[0] " << c.shape[0] << " numel " << numel(c.shape) << " type " << c.type);
    aclTensor* x = make(c.shape, c.type, pattern(numel(c.shape), seed += 1));
    aclTensor* y = make(c.shape, c.type);
    run([&](uint64_t* ws,
            aclOpExecutor** ex) { return aclnnSoftmaxGetWorkspaceSize(x, c.dim, y, ws, ex); },
        aclnnSoftmax);
    const auto d =
        static_cast<std::size_t>(c.dim < 0 ? c.dim + static_cast<int64_t>(c.shape.size()) : c.dim);
    const int64_t len = c.shape[d];
    int64_t inner = 1;
    for (std::size_t i = d + 1; i < c.shape.size(); ++i) inner *= c.shape[i];
    const Tol tol = c.type == ACL_FLOAT ? Tol{1e-7, 1e-5} : tol_of(c.type);
    expect_close(read(y), softmax_axis_ref(read(x), len, inner), tol, "softmax");
  }
}

TEST_F(NormTest, SoftmaxErrors) {
  aclTensor* x = make({3, 4}, ACL_FLOAT);
  aclTensor* y = make({3, 4}, ACL_FLOAT);
  aclTensor* wrong = make({4, 3}, ACL_FLOAT);
  aclTensor* xi = make({3, 4}, ACL_INT32);
  aclTensor* yh = make({3, 4}, ACL_FLOAT16);
  auto sm = [](const aclTensor* a, int64_t d, aclTensor* b) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnSoftmaxGetWorkspaceSize(a, d, b, ws, ex);
    };
  };
  // A transposed (non-contiguous) view of x's storage: refused.
  const int64_t view[2] = {4, 3}, strides[2] = {1, 4}, storage[2] = {3, 4};
  aclTensor* xt = aclCreateTensor(view, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 2,
                                  x->data);
  ASSERT_NE(xt, nullptr);
  tensors_.push_back(xt);
  EXPECT_EQ(status(sm(xt, 1, wrong)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(sm(nullptr, 1, y)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(sm(x, 1, nullptr)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(sm(x, 2, y)), ACLNN_ERR_PARAM_INVALID);  // dim out of range
  EXPECT_EQ(status(sm(x, -3, y)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(sm(x, 0, y)), ACLNN_SUCCESS);  // another axis: column-wise
  EXPECT_EQ(status(sm(x, 1, wrong)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(sm(xi, 1, y)), ACLNN_ERR_PARAM_INVALID);  // type
  EXPECT_EQ(status(sm(x, 1, yh)), ACLNN_ERR_PARAM_INVALID);  // out's type differs
  uint64_t ws = 0;
  EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(x, 1, y, &ws, nullptr), ACLNN_ERR_PARAM_NULLPTR);
}

// ---- ReduceSum / Mean / Amax -------------------------------------------------------------

enum class Kind { kSum, kMean, kMax, kMin };

struct ReduceCase {
  Kind kind;
  Shape shape, dims;
  bool keep;
  aclDataType in, out;
};

class NormReduceTest : public NormTest {
 public:
  void check(const ReduceCase& c, double seed) {
    SCOPED_TRACE(::testing::Message()
                 << "kind " << static_cast<int>(c.kind) << " numel " << numel(c.shape) << " dims "
                 << c.dims.size() << " keep " << c.keep << " in " << c.in << " out " << c.out);
    const auto rank = static_cast<int64_t>(c.shape.size());
    std::vector<bool> red(c.shape.size(), c.dims.empty());
    for (int64_t d : c.dims) red[static_cast<std::size_t>(d < 0 ? d + rank : d)] = true;
    Shape out_shape;
    for (std::size_t i = 0; i < c.shape.size(); ++i)
      if (!red[i] || c.keep) out_shape.push_back(red[i] ? 1 : c.shape[i]);
    aclTensor* x = make(c.shape, c.in, pattern(numel(c.shape), seed));
    aclTensor* y = make(out_shape, c.out);
    aclIntArray* dims = ints(c.dims);
    // Sum and Mean take the accumulation type, Amax and Amin do not.
    const First plan = [&](uint64_t* ws, aclOpExecutor** ex) {
      switch (c.kind) {
        case Kind::kSum:
          return aclnnReduceSumGetWorkspaceSize(x, dims, c.keep, c.out, y, ws, ex);
        case Kind::kMean:
          return aclnnMeanGetWorkspaceSize(x, dims, c.keep, c.out, y, ws, ex);
        case Kind::kMax:
          return aclnnAmaxGetWorkspaceSize(x, dims, c.keep, y, ws, ex);
        default:
          return aclnnAminGetWorkspaceSize(x, dims, c.keep, y, ws, ex);
      }
    };
    const Second second[] = {aclnnReduceSum, aclnnMean, aclnnAmax, aclnnAmin};
    run(plan, second[static_cast<int>(c.kind)]);
    ReduceRef ref = reduce_ref(read(x), c.shape, red,
                               c.kind == Kind::kMax   ? 1
                               : c.kind == Kind::kMin ? -1
                                                      : 0);
    const Values got = read(y);
    ASSERT_EQ(got.size(), ref.y.size());
    const double out_rel = c.out == ACL_FLOAT ? 0 : c.out == ACL_FLOAT16 ? 1e-3 : 8e-3;
    for (std::size_t i = 0; i < got.size(); ++i) {
      double expect = ref.y[i], scale = ref.abs_sum[i];
      if (c.kind == Kind::kMean) {
        expect /= static_cast<double>(ref.count);
        scale /= static_cast<double>(ref.count);
      }
      if (c.kind == Kind::kMax || c.kind == Kind::kMin) {
        ASSERT_EQ(got[i], expect) << "element " << i;  // exact
        continue;
      }
      const double tol = 1e-6 * scale + 1e-6 + out_rel * std::fabs(expect);
      ASSERT_NEAR(got[i], expect, tol) << "element " << i;
    }
  }
};

TEST_F(NormReduceTest, ReduceSumMeanAmaxMatchDoubleReference) {
  const ReduceCase cases[] = {{Kind::kSum, {4, 37}, {-1}, false, ACL_FLOAT, ACL_FLOAT},
                              {Kind::kSum, {3, 5, 7}, {1}, true, ACL_FLOAT16, ACL_FLOAT},
                              {Kind::kSum, {3, 5, 7}, {0, 2}, false, ACL_FLOAT, ACL_FLOAT16},
                              {Kind::kSum, {2, 3, 4, 5}, {}, true, ACL_BF16, ACL_FLOAT},
                              {Kind::kSum, {2, 3, 4, 5}, {0, 1, 3}, false, ACL_FLOAT, ACL_FLOAT},
                              {Kind::kSum, {3, 1, 5}, {1}, false, ACL_FLOAT, ACL_FLOAT},
                              {Kind::kSum, {2, 70001}, {1}, true, ACL_FLOAT, ACL_FLOAT},
                              {Kind::kSum, {3000, 3, 5}, {0}, false, ACL_FLOAT16, ACL_FLOAT},
                              {Kind::kSum, {4, 9, 3000}, {1}, false, ACL_FLOAT, ACL_BF16},
                              {Kind::kMean, {6, 10, 3}, {1}, false, ACL_FLOAT, ACL_FLOAT},
                              {Kind::kMean, {6, 10, 3}, {0, 1}, true, ACL_FLOAT16, ACL_FLOAT16},
                              {Kind::kMean, {5, 33}, {}, false, ACL_BF16, ACL_FLOAT},
                              {Kind::kMean, {2, 50000}, {-1}, false, ACL_FLOAT16, ACL_FLOAT},
                              {Kind::kMax, {5, 19}, {-1}, false, ACL_FLOAT, ACL_FLOAT},
                              {Kind::kMax, {4, 6, 9}, {0, 2}, true, ACL_FLOAT16, ACL_FLOAT16},
                              {Kind::kMax, {3, 7, 11}, {}, false, ACL_BF16, ACL_BF16},
                              {Kind::kMax, {2, 80000}, {1}, false, ACL_FLOAT, ACL_FLOAT},
                              {Kind::kMax, {7, 5000}, {0}, true, ACL_FLOAT, ACL_FLOAT},
                              {Kind::kMin, {5, 19}, {-1}, true, ACL_FLOAT16, ACL_FLOAT16},
                              {Kind::kMin, {4, 6, 9}, {1}, false, ACL_FLOAT, ACL_FLOAT},
                              {Kind::kMin, {3, 7, 11}, {}, false, ACL_BF16, ACL_BF16},
                              {Kind::kMin, {2, 80000}, {1}, false, ACL_FLOAT, ACL_FLOAT}};
  double seed = 40;
  for (const ReduceCase& c : cases) check(c, seed += 1);
}

TEST_F(NormTest, ReductionErrors) {
  aclTensor* x = make({3, 4}, ACL_FLOAT);
  aclTensor* y3 = make({3}, ACL_FLOAT);
  aclTensor* y31 = make({3, 1}, ACL_FLOAT);
  aclTensor* y3h = make({3}, ACL_FLOAT16);
  aclTensor* xi = make({3, 4}, ACL_INT32);
  aclIntArray* d1 = ints({1});
  aclIntArray* dup = ints({1, -1});
  aclIntArray* far = ints({2});
  auto sum = [](const aclTensor* a, const aclIntArray* d, bool keep, aclDataType t, aclTensor* o) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnReduceSumGetWorkspaceSize(a, d, keep, t, o, ws, ex);
    };
  };
  EXPECT_EQ(status(sum(x, d1, false, ACL_FLOAT, y3)), ACLNN_SUCCESS);
  EXPECT_EQ(status(sum(x, d1, true, ACL_FLOAT, y31)), ACLNN_SUCCESS);
  EXPECT_EQ(status(sum(x, d1, true, ACL_FLOAT, y3)), ACLNN_ERR_PARAM_INVALID);     // keepDims shape
  EXPECT_EQ(status(sum(x, d1, false, ACL_FLOAT16, y3)), ACLNN_ERR_PARAM_INVALID);  // dtype != out
  EXPECT_EQ(status(sum(x, dup, false, ACL_FLOAT, y3)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(sum(x, far, false, ACL_FLOAT, y3)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(sum(xi, d1, false, ACL_FLOAT, y3)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(sum(x, nullptr, false, ACL_FLOAT, y3)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(sum(nullptr, d1, false, ACL_FLOAT, y3)), ACLNN_ERR_PARAM_NULLPTR);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnAmaxGetWorkspaceSize(x, d1, false, y3h, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMeanGetWorkspaceSize(x, d1, false, ACL_FLOAT, nullptr, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
}

// Reductions and norms with a small UB: every row and column block is chunked.
class NormSmallUbTest : public NormReduceTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.aicore.ub.value = 16 * 1024;
  }
};

TEST_F(NormSmallUbTest, ChunkedRowsAndColumns) {
  const ReduceCase cases[] = {{Kind::kSum, {5, 300, 40}, {1}, false, ACL_FLOAT16, ACL_FLOAT},
                              {Kind::kMax, {3, 5000}, {-1}, true, ACL_BF16, ACL_BF16},
                              {Kind::kMean, {2, 301, 2500}, {1}, false, ACL_FLOAT, ACL_FLOAT},
                              {Kind::kMin, {3, 5000}, {-1}, false, ACL_FLOAT16, ACL_FLOAT16},
                              {Kind::kMin, {5, 300, 40}, {1}, true, ACL_FLOAT, ACL_FLOAT}};
  double seed = 60;
  for (const ReduceCase& c : cases) check(c, seed += 1);
  aclTensor* x = make({3, 3000}, ACL_FLOAT16, pattern(9000, 1.0, 2.0));
  aclTensor* g = make({3000}, ACL_FLOAT, pattern(3000, 2.0, 1.0));
  aclTensor* y = make({3, 3000}, ACL_FLOAT16);
  aclTensor* mean = make({3, 1}, ACL_FLOAT);
  aclTensor* rstd = make({3, 1}, ACL_FLOAT);
  aclIntArray* shape = ints({3000});
  layer_norm(x, shape, g, g, 1e-5, y, mean, rstd);
  const Values gv = read(g);
  const NormRef ref = norm_ref(read(x), 3000, &gv, &gv, 1e-5, false);
  expect_close(read(y), ref.y, tol_of(ACL_FLOAT16), "out");
  expect_close(read(mean), ref.mean, tol_of(ACL_FLOAT), "mean");
  expect_close(read(rstd), ref.rstd, tol_of(ACL_FLOAT), "rstd");
  aclTensor* s = make({3, 3000}, ACL_FLOAT16);
  run([&](uint64_t* ws,
          aclOpExecutor** ex) { return aclnnSoftmaxGetWorkspaceSize(x, 1, s, ws, ex); },
      aclnnSoftmax);
  expect_close(read(s), softmax_ref(read(x), 3000), tol_of(ACL_FLOAT16), "softmax");
  aclTensor* xm = make({3, 400, 50}, ACL_FLOAT16, pattern(60000, 4.0));
  aclTensor* ym = make({3, 400, 50}, ACL_FLOAT16);
  run([&](uint64_t* ws,
          aclOpExecutor** ex) { return aclnnSoftmaxGetWorkspaceSize(xm, 1, ym, ws, ex); },
      aclnnSoftmax);
  expect_close(read(ym), softmax_axis_ref(read(xm), 400, 50), tol_of(ACL_FLOAT16), "softmax dim 1");
  aclTensor* r = make({3, 3000}, ACL_FLOAT);
  aclTensor* rs = make({3, 1}, ACL_FLOAT);
  aclTensor* xf = make({3, 3000}, ACL_FLOAT, pattern(9000, 3.0, 2.0));
  run([&](uint64_t* ws,
          aclOpExecutor** ex) { return aclnnRmsNormGetWorkspaceSize(xf, g, 1e-6, r, rs, ws, ex); },
      aclnnRmsNorm);
  const NormRef rref = norm_ref(read(xf), 3000, &gv, nullptr, 1e-6, true);
  expect_close(read(r), rref.y, tol_of(ACL_FLOAT), "rms");
  expect_close(read(rs), rref.rstd, tol_of(ACL_FLOAT), "rms rstd");
  // Batch norm with more channels than one UB tile of the statistics kernel.
  const Values mv = pattern(3000, 1.5, 0.5);
  Values vv = pattern(3000, 2.5, 1.0);
  for (double& v : vv) v = v * v + 0.5;
  aclTensor* bx = make({2, 3000, 3}, ACL_FLOAT, pattern(18000, 3.5, 2.0));
  aclTensor* by = make({2, 3000, 3}, ACL_FLOAT);
  aclTensor* bm = make({3000}, ACL_FLOAT, mv);
  aclTensor* bv = make({3000}, ACL_FLOAT, vv);
  run(
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnBatchNormGetWorkspaceSize(bx, g, nullptr, bm, bv, false, 0.1, 1e-5, by, nullptr,
                                              nullptr, ws, ex);
      },
      aclnnBatchNorm);
  const Values xv = read(bx);
  Values bref(xv.size());
  for (std::size_t i = 0; i < xv.size(); ++i) {
    const std::size_t c = (i / 3) % 3000;
    bref[i] = (xv[i] - mv[c]) / std::sqrt(vv[c] + 1e-5) * gv[c];
  }
  expect_close(read(by), bref, tol_of(ACL_FLOAT), "batch norm");
}

}  // namespace
}  // namespace npusim::rt::testing::norm_test
