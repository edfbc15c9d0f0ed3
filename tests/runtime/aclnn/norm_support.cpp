// SPDX-License-Identifier: Apache-2.0
// Double-precision references of the norm family's tests and the shared RMS norm check
// (norm_support.h).
#include "tests/runtime/aclnn/norm_support.h"

#include <algorithm>

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_rms_norm.h"

namespace npusim::rt::testing::norm_test {

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

// aclnnRmsNorm of x, or with `add` aclnnAddRmsNorm of x1 + x2 (also returning the sum), over the
// trailing `gamma` dimensions, against the double reference.
void NormTest::check_rms_norm(const RmsCase& c, double seed, bool add) {
  SCOPED_TRACE(::testing::Message() << "numel " << numel(c.shape) << " type " << c.type);
  const double eps = 1e-6;
  const int64_t len = numel(c.gamma);
  aclTensor* x1 = make(c.shape, c.type, pattern(numel(c.shape), seed, 2.0));
  aclTensor* x2 = add ? make(c.shape, c.type, pattern(numel(c.shape), seed + 0.3, 1.0)) : nullptr;
  aclTensor* g = make(c.gamma, c.gamma_type, pattern(len, seed + 0.5, 1.0));
  aclTensor* y = make(c.shape, c.type);
  aclTensor* xo = add ? make(c.shape, c.type) : nullptr;
  Shape rs_shape(c.shape.begin(), c.shape.end() - static_cast<long>(c.gamma.size()));
  for (std::size_t i = 0; i < c.gamma.size(); ++i) rs_shape.push_back(1);
  aclTensor* rstd = make(rs_shape, ACL_FLOAT);
  if (add) {
    run(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnAddRmsNormGetWorkspaceSize(x1, x2, g, eps, y, rstd, xo, ws, ex);
        },
        aclnnAddRmsNorm);
  } else {
    run(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnRmsNormGetWorkspaceSize(x1, g, eps, y, rstd, ws, ex);
        },
        aclnnRmsNorm);
  }
  Values sum = read(x1);
  const Values gv = read(g);
  if (add) {
    const Values b = read(x2);
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += b[i];
    expect_close(read(xo), sum, tol_of(c.type), "xOut");
  }
  const NormRef ref = norm_ref(sum, len, &gv, nullptr, eps, true);
  expect_close(read(y), ref.y, tol_of(c.type), "yOut");
  expect_close(read(rstd), ref.rstd, tol_of(ACL_FLOAT), "rstdOut");
}

}  // namespace npusim::rt::testing::norm_test
