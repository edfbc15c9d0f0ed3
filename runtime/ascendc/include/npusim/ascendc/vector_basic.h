// SPDX-License-Identifier: Apache-2.0
// More element-wise vector (V pipe) ops of the Ascend C twin, beside vector_ops.h:
//   LeakyRelu  dst = x >= 0 ? x : x * scalar          (count form; repeat form, UnaryRepeatParams)
//   AddRelu    dst = max(a + b, 0)                    (count form)
//   Axpy       dst = dst + src * scalar               (count form)
//   And / Or   bitwise, integer types                 (count form)
//   ShiftLeft / ShiftRight by a scalar bit count      (count form; right shifts are arithmetic
//              for signed types, logical for unsigned)
//   CreateVecIndex  dst[i] = first + i                (count form)
//   Cast       repeat form with UnaryRepeatParams and a mask, int4b_t included (int4.h)
// Each records one V instruction (count = elements, bytes = count x the wider element size). The
// trace has no op codes of their own; they are recorded as the nearest existing op, which costs
// the same on the V pipe: LeakyRelu as Relu, AddRelu as Add, Axpy as Muls, And/Or as Min/Max,
// shifts as Muls, CreateVecIndex as Duplicate.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/attention_ops.h"
#include "npusim/ascendc/int4.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_mask.h"
#include "npusim/ascendc/vector_ops.h"

namespace npusim::ascendc {

/// One element of S converted to D with `mode` (int4b_t saturates to -8..7).
template <class D, class S>
NPUSIM_TWIN_FN Loaded<D> convert_elem(Loaded<S> v, Rounding mode) {
  if constexpr (IsInt4<D>::value) {
    const std::int8_t r = cast_value<std::int8_t>(v, mode);
    return r < -8 ? -8 : r > 7 ? 7 : r;
  } else {
    return cast_value<D>(v, mode);
  }
}

template <class T>
NPUSIM_TWIN_FN void create_index_body(BlockContext& ctx, Operand<T> dst, T first,
                                      std::int32_t count) {
  check_operand(dst, count, "CreateVecIndex", "dst");
  for (std::int32_t i = 0; ctx.functional && i < count; ++i) {
    if constexpr (std::is_integral_v<T>) {
      dst.data[i] = static_cast<T>(first + i);
    } else {
      dst.data[i] = static_cast<T>(static_cast<float>(first) + static_cast<float>(i));
    }
  }
  record_vector(ctx, Op::kDuplicate, dtype_of<T>(), dtype_of<T>(), count, sizeof(T),
                {{dst.slot, true}});
}

template <class T>
constexpr void require_integer(const char* /*op*/) {
  static_assert(std::is_integral_v<T>, "bitwise vector ops take integer tensors");
}

}  // namespace npusim::ascendc

namespace AscendC {

template <class T, bool kSetMask = true>
inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar,
                      std::uint64_t mask, const std::uint8_t repeatTimes,
                      const UnaryRepeatParams& params) {
  const T s = scalar;
  npusim::ascendc::unary_repeat_op(npusim::ascendc::Op::kRelu, "LeakyRelu", dst, src, kSetMask,
                                   nullptr, mask, repeatTimes, params,
                                   [s](T x) NPUSIM_TWIN_FN { return x >= T(0) ? x : T(x * s); });
}

template <class T, bool kSetMask = true>
inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar,
                      std::uint64_t mask[], const std::uint8_t repeatTimes,
                      const UnaryRepeatParams& params) {
  const T s = scalar;
  npusim::ascendc::unary_repeat_op(npusim::ascendc::Op::kRelu, "LeakyRelu", dst, src, kSetMask,
                                   mask, 0, repeatTimes, params,
                                   [s](T x) NPUSIM_TWIN_FN { return x >= T(0) ? x : T(x * s); });
}

template <class T>
inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar,
                      const std::int32_t& count) {
  const T s = scalar;
  npusim::ascendc::unary_op(npusim::ascendc::Op::kRelu, "LeakyRelu", dst, src, count,
                            [s](T x) NPUSIM_TWIN_FN { return x >= T(0) ? x : T(x * s); });
}

template <class T, bool kSetMask = true>
inline void AddRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                    const LocalTensor<T>& src1, const std::int32_t& count) {
  npusim::ascendc::binary_op(npusim::ascendc::Op::kAdd, "AddRelu", dst, src0, src1, count,
                             [](T a, T b) NPUSIM_TWIN_FN {
                               const T s = static_cast<T>(a + b);
                               return s > T(0) ? s : T(0);
                             });
}

