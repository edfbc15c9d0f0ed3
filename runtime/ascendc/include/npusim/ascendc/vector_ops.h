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
// In timing-only mode (BlockContext::functional false) the bodies check their operands and
// record exactly as usual but compute nothing. Scalar GetValue/SetValue (tensor.h) still read
// and write: kernels may branch on them (on undefined data in that mode).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/half.h"
#include "npusim/ascendc/tensor.h"

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

namespace npusim::ascendc {

template <class T>
struct Identity {
  using type = T;
};

// Each op is a kernel-facing shell (block(), ScalarPause, unchanged since scalar_bbs counts its
// basic blocks around the pause) and a twin body marked NPUSIM_TWIN_FN that checks, computes
// and records. Bodies see tensors as Operands: LocalTensor's members are instrumented inline code.

/// A local tensor as a twin body sees it.
template <class T>
struct Operand {
  T* data;
  std::uint32_t size;
  std::int32_t slot;
};

template <class T>
Operand<T> operand(const AscendC::LocalTensor<T>& t) {
  return {t.twin_data(), t.GetSize(), t.twin_slot()};
}

/// After a body returned: what its check_operand established, told to the optimizer as if the
/// checks had been inlined into the kernel, so the kernel's code after the call (and its basic
/// blocks) compiles as it did when the whole op was inline code. Inside the ScalarPause.
template <class T>
void checked(const AscendC::LocalTensor<T>& t, std::int32_t count) {
  if (t.twin_data() == nullptr || count < 0 || static_cast<std::uint32_t>(count) > t.GetSize()) {
    __builtin_unreachable();
  }
}

template <class T>
NPUSIM_TWIN_FN void check_operand(const Operand<T>& t, std::int32_t count, const char* op,
                                  const char* which) {
  if (t.data == nullptr) fail(op, "%s has no buffer", which);
  if (count < 0 || static_cast<std::uint32_t>(count) > t.size) {
    fail(op, "count %d exceeds the %s tensor (%u elements)", count, which, t.size);
  }
}

NPUSIM_TWIN_FN inline void record_vector(BlockContext& ctx, Op op, DType dtype, DType dtype2,
                                         std::int32_t count, unsigned elem_bytes,
                                         std::initializer_list<Access> accesses) {
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

/// True when n elements at `a` and at `b` are the same elements or do not overlap at all.
template <class T>
NPUSIM_TWIN_FN bool same_or_apart(const T* a, const T* b, std::int32_t n) {
  const auto pa = reinterpret_cast<std::uintptr_t>(a);
  const auto pb = reinterpret_cast<std::uintptr_t>(b);
  const auto bytes = static_cast<std::uintptr_t>(n) * sizeof(T);
  return pa == pb || pa + bytes <= pb || pb + bytes <= pa;
}

// d[i] = f(x[i], y[i]) / f(x[i]) for i in [0, n), in order. When d and each source are the same
// elements or apart, blocks of kLanes elements are computed from copies of their inputs (the
// compiler vectorises that); the results are the same, element by element.
constexpr std::int32_t kLanes = 8;

template <class T, class F>
NPUSIM_TWIN_FN void apply_binary(T* d, const T* x, const T* y, std::int32_t n, F f) {
  std::int32_t i = 0;
  if (same_or_apart(d, x, n) && same_or_apart(d, y, n)) {
    for (; i + kLanes <= n; i += kLanes) {
      T a[kLanes], b[kLanes];
      for (std::int32_t j = 0; j < kLanes; ++j) {
        a[j] = x[i + j];
        b[j] = y[i + j];
      }
      for (std::int32_t j = 0; j < kLanes; ++j) d[i + j] = f(a[j], b[j]);
    }
  }
  for (; i < n; ++i) d[i] = f(x[i], y[i]);
}

template <class T, class F>
NPUSIM_TWIN_FN void apply_unary(T* d, const T* x, std::int32_t n, F f) {
  std::int32_t i = 0;
  if (same_or_apart(d, x, n)) {
    for (; i + kLanes <= n; i += kLanes) {
      T a[kLanes];
      for (std::int32_t j = 0; j < kLanes; ++j) a[j] = x[i + j];
      for (std::int32_t j = 0; j < kLanes; ++j) d[i + j] = f(a[j]);
    }
  }
  for (; i < n; ++i) d[i] = f(x[i]);
}

template <class T, class F>
NPUSIM_TWIN_FN void binary_body(BlockContext& ctx, Op op, const char* name, Operand<T> dst,
                                Operand<T> a, Operand<T> b, std::int32_t count, F f) {
  check_operand(dst, count, name, "dst");
  check_operand(a, count, name, "src0");
  check_operand(b, count, name, "src1");
  if (ctx.functional)
    apply_binary(dst.data, static_cast<const T*>(a.data), static_cast<const T*>(b.data), count,
                 f);
  record_vector(ctx, op, dtype_of<T>(), dtype_of<T>(), count, sizeof(T),
                {{dst.slot, true}, {a.slot, false}, {b.slot, false}});
}

template <class T, class F>
void binary_op(Op op, const char* name, const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b,
               std::int32_t count, F f) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  binary_body(ctx, op, name, operand(dst), operand(a), operand(b), count, f);
  checked(dst, count);
  checked(a, count);
  checked(b, count);
}

template <class T, class F>
NPUSIM_TWIN_FN void unary_body(BlockContext& ctx, Op op, const char* name, Operand<T> dst,
                               Operand<T> src, std::int32_t count, F f) {
  check_operand(dst, count, name, "dst");
  check_operand(src, count, name, "src");
  if (ctx.functional) apply_unary(dst.data, static_cast<const T*>(src.data), count, f);
  record_vector(ctx, op, dtype_of<T>(), dtype_of<T>(), count, sizeof(T),
                {{dst.slot, true}, {src.slot, false}});
}

template <class T, class F>
void unary_op(Op op, const char* name, const AscendC::LocalTensor<T>& dst,
              const AscendC::LocalTensor<T>& src, std::int32_t count, F f) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  unary_body(ctx, op, name, operand(dst), operand(src), count, f);
  checked(dst, count);
  checked(src, count);
}

