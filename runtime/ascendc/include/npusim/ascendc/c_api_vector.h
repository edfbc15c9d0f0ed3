// SPDX-License-Identifier: Apache-2.0
// CANN 9's Ascend C C API on the twin (dav-2201), part 2: vector compute on UB pointers (PIPE_V),
// through the C++ API's twin bodies (vector_ops.h, attention_ops.h), recording the same V
// instructions. See c_api.h for the C API's UB pointers and the `_sync` variants.
//
// Forms, as documented for dav-2201:
//  - count form `asc_op(dst, src..., count)`: the first `count` elements. The device runs it in
//    count mode and returns to normal mode without restoring the mask register, which then holds
//    {0, count} (BlockContext::vector_mask);
//  - repeat form `asc_op(dst, src0, src1, repeat, 3 block strides, 3 repeat strides)` (binary
//    ops): `repeat` repeats of 256 bytes addressed as in attention_ops.h, each repeat computing
//    the elements the mask register enables. The twin models masks enabling the first k
//    elements of a repeat (asc_init's full mask among them, or set by asc_set_vector_mask); any
//    other mask is a KernelError;
//  - `asc_op_sync(...)`: the count form, then asc_sync.
// Types outside an op's documented list fail to compile; so do the forms and ops not declared
// here (unary/scalar repeat forms, compare/select, casts, reductions, ...).
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/attention_ops.h"
#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/c_api.h"
#include "npusim/ascendc/vector_ops.h"

namespace npusim::ascendc::capi {

template <class T, class... Allowed>
constexpr bool kOneOf = (std::is_same_v<T, Allowed> || ...);
template <class T>
constexpr bool kArithTypes = kOneOf<T, std::int16_t, Half, std::int32_t, float>;
template <class T>
constexpr bool kFloatTypes = kOneOf<T, Half, float>;
template <class T>
constexpr bool kReluTypes = kOneOf<T, Half, std::int32_t, float>;
template <class T>
constexpr bool kDupTypes =
    kOneOf<T, std::int16_t, std::uint16_t, Half, BFloat16, std::int32_t, std::uint32_t, float>;

/// A C API UB pointer as a twin body's operand of `elems` elements (no buffer tracked).
template <class T>
Operand<T> ub(T* p, std::uint64_t elems) {
  return {p, static_cast<std::uint32_t>(elems), -1};
}

/// What a count-form op leaves in the mask register.
inline void leave_count_mask(BlockContext& ctx, std::uint32_t count) {
  ctx.regs.mask[0] = count;  // {elements 0..63, elements 64..127}
  ctx.regs.mask[1] = 0;
}

/// The elements per repeat the mask register enables (k when it enables exactly the first k of
/// the 256 / sizeof(T) elements); KernelError naming `op` for any other mask.
template <class T>
std::uint32_t mask_elements(const BlockContext& ctx, const char* op) {
  constexpr std::uint32_t kElems = 256 / sizeof(T);
  static_assert(kElems <= 128, "8-bit repeat forms are not modelled");
  auto bit = [&ctx](std::uint32_t i) { return (ctx.regs.mask[i < 64 ? 0 : 1] >> (i % 64)) & 1u; };
  std::uint32_t k = 0;
  while (k < kElems && bit(k) != 0) ++k;
  for (std::uint32_t i = k; i < kElems; ++i) {
    if (bit(i) != 0) {
      fail(op, "the vector mask {0x%llx, 0x%llx} enables elements that are not the first of a "
           "repeat (the simulator models only such masks; a count-form call leaves {0, count})",
           static_cast<unsigned long long>(ctx.regs.mask[1]),
           static_cast<unsigned long long>(ctx.regs.mask[0]));
    }
  }
  if (k == 0) fail(op, "the vector mask enables no element");
  return k;
}

template <class T, class F>
void binary_count(Op op, const char* name, T* dst, T* a, T* b, std::uint32_t count, F f) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  binary_body(ctx, op, name, ub(dst, count), ub(a, count), ub(b, count),
              static_cast<std::int32_t>(count), f);
  leave_count_mask(ctx, count);
}

template <class T, class F>
void binary_masked(Op op, const char* name, T* dst, T* a, T* b, std::uint8_t repeat,
                   const AscendC::BinaryRepeatParams& p, F f) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  const std::uint32_t m = mask_elements<T>(ctx, name);
  const auto span = [&](std::uint32_t blk, std::uint32_t rep) {
    return repeat_span<T>(repeat, m, blk, rep);
  };
  binary_repeat_body(ctx, op, name, ub(dst, span(p.dstBlkStride, p.dstRepStride)),
                     ub(a, span(p.src0BlkStride, p.src0RepStride)),
                     ub(b, span(p.src1BlkStride, p.src1RepStride)), m, repeat, p, f);
}

