// SPDX-License-Identifier: Apache-2.0
// The Pad and UnPad high-level APIs of the Ascend C twin (2-D tensors, rows along the width):
//   Pad(dst, src, PadParams{leftPad, rightPad, padValue}, tiling)
//     - width not 32-byte aligned: src holds height packed rows of `width` elements; dst gets
//       rows of width rounded up to 32 bytes: leftPad values, the row, the rest padValue
//       (leftPad + width + rightPad must fit the aligned width);
//     - width 32-byte aligned (srcOriWidth < width valid columns): dst is src with columns
//       [srcOriWidth, srcOriWidth + rightPad) of each row set to padValue (leftPad must be 0).
//   UnPad(dst, src, UnPadParams{leftPad, rightPad}, tiling)
//     src rows of `width` (32-byte aligned) elements; dst the packed rows without the leftPad
//     first and rightPad last columns: width - leftPad - rightPad elements each.
// Timing (vector pipe): Pad is one Duplicate of the padded tensor (or one per row for the
// aligned case) and Copy instructions moving each row (npusim/ascendc/high_level_copy.h);
// UnPad is Copy instructions per row. No temporary space is used (the sharedTmpBuffer forms
// accept one). Host side: tiling/transform/pad_tiling.h (PadTilingFunc, UnPadTilingFunc).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/transform_tiling.h"
#include "npusim/ascendc/high_level_copy.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace AscendC {

struct PadParams {
  std::uint16_t leftPad = 0;
  std::uint16_t rightPad = 0;
  std::int32_t padValue = 0;
};

struct UnPadParams {
  std::uint16_t leftPad = 0;
  std::uint16_t rightPad = 0;
};

}  // namespace AscendC

namespace npusim::ascendc {

template <class T>
void check_pad_type(const char* api, const std::uint32_t type_size) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Pad/UnPad: 16- and 32-bit types");
  if (type_size != 0 && type_size != sizeof(T))
    fail(api, "the tiling was made for %u-byte elements, the tensors hold %u-byte ones",
         type_size, static_cast<unsigned>(sizeof(T)));
}

template <class T>
T pad_value_as(std::int32_t v) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(v);
  } else {
    return static_cast<T>(static_cast<float>(v));
  }
}

template <class T>
void pad(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
         const AscendC::PadParams& p, const AscendC::tiling::PadTiling& t) {
  check_pad_type<T>("Pad", t.typeSize);
  const std::uint32_t h = t.srcHeight, w = t.srcWidth;
  constexpr std::uint32_t kB = 32 / sizeof(T);
  const std::uint32_t aw = (w + kB - 1) / kB * kB;
  const T value = pad_value_as<T>(p.padValue);
  if (h == 0 || w == 0) fail("Pad", "empty tiling (height %u, width %u): call PadTilingFunc", h, w);
  if (w % kB != 0) {
    if (p.leftPad + w + p.rightPad > aw)
      fail("Pad", "leftPad %u + width %u + rightPad %u exceed the aligned width %u", p.leftPad, w,
           p.rightPad, aw);
    AscendC::Duplicate(dst, value, static_cast<std::int32_t>(h * aw));
    for (std::uint32_t r = 0; r < h; ++r) ub_copy(dst[r * aw + p.leftPad], src[r * w], w);
    return;
  }
  const std::uint32_t ori = t.srcOriWidth;
  if (p.leftPad != 0 || ori >= w || ori + p.rightPad > w)
    fail("Pad", "an aligned width %u takes right padding only, within it (srcOriWidth %u, "
         "leftPad %u, rightPad %u)", w, ori, p.leftPad, p.rightPad);
  if (dst.twin_data() != src.twin_data()) ub_copy(dst, src, h * w);
  for (std::uint32_t r = 0; r < h && p.rightPad > 0; ++r)
    AscendC::Duplicate(dst[r * w + ori], value, p.rightPad);
}

template <class T>
void unpad(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
           const AscendC::UnPadParams& p, const AscendC::tiling::UnPadTiling& t) {
  check_pad_type<T>("UnPad", t.typeSize);
  const std::uint32_t h = t.srcHeight, w = t.srcWidth;
  if (h == 0 || w == 0)
    fail("UnPad", "empty tiling (height %u, width %u): call UnPadTilingFunc", h, w);
  if ((w * sizeof(T)) % 32 != 0)
    fail("UnPad", "the width %u is not 32-byte aligned (UnPad takes aligned rows)", w);
  if (p.leftPad + p.rightPad >= w)
    fail("UnPad", "leftPad %u + rightPad %u leave nothing of the width %u", p.leftPad, p.rightPad,
         w);
  const std::uint32_t dw = w - p.leftPad - p.rightPad;
  for (std::uint32_t r = 0; r < h; ++r) ub_copy(dst[r * dw], src[r * w + p.leftPad], dw);
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                PadParams& padParams, const LocalTensor<std::uint8_t>& /*sharedTmpBuffer*/,
                tiling::PadTiling& tiling) {
  npusim::ascendc::pad(dstTensor, srcTensor, padParams, tiling);
}

template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                PadParams& padParams, tiling::PadTiling& tiling) {
  npusim::ascendc::pad(dstTensor, srcTensor, padParams, tiling);
}

template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                  UnPadParams& unPadParams, LocalTensor<std::uint8_t>& /*sharedTmpBuffer*/,
                  tiling::UnPadTiling& tiling) {
  npusim::ascendc::unpad(dstTensor, srcTensor, unPadParams, tiling);
}

template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                  UnPadParams& unPadParams, tiling::UnPadTiling& tiling) {
  npusim::ascendc::unpad(dstTensor, srcTensor, unPadParams, tiling);
}

}  // namespace AscendC