template <class T>
NPUSIM_TWIN_FN T divide(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return b == 0 ? T(0) : static_cast<T>(a / b);
  } else {
    return static_cast<T>(a / b);
  }
}

// The C library functions in float, as std::exp/log/sqrt(float) call them (the <cmath> inline
// wrappers are not twin code, so bodies use the builtins they forward to).
struct ExpF {
  NPUSIM_TWIN_FN float operator()(float v) const { return __builtin_expf(v); }
};
struct LnF {
  NPUSIM_TWIN_FN float operator()(float v) const { return __builtin_logf(v); }
};
struct SqrtF {
  NPUSIM_TWIN_FN float operator()(float v) const { return __builtin_sqrtf(v); }
};

template <class T, class F>
NPUSIM_TWIN_FN T through_float(T x, F f) {
  return static_cast<T>(f(static_cast<float>(x)));
}

template <class T>
NPUSIM_TWIN_FN T absolute(T x) {
  if constexpr (IsSmallFloat<T>::value) {
    return T::from_bits(static_cast<std::uint16_t>(x.bits() & 0x7fffu));
  } else if constexpr (std::is_same_v<T, float>) {
    return __builtin_fabsf(x);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(__builtin_fabs(x));
  } else {
    return x < 0 ? static_cast<T>(-x) : x;
  }
}

/// Pairwise (binary tree) sum of p[0..n), every partial sum rounded to T.
template <class T>
NPUSIM_TWIN_FN T pairwise_sum(const T* p, std::uint32_t n) {
  if (n == 0) return T(0);
  if (n == 1) return p[0];
  const std::uint32_t h = n / 2;
  return static_cast<T>(pairwise_sum(p, h) + pairwise_sum(p + h, n - h));
}

