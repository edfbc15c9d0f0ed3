// SPDX-License-Identifier: Apache-2.0
// The GeGLU high-level API of the Ascend C twin: dst = src0 * Gelu(src1), Gelu the tanh
// approximation of gelu.h, built from basic vector instructions on the vector pipe, per pass over
// the temporary buffer (npusim/ascendc/high_level_tmp.h): float needs 4 bytes per element (one
// float intermediate), half 8 (two; the result is rounded to half once). The forms without
// calCount take every element of srcTensor0. isReuseSource is accepted (the twin never writes
// the sources).
// Host side: GetGeGLUMaxMinTmpSize (tiling/activation/geglu_tiling.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/activation/gelu.h"
#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace npusim::ascendc {

template <class T>
void geglu_pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                const AscendC::LocalTensor<T>& src1, const HighLevelTmp& tmp, std::uint32_t n) {
  const auto count = static_cast<std::int32_t>(n);
  AscendC::LocalTensor<float> t = tmp.as<float>();
  if constexpr (std::is_same_v<T, float>) {
    gelu_denominator(t, src1, count);
    AscendC::Div(t, src1, t, count);
    AscendC::Mul(dst, src0, t, count);
  } else {
    AscendC::LocalTensor<float> x = tmp.as<float>(n);
    AscendC::Cast(x, src1, AscendC::RoundMode::CAST_NONE, n);
    gelu_denominator(t, x, count);
    AscendC::Div(t, x, t, count);
    AscendC::Cast(x, src0, AscendC::RoundMode::CAST_NONE, n);
    AscendC::Mul(t, x, t, count);
    AscendC::Cast(dst, t, AscendC::RoundMode::CAST_RINT, n);
  }
}

template <class T>
void geglu(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
           const AscendC::LocalTensor<T>& src1, const HighLevelTmp& tmp, std::uint32_t count) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, Half>,
                "GeGLU supports half and float");
  const std::uint32_t pass = high_level_pass_or_fail("GeGLU", "GetGeGLUMaxMinTmpSize",
                                                     tmp.bytes(), kGeluTmpPerElem<T>, count);
  for (std::uint32_t at = 0; at < count; at += pass) {
    const std::uint32_t n = count - at < pass ? count - at : pass;
    geglu_pass(dst[at], src0[at], src1[at], tmp, n);
  }
}

template <class T>
void geglu_framework(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                     const AscendC::LocalTensor<T>& src1, std::uint32_t count) {
  const HighLevelTmp tmp("GeGLU", "GetGeGLUMaxMinTmpSize",
                         (count * kGeluTmpPerElem<T> + 31) / 32 * 32,
                         high_level_min_tmp(kGeluTmpPerElem<T>, count));
  geglu(dst, src0, src1, tmp, count);
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                  const LocalTensor<T>& srcTensor1, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                  std::uint32_t calCount) {
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::geglu(dstTensor, srcTensor0, srcTensor1, tmp, calCount);
}

template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                  const LocalTensor<T>& srcTensor1, const LocalTensor<std::uint8_t>& sharedTmpBuffer) {
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::geglu(dstTensor, srcTensor0, srcTensor1, tmp, srcTensor0.GetSize());
}

template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                  const LocalTensor<T>& srcTensor1, std::uint32_t calCount) {
  npusim::ascendc::geglu_framework(dstTensor, srcTensor0, srcTensor1, calCount);
}

template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                  const LocalTensor<T>& srcTensor1) {
  npusim::ascendc::geglu_framework(dstTensor, srcTensor0, srcTensor1, srcTensor0.GetSize());
}

}  // namespace AscendC
