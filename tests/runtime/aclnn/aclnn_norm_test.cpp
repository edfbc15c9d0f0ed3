// SPDX-License-Identifier: Apache-2.0
// The norm operator family (runtime/aclnn/norm.cpp, reduce.cpp, norm_kernels.cpp,
// reduce_kernels.cpp) on FakeBackend: aclnnSoftmax (last and middle axes), aclnnLayerNorm
// (+WithImplMode), aclnnRmsNorm, aclnnAddRmsNorm, aclnnBatchNorm (inference), aclnnReduceSum,
// aclnnMean, aclnnAmax, aclnnAmin against double-precision host references computed from the
// values the device reads (inputs rounded to their type), on row lengths that are not multiples
// of 8 / 16, rows longer than UB (chunked kernels; also with a 16 KiB UB), 1 to 3 reduced axes,
// keepdim variants, the launch plan (kernels, blocks, recorded instructions), repeatable
// executors, and error codes.
//
// Tolerances (|got - ref| <= atol + rtol * |ref|): FLOAT atol 2e-5 rtol 2e-5 (softmax 1e-7 /
// 1e-5), FLOAT16 atol 2e-3 rtol 2e-3, BFLOAT16 atol 2e-2 rtol 1.6e-2; sums and means within
// 1e-6 x sum(|x|) + 1e-6 (fp32 accumulation) plus the output type's rounding (FLOAT16 1e-3,
// BFLOAT16 8e-3 relative); Amax / Amin exact.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "runtime/aclnn/meta.h"
#include "tests/runtime/aclnn_support.h"

namespace npusim::rt::testing {
namespace {

using Shape = std::vector<int64_t>;
using Values = std::vector<double>;
using First = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;
using Second = Phase2;

struct Tol {
  double atol, rtol;
};
Tol tol_of(aclDataType t) {
  if (t == ACL_FLOAT16) return {2e-3, 2e-3};
  if (t == ACL_BF16) return {2e-2, 1.6e-2};
  return {2e-5, 2e-5};
}

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

Values pattern(int64_t n, double seed, double scale = 3.0) {
  Values v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = scale * std::sin(0.37 * static_cast<double>(i) + seed) +
                                     0.5 * std::cos(1.3 * static_cast<double>(i));
  return v;
}

class NormTest : public OperatorTest {
 protected:
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

// ---- references --------------------------------------------------------------------------

// Softmax over the middle axis of [outer, len, inner].
Values softmax_axis_ref(const Values& x, int64_t len, int64_t inner) {
  Values y(x.size());
  const int64_t outer = static_cast<int64_t>(x.size()) / len / inner;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t r) { return static_cast<std::size_t>((o * len + r) * inner + i); };
      double m = x[at(0)], s = 0;
      for (int64_t r = 0; r < len; ++r) m = std::max(m, x[at(r)]);
      for (int64_t r = 0; r < len; ++r) s += std::exp(x[at(r)] - m);
      for (int64_t r = 0; r < len; ++r) y[at(r)] = std::exp(x[at(r)] - m) / s;
    }
  }
  return y;
}

Values softmax_ref(const Values& x, int64_t len) {
  Values y(x.size());
  for (std::size_t r = 0; r < x.size() / static_cast<std::size_t>(len); ++r) {
    const double* row = &x[r * static_cast<std::size_t>(len)];
    double m = row[0], s = 0;
    for (int64_t i = 0; i < len; ++i) m = std::max(m, row[i]);
    for (int64_t i = 0; i < len; ++i) s += std::exp(row[i] - m);
    for (int64_t i = 0; i < len; ++i)
      y[r * static_cast<std::size_t>(len) + static_cast<std::size_t>(i)] = std::exp(row[i] - m) / s;
  }
  return y;
}