NPUSIM_TWIN_FN inline Rounding to_rounding(AscendC::RoundMode mode) {
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
NPUSIM_TWIN_FN D cast_value(S v, Rounding mode) {
  const double x =
      IsSmallFloat<S>::value ? static_cast<double>(static_cast<float>(v)) : static_cast<double>(v);
  if constexpr (IsSmallFloat<D>::value) {
    constexpr int kMant = std::is_same_v<D, Half> ? 10 : 7;
    constexpr int kExp = std::is_same_v<D, Half> ? 5 : 8;
    return D::from_bits(static_cast<std::uint16_t>(round_to_format(x, kMant, kExp, mode)));
  } else if constexpr (std::is_same_v<D, float>) {
    const std::uint32_t bits = round_to_format(x, 23, 8, mode);
    float f;
    __builtin_memcpy(&f, &bits, sizeof f);
    return f;
  } else if constexpr (std::is_floating_point_v<D>) {
    return static_cast<D>(x);
  } else {
    if (__builtin_isnan(x)) return D(0);
    const bool negative = x < 0;
    double r = detail::round_magnitude(__builtin_fabs(x), mode, negative);
    r = negative ? -r : r;
    constexpr D kMin = std::numeric_limits<D>::min();
    constexpr D kMax = std::numeric_limits<D>::max();
    if (r <= static_cast<double>(kMin)) return kMin;
    if (r >= static_cast<double>(kMax)) return kMax;
    return static_cast<D>(r);
  }
}

template <class T, bool kMax>
NPUSIM_TWIN_FN void reduce_extreme_body(BlockContext& ctx, Op op, const char* name,
                                        Operand<T> dst, Operand<T> src, std::int32_t work_slot,
                                        std::int32_t count, bool cal_index) {
  check_operand(src, count, name, "src");
  check_operand(dst, cal_index ? 2 : 1, name, "dst");
  if (count <= 0) fail(name, "count must be positive, got %d", count);
  if (!ctx.functional) {  // timing-only: nothing computed
    record_vector(ctx, op, dtype_of<T>(), dtype_of<T>(), count, sizeof(T),
                  {{dst.slot, true}, {src.slot, false}, {work_slot, true}});
    return;
  }
  const T* x = src.data;
  std::uint32_t best = 0;
  for (std::int32_t i = 1; i < count; ++i) {
    if (kMax ? x[i] > x[best] : x[i] < x[best]) best = static_cast<std::uint32_t>(i);
  }
  dst.data[0] = x[best];
  if (cal_index) {
    if constexpr (sizeof(T) == 2) {
      const auto idx = static_cast<std::uint16_t>(best);
      __builtin_memcpy(dst.data + 1, &idx, sizeof idx);
    } else {
      const auto idx = static_cast<std::uint32_t>(best);
      __builtin_memcpy(dst.data + 1, &idx, sizeof(T) < sizeof idx ? sizeof(T) : sizeof idx);
    }
  }
  record_vector(ctx, op, dtype_of<T>(), dtype_of<T>(), count, sizeof(T),
                {{dst.slot, true}, {src.slot, false}, {work_slot, true}});
}

template <class T, bool kMax>
void reduce_extreme(Op op, const char* name, const AscendC::LocalTensor<T>& dst,
                    const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& work,
                    std::int32_t count, bool cal_index) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  reduce_extreme_body<T, kMax>(ctx, op, name, operand(dst), operand(src), work.twin_slot(), count,
                               cal_index);
  checked(src, count);
  checked(dst, cal_index ? 2 : 1);
  if (count <= 0) __builtin_unreachable();
}

template <class T>
NPUSIM_TWIN_FN void duplicate_body(BlockContext& ctx, Operand<T> dst, T scalar,
                                   std::int32_t count) {
  check_operand(dst, count, "Duplicate", "dst");
  if (ctx.functional) {
    for (std::int32_t i = 0; i < count; ++i) dst.data[i] = scalar;
  }
  record_vector(ctx, Op::kDuplicate, dtype_of<T>(), dtype_of<T>(), count, sizeof(T),
                {{dst.slot, true}});
}

template <class D, class S>
NPUSIM_TWIN_FN void cast_body(BlockContext& ctx, Operand<D> dst, Operand<S> src,
                              AscendC::RoundMode round_mode, std::int32_t n) {
  check_operand(dst, n, "Cast", "dst");
  check_operand(src, n, "Cast", "src");
  const Rounding mode = to_rounding(round_mode);
  if (ctx.functional) {
    for (std::int32_t i = 0; i < n; ++i) dst.data[i] = cast_value<D>(src.data[i], mode);
  }
  record_vector(ctx, Op::kCast, dtype_of<D>(), dtype_of<S>(), n,
                sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S),
                {{dst.slot, true}, {src.slot, false}});
}

template <class T>
NPUSIM_TWIN_FN void reduce_sum_body(BlockContext& ctx, Operand<T> dst, Operand<T> src,
                                    std::int32_t tmp_slot, std::int32_t count) {
  check_operand(src, count, "ReduceSum", "src");
  check_operand(dst, 1, "ReduceSum", "dst");
  if (ctx.functional) {
    dst.data[0] = pairwise_sum(src.data, static_cast<std::uint32_t>(count));
    ctx.regs.reduce_sum = static_cast<double>(static_cast<float>(dst.data[0]));  // the SPR
  }
  record_vector(ctx, Op::kReduceSum, dtype_of<T>(), dtype_of<T>(), count, sizeof(T),
                {{dst.slot, true}, {src.slot, false}, {tmp_slot, true}});
}

}  // namespace npusim::ascendc

