// SPDX-License-Identifier: Apache-2.0
// Vector (V pipe) operations of the Ascend C twin, in their "first count elements" form:
// element-wise binary/unary/scalar ops, Duplicate, Cast with RoundMode, ReduceSum/Max/Min.
// Each call computes on UB data and records one V instruction (count elements,
// count x element-size bytes; for Cast the wider element).
//
// Numerics: float ops are IEEE single precision; half/bfloat16_t ops are computed in float and
// rounded to nearest even (correctly rounded for + - * / sqrt); Exp/Ln use the C library in
// float. ReduceSum adds pairwise (binary tree over the count elements, each partial sum
// rounded to T); ReduceMax/Min return the first extreme element (index stored after it).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "npusim/kernel/block_context.h"
#include "npusim/kernel/half.h"
#include "npusim/kernel/tensor.h"

namespace AscendC {

enum class RoundMode : std::uint8_t {
  CAST_NONE = 0,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
  CAST_ODD,
  CAST_HYBRID
};

}  // namespace AscendC

namespace npusim::kernel {

template <class T>
struct Identity {
  using type = T;
};

template <class T>
void check_operand(const AscendC::LocalTensor<T>& t, std::int32_t count, const char* op,
                   const char* which) {
  if (t.twin_data() == nullptr) fail(op, "%s has no buffer", which);
  if (count < 0 || static_cast<std::uint32_t>(count) > t.GetSize()) {
    fail(op, "count %d exceeds the %s tensor (%u elements)", count, which, t.GetSize());
  }
}

inline void record_vector(BlockContext& ctx, Op op, DType dtype, DType dtype2, std::int32_t count,
                          unsigned elem_bytes, std::initializer_list<Access> accesses) {
  Instr ins;
  ins.pipe = Pipe::kVector;
  ins.op = op;
  ins.dtype = dtype;
  ins.dtype2 = dtype2;
  ins.src = Mem::kUb;
  ins.dst = Mem::kUb;
  ins.count = static_cast<std::uint32_t>(count);
  ins.bytes = static_cast<std::uint64_t>(count) * elem_bytes;
  ctx.emit(ins, accesses);
}

template <class T, class F>
void binary_op(Op op, const char* name, const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b,
               std::int32_t count, F f) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  check_operand(dst, count, name, "dst");
  check_operand(a, count, name, "src0");
  check_operand(b, count, name, "src1");
  T* d = dst.twin_data();
  const T* x = a.twin_data();
  const T* y = b.twin_data();
  for (std::int32_t i = 0; i < count; ++i) d[i] = f(x[i], y[i]);
  record_vector(ctx, op, dtype_of<T>(), dtype_of<T>(), count, sizeof(T),
                {{dst.twin_slot(), true}, {a.twin_slot(), false}, {b.twin_slot(), false}});
}

template <class T, class F>
void unary_op(Op op, const char* name, const AscendC::LocalTensor<T>& dst,
              const AscendC::LocalTensor<T>& src, std::int32_t count, F f) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  check_operand(dst, count, name, "dst");
  check_operand(src, count, name, "src");
  T* d = dst.twin_data();
  const T* x = src.twin_data();
  for (std::int32_t i = 0; i < count; ++i) d[i] = f(x[i]);
  record_vector(ctx, op, dtype_of<T>(), dtype_of<T>(), count, sizeof(T),
                {{dst.twin_slot(), true}, {src.twin_slot(), false}});
}

template <class T>
T divide(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return b == 0 ? T(0) : static_cast<T>(a / b);
  } else {
    return static_cast<T>(a / b);
  }
}

template <class T, class F>
T through_float(T x, F f) {
  return static_cast<T>(f(static_cast<float>(x)));
}

template <class T>
T absolute(T x) {
  if constexpr (IsSmallFloat<T>::value) {
    return T::from_bits(static_cast<std::uint16_t>(x.bits() & 0x7fffu));
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::fabs(x);
  } else {
    return x < 0 ? static_cast<T>(-x) : x;
  }
}

/// Pairwise (binary tree) sum of p[0..n), every partial sum rounded to T.
template <class T>
T pairwise_sum(const T* p, std::uint32_t n) {
  if (n == 0) return T(0);
  if (n == 1) return p[0];
  const std::uint32_t h = n / 2;
  return static_cast<T>(pairwise_sum(p, h) + pairwise_sum(p + h, n - h));
}