/// dst[i] = dst[i] + src[i] * scalar (the product and the sum rounded to T).
template <class T, class U>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalar,
                 const std::int32_t& count) {
  static_assert(std::is_same_v<T, U>, "Axpy: the simulator supports equal dst and src types");
  const T s = scalar;
  npusim::ascendc::binary_op(npusim::ascendc::Op::kMuls, "Axpy", dst, dst, src, count,
                             [s](T d, T x) NPUSIM_TWIN_FN { return static_cast<T>(d + T(x * s)); });
}

template <class T>
inline void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const std::int32_t& count) {
  npusim::ascendc::require_integer<T>("And");
  npusim::ascendc::binary_op(npusim::ascendc::Op::kMin, "And", dst, src0, src1, count,
                             [](T a, T b) NPUSIM_TWIN_FN { return static_cast<T>(a & b); });
}

template <class T>
inline void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
               const std::int32_t& count) {
  npusim::ascendc::require_integer<T>("Or");
  npusim::ascendc::binary_op(npusim::ascendc::Op::kMax, "Or", dst, src0, src1, count,
                             [](T a, T b) NPUSIM_TWIN_FN { return static_cast<T>(a | b); });
}

template <class T>
inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                       const typename npusim::ascendc::Identity<T>::type& scalar,
                       const std::int32_t& count) {
  npusim::ascendc::require_integer<T>("ShiftRight");
  const int n = static_cast<int>(scalar);
  if (n < 0 || n >= static_cast<int>(sizeof(T) * 8))
    npusim::ascendc::fail("ShiftRight", "shift %d outside 0..%zu", n, sizeof(T) * 8 - 1);
  npusim::ascendc::unary_op(npusim::ascendc::Op::kMuls, "ShiftRight", dst, src, count,
                            [n](T x) NPUSIM_TWIN_FN { return static_cast<T>(x >> n); });
}

template <class T>
inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const typename npusim::ascendc::Identity<T>::type& scalar,
                      const std::int32_t& count) {
  npusim::ascendc::require_integer<T>("ShiftLeft");
  const int n = static_cast<int>(scalar);
  if (n < 0 || n >= static_cast<int>(sizeof(T) * 8))
    npusim::ascendc::fail("ShiftLeft", "shift %d outside 0..%zu", n, sizeof(T) * 8 - 1);
  using U = std::make_unsigned_t<T>;
  npusim::ascendc::unary_op(npusim::ascendc::Op::kMuls, "ShiftLeft", dst, src, count,
                            [n](T x) NPUSIM_TWIN_FN {
                              return static_cast<T>(static_cast<U>(static_cast<U>(x) << n));
                            });
}

/// dst[i] = first + i for i < count (in float for floating types, exact for integers).
template <class T>
inline void CreateVecIndex(const LocalTensor<T>& dst, const T& first, std::uint32_t count) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  create_index_body<T>(ctx, operand(dst), first, static_cast<std::int32_t>(count));
}

/// Repeat-form Cast: per repeat 256 bytes of the wider type; int4b_t packs two per byte.
template <class D, class S, bool kSetMask = true>
inline void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& round_mode,
                 const std::uint64_t mask, const std::uint8_t repeatTimes,
                 const UnaryRepeatParams& params) {
  const npusim::ascendc::Rounding r = npusim::ascendc::to_rounding(round_mode);
  npusim::ascendc::unary_repeat_op(
      npusim::ascendc::Op::kCast, "Cast", dst, src, kSetMask, nullptr, mask, repeatTimes, params,
      [r](npusim::ascendc::Loaded<S> v)
          NPUSIM_TWIN_FN { return npusim::ascendc::convert_elem<D, S>(v, r); });
}

template <class D, class S, bool kSetMask = true>
inline void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& round_mode,
                 const std::uint64_t mask[], const std::uint8_t repeatTimes,
                 const UnaryRepeatParams& params) {
  const npusim::ascendc::Rounding r = npusim::ascendc::to_rounding(round_mode);
  npusim::ascendc::unary_repeat_op(
      npusim::ascendc::Op::kCast, "Cast", dst, src, kSetMask, mask, 0, repeatTimes, params,
      [r](npusim::ascendc::Loaded<S> v)
          NPUSIM_TWIN_FN { return npusim::ascendc::convert_elem<D, S>(v, r); });
}

}  // namespace AscendC