namespace AscendC {

#define NPUSIM_BINARY_OP(NAME, OP, EXPR)                                             \
  template <class T>                                                                 \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
                   const LocalTensor<T>& src1, const std::int32_t& count) {          \
    npusim::ascendc::binary_op(npusim::ascendc::Op::OP, #NAME, dst, src0, src1, count, \
                              [](T a, T b) NPUSIM_TWIN_FN { return EXPR; });         \
  }
NPUSIM_BINARY_OP(Add, kAdd, static_cast<T>(a + b))
NPUSIM_BINARY_OP(Sub, kSub, static_cast<T>(a - b))
NPUSIM_BINARY_OP(Mul, kMul, static_cast<T>(a* b))
NPUSIM_BINARY_OP(Div, kDiv, npusim::ascendc::divide(a, b))
NPUSIM_BINARY_OP(Max, kMax, (a > b ? a : b))
NPUSIM_BINARY_OP(Min, kMin, (a < b ? a : b))
#undef NPUSIM_BINARY_OP

#define NPUSIM_UNARY_OP(NAME, OP, EXPR)                                      \
  template <class T>                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,     \
                   const std::int32_t& count) {                              \
    npusim::ascendc::unary_op(npusim::ascendc::Op::OP, #NAME, dst, src, count, \
                             [](T x) NPUSIM_TWIN_FN { return EXPR; });       \
  }
NPUSIM_UNARY_OP(Exp, kExp, npusim::ascendc::through_float(x, npusim::ascendc::ExpF()))
NPUSIM_UNARY_OP(Ln, kLn, npusim::ascendc::through_float(x, npusim::ascendc::LnF()))
NPUSIM_UNARY_OP(Sqrt, kSqrt, npusim::ascendc::through_float(x, npusim::ascendc::SqrtF()))
NPUSIM_UNARY_OP(Abs, kAbs, npusim::ascendc::absolute(x))
NPUSIM_UNARY_OP(Relu, kRelu, (x > T(0) ? x : T(0)))
// 1 / x, one V instruction (recorded as a division, the vector unit's cost for it).
NPUSIM_UNARY_OP(Reciprocal, kDiv, npusim::ascendc::divide(static_cast<T>(1.0f), x))
#undef NPUSIM_UNARY_OP

#define NPUSIM_SCALAR_OP(NAME, OP, EXPR)                                     \
  template <class T>                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,     \
                   const typename npusim::ascendc::Identity<T>::type& scalar, \
                   const std::int32_t& count) {                              \
    const T s = scalar;                                                      \
    npusim::ascendc::unary_op(npusim::ascendc::Op::OP, #NAME, dst, src, count, \
                             [s](T x) NPUSIM_TWIN_FN { return EXPR; });      \
  }
NPUSIM_SCALAR_OP(Adds, kAdds, static_cast<T>(x + s))
NPUSIM_SCALAR_OP(Muls, kMuls, static_cast<T>(x* s))
NPUSIM_SCALAR_OP(Maxs, kMax, (x > s ? x : s))
NPUSIM_SCALAR_OP(Mins, kMin, (x < s ? x : s))
#undef NPUSIM_SCALAR_OP

template <class T>
inline void Duplicate(const LocalTensor<T>& dst,
                      const typename npusim::ascendc::Identity<T>::type& scalar,
                      const std::int32_t& count) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  duplicate_body<T>(ctx, operand(dst), scalar, count);
  checked(dst, count);
}

template <class D, class S>
inline void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& round_mode,
                 const std::uint32_t count) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  const auto n = static_cast<std::int32_t>(count);
  cast_body(ctx, operand(dst), operand(src), round_mode, n);
  checked(dst, n);
  checked(src, n);
}

template <class T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<T>& shared_tmp, const std::int32_t count) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  reduce_sum_body(ctx, operand(dst), operand(src), shared_tmp.twin_slot(), count);
  checked(src, count);
  checked(dst, 1);
}

template <class T>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<T>& shared_tmp, const std::int32_t count,
                      bool cal_index = false) {
  npusim::ascendc::reduce_extreme<T, true>(npusim::ascendc::Op::kReduceMax, "ReduceMax", dst, src,
                                          shared_tmp, count, cal_index);
}

template <class T>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<T>& shared_tmp, const std::int32_t count,
                      bool cal_index = false) {
  npusim::ascendc::reduce_extreme<T, false>(npusim::ascendc::Op::kReduceMin, "ReduceMin", dst, src,
                                           shared_tmp, count, cal_index);
}

}  // namespace AscendC