template <class T, class F>
void unary_count(Op op, const char* name, T* dst, T* src, std::uint32_t count, F f) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  unary_body(ctx, op, name, ub(dst, count), ub(src, count), static_cast<std::int32_t>(count), f);
  leave_count_mask(ctx, count);
}

template <class T>
void duplicate_count(T* dst, T value, std::uint32_t count) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  duplicate_body(ctx, ub(dst, count), value, static_cast<std::int32_t>(count));
  leave_count_mask(ctx, count);
}

// The element functions, as the C++ API's ops compute them (vector_ops.h).
struct AddF {
  template <class T>
  NPUSIM_TWIN_FN T operator()(T a, T b) const { return static_cast<T>(a + b); }
};
struct SubF {
  template <class T>
  NPUSIM_TWIN_FN T operator()(T a, T b) const { return static_cast<T>(a - b); }
};
struct MulF {
  template <class T>
  NPUSIM_TWIN_FN T operator()(T a, T b) const { return static_cast<T>(a * b); }
};
struct DivF {
  template <class T>
  NPUSIM_TWIN_FN T operator()(T a, T b) const { return divide(a, b); }
};
struct MaxF {
  template <class T>
  NPUSIM_TWIN_FN T operator()(T a, T b) const { return a > b ? a : b; }
};
struct MinF {
  template <class T>
  NPUSIM_TWIN_FN T operator()(T a, T b) const { return a < b ? a : b; }
};
template <class G>
struct ViaFloat {  // exp, log, sqrt: computed in float and rounded to T
  template <class T>
  NPUSIM_TWIN_FN T operator()(T x) const { return through_float(x, G()); }
};
struct AbsF {
  template <class T>
  NPUSIM_TWIN_FN T operator()(T x) const { return absolute(x); }
};
struct ReluF {
  template <class T>
  NPUSIM_TWIN_FN T operator()(T x) const { return x > T(0) ? x : T(0); }
};
/// A binary element function with its second operand fixed (the scalar ops).
template <class F, class T>
struct WithScalar {
  T s;
  NPUSIM_TWIN_FN T operator()(T x) const { return F()(x, s); }
};

}  // namespace npusim::ascendc::capi

// ---- the mask register (normal mode) ----

/// Normal mask mode: the only mode the twin's repeat forms run in (count mode, which count-form
/// calls enter and leave themselves, is not offered to kernels: asc_set_mask_count is not
/// declared), so the register's mode already is normal.
inline void asc_set_mask_norm() { npusim::ascendc::block().regs.counter_mode = false; }

/// The elements of a repeat the repeat forms compute: bit i of {mask1, mask0} enables element i
/// (mask1: elements 64..127 of 16-bit types). The twin computes masks that enable the first k
/// elements; a repeat-form op under any other mask is a KernelError.
inline void asc_set_vector_mask(std::uint64_t mask1, std::uint64_t mask0) {
  std::uint64_t* mask = npusim::ascendc::block().regs.mask;  // {0..63, 64..127}
  mask[1] = mask1;
  mask[0] = mask0;
}

