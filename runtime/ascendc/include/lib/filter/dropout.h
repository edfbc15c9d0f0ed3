// SPDX-License-Identifier: Apache-2.0
// The DropOut high-level API of the Ascend C twin:
//   DropOut<T, isInitBitMode, dropOutMode>(dst, src, mask, [sharedTmpBuffer,] keepProb, info)
//       dst = mask selects the element ? src / keepProb : 0
// src and dst are [firstAxis, srcLastAxis]; the uint8 mask is [firstAxis, maskLastAxis]:
//   byte mode (maskLastAxis >= srcLastAxis; modes 1, 2): one mask byte per element, non-zero
//       keeps it (extra mask columns are ignored);
//   bit mode (maskLastAxis < srcLastAxis; modes 3, 4): bit j % 8 of byte j / 8 of the row keeps
//       element j (maskLastAxis * 8 may exceed srcLastAxis: the rest of the row is ignored).
// dropOutMode 0 infers the mode from the shape; isInitBitMode changes nothing in the twin.
// Timing (vector pipe): byte mode is the byte-mask conversion of lib/filter/select.h (Cast,
// Compares) then Select and Muls per pass; bit mode is Select (reading the mask bits) and Muls,
// all rows at once when the mask rows are exactly the source rows' bits, else per row. The
// framework form takes its temporary space from free UB (byte mode only).
// Host side: GetDropOutMaxMinTmpSize (tiling/filter/dropout_tiling.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/filter/select.h"

namespace AscendC {

struct DropOutShapeInfo {
  std::uint32_t firstAxis = 0;
  std::uint32_t srcLastAxis = 0;
  std::uint32_t maskLastAxis = 0;
};

}  // namespace AscendC

namespace npusim::ascendc {

inline bool dropout_bit_mode(std::uint32_t mode, const AscendC::DropOutShapeInfo& info) {
  if (mode > 4) fail("DropOut", "dropOutMode %u is not 0..4", mode);
  if (mode != 0) return mode >= 3;
  return info.maskLastAxis < info.srcLastAxis;
}

/// Bit mode: dst = bit ? src : 0, then scaled, over `m` (rows of len elements, mask rows
/// mask_pitch bytes apart).
template <class T>
void dropout_bits(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<std::uint8_t>& mask, T scale, const MaskRows& m) {
  for (std::uint32_t r = 0; r < m.rows; ++r) {
    const std::uint32_t i = r * m.len;
    AscendC::Select(dst[i], mask[r * m.mask_pitch], src[i], static_cast<T>(0.0f),
                    AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, m.len);
    AscendC::Muls(dst[i], dst[i], scale, static_cast<std::int32_t>(m.len));
  }
}

template <class T>
MaskRows dropout_bit_rows(const AscendC::DropOutShapeInfo& info) {
  const std::uint32_t first = info.firstAxis, len = info.srcLastAxis, pitch = info.maskLastAxis;
  if (first == 0 || len == 0 || pitch == 0 || pitch * 8 < len)
    fail("DropOut", "bit mode: a mask row of %u bytes cannot cover %u elements", pitch, len);
  if (pitch * 8 == len) return MaskRows{1, first * len, first * pitch};
  if (len % 8 != 0) fail("DropOut", "bit mode with padded mask rows needs rows of whole bytes "
                         "(srcLastAxis %u)", len);
  return MaskRows{first, len, pitch};
}

template <class T>
void dropout(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
             const AscendC::LocalTensor<std::uint8_t>& mask, const HighLevelTmp* tmp,
             float keep_prob, const AscendC::DropOutShapeInfo& info, std::uint32_t mode) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, Half>, "DropOut: half and float");
  if (!(keep_prob > 0.0f && keep_prob <= 1.0f))
    fail("DropOut", "keepProb %g is not in (0, 1]", static_cast<double>(keep_prob));
  const T scale = static_cast<T>(1.0f / keep_prob);
  if (dropout_bit_mode(mode, info)) {
    dropout_bits(dst, src, mask, scale, dropout_bit_rows<T>(info));
    return;
  }
  const MaskRows m = mask_rows("DropOut", info.firstAxis, info.srcLastAxis, info.maskLastAxis);
  select_by_bytes("DropOut", "GetDropOutMaxMinTmpSize", dst, src, static_cast<T>(0.0f), mask,
                  *tmp, m, AscendC::CMPMODE::NE);
  for (std::uint32_t r = 0; r < m.rows; ++r)
    AscendC::Muls(dst[r * m.len], dst[r * m.len], scale, static_cast<std::int32_t>(m.len));
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, bool isInitBitMode = false, std::uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                    const LocalTensor<std::uint8_t>& maskLocal,
                    const LocalTensor<std::uint8_t>& sharedTmpBuffer, const float keepProb,
                    const DropOutShapeInfo& info) {
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::dropout(dstLocal, srcLocal, maskLocal, &tmp, keepProb, info, dropOutMode);
}

template <typename T, bool isInitBitMode = false, std::uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                    const LocalTensor<std::uint8_t>& maskLocal, const float keepProb,
                    const DropOutShapeInfo& info) {
  using namespace npusim::ascendc;
  const bool bits = dropout_bit_mode(dropOutMode, info);
  const std::uint32_t row = info.maskLastAxis == info.srcLastAxis
                                ? info.firstAxis * info.srcLastAxis
                                : info.srcLastAxis;
  const std::uint32_t per = kMaskTmpPerElem<std::uint8_t>;
  const HighLevelTmp tmp("DropOut", "GetDropOutMaxMinTmpSize",
                         bits ? 0 : (row * per + 31) / 32 * 32 + kMaskTmpSlack,
                         bits ? 0 : high_level_min_tmp(per, row) + kMaskTmpSlack);
  dropout(dstLocal, srcLocal, maskLocal, &tmp, keepProb, info, dropOutMode);
}

}  // namespace AscendC