inline Rounding to_rounding(AscendC::RoundMode mode) {
  switch (mode) {
    case AscendC::RoundMode::CAST_FLOOR:
      return Rounding::kFloor;
    case AscendC::RoundMode::CAST_CEIL:
      return Rounding::kCeil;
    case AscendC::RoundMode::CAST_ROUND:
      return Rounding::kNearestAway;
    case AscendC::RoundMode::CAST_TRUNC:
      return Rounding::kTrunc;
    case AscendC::RoundMode::CAST_ODD:
      return Rounding::kOdd;
    default:
      return Rounding::kNearestEven;
  }
}

/// Converts one value with the given rounding (floats: IEEE rounding of the exact value;
/// integers: rounded, then saturated; NaN -> 0).
template <class D, class S>
D cast_value(S v, Rounding mode) {
  const double x =
      IsSmallFloat<S>::value ? static_cast<double>(static_cast<float>(v)) : static_cast<double>(v);
  if constexpr (IsSmallFloat<D>::value) {
    constexpr int kMant = std::is_same_v<D, Half> ? 10 : 7;
    constexpr int kExp = std::is_same_v<D, Half> ? 5 : 8;
    return D::from_bits(static_cast<std::uint16_t>(round_to_format(x, kMant, kExp, mode)));
  } else if constexpr (std::is_same_v<D, float>) {
    return detail::bit_cast<float>(round_to_format(x, 23, 8, mode));
  } else if constexpr (std::is_floating_point_v<D>) {
    return static_cast<D>(x);
  } else {
    if (std::isnan(x)) return D(0);
    const bool negative = x < 0;
    double r = detail::round_magnitude(std::fabs(x), mode, negative);
    r = negative ? -r : r;
    if (r <= static_cast<double>(std::numeric_limits<D>::min()))
      return std::numeric_limits<D>::min();
    if (r >= static_cast<double>(std::numeric_limits<D>::max()))
      return std::numeric_limits<D>::max();
    return static_cast<D>(r);
  }
}

template <class T, bool kMax>
void reduce_extreme(Op op, const char* name, const AscendC::LocalTensor<T>& dst,
                    const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& work,
                    std::int32_t count, bool cal_index) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  check_operand(src, count, name, "src");
  check_operand(dst, cal_index ? 2 : 1, name, "dst");
  if (count <= 0) fail(name, "count must be positive, got %d", count);
  const T* x = src.twin_data();
  std::uint32_t best = 0;
  for (std::int32_t i = 1; i < count; ++i) {
    if (kMax ? x[i] > x[best] : x[i] < x[best]) best = static_cast<std::uint32_t>(i);
  }
  dst.twin_data()[0] = x[best];
  if (cal_index) {
    if constexpr (sizeof(T) == 2) {
      const auto idx = static_cast<std::uint16_t>(best);
      std::memcpy(dst.twin_data() + 1, &idx, sizeof idx);
    } else {
      const auto idx = static_cast<std::uint32_t>(best);
      std::memcpy(dst.twin_data() + 1, &idx, sizeof(T) < sizeof idx ? sizeof(T) : sizeof idx);
    }
  }
  record_vector(ctx, op, dtype_of<T>(), dtype_of<T>(), count, sizeof(T),
                {{dst.twin_slot(), true}, {src.twin_slot(), false}, {work.twin_slot(), true}});
}

}  // namespace npusim::kernel

namespace AscendC {

#define NPUSIM_BINARY_OP(NAME, OP, EXPR)                                             \
  template <class T>                                                                 \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
                   const LocalTensor<T>& src1, const std::int32_t& count) {          \
    npusim::kernel::binary_op(npusim::kernel::Op::OP, #NAME, dst, src0, src1, count, \
                              [](T a, T b) { return EXPR; });                        \
  }
NPUSIM_BINARY_OP(Add, kAdd, static_cast<T>(a + b))
NPUSIM_BINARY_OP(Sub, kSub, static_cast<T>(a - b))
NPUSIM_BINARY_OP(Mul, kMul, static_cast<T>(a* b))
NPUSIM_BINARY_OP(Div, kDiv, npusim::kernel::divide(a, b))
NPUSIM_BINARY_OP(Max, kMax, (a > b ? a : b))
NPUSIM_BINARY_OP(Min, kMin, (a < b ? a : b))
#undef NPUSIM_BINARY_OP

