// SPDX-License-Identifier: Apache-2.0
// The whole-tensor operator forms of the element-wise vector ops (CANN's "the whole tensor
// takes part" prototypes):
//   dst = src0 + src1;   dst = src0 - src1;   dst = src0 * src1;   dst = src0 / src1;
//   dst = src0 & src1;   dst = src0 | src1;   (integer types)
// `src0 op src1` only names the operation (an expression holding both tensors); assigning it to
// a LocalTensor issues the count form of Add / Sub / Mul / Div / And / Or with count = the
// destination's GetSize() (the documented amount: the whole destination), so it is the same
// single V instruction at the same cost. An expression that is never assigned computes nothing.
// The sources must hold at least dst.GetSize() elements (the count form's operand check).
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_basic.h"
#include "npusim/ascendc/vector_ops.h"

namespace npusim::ascendc {

enum class SymbolOp : std::uint8_t { kAdd, kSub, kMul, kDiv, kAnd, kOr };

/// `src0 op src1` of two LocalTensors, waiting for its destination (LocalTensor::operator=).
template <class T, SymbolOp kOp>
struct TensorSymbolExpr {
  using ElemType = T;
  static constexpr bool kIsTensorSymbolExpr = true;
  AscendC::LocalTensor<T> src0, src1;

  void assign_to(const AscendC::LocalTensor<T>& dst) const {
    const auto count = static_cast<std::int32_t>(dst.GetSize());
    if constexpr (kOp == SymbolOp::kAdd) {
      AscendC::Add(dst, src0, src1, count);
    } else if constexpr (kOp == SymbolOp::kSub) {
      AscendC::Sub(dst, src0, src1, count);
    } else if constexpr (kOp == SymbolOp::kMul) {
      AscendC::Mul(dst, src0, src1, count);
    } else if constexpr (kOp == SymbolOp::kDiv) {
      AscendC::Div(dst, src0, src1, count);
    } else if constexpr (kOp == SymbolOp::kAnd) {
      AscendC::And(dst, src0, src1, count);
    } else {
      AscendC::Or(dst, src0, src1, count);
    }
  }
};

}  // namespace npusim::ascendc

namespace AscendC {

template <class T>
npusim::ascendc::TensorSymbolExpr<T, npusim::ascendc::SymbolOp::kAdd> operator+(
    const LocalTensor<T>& src0, const LocalTensor<T>& src1) {
  return {src0, src1};
}
template <class T>
npusim::ascendc::TensorSymbolExpr<T, npusim::ascendc::SymbolOp::kSub> operator-(
    const LocalTensor<T>& src0, const LocalTensor<T>& src1) {
  return {src0, src1};
}
template <class T>
npusim::ascendc::TensorSymbolExpr<T, npusim::ascendc::SymbolOp::kMul> operator*(
    const LocalTensor<T>& src0, const LocalTensor<T>& src1) {
  return {src0, src1};
}
template <class T>
npusim::ascendc::TensorSymbolExpr<T, npusim::ascendc::SymbolOp::kDiv> operator/(
    const LocalTensor<T>& src0, const LocalTensor<T>& src1) {
  return {src0, src1};
}
template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
npusim::ascendc::TensorSymbolExpr<T, npusim::ascendc::SymbolOp::kAnd> operator&(
    const LocalTensor<T>& src0, const LocalTensor<T>& src1) {
  return {src0, src1};
}
template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
npusim::ascendc::TensorSymbolExpr<T, npusim::ascendc::SymbolOp::kOr> operator|(
    const LocalTensor<T>& src0, const LocalTensor<T>& src1) {
  return {src0, src1};
}

}  // namespace AscendC