// Binary ops: count form, repeat form (mask register), _sync form.
#define NPUSIM_CAPI_BINARY(NAME, OP, FN, TYPES)                                                   \
  template <class T>                                                                             \
  inline void NAME(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, std::uint32_t count) {   \
    static_assert(npusim::ascendc::capi::TYPES<T>, #NAME ": element type not supported");       \
    npusim::ascendc::capi::binary_count(npusim::ascendc::Op::OP, #NAME, dst, src0, src1, count,  \
                                        npusim::ascendc::capi::FN());                            \
  }                                                                                              \
  template <class T>                                                                             \
  inline void NAME(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, std::uint8_t repeat,     \
                   std::uint8_t dst_block_stride, std::uint8_t src0_block_stride,                \
                   std::uint8_t src1_block_stride, std::uint8_t dst_repeat_stride,               \
                   std::uint8_t src0_repeat_stride, std::uint8_t src1_repeat_stride) {           \
    static_assert(npusim::ascendc::capi::TYPES<T>, #NAME ": element type not supported");       \
    const AscendC::BinaryRepeatParams p(dst_block_stride, src0_block_stride, src1_block_stride,  \
                                        dst_repeat_stride, src0_repeat_stride,                   \
                                        src1_repeat_stride);                                     \
    npusim::ascendc::capi::binary_masked(npusim::ascendc::Op::OP, #NAME, dst, src0, src1, repeat, \
                                         p, npusim::ascendc::capi::FN());                        \
  }                                                                                              \
  template <class T>                                                                             \
  inline void NAME##_sync(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1,                   \
                          std::uint32_t count) {                                                 \
    NAME(dst, src0, src1, count);                                                                \
    asc_sync();                                                                                  \
  }
NPUSIM_CAPI_BINARY(asc_add, kAdd, AddF, kArithTypes)
NPUSIM_CAPI_BINARY(asc_sub, kSub, SubF, kArithTypes)
NPUSIM_CAPI_BINARY(asc_mul, kMul, MulF, kArithTypes)
NPUSIM_CAPI_BINARY(asc_div, kDiv, DivF, kFloatTypes)
NPUSIM_CAPI_BINARY(asc_max, kMax, MaxF, kArithTypes)
NPUSIM_CAPI_BINARY(asc_min, kMin, MinF, kArithTypes)
#undef NPUSIM_CAPI_BINARY

// Unary ops: count form and _sync form.
#define NPUSIM_CAPI_UNARY(NAME, OP, FN, TYPES)                                                  \
  template <class T>                                                                           \
  inline void NAME(__ubuf__ T* dst, __ubuf__ T* src, std::uint32_t count) {                    \
    static_assert(npusim::ascendc::capi::TYPES<T>, #NAME ": element type not supported");     \
    npusim::ascendc::capi::unary_count(npusim::ascendc::Op::OP, #NAME, dst, src, count,        \
                                       npusim::ascendc::capi::FN());                           \
  }                                                                                            \
  template <class T>                                                                           \
  inline void NAME##_sync(__ubuf__ T* dst, __ubuf__ T* src, std::uint32_t count) {             \
    NAME(dst, src, count);                                                                     \
    asc_sync();                                                                                \
  }
NPUSIM_CAPI_UNARY(asc_exp, kExp, ViaFloat<npusim::ascendc::ExpF>, kFloatTypes)
NPUSIM_CAPI_UNARY(asc_log, kLn, ViaFloat<npusim::ascendc::LnF>, kFloatTypes)
NPUSIM_CAPI_UNARY(asc_sqrt, kSqrt, ViaFloat<npusim::ascendc::SqrtF>, kFloatTypes)
NPUSIM_CAPI_UNARY(asc_abs, kAbs, AbsF, kFloatTypes)
NPUSIM_CAPI_UNARY(asc_relu, kRelu, ReluF, kReluTypes)
#undef NPUSIM_CAPI_UNARY

// Vector-scalar ops: dst[i] = f(src[i], value); count form and _sync form.
#define NPUSIM_CAPI_SCALAR(NAME, OP, FN)                                                        \
  template <class T>                                                                           \
  inline void NAME(__ubuf__ T* dst, __ubuf__ T* src,                                           \
                   typename npusim::ascendc::Identity<T>::type value, std::uint32_t count) {   \
    static_assert(npusim::ascendc::capi::kArithTypes<T>, #NAME ": element type not supported"); \
    using F = npusim::ascendc::capi::WithScalar<npusim::ascendc::capi::FN, T>;                 \
    npusim::ascendc::capi::unary_count(npusim::ascendc::Op::OP, #NAME, dst, src, count,        \
                                       F{value});                                              \
  }                                                                                            \
  template <class T>                                                                           \
  inline void NAME##_sync(__ubuf__ T* dst, __ubuf__ T* src,                                    \
                          typename npusim::ascendc::Identity<T>::type value,                   \
                          std::uint32_t count) {                                               \
    NAME(dst, src, value, count);                                                              \
    asc_sync();                                                                                \
  }
NPUSIM_CAPI_SCALAR(asc_add_scalar, kAdds, AddF)
NPUSIM_CAPI_SCALAR(asc_mul_scalar, kMuls, MulF)
NPUSIM_CAPI_SCALAR(asc_max_scalar, kMax, MaxF)
NPUSIM_CAPI_SCALAR(asc_min_scalar, kMin, MinF)
#undef NPUSIM_CAPI_SCALAR

/// dst[i] = value for the first `count` elements.
template <class T>
inline void asc_duplicate(__ubuf__ T* dst, typename npusim::ascendc::Identity<T>::type value,
                          std::uint32_t count) {
  static_assert(npusim::ascendc::capi::kDupTypes<T>, "asc_duplicate: element type not supported");
  npusim::ascendc::capi::duplicate_count(dst, static_cast<T>(value), count);
}
template <class T>
inline void asc_duplicate_sync(__ubuf__ T* dst, typename npusim::ascendc::Identity<T>::type value,
                               std::uint32_t count) {
  asc_duplicate(dst, value, count);
  asc_sync();
}
