// SPDX-License-Identifier: Apache-2.0
// What the twin's normalization APIs (lib/normalization) share: splitting rows over passes of a
// temporary buffer, and the row-wise building blocks, each a few basic vector instructions:
//
//   row_mean(mean, src, scratch)      scratch = src * (1/n); mean[i] = Sum of row i's first n
//                                     elements (Muls + Sum)
//   spread_rows(dst, v)               dst[i][j] = v[i]     (Broadcast, axis 1)
//   spread_cols(dst, v)               dst[i][j] = v[j]     (Broadcast, axis 0)
//   normalize_rows(...)               mean, variance (both over the first n of each row's pitch
//                                     elements) and y = (x - mean) / sqrt(variance + eps) * gamma
//                                     + beta: LayerNorm's and DeepNorm's body (15 instructions)
//
// All on the vector pipe; rows are `pitch` elements apart, pitch * 4 bytes a multiple of 32.
// The APIs compute in float (the twin supports float operands for them: see each header).
#pragma once

#include <cstdint>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/norm_ops.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace npusim::ascendc::norm {

using AscendC::LocalTensor;

/// A block of rows: `rows` rows of `pitch` elements, the first `n` of each valid.
struct Rows {
  std::uint32_t rows = 0;
  std::uint32_t pitch = 0;
  std::uint32_t n = 0;
  std::int32_t count() const { return static_cast<std::int32_t>(rows * pitch); }
};

/// Rows per pass when each row needs `row_bytes` of temporary space plus `fixed_bytes` once, or
/// a failure naming `api` and `tiling` when not even one row fits.
inline std::uint32_t rows_per_pass(const char* api, const char* tiling, std::uint32_t tmp_bytes,
                                   std::uint32_t row_bytes, std::uint32_t fixed_bytes,
                                   std::uint32_t rows) {
  const std::uint32_t usable = tmp_bytes > fixed_bytes ? tmp_bytes - fixed_bytes : 0;
  const std::uint32_t fit = row_bytes == 0 ? rows : usable / row_bytes;
  if (fit == 0 && rows > 0) {
    fail(api,
         "temporary space of %u bytes holds no row: one row needs %u bytes (+%u); reserve what "
         "%s reports",
         tmp_bytes, row_bytes + fixed_bytes, fixed_bytes, tiling);
  }
  return fit < rows ? fit : rows;
}

/// Fails naming `api` unless a row's pitch is a whole number of 32-byte blocks of float and n
/// lies in (0, pitch].
inline void check_rows(const char* api, const Rows& r) {
  if (r.pitch == 0 || r.pitch % 8 != 0 || r.n == 0 || r.n > r.pitch) {
    fail(api,
         "rows of %u valid elements in a pitch of %u: the pitch must be a positive multiple "
         "of 8 floats (32 bytes) and 0 < valid <= pitch",
         r.n, r.pitch);
  }
}

/// 8-float (32-byte) rounding.
inline std::uint32_t align8(std::uint32_t n) { return (n + 7) / 8 * 8; }

inline void row_sum(const LocalTensor<float>& sum, const LocalTensor<float>& src, const Rows& r) {
  AscendC::Sum(sum, src, AscendC::SumParams{r.rows, r.pitch, r.n});
}

inline void row_mean(const LocalTensor<float>& mean, const LocalTensor<float>& src,
                     const LocalTensor<float>& scratch, const Rows& r, float inv_n) {
  AscendC::Muls(scratch, src, inv_n, r.count());
  row_sum(mean, scratch, r);
}

inline void spread_rows(const LocalTensor<float>& dst, const LocalTensor<float>& v, const Rows& r) {
  const std::uint32_t dst_shape[2] = {r.rows, r.pitch};
  const std::uint32_t src_shape[2] = {r.rows, 1};
  AscendC::Broadcast<float, 2, 1>(dst, v, dst_shape, src_shape);
}

inline void spread_cols(const LocalTensor<float>& dst, const LocalTensor<float>& v, const Rows& r) {
  const std::uint32_t dst_shape[2] = {r.rows, r.pitch};
  const std::uint32_t src_shape[2] = {1, r.pitch};
  AscendC::Broadcast<float, 2, 0>(dst, v, dst_shape, src_shape);
}

/// The operands of normalize_rows for one pass.
struct NormRowsArgs {
  LocalTensor<float> y, mean, variance, src, diff, scratch, gamma, beta;
  float eps = 0;
  bool use_gamma = true;
  bool use_beta = true;
};

/// mean and variance of each row of src (over its first n elements), then
/// y = (src - mean) / sqrt(variance + eps) * gamma + beta. diff and scratch are rows x pitch
/// floats of temporary space; src may be diff (DeepNorm), y may be src (computed last).
inline void normalize_rows(const NormRowsArgs& a, const Rows& r) {
  const float inv_n = 1.0f / static_cast<float>(r.n);
  const std::int32_t c = r.count();
  row_mean(a.mean, a.src, a.scratch, r, inv_n);
  spread_rows(a.scratch, a.mean, r);
  AscendC::Sub(a.diff, a.src, a.scratch, c);
  AscendC::Mul(a.scratch, a.diff, a.diff, c);
  row_mean(a.variance, a.scratch, a.scratch, r, inv_n);
  spread_rows(a.scratch, a.variance, r);
  AscendC::Adds(a.scratch, a.scratch, a.eps, c);
  AscendC::Sqrt(a.scratch, a.scratch, c);
  AscendC::Div(a.y, a.diff, a.scratch, c);
  if (a.use_gamma) {
    spread_cols(a.scratch, a.gamma, r);
    AscendC::Mul(a.y, a.y, a.scratch, c);
  }
  if (a.use_beta) {
    spread_cols(a.scratch, a.beta, r);
    AscendC::Add(a.y, a.y, a.scratch, c);
  }
}

}  // namespace npusim::ascendc::norm
