// SPDX-License-Identifier: Apache-2.0
// What the twin's math high-level APIs (lib/math/*.h) share, on top of npusim/ascendc/
// high_level_tmp.h (their temporary UB space and pass splitting):
//   - math_passes: runs a pass function over [0, count) in passes that fit the temporary buffer;
//   - MathTmp: the framework form's temporary space (the block's free UB, held for the call);
//   - to_integral: rounds float elements to integral floats with a RoundMode (Cast to int32 and
//     back, 2 V instructions, then Abs, Compares and Select keep the elements that are already
//     integral, |x| >= 2^23, infinite or NaN: 5 V instructions in all);
//   - float_pass: an element-wise computation in float, half converted in and out;
//   - NPUSIM_MATH_UNARY_API: the four AscendC forms of an element-wise API (sharedTmpBuffer or
//     framework space, with or without calCount).
// Every step is a basic vector instruction of the twin (vector_ops.h, shape_ops.h,
// vector_select.h), so the APIs cost what those instructions cost on the vector pipe.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/half.h"
#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/shape_ops.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"
#include "npusim/ascendc/vector_select.h"

namespace npusim::ascendc {

template <class T>
constexpr bool kIsHalfOrFloat = std::is_same_v<T, float> || std::is_same_v<T, Half>;

/// Bytes of temporary space per element of an API whose float computation needs `floats`
/// float intermediates; half needs one more (its input in float).
template <class T>
constexpr std::uint32_t float_tmp_per_elem(std::uint32_t floats) {
  return 4 * (std::is_same_v<T, float> ? floats : floats + 1);
}

/// The largest temporary space such an API uses for `count` elements.
inline std::uint32_t math_max_tmp(std::uint32_t per_elem, std::uint32_t count) {
  return static_cast<std::uint32_t>((std::uint64_t{count} * per_elem + 31) / 32 * 32);
}

/// Calls pass(at, n) for consecutive ranges [at, at + n) covering [0, count), each fitting `tmp`.
template <class F>
void math_passes(const char* api, const char* tiling, const HighLevelTmp& tmp,
                 std::uint32_t per_elem, std::uint32_t count, F&& pass) {
  const std::uint32_t step = high_level_pass_or_fail(api, tiling, tmp.bytes(), per_elem, count);
  for (std::uint32_t at = 0; at < count; at += step) {
    pass(at, count - at < step ? count - at : step);
  }
}

/// The framework form's temporary space for `count` elements at `per_elem` bytes each.
class MathTmp : public HighLevelTmp {
 public:
  MathTmp(const char* api, const char* tiling, std::uint32_t per_elem, std::uint32_t count)
      : HighLevelTmp(api, tiling, math_max_tmp(per_elem, count),
                     high_level_min_tmp(per_elem, count)) {}
};

/// Floats of scratch to_integral needs per element (the rounded value, |x|, the mask bits).
constexpr std::uint32_t kIntegralScratchFloats = 3;

/// dst = x rounded to an integral value with `mode` (CAST_CEIL, CAST_FLOOR, CAST_TRUNC,
/// CAST_RINT, CAST_ROUND); `scratch` holds 3 x n floats, apart from dst and x (dst may be x).
inline void to_integral(const AscendC::LocalTensor<float>& dst,
                        const AscendC::LocalTensor<float>& x,
                        const AscendC::LocalTensor<float>& scratch, AscendC::RoundMode mode,
                        std::uint32_t n) {
  const auto count = static_cast<std::int32_t>(n);
  AscendC::LocalTensor<std::int32_t> as_int = scratch.ReinterpretCast<std::int32_t>();
  AscendC::LocalTensor<float> magnitude = scratch[n];
  AscendC::LocalTensor<std::uint8_t> mask = scratch[2 * n].ReinterpretCast<std::uint8_t>();
  AscendC::Cast(as_int, x, mode, n);                                 // saturates beyond int32
  AscendC::Cast(scratch, as_int, AscendC::RoundMode::CAST_NONE, n);  // exact below 2^24
  AscendC::Abs(magnitude, x, count);
  AscendC::Compares(mask, magnitude, 8388608.0f, AscendC::CMPMODE::LT, n);  // 2^23
  AscendC::Select(dst, mask, scratch, x, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
}

/// One pass of an element-wise API in float: cast half input to float in `tmp` (float input is
/// used as it is), compute(result, x) with the result in dst (float) or in `tmp` (half, then
/// rounded to half once). `floats` float intermediates follow the converted input in `tmp`.
template <class T, class F>
void float_pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                const HighLevelTmp& tmp, std::uint32_t n, F&& compute) {
  if constexpr (std::is_same_v<T, float>) {
    compute(dst, src);
  } else {
    AscendC::LocalTensor<float> x = tmp.as<float>();
    AscendC::Cast(x, src, AscendC::RoundMode::CAST_NONE, n);
    compute(x, x);
    AscendC::Cast(dst, x, AscendC::RoundMode::CAST_RINT, n);
  }
}

/// The float scratch after float_pass's converted input: intermediate i of n elements.
template <class T>
AscendC::LocalTensor<float> float_scratch(const HighLevelTmp& tmp, std::uint32_t n,
                                          std::uint32_t i) {
  return tmp.as<float>((std::is_same_v<T, float> ? i : i + 1) * n);
}

/// An element-wise API given as Impl: kName, kTiling, per_elem<T>() and pass(dst, src, tmp, n).
template <class Impl, class T>
void unary_math(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                const HighLevelTmp& tmp, std::uint32_t count) {
  math_passes(Impl::kName, Impl::kTiling, tmp, Impl::template per_elem<T>(), count,
              [&](std::uint32_t at, std::uint32_t n) { Impl::pass(dst[at], src[at], tmp, n); });
}

template <class Impl, class T>
void unary_math_framework(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                          std::uint32_t count) {
  const MathTmp tmp(Impl::kName, Impl::kTiling, Impl::template per_elem<T>(), count);
  unary_math<Impl>(dst, src, tmp, count);
}

}  // namespace npusim::ascendc

/// The four AscendC forms of element-wise API NAME (template <typename T, bool isReuseSource>),
/// computed by npusim::ascendc::IMPL; the forms without calCount take all of srcTensor.
#define NPUSIM_MATH_UNARY_API(NAME, IMPL)                                                     \
  template <typename T, bool isReuseSource = false>                                          \
  inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,         \
                   const LocalTensor<std::uint8_t>& sharedTmpBuffer,                         \
                   const std::uint32_t calCount) {                                           \
    const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);                                \
    npusim::ascendc::unary_math<npusim::ascendc::IMPL>(dstTensor, srcTensor, tmp, calCount); \
  }                                                                                          \
  template <typename T, bool isReuseSource = false>                                          \
  inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,         \
                   const LocalTensor<std::uint8_t>& sharedTmpBuffer) {                       \
    NAME<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());      \
  }                                                                                          \
  template <typename T, bool isReuseSource = false>                                          \
  inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,         \
                   const std::uint32_t calCount) {                                           \
    npusim::ascendc::unary_math_framework<npusim::ascendc::IMPL>(dstTensor, srcTensor,       \
                                                                 calCount);                  \
  }                                                                                          \
  template <typename T, bool isReuseSource = false>                                          \
  inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {       \
    NAME<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());                       \
  }
