// SPDX-License-Identifier: Apache-2.0
// The Power high-level API of the Ascend C twin (half and float): dst = base ^ exp element-wise,
// in the three forms tensor ^ tensor, tensor ^ scalar and scalar ^ tensor. Computed in float as
// |base| ^ exp = exp(exp * ln|base|), times -1 for a negative base and an odd integral exponent,
// NaN for a negative base and a non-integral exponent, and 1 whatever the base when exp is 0.
// (Exponents beyond int32 are taken as even.) PowerConfig is accepted; the twin computes the
// same for every algorithm. Integer types are not supported (compile-time error).
// Timing, per pass over the temporary buffer (npusim/ascendc/high_level_tmp.h), on the vector
// pipe: Abs, Ln, Mul, Exp; the 5 of math_common.h's to_integral (CAST_TRUNC) and Compare (is the
// exponent integral); Cast to int32, Duplicate, And, Cast back, Muls, Adds (the sign of an odd
// power); Select, Compares, Select, Mul (the sign or NaN); Compares, Select (exp = 0): 22
// instructions, plus a Duplicate per scalar operand, or a Cast per half operand and a Cast out.
// Temporary space: 36 bytes per element in every form.
// Host side: GetPowerMaxMinTmpSize (tiling/math/power_tiling.h).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "lib/math/math_common.h"
#include "npusim/ascendc/vector_basic.h"

namespace AscendC {

enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH = 1 };
struct PowerConfig {
  PowerAlgo algo = PowerAlgo::INTRINSIC;
};
constexpr PowerConfig defaultPowerConfig = {};

}  // namespace AscendC

