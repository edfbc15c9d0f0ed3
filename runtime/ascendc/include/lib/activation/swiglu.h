// SPDX-License-Identifier: Apache-2.0
// The SwiGLU high-level API of the Ascend C twin: dst = src0 * Swish(src1) =
// src0 * src1 / (1 + exp(-beta * src1)), built from basic vector instructions on the vector pipe
// (Muls, Exp, Adds, Div, Mul; half adds the Casts). Float needs no temporary space (dst holds
// the intermediate; dst must not overlap the sources); half computes in float with 8 bytes per
// element of temporary space (src1 and the intermediate, then src0, in float; the result is
// rounded to half once), the caller's sharedTmpBuffer or the framework's
// (npusim/ascendc/high_level_tmp.h). isReuseSource is accepted (the twin never writes a source).
// Host side: GetSwiGLUMaxMinTmpSize (tiling/activation/swiglu_tiling.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/activation/swish.h"
#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace npusim::ascendc {

constexpr const char* kSwiGluTiling = "GetSwiGLUMaxMinTmpSize";

/// A pass of n half elements in float: t = Swish(src1) then t * src0, through `xf`.
inline void swiglu_half_pass(const AscendC::LocalTensor<Half>& dst,
                             const AscendC::LocalTensor<Half>& src0,
                             const AscendC::LocalTensor<Half>& src1,
                             const AscendC::LocalTensor<float>& t,
                             const AscendC::LocalTensor<float>& xf, float beta, std::uint32_t n) {
  const auto count = static_cast<std::int32_t>(n);
  AscendC::Cast(xf, src1, AscendC::RoundMode::CAST_NONE, n);
  AscendC::Muls(t, xf, -beta, count);
  AscendC::Exp(t, t, count);
  AscendC::Adds(t, t, 1.0f, count);
  AscendC::Div(t, xf, t, count);
  AscendC::Cast(xf, src0, AscendC::RoundMode::CAST_NONE, n);
  AscendC::Mul(t, xf, t, count);
  AscendC::Cast(dst, t, AscendC::RoundMode::CAST_RINT, n);
}

template <class T>
void check_swiglu(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                  const AscendC::LocalTensor<T>& src1) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, Half>,
                "SwiGLU supports half and float");
  if (dst.twin_data() == src0.twin_data() || dst.twin_data() == src1.twin_data()) {
    fail("SwiGLU", "the result must not overlap the sources");
  }
}

/// Float: dst = Swish(src1) (dst holding the denominator), then dst * src0.
inline void swiglu_float(const AscendC::LocalTensor<float>& dst,
                         const AscendC::LocalTensor<float>& src0,
                         const AscendC::LocalTensor<float>& src1, float beta,
                         std::uint32_t count) {
  swish_pass(dst, src1, dst, AscendC::LocalTensor<float>(), beta, count);
  AscendC::Mul(dst, src0, dst, static_cast<std::int32_t>(count));
}

inline void swiglu_half(const AscendC::LocalTensor<Half>& dst,
                        const AscendC::LocalTensor<Half>& src0,
                        const AscendC::LocalTensor<Half>& src1, const HighLevelTmp& tmp,
                        float beta, std::uint32_t count) {
  const std::uint32_t pass = high_level_pass_or_fail("SwiGLU", kSwiGluTiling, tmp.bytes(), 8, count);
  for (std::uint32_t at = 0; at < count; at += pass) {
    const std::uint32_t n = count - at < pass ? count - at : pass;
    swiglu_half_pass(dst[at], src0[at], src1[at], tmp.as<float>(), tmp.as<float>(n), beta, n);
  }
}

template <class T>
void swiglu(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
            const AscendC::LocalTensor<T>& src1, const AscendC::LocalTensor<std::uint8_t>* shared,
            float beta, std::uint32_t count) {
  check_swiglu(dst, src0, src1);
  if constexpr (std::is_same_v<T, float>) {
    swiglu_float(dst, src0, src1, beta, count);
  } else if (shared != nullptr) {
    swiglu_half(dst, src0, src1, HighLevelTmp(*shared), beta, count);
  } else {
    const HighLevelTmp tmp("SwiGLU", kSwiGluTiling, (count * 8 + 31) / 32 * 32,
                           high_level_min_tmp(8, count));
    swiglu_half(dst, src0, src1, tmp, beta, count);
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                   const LocalTensor<T>& srcTensor1, const float& scalarValue,
                   const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) {
  npusim::ascendc::swiglu(dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, scalarValue,
                          calCount);
}

template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                   const LocalTensor<T>& srcTensor1, const float& scalarValue,
                   const LocalTensor<std::uint8_t>& sharedTmpBuffer) {
  npusim::ascendc::swiglu(dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, scalarValue,
                          srcTensor0.GetSize());
}

template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                   const LocalTensor<T>& srcTensor1, const float& scalarValue,
                   const std::uint32_t calCount) {
  npusim::ascendc::swiglu(dstTensor, srcTensor0, srcTensor1, nullptr, scalarValue, calCount);
}

template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                   const LocalTensor<T>& srcTensor1, const float& scalarValue) {
  npusim::ascendc::swiglu(dstTensor, srcTensor0, srcTensor1, nullptr, scalarValue,
                          srcTensor0.GetSize());
}

}  // namespace AscendC
