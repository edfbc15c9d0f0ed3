// SPDX-License-Identifier: Apache-2.0
// The byte-mask Select high-level API of the Ascend C twin (and the mask conversion DropOut's
// byte mode shares, lib/filter/dropout.h):
//   Select(dst, src0Tensor, src1Scalar, mask, sharedTmpBuffer, SelectWithBytesMaskShapeInfo)
//       dst = mask == 0 ? src0 : src1          (one mask element per source element)
//   Select(dst, src0Scalar, src1Tensor, mask, sharedTmpBuffer, info)
//       dst = mask == 0 ? src0 : src1
// The tensors are [firstAxis, srcLastAxis]; the mask is [firstAxis, maskLastAxis] with
// maskLastAxis >= srcLastAxis (the extra mask columns are ignored). half / float data; mask
// elements bool, (u)int8, (u)int16 or (u)int32.
// Timing (vector pipe), per pass over the temporary buffer (all rows at once when the mask has
// no extra columns, else per row): Cast of the mask to half (float for 32-bit masks), Compares
// with 0 into a bit mask, Select with the scalar. Temporary space: the cast mask and its bits
// (3 bytes per element for masks up to 16 bits, 5 for 32-bit ones, plus 64 bytes of alignment).
// Host side: GetSelectMaxMinTmpSize (tiling/filter/select_tiling.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/half.h"
#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"
#include "npusim/ascendc/vector_select.h"

namespace AscendC {

struct SelectWithBytesMaskShapeInfo {
  std::uint32_t firstAxis = 0;
  std::uint32_t srcLastAxis = 0;
  std::uint32_t maskLastAxis = 0;
};

}  // namespace AscendC

namespace npusim::ascendc {

/// The type a mask of U elements is compared in (after a Cast), and the element type the Cast
/// reads (bool masks are read as bytes).
template <class U>
using MaskCmp = std::conditional_t<sizeof(U) <= 2, Half, float>;
template <class U>
using MaskElem = std::conditional_t<std::is_same_v<U, bool>, std::uint8_t, U>;

/// Temporary bytes per element of the mask conversion, and the alignment slack of its two parts.
template <class U>
constexpr std::uint32_t kMaskTmpPerElem = sizeof(MaskCmp<U>) + 1;
constexpr std::uint32_t kMaskTmpSlack = 64;

/// Where the bits of a pass of `pass` elements sit in the temporary buffer (bytes).
template <class U>
std::uint32_t mask_bits_offset(std::uint32_t pass) {
  return (pass * static_cast<std::uint32_t>(sizeof(MaskCmp<U>)) + 31) / 32 * 32;
}

/// Elements per pass of the mask conversion over `row` elements (fails naming api / tiling).
template <class U>
std::uint32_t mask_pass(const char* api, const char* tiling, const HighLevelTmp& tmp,
                        std::uint32_t row) {
  const std::uint32_t usable = tmp.bytes() > kMaskTmpSlack ? tmp.bytes() - kMaskTmpSlack : 0;
  const std::uint32_t pass = high_level_pass(usable, kMaskTmpPerElem<U>, row);
  if (pass == 0 && row > 0) {
    fail(api, "sharedTmpBuffer of %u bytes is below the minimum of %u bytes for %u elements (%s)",
         tmp.bytes(), high_level_min_tmp(kMaskTmpPerElem<U>, row) + kMaskTmpSlack, row, tiling);
  }
  return pass;
}

/// bit i of the returned tensor = (mask[i] <mode> 0), for i < n: Cast, then Compares.
template <class U>
AscendC::LocalTensor<std::uint8_t> mask_to_bits(const AscendC::LocalTensor<U>& mask,
                                                const HighLevelTmp& tmp, std::uint32_t pass,
                                                std::uint32_t n, AscendC::CMPMODE mode) {
  using C = MaskCmp<U>;
  const AscendC::LocalTensor<C> cmp = tmp.as<C>();
  const AscendC::LocalTensor<std::uint8_t> bits = tmp.as<std::uint8_t>(mask_bits_offset<U>(pass));
  AscendC::Cast(cmp, mask.template ReinterpretCast<MaskElem<U>>(), AscendC::RoundMode::CAST_NONE,
                n);
  AscendC::Compares(bits, cmp, static_cast<C>(0.0f), mode, n);
  return bits;
}

/// The rows a byte-mask API walks: `rows` rows of `len` elements, the mask rows `mask_pitch`
/// apart (collapsed into one row when the mask has no extra columns).
struct MaskRows {
  std::uint32_t rows, len, mask_pitch;
};

inline MaskRows mask_rows(const char* api, std::uint32_t first, std::uint32_t src_last,
                          std::uint32_t mask_last) {
  if (first == 0 || src_last == 0 || mask_last < src_last)
    fail(api, "shape info [%u, %u] with a mask of %u columns: the mask needs at least the "
         "source's", first, src_last, mask_last);
  if (mask_last == src_last) return MaskRows{1, first * src_last, src_last};
  return MaskRows{first, src_last, mask_last};
}

/// dst = (mask <mode> 0) ? tensor : scalar, row by row, pass by pass.
template <class T, class U>
void select_by_bytes(const char* api, const char* tiling, const AscendC::LocalTensor<T>& dst,
                     const AscendC::LocalTensor<T>& tensor, T scalar,
                     const AscendC::LocalTensor<U>& mask, const HighLevelTmp& tmp,
                     const MaskRows& m, AscendC::CMPMODE mode) {
  const std::uint32_t pass = mask_pass<U>(api, tiling, tmp, m.len);
  for (std::uint32_t r = 0; r < m.rows; ++r) {
    for (std::uint32_t at = 0; at < m.len; at += pass) {
      const std::uint32_t n = m.len - at < pass ? m.len - at : pass;
      const std::uint32_t i = r * m.len + at;
      const auto bits = mask_to_bits(mask[r * m.mask_pitch + at], tmp, pass, n, mode);
      AscendC::Select(dst[i], bits, tensor[i], scalar, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE,
                      n);
    }
  }
}

template <class T>
void check_select_type() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, Half>,
                "Select: half and float data");
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1,
                   const LocalTensor<U>& mask, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                   const SelectWithBytesMaskShapeInfo& info) {
  using namespace npusim::ascendc;
  check_select_type<T>();
  const HighLevelTmp tmp(sharedTmpBuffer);
  select_by_bytes("Select", "GetSelectMaxMinTmpSize", dst, src0, src1, mask, tmp,
                  mask_rows("Select", info.firstAxis, info.srcLastAxis, info.maskLastAxis),
                  CMPMODE::EQ);
}

template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1,
                   const LocalTensor<U>& mask, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                   const SelectWithBytesMaskShapeInfo& info) {
  using namespace npusim::ascendc;
  check_select_type<T>();
  const HighLevelTmp tmp(sharedTmpBuffer);
  select_by_bytes("Select", "GetSelectMaxMinTmpSize", dst, src1, src0, mask, tmp,
                  mask_rows("Select", info.firstAxis, info.srcLastAxis, info.maskLastAxis),
                  CMPMODE::NE);
}

}  // namespace AscendC