namespace npusim::ascendc {

constexpr std::uint32_t kPowerTmpPerElem = 36;  // 9 floats: base, exp, 7 of scratch

/// r = b ^ e for n floats; w holds 7 x n floats of scratch (r may be b or e).
inline void power_float(const AscendC::LocalTensor<float>& r, const AscendC::LocalTensor<float>& b,
                        const AscendC::LocalTensor<float>& e, const AscendC::LocalTensor<float>& w,
                        std::uint32_t n) {
  using AscendC::CMPMODE;
  using AscendC::SELMODE;
  const auto c = static_cast<std::int32_t>(n);
  const AscendC::LocalTensor<float> mag = w;
  const AscendC::LocalTensor<float> sign = w[n];
  const AscendC::LocalTensor<float> whole = w[2 * n];
  const AscendC::LocalTensor<float> scratch = w[3 * n];  // 3n, then the int32 parity work
  const AscendC::LocalTensor<std::uint8_t> integral = w[6 * n].ReinterpretCast<std::uint8_t>();
  const AscendC::LocalTensor<std::uint8_t> other = integral[(n + 7) / 8];
  AscendC::Abs(mag, b, c);
  AscendC::Ln(mag, mag, c);
  AscendC::Mul(mag, mag, e, c);
  AscendC::Exp(mag, mag, c);  // |b| ^ e
  to_integral(whole, e, scratch, AscendC::RoundMode::CAST_TRUNC, n);
  AscendC::Compare(integral, whole, e, CMPMODE::EQ, n);
  const AscendC::LocalTensor<std::int32_t> parity = scratch.ReinterpretCast<std::int32_t>();
  const AscendC::LocalTensor<std::int32_t> one = scratch[n].ReinterpretCast<std::int32_t>();
  AscendC::Cast(parity, e, AscendC::RoundMode::CAST_TRUNC, n);
  AscendC::Duplicate(one, 1, c);
  AscendC::And(parity, parity, one, c);
  AscendC::Cast(sign, parity, AscendC::RoundMode::CAST_NONE, n);
  AscendC::Muls(sign, sign, -2.0f, c);
  AscendC::Adds(sign, sign, 1.0f, c);  // -1 for an odd exponent, else 1
  AscendC::Select(sign, integral, sign, std::numeric_limits<float>::quiet_NaN(),
                  SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
  AscendC::Compares(other, b, 0.0f, CMPMODE::LT, n);
  AscendC::Select(sign, other, sign, 1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
  AscendC::Mul(mag, mag, sign, c);
  AscendC::Compares(other, e, 0.0f, CMPMODE::NE, n);
  AscendC::Select(r, other, mag, 1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
}

/// An operand of Power: a tensor or a scalar, made n floats at slot `slot` of the pass's buffer.
template <class T>
struct PowerOperand {
  const AscendC::LocalTensor<T>* tensor;
  T scalar;

  AscendC::LocalTensor<float> floats(const HighLevelTmp& tmp, std::uint32_t slot, std::uint32_t at,
                                     std::uint32_t n) const {
    if constexpr (std::is_same_v<T, float>) {
      if (tensor != nullptr) return (*tensor)[at];
    }
    const AscendC::LocalTensor<float> f = tmp.as<float>(slot * n);
    if (tensor != nullptr) {
      AscendC::Cast(f, (*tensor)[at], AscendC::RoundMode::CAST_NONE, n);
    } else {
      AscendC::Duplicate(f, static_cast<float>(scalar), static_cast<std::int32_t>(n));
    }
    return f;
  }
};

template <class T>
void power(const AscendC::LocalTensor<T>& dst, const PowerOperand<T>& base,
           const PowerOperand<T>& exponent, const HighLevelTmp& tmp, std::uint32_t count) {
  static_assert(kIsHalfOrFloat<T>, "the twin's Power supports half and float");
  math_passes("Power", "GetPowerMaxMinTmpSize", tmp, kPowerTmpPerElem, count,
              [&](std::uint32_t at, std::uint32_t n) {
                const AscendC::LocalTensor<float> b = base.floats(tmp, 0, at, n);
                const AscendC::LocalTensor<float> e = exponent.floats(tmp, 1, at, n);
                const AscendC::LocalTensor<float> w = tmp.as<float>(2 * n);
                if constexpr (std::is_same_v<T, float>) {
                  power_float(dst[at], b, e, w, n);
                } else {
                  power_float(b, b, e, w, n);  // b is the converted base here
                  AscendC::Cast(dst[at], b, AscendC::RoundMode::CAST_RINT, n);
                }
              });
}

template <class T>
void power_shared(const AscendC::LocalTensor<T>& dst, const PowerOperand<T>& base,
                  const PowerOperand<T>& exponent,
                  const AscendC::LocalTensor<std::uint8_t>& shared, std::uint32_t count) {
  const HighLevelTmp tmp(shared);
  power(dst, base, exponent, tmp, count);
}

template <class T>
void power_framework(const AscendC::LocalTensor<T>& dst, const PowerOperand<T>& base,
                     const PowerOperand<T>& exponent, std::uint32_t count) {
  const MathTmp tmp("Power", "GetPowerMaxMinTmpSize", kPowerTmpPerElem, count);
  power(dst, base, exponent, tmp, count);
}

}  // namespace npusim::ascendc

namespace AscendC {

#define NPUSIM_POWER_TEMPLATE \
  template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
#define NPUSIM_POWER_FORMS(BASE_DECL, EXP_DECL, BASE, EXP, SIZE)                                \
  NPUSIM_POWER_TEMPLATE                                                                         \
  inline void Power(const LocalTensor<T>& dstTensor, BASE_DECL, EXP_DECL,                       \
                    const LocalTensor<std::uint8_t>& sharedTmpBuffer, std::uint32_t calCount) { \
    npusim::ascendc::power_shared<T>(dstTensor, BASE, EXP, sharedTmpBuffer, calCount);          \
  }                                                                                             \
  NPUSIM_POWER_TEMPLATE                                                                         \
  inline void Power(const LocalTensor<T>& dstTensor, BASE_DECL, EXP_DECL,                       \
                    const LocalTensor<std::uint8_t>& sharedTmpBuffer) {                         \
    npusim::ascendc::power_shared<T>(dstTensor, BASE, EXP, sharedTmpBuffer, SIZE);              \
  }                                                                                             \
  NPUSIM_POWER_TEMPLATE                                                                         \
  inline void Power(const LocalTensor<T>& dstTensor, BASE_DECL, EXP_DECL,                       \
                    std::uint32_t calCount) {                                                   \
    npusim::ascendc::power_framework<T>(dstTensor, BASE, EXP, calCount);                        \
  }                                                                                             \
  NPUSIM_POWER_TEMPLATE                                                                         \
  inline void Power(const LocalTensor<T>& dstTensor, BASE_DECL, EXP_DECL) {                     \
    npusim::ascendc::power_framework<T>(dstTensor, BASE, EXP, SIZE);                            \
  }

NPUSIM_POWER_FORMS(const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                   (npusim::ascendc::PowerOperand<T>{&src0Tensor, T()}),
                   (npusim::ascendc::PowerOperand<T>{&src1Tensor, T()}), src0Tensor.GetSize())
NPUSIM_POWER_FORMS(const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                   (npusim::ascendc::PowerOperand<T>{&src0Tensor, T()}),
                   (npusim::ascendc::PowerOperand<T>{nullptr, src1Scalar}), src0Tensor.GetSize())
NPUSIM_POWER_FORMS(const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                   (npusim::ascendc::PowerOperand<T>{nullptr, src0Scalar}),
                   (npusim::ascendc::PowerOperand<T>{&src1Tensor, T()}), src1Tensor.GetSize())
#undef NPUSIM_POWER_FORMS
#undef NPUSIM_POWER_TEMPLATE

}  // namespace AscendC