#define NPUSIM_UNARY_OP(NAME, OP, EXPR)                                      \
  template <class T>                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,     \
                   const std::int32_t& count) {                              \
    npusim::kernel::unary_op(npusim::kernel::Op::OP, #NAME, dst, src, count, \
                             [](T x) { return EXPR; });                      \
  }
NPUSIM_UNARY_OP(Exp, kExp, npusim::kernel::through_float(x, [](float v) { return std::exp(v); }))
NPUSIM_UNARY_OP(Ln, kLn, npusim::kernel::through_float(x, [](float v) { return std::log(v); }))
NPUSIM_UNARY_OP(Sqrt, kSqrt, npusim::kernel::through_float(x, [](float v) { return std::sqrt(v); }))
NPUSIM_UNARY_OP(Abs, kAbs, npusim::kernel::absolute(x))
NPUSIM_UNARY_OP(Relu, kRelu, (x > T(0) ? x : T(0)))
#undef NPUSIM_UNARY_OP

#define NPUSIM_SCALAR_OP(NAME, OP, EXPR)                                     \
  template <class T>                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,     \
                   const typename npusim::kernel::Identity<T>::type& scalar, \
                   const std::int32_t& count) {                              \
    const T s = scalar;                                                      \
    npusim::kernel::unary_op(npusim::kernel::Op::OP, #NAME, dst, src, count, \
                             [s](T x) { return EXPR; });                     \
  }
NPUSIM_SCALAR_OP(Adds, kAdds, static_cast<T>(x + s))
NPUSIM_SCALAR_OP(Muls, kMuls, static_cast<T>(x* s))
NPUSIM_SCALAR_OP(Maxs, kMax, (x > s ? x : s))
NPUSIM_SCALAR_OP(Mins, kMin, (x < s ? x : s))
#undef NPUSIM_SCALAR_OP

template <class T>
inline void Duplicate(const LocalTensor<T>& dst,
                      const typename npusim::kernel::Identity<T>::type& scalar,
                      const std::int32_t& count) {
  using namespace npusim::kernel;
  auto& ctx = block();
  ScalarPause pause(ctx);
  check_operand(dst, count, "Duplicate", "dst");
  for (std::int32_t i = 0; i < count; ++i) dst.twin_data()[i] = scalar;
  record_vector(ctx, Op::kDuplicate, dtype_of<T>(), dtype_of<T>(), count, sizeof(T),
                {{dst.twin_slot(), true}});
}

template <class D, class S>
inline void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& round_mode,
                 const std::uint32_t count) {
  using namespace npusim::kernel;
  auto& ctx = block();
  ScalarPause pause(ctx);
  const auto n = static_cast<std::int32_t>(count);
  check_operand(dst, n, "Cast", "dst");
  check_operand(src, n, "Cast", "src");
  const Rounding mode = to_rounding(round_mode);
  for (std::int32_t i = 0; i < n; ++i) dst.twin_data()[i] = cast_value<D>(src.twin_data()[i], mode);
  record_vector(ctx, Op::kCast, dtype_of<D>(), dtype_of<S>(), n,
                sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S),
                {{dst.twin_slot(), true}, {src.twin_slot(), false}});
}

template <class T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<T>& shared_tmp, const std::int32_t count) {
  using namespace npusim::kernel;
  auto& ctx = block();
  ScalarPause pause(ctx);
  check_operand(src, count, "ReduceSum", "src");
  check_operand(dst, 1, "ReduceSum", "dst");
  dst.twin_data()[0] = pairwise_sum(src.twin_data(), static_cast<std::uint32_t>(count));
  record_vector(
      ctx, Op::kReduceSum, dtype_of<T>(), dtype_of<T>(), count, sizeof(T),
      {{dst.twin_slot(), true}, {src.twin_slot(), false}, {shared_tmp.twin_slot(), true}});
}

template <class T>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<T>& shared_tmp, const std::int32_t count,
                      bool cal_index = false) {
  npusim::kernel::reduce_extreme<T, true>(npusim::kernel::Op::kReduceMax, "ReduceMax", dst, src,
                                          shared_tmp, count, cal_index);
}

template <class T>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<T>& shared_tmp, const std::int32_t count,
                      bool cal_index = false) {
  npusim::kernel::reduce_extreme<T, false>(npusim::kernel::Op::kReduceMin, "ReduceMin", dst, src,
                                           shared_tmp, count, cal_index);
}

}  // namespace AscendC