struct NormRef {
  Values y, mean, rstd;
};
NormRef norm_ref(const Values& x, int64_t len, const Values* w, const Values* b, double eps,
                 bool rms) {
  NormRef o;
  o.y.resize(x.size());
  const std::size_t rows = x.size() / static_cast<std::size_t>(len);
  for (std::size_t r = 0; r < rows; ++r) {
    const double* row = &x[r * static_cast<std::size_t>(len)];
    double m = 0, v = 0;
    if (!rms) {
      for (int64_t i = 0; i < len; ++i) m += row[i];
      m /= static_cast<double>(len);
    }
    for (int64_t i = 0; i < len; ++i) v += (row[i] - m) * (row[i] - m);
    v /= static_cast<double>(len);
    const double rs = 1.0 / std::sqrt(v + eps);
    o.mean.push_back(m);
    o.rstd.push_back(rs);
    for (int64_t i = 0; i < len; ++i) {
      const auto k = static_cast<std::size_t>(i);
      double y = (row[i] - m) * rs;
      if (w) y *= (*w)[k];
      if (b) y += (*b)[k];
      o.y[r * static_cast<std::size_t>(len) + k] = y;
    }
  }
  return o;
}

// Reduction of x (shape) over `red` axes: sum or max; also the sum of |x| per output (for the
// fp32 accumulation tolerance).
struct ReduceRef {
  Values y, abs_sum;
  int64_t count = 1;
};
// extreme: 0 sum, 1 max, -1 min.
ReduceRef reduce_ref(const Values& x, const Shape& shape, const std::vector<bool>& red,
                     int extreme) {
  ReduceRef o;
  Shape out_shape;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (red[i]) o.count *= shape[i];
    out_shape.push_back(red[i] ? 1 : shape[i]);
  }
  const int64_t n_out = numel(out_shape);
  o.y.assign(static_cast<std::size_t>(n_out), extreme > 0   ? -INFINITY
                                              : extreme < 0 ? INFINITY
                                                            : 0.0);
  o.abs_sum.assign(static_cast<std::size_t>(n_out), 0.0);
  Shape idx(shape.size(), 0);
  for (std::size_t n = 0; n < x.size(); ++n) {
    int64_t off = 0;
    for (std::size_t i = 0; i < shape.size(); ++i) off = off * out_shape[i] + (red[i] ? 0 : idx[i]);
    auto& y = o.y[static_cast<std::size_t>(off)];
    y = extreme > 0 ? std::max(y, x[n]) : extreme < 0 ? std::min(y, x[n]) : y + x[n];
    o.abs_sum[static_cast<std::size_t>(off)] += std::fabs(x[n]);
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  return o;
}

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

// ---- LayerNorm / RmsNorm -----------------------------------------------------------------

TEST_F(NormTest, LayerNormMatchesDoubleReference) {
  struct Case {
    Shape shape, norm;
    aclDataType type, param_type, stat_type;
    bool weight, bias, stats;
  };
  const Case cases[] = {
      {{4, 33}, {33}, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, true, true, true},
      {{2, 3, 40}, {3, 40}, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, true, true, true},
      {{5, 77}, {77}, ACL_BF16, ACL_FLOAT, ACL_FLOAT, false, false, false},
      {{6, 19}, {19}, ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT, true, false, true},
      {{300, 16}, {16}, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, false, true, true},
      {{2, 50003}, {50003}, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, true, true, true},
      {{3, 41000}, {41000}, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT, true, true, true}};
  const double eps = 1e-5;
  double seed = 10;
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "numel " << numel(c.shape) << " type " << c.type);
    const int64_t len = numel(c.norm);
    const int64_t rows = numel(c.shape) / len;
    aclTensor* x = make(c.shape, c.type, pattern(numel(c.shape), seed += 1, 2.0));
    aclTensor* w = c.weight ? make(c.norm, c.param_type, pattern(len, seed + 0.5, 1.0)) : nullptr;
    aclTensor* b = c.bias ? make(c.norm, c.param_type, pattern(len, seed + 0.7, 0.5)) : nullptr;
    aclTensor* y = make(c.shape, c.type);
    Shape stat_shape(c.shape.begin(), c.shape.end() - static_cast<long>(c.norm.size()));
    for (std::size_t i = 0; i < c.norm.size(); ++i) stat_shape.push_back(1);
    aclTensor* mean = c.stats ? make(stat_shape, c.stat_type) : nullptr;
    aclTensor* rstd = c.stats ? make(stat_shape, c.stat_type) : nullptr;
    aclIntArray* shape = ints(c.norm);
    run(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnLayerNormGetWorkspaceSize(x, shape, w, b, eps, y, mean, rstd, ws, ex);
        },
        aclnnLayerNorm);
    const Values wv = w ? read(w) : Values(), bv = b ? read(b) : Values();
    const NormRef ref = norm_ref(read(x), len, w ? &wv : nullptr, b ? &bv : nullptr, eps, false);
    expect_close(read(y), ref.y, tol_of(c.type), "out");
    if (c.stats) {
      ASSERT_EQ(ref.mean.size(), static_cast<std::size_t>(rows));
      expect_close(read(mean), ref.mean, tol_of(c.stat_type), "mean");
      expect_close(read(rstd), ref.rstd, tol_of(c.stat_type), "rstd");
    }
  }
}

