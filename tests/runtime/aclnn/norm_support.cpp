// SPDX-License-Identifier: Apache-2.0
// Double-precision references of the norm family's tests (norm_support.h).
#include "tests/runtime/aclnn/norm_support.h"

#include <algorithm>

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

}  // namespace npusim::rt::testing::norm_test
