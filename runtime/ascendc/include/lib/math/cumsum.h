// SPDX-License-Identifier: Apache-2.0
// The CumSum high-level API of the Ascend C twin (half and float) on an outter x inner matrix
// (CumSumInfo), row by row (CUMSUM_ALGORITHM_LINEBYLINE):
//   first axis (isLastAxis false): row i of dst = row i - 1 of dst + row i of src, and
//     lastRowTensor (outputLastRow true) = the last row of dst (inner elements);
//   last axis (isLastAxis true): column j of dst = column j - 1 of dst + column j of src, and
//     lastRowTensor = the last column of dst (outter elements).
// The Sklansky algorithm (another architecture's) fails the kernel naming CumSum.
// Timing, on the vector pipe: first axis, float: Muls (row 0 copied), one Add per further row
// (inner elements each), Muls for the last row; half accumulates in float in the temporary
// buffer: Cast the row in, Add, Cast it out (3 instructions per row). Last axis: the matrix is
// transposed into the temporary buffer by a Gather (its byte offsets computed by CreateVecIndex,
// Duplicate, Div, Muls, Sub, Muls, Add, Muls), summed down its first axis as above, and gathered
// back (8 more for the offsets, a Gather). Temporary space: first axis none for float, 8 x inner
// bytes for half; last axis 12 bytes per element for the offsets, two transposed copies and, for
// half, 8 x outter bytes. Host side: GetCumSumMaxMinTmpSize (tiling/math/cumsum_tiling.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/math/math_common.h"
#include "npusim/ascendc/shape_ops.h"
#include "npusim/ascendc/vector_basic.h"

namespace AscendC {

enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
  CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
constexpr CumSumConfig defaultCumSumConfig = {};
struct CumSumInfo {
  std::uint32_t outter{0};
  std::uint32_t inner{0};
};

}  // namespace AscendC

namespace npusim::ascendc {

/// Row-by-row sums down the first axis; half through float rows in `tmp` (2 x inner floats).
template <class T>
void cumsum_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                 const AscendC::LocalTensor<std::uint8_t>& tmp, std::uint32_t outter,
                 std::uint32_t inner) {
  const auto c = static_cast<std::int32_t>(inner);
  if constexpr (std::is_same_v<T, float>) {
    AscendC::Muls(dst, src, 1.0f, c);
    for (std::uint32_t i = 1; i < outter; ++i)
      AscendC::Add(dst[i * inner], dst[(i - 1) * inner], src[i * inner], c);
  } else {
    const AscendC::LocalTensor<float> acc = tmp.ReinterpretCast<float>();
    const AscendC::LocalTensor<float> row = acc[inner];
    AscendC::Cast(acc, src, AscendC::RoundMode::CAST_NONE, inner);
    AscendC::Cast(dst, acc, AscendC::RoundMode::CAST_RINT, inner);
    for (std::uint32_t i = 1; i < outter; ++i) {
      AscendC::Cast(row, src[i * inner], AscendC::RoundMode::CAST_NONE, inner);
      AscendC::Add(acc, acc, row, c);
      AscendC::Cast(dst[i * inner], acc, AscendC::RoundMode::CAST_RINT, inner);
    }
  }
}

/// Bytes of temporary space CumSum needs for an outter x inner matrix of T.
template <class T>
std::uint32_t cumsum_tmp_bytes(bool last_axis, std::uint32_t outter, std::uint32_t inner) {
  constexpr std::uint32_t kHalf = std::is_same_v<T, float> ? 0 : 8;
  if (!last_axis) return kHalf * inner;
  return outter * inner * (12 + 2 * static_cast<std::uint32_t>(sizeof(T))) + kHalf * outter;
}

/// off[t] = byte offset in a rows x cols matrix of T of the element that is element t of its
/// transpose: t = j x rows + r -> (r x cols + j) x sizeof(T). q and d are n int32 of scratch.
template <class T>
void transpose_offsets(const AscendC::LocalTensor<std::int32_t>& off,
                       const AscendC::LocalTensor<std::int32_t>& q,
                       const AscendC::LocalTensor<std::int32_t>& d, std::uint32_t rows,
                       std::uint32_t cols) {
  const std::uint32_t n = rows * cols;
  const auto c = static_cast<std::int32_t>(n);
  AscendC::CreateVecIndex(off, 0, n);
  AscendC::Duplicate(d, static_cast<std::int32_t>(rows), c);
  AscendC::Div(q, off, d, c);  // j
  AscendC::Muls(d, q, static_cast<std::int32_t>(rows), c);
  AscendC::Sub(off, off, d, c);  // r
  AscendC::Muls(off, off, static_cast<std::int32_t>(cols), c);
  AscendC::Add(off, off, q, c);
  AscendC::Muls(off, off, static_cast<std::int32_t>(sizeof(T)), c);
}