TEST_F(NormTest, LayerNormErrors) {
  aclTensor* x = make({4, 8}, ACL_FLOAT);
  aclTensor* y = make({4, 8}, ACL_FLOAT);
  aclTensor* w7 = make({7}, ACL_FLOAT);
  aclTensor* wi = make({8}, ACL_INT32);
  aclTensor* bad_mean = make({4, 2}, ACL_FLOAT);
  aclIntArray* s8 = ints({8});
  aclIntArray* s5 = ints({5});
  aclIntArray* s3 = ints({1, 4, 8});
  auto ln = [](const aclTensor* in, const aclIntArray* s, const aclTensor* w, aclTensor* out,
               aclTensor* mean) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnLayerNormGetWorkspaceSize(in, s, w, nullptr, 1e-5, out, mean, nullptr, ws, ex);
    };
  };
  EXPECT_EQ(status(ln(nullptr, s8, nullptr, y, nullptr)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(ln(x, nullptr, nullptr, y, nullptr)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(ln(x, s8, nullptr, nullptr, nullptr)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(ln(x, s5, nullptr, y, nullptr)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(ln(x, s3, nullptr, y, nullptr)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(ln(x, s8, w7, y, nullptr)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(ln(x, s8, wi, y, nullptr)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(ln(x, s8, nullptr, y, bad_mean)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(ln(x, s8, nullptr, y, nullptr)), ACLNN_SUCCESS);
  auto impl = [&](int32_t mode) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnLayerNormWithImplModeGetWorkspaceSize(x, s8, nullptr, nullptr, 1e-5, y, nullptr,
                                                        nullptr, mode, ws, ex);
    };
  };
  EXPECT_EQ(status(impl(3)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(impl(-1)), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(NormTest, LayerNormWithImplModeComputesLayerNorm) {
  aclTensor* x = make({3, 50}, ACL_FLOAT16, pattern(150, 1.0));
  aclTensor* y = make({3, 50}, ACL_FLOAT16);
  aclIntArray* shape = ints({50});
  run(
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLayerNormWithImplModeGetWorkspaceSize(x, shape, nullptr, nullptr, 1e-5, y,
                                                          nullptr, nullptr, 1, ws, ex);
      },
      aclnnLayerNormWithImplMode);
  expect_close(read(y), norm_ref(read(x), 50, nullptr, nullptr, 1e-5, false).y, tol_of(ACL_FLOAT16),
               "implMode 1");
}

TEST_F(NormTest, RmsNormMatchesDoubleReference) {
  struct Case {
    Shape shape, gamma;
    aclDataType type, gamma_type;
  };
  const Case cases[] = {
      {{3, 100}, {100}, ACL_FLOAT, ACL_FLOAT},     {{4, 1, 77}, {77}, ACL_FLOAT16, ACL_FLOAT16},
      {{6, 2, 9}, {2, 9}, ACL_BF16, ACL_FLOAT},    {{2, 4096}, {4096}, ACL_BF16, ACL_BF16},
      {{2, 60001}, {60001}, ACL_FLOAT, ACL_FLOAT}, {{2, 45000}, {45000}, ACL_FLOAT16, ACL_FLOAT16}};
  const double eps = 1e-6;
  double seed = 20;
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "numel " << numel(c.shape) << " type " << c.type);
    const int64_t len = numel(c.gamma);
    aclTensor* x = make(c.shape, c.type, pattern(numel(c.shape), seed += 1, 2.0));
    aclTensor* g = make(c.gamma, c.gamma_type, pattern(len, seed + 0.5, 1.0));
    aclTensor* y = make(c.shape, c.type);
    Shape rs_shape(c.shape.begin(), c.shape.end() - static_cast<long>(c.gamma.size()));
    for (std::size_t i = 0; i < c.gamma.size(); ++i) rs_shape.push_back(1);
    aclTensor* rstd = make(rs_shape, ACL_FLOAT);
    run(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnRmsNormGetWorkspaceSize(x, g, eps, y, rstd, ws, ex);
        },
        aclnnRmsNorm);
    const Values gv = read(g);
    const NormRef ref = norm_ref(read(x), len, &gv, nullptr, eps, true);
    expect_close(read(y), ref.y, tol_of(c.type), "yOut");
    expect_close(read(rstd), ref.rstd, tol_of(ACL_FLOAT), "rstdOut");
  }
}

TEST_F(NormTest, AddRmsNormMatchesDoubleReference) {
  struct Case {
    Shape shape, gamma;
    aclDataType type, gamma_type;
  };
  const Case cases[] = {{{3, 100}, {100}, ACL_FLOAT, ACL_FLOAT},
                        {{4, 1, 77}, {77}, ACL_FLOAT16, ACL_FLOAT16},
                        {{40, 24}, {24}, ACL_BF16, ACL_FLOAT},
                        {{2, 60001}, {60001}, ACL_FLOAT, ACL_FLOAT},
                        {{2, 45000}, {45000}, ACL_FLOAT16, ACL_FLOAT}};
  const double eps = 1e-6;
  double seed = 70;
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "numel " << numel(c.shape) << " type " << c.type);
    const int64_t len = numel(c.gamma);
    aclTensor* x1 = make(c.shape, c.type, pattern(numel(c.shape), seed += 1, 2.0));
    aclTensor* x2 = make(c.shape, c.type, pattern(numel(c.shape), seed + 0.3, 1.0));
    aclTensor* g = make(c.gamma, c.gamma_type, pattern(len, seed + 0.5, 1.0));
    aclTensor* y = make(c.shape, c.type);
    aclTensor* xo = make(c.shape, c.type);
    Shape rs_shape(c.shape.begin(), c.shape.end() - static_cast<long>(c.gamma.size()));
    for (std::size_t i = 0; i < c.gamma.size(); ++i) rs_shape.push_back(1);
    aclTensor* rstd = make(rs_shape, ACL_FLOAT);
    run(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnAddRmsNormGetWorkspaceSize(x1, x2, g, eps, y, rstd, xo, ws, ex);
        },
        aclnnAddRmsNorm);
    Values sum = read(x1);
    const Values b = read(x2), gv = read(g);
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += b[i];
    const NormRef ref = norm_ref(sum, len, &gv, nullptr, eps, true);
    expect_close(read(xo), sum, tol_of(c.type), "xOut");
    expect_close(read(y), ref.y, tol_of(c.type), "yOut");
    expect_close(read(rstd), ref.rstd, tol_of(ACL_FLOAT), "rstdOut");
  }
  aclTensor* a = make({2, 8}, ACL_FLOAT);
  aclTensor* h = make({2, 8}, ACL_FLOAT16);
  aclTensor* g = make({8}, ACL_FLOAT);
  aclTensor* r = make({2, 1}, ACL_FLOAT);
  EXPECT_EQ(status([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddRmsNormGetWorkspaceSize(a, h, g, 1e-6, a, r, a, ws, ex);
            }),
            ACLNN_ERR_PARAM_INVALID);  // x2's type differs
  EXPECT_EQ(status([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddRmsNormGetWorkspaceSize(a, a, g, 1e-6, a, r, nullptr, ws, ex);
            }),
            ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(NormTest, RmsNormErrors) {
  aclTensor* x = make({2, 8}, ACL_FLOAT16);
  aclTensor* g = make({8}, ACL_FLOAT16);
  aclTensor* g4 = make({4}, ACL_FLOAT16);
  aclTensor* y = make({2, 8}, ACL_FLOAT16);
  aclTensor* rs = make({2, 1}, ACL_FLOAT);
  aclTensor* rs_half = make({2, 1}, ACL_FLOAT16);
  aclTensor* rs_bad = make({3, 1}, ACL_FLOAT);
  auto rms = [](const aclTensor* a, const aclTensor* gg, const aclTensor* yy, const aclTensor* r) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnRmsNormGetWorkspaceSize(a, gg, 1e-6, yy, r, ws, ex);
    };
  };
  EXPECT_EQ(status(rms(x, nullptr, y, rs)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(rms(x, g, y, nullptr)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(rms(x, g4, y, rs)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(rms(x, g, y, rs_half)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(rms(x, g, y, rs_bad)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(rms(x, g, y, rs)), ACLNN_SUCCESS);
  // gamma is FLOAT16: cast to fp32 in the workspace, which the second phase must then get.
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnRmsNormGetWorkspaceSize(x, g, 1e-6, y, rs, &ws, &ex), ACLNN_SUCCESS);
  EXPECT_GE(ws, 8u * 4u);
  EXPECT_EQ(aclnnRmsNorm(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_NULLPTR);
}

// ---- BatchNorm ---------------------------------------------------------------------------

TEST_F(NormTest, BatchNormInferenceMatchesDoubleReference) {
  struct Case {
    Shape shape;
    aclDataType type, param_type;
    bool affine, save;
  };
  const Case cases[] = {{{2, 3, 4, 5}, ACL_FLOAT, ACL_FLOAT, true, true},
                        {{3, 5, 7}, ACL_FLOAT16, ACL_FLOAT16, true, false},
                        {{4, 6}, ACL_BF16, ACL_FLOAT, false, true},
                        {{1, 2, 50000}, ACL_FLOAT, ACL_FLOAT, true, false},
                        // ResNet-50's first BatchNorm: FLOAT16 planes of 12544 elements that just
                        // miss fitting UB whole (a chunk as long as the row was once planned).
                        {{1, 2, 112, 112}, ACL_FLOAT16, ACL_FLOAT, true, false}};
  const double eps = 1e-5;
  double seed = 30;
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "numel " << numel(c.shape) << " type " << c.type);
    const int64_t ch = c.shape[1];
    aclTensor* x = make(c.shape, c.type, pattern(numel(c.shape), seed += 1, 2.0));
    aclTensor* w = c.affine ? make({ch}, c.param_type, pattern(ch, seed + 0.1, 1.0)) : nullptr;
    aclTensor* b = c.affine ? make({ch}, c.param_type, pattern(ch, seed + 0.2, 1.0)) : nullptr;
    aclTensor* rm = make({ch}, c.param_type, pattern(ch, seed + 0.3, 0.5));
    Values var = pattern(ch, seed + 0.4, 1.0);
    for (double& v : var) v = v * v + 0.25;
    aclTensor* rv = make({ch}, c.param_type, var);
    aclTensor* y = make(c.shape, c.type);
    aclTensor* sm = c.save ? make({ch}, ACL_FLOAT) : nullptr;
    aclTensor* si = c.save ? make({ch}, ACL_FLOAT) : nullptr;
    run(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnBatchNormGetWorkspaceSize(x, w, b, rm, rv, false, 0.1, eps, y, sm, si, ws,
                                                ex);
        },
        aclnnBatchNorm);
    const Values xv = read(x), mv = read(rm), vv = read(rv);
    const Values wv = w ? read(w) : Values(), bv = b ? read(b) : Values();
    const int64_t plane = numel(c.shape) / c.shape[0] / ch;
    Values ref(xv.size());
    for (std::size_t i = 0; i < xv.size(); ++i) {
      const auto k = static_cast<std::size_t>((static_cast<int64_t>(i) / plane) % ch);
      double v = (xv[i] - mv[k]) / std::sqrt(vv[k] + eps);
      if (w) v = v * wv[k] + bv[k];
      ref[i] = v;
    }
    expect_close(read(y), ref, tol_of(c.type), "output");
    if (c.save) {
      Values inv(static_cast<std::size_t>(ch));
      for (std::size_t k = 0; k < inv.size(); ++k) inv[k] = 1.0 / std::sqrt(vv[k] + eps);
      expect_close(read(sm), mv, tol_of(ACL_FLOAT), "saveMean");
      expect_close(read(si), inv, tol_of(ACL_FLOAT), "saveInvstd");
    }
  }
}

TEST_F(NormTest, BatchNormErrors) {
  aclTensor* x = make({2, 3, 4}, ACL_FLOAT);
  aclTensor* y = make({2, 3, 4}, ACL_FLOAT);
  aclTensor* p = make({3}, ACL_FLOAT);
  aclTensor* p4 = make({4}, ACL_FLOAT);
  aclTensor* x1 = make({6}, ACL_FLOAT);
  auto bn = [](const aclTensor* in, const aclTensor* rm, bool training, aclTensor* out) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnBatchNormGetWorkspaceSize(in, nullptr, nullptr, const_cast<aclTensor*>(rm),
                                            const_cast<aclTensor*>(rm), training, 0.1, 1e-5, out,
                                            nullptr, nullptr, ws, ex);
    };
  };
  EXPECT_EQ(status(bn(x, p, true, y)), ACLNN_ERR_PARAM_INVALID);  // training mode
  EXPECT_EQ(status(bn(x, nullptr, false, y)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(bn(x, p4, false, y)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(bn(x1, p, false, x1)), ACLNN_ERR_PARAM_INVALID);  // 1-D input
  EXPECT_EQ(status(bn(nullptr, p, false, y)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(bn(x, p, false, y)), ACLNN_SUCCESS);
}

// The launches an operator plans: names in order, blocks run on the vector cores, and every
// block records pipe instructions (the simulated time comes from them, not from host loops).
TEST_F(NormTest, LaunchesAreTiledVectorKernels) {
  aclTensor* x = make({96, 512}, ACL_FLOAT16, pattern(96 * 512, 1.0));
  aclTensor* w = make({512}, ACL_FLOAT16, pattern(512, 2.0));
  aclTensor* b = make({512}, ACL_FLOAT16, pattern(512, 3.0));
  aclTensor* y = make({96, 512}, ACL_FLOAT16);
  aclTensor* mean = make({96, 1}, ACL_FLOAT16);
  aclTensor* rstd = make({96, 1}, ACL_FLOAT);
  aclIntArray* shape = ints({512});
  run(
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLayerNormGetWorkspaceSize(x, shape, w, b, 1e-5, y, mean, rstd, ws, ex);
      },
      aclnnLayerNorm);
  std::vector<std::string> names;
  for (const auto& t : fake().tasks()) {
    if (t.kind != TaskKind::kKernel) continue;
    names.push_back(t.name);
    EXPECT_GT(t.instrs, static_cast<std::uint64_t>(t.blocks_run)) << t.name;
    if (t.name == "LayerNorm") {
      EXPECT_EQ(t.blocks_run, 48u);  // 96 rows over 48 vector cores
    }
  }
  // weight and bias cast to fp32, the norm, the FLOAT16 mean cast from fp32 (rstd is FLOAT).
  EXPECT_EQ(names, (std::vector<std::string>{"Cast", "Cast", "LayerNorm", "Cast"}));
  // A sum of 2 rows of 65536 (few long rows): each row split into 16 segments of 4096 (the
  // largest divisor <= 48 cores / 2 rows), reduced by 32 blocks, then the 2 x 16 partials by 2.
  const std::size_t before = fake().tasks().size();
  aclTensor* big = make({2, 65536}, ACL_FLOAT, pattern(2 * 65536, 5.0));
  aclTensor* sum = make({2}, ACL_FLOAT);
  aclIntArray* last = ints({-1});
  run(
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnReduceSumGetWorkspaceSize(big, last, false, ACL_FLOAT, sum, ws, ex);
      },
      aclnnReduceSum);
  std::vector<std::uint32_t> blocks;
  for (std::size_t i = before; i < fake().tasks().size(); ++i)
    if (fake().tasks()[i].kind == TaskKind::kKernel) blocks.push_back(fake().tasks()[i].blocks_run);
  EXPECT_EQ(blocks, (std::vector<std::uint32_t>{32, 2}));
  const ReduceRef ref = reduce_ref(read(big), {2, 65536}, {false, true}, 0);
  expect_close(read(sum), ref.y, {1e-3, 1e-5}, "split sum");
}

// A repeatable executor runs again on new addresses (aclSetInputTensorAddr /
// aclSetOutputTensorAddr): the kernels take their tensors from the launch's addresses.
TEST_F(NormTest, RepeatableRmsNormFollowsNewAddresses) {
  aclTensor* x1 = make({4, 300}, ACL_FLOAT16, pattern(1200, 1.0));
  aclTensor* x2 = make({4, 300}, ACL_FLOAT16, pattern(1200, 2.0));
  aclTensor* g = make({300}, ACL_FLOAT16, pattern(300, 3.0));
  aclTensor* y1 = make({4, 300}, ACL_FLOAT16);
  aclTensor* y2 = make({4, 300}, ACL_FLOAT16);
  aclTensor* r1 = make({4, 1}, ACL_FLOAT);
  uint64_t ws_size = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnRmsNormGetWorkspaceSize(x1, g, 1e-6, y1, r1, &ws_size, &ex), ACLNN_SUCCESS);
  ASSERT_GT(ws_size, 0u);  // gamma is cast to fp32 in the workspace
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  void* ws = nullptr;
  ASSERT_EQ(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclnnRmsNorm(ws, ws_size, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetInputTensorAddr(ex, 0, x2, x2->data), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetOutputTensorAddr(ex, 0, y2, y2->data), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnRmsNorm(ws, ws_size, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
  aclrtFree(ws);
  const Values gv = read(g);
  expect_close(read(y1), norm_ref(read(x1), 300, &gv, nullptr, 1e-6, true).y, tol_of(ACL_FLOAT16),
               "run 1");
  expect_close(read(y2), norm_ref(read(x2), 300, &gv, nullptr, 1e-6, true).y, tol_of(ACL_FLOAT16),
               "run 2");
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
    switch (c.kind) {
      case Kind::kSum:
        run(
            [&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnReduceSumGetWorkspaceSize(x, dims, c.keep, c.out, y, ws, ex);
            },
            aclnnReduceSum);
        break;
      case Kind::kMean:
        run(
            [&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMeanGetWorkspaceSize(x, dims, c.keep, c.out, y, ws, ex);
            },
            aclnnMean);
        break;
      case Kind::kMax:
        run(
            [&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAmaxGetWorkspaceSize(x, dims, c.keep, y, ws, ex);
            },
            aclnnAmax);
        break;
      case Kind::kMin:
        run(
            [&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAminGetWorkspaceSize(x, dims, c.keep, y, ws, ex);
            },
            aclnnAmin);
        break;
    }
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
  run(
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLayerNormGetWorkspaceSize(x, shape, g, g, 1e-5, y, mean, rstd, ws, ex);
      },
      aclnnLayerNorm);
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
}  // namespace npusim::rt::testing