/// Sums along each row: transposed into `tmp`, summed down the first axis, gathered back.
template <class T>
void cumsum_columns(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& last_col,
                    const AscendC::LocalTensor<T>& src,
                    const AscendC::LocalTensor<std::uint8_t>& tmp, std::uint32_t outter,
                    std::uint32_t inner, bool output_last) {
  const std::uint32_t n = outter * inner;
  const AscendC::LocalTensor<std::int32_t> off = tmp.ReinterpretCast<std::int32_t>();
  const AscendC::LocalTensor<std::int32_t> q = off[n];
  const AscendC::LocalTensor<std::int32_t> d = off[2 * n];
  const AscendC::LocalTensor<T> across = tmp[12 * n].ReinterpretCast<T>();
  const AscendC::LocalTensor<T> sums = across[n];
  const AscendC::LocalTensor<std::uint8_t> rows_tmp = tmp[n * (12 + 2 * sizeof(T))];
  const AscendC::LocalTensor<std::uint32_t> offsets = off.ReinterpretCast<std::uint32_t>();
  transpose_offsets<T>(off, q, d, outter, inner);
  AscendC::Gather(across, src, offsets, 0, n);  // inner x outter
  cumsum_rows(sums, across, rows_tmp, inner, outter);
  transpose_offsets<T>(off, q, d, inner, outter);
  AscendC::Gather(dst, sums, offsets, 0, n);
  if (output_last) {
    AscendC::Muls(last_col, sums[(inner - 1) * outter], T(1.0f),
                  static_cast<std::int32_t>(outter));
  }
}

template <class T, const AscendC::CumSumConfig& kConfig>
void cumsum(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& last_row,
            const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<std::uint8_t>& tmp,
            const AscendC::CumSumInfo& info) {
  static_assert(kIsHalfOrFloat<T>, "CumSum supports half and float");
  if (kConfig.algorithm != AscendC::CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE)
    fail("CumSum", "only CUMSUM_ALGORITHM_LINEBYLINE is supported on this architecture");
  if (info.outter == 0 || info.inner == 0 || (info.inner * sizeof(T)) % 32 != 0)
    fail("CumSum", "outter %u x inner %u: both must be positive, inner x sizeof(T) a multiple "
         "of 32 bytes", info.outter, info.inner);
  const std::uint32_t need = cumsum_tmp_bytes<T>(kConfig.isLastAxis, info.outter, info.inner);
  if (tmp.GetSize() < need)
    fail("CumSum", "sharedTmpBuffer of %u bytes is below the %u bytes it needs "
         "(GetCumSumMaxMinTmpSize)", tmp.GetSize(), need);
  if (kConfig.isLastAxis) {
    cumsum_columns(dst, last_row, src, tmp, info.outter, info.inner, kConfig.outputLastRow);
    return;
  }
  cumsum_rows(dst, src, tmp, info.outter, info.inner);
  if (kConfig.outputLastRow) {
    const auto c = static_cast<std::int32_t>(info.inner);
    AscendC::Muls(last_row, dst[(info.outter - 1) * info.inner], T(1.0f), c);
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& lastRowTensor,
                   const LocalTensor<T>& srcTensor,
                   const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                   const CumSumInfo& cumSumInfo) {
  npusim::ascendc::cumsum<T, config>(dstTensor, lastRowTensor, srcTensor, sharedTmpBuffer,
                                     cumSumInfo);
}

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& lastRowTensor,
                   const LocalTensor<T>& srcTensor, const CumSumInfo& cumSumInfo) {
  const std::uint32_t bytes = npusim::ascendc::cumsum_tmp_bytes<T>(
      config.isLastAxis, cumSumInfo.outter, cumSumInfo.inner);
  const npusim::ascendc::HighLevelTmp tmp("CumSum", "GetCumSumMaxMinTmpSize", bytes, bytes);
  npusim::ascendc::cumsum<T, config>(dstTensor, lastRowTensor, srcTensor,
                                     bytes == 0 ? LocalTensor<std::uint8_t>()
                                                : tmp.as<std::uint8_t>(),
                                     cumSumInfo);
}

}  // namespace AscendC
