// SPDX-License-Identifier: Apache-2.0
// The bodies of the atomic DMA writes (npusim/ascendc/atomic_ops.h).
#include "npusim/ascendc/atomic_ops.h"

#include <algorithm>
#include <cstring>

#include "npusim/ascendc/half.h"

namespace npusim::ascendc {
namespace {

template <class T>
T combine(AtomicOp op, T a, T b) {
  switch (op) {
    case AtomicOp::kAdd: return static_cast<T>(a + b);
    case AtomicOp::kMax: return std::max(a, b);
    default: return std::min(a, b);
  }
}

// Integers add with wrap-around (in the unsigned type: no signed overflow).
template <class T, class U>
T combine_int(AtomicOp op, T a, T b) {
  if (op != AtomicOp::kAdd) return combine(op, a, b);
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}

template <class T, class Calc, Calc (*kCombine)(AtomicOp, Calc, Calc)>
void combine_run(AtomicOp op, std::uint8_t* dst, const std::uint8_t* src, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) {
    T a;
    T b;
    std::memcpy(&a, dst + i * sizeof(T), sizeof(T));
    std::memcpy(&b, src + i * sizeof(T), sizeof(T));
    const T r = static_cast<T>(kCombine(op, static_cast<Calc>(a), static_cast<Calc>(b)));
    std::memcpy(dst + i * sizeof(T), &r, sizeof(T));
  }
}

void combine_elements(AtomicOp op, DType t, std::uint8_t* dst, const std::uint8_t* src,
                      std::uint64_t n) {
  switch (t) {
    case DType::kFp32: return combine_run<float, float, combine<float>>(op, dst, src, n);
    case DType::kFp16: return combine_run<Half, float, combine<float>>(op, dst, src, n);
    case DType::kBf16: return combine_run<BFloat16, float, combine<float>>(op, dst, src, n);
    case DType::kInt8:
      return combine_run<std::int8_t, std::int8_t, combine_int<std::int8_t, std::uint8_t>>(
          op, dst, src, n);
    case DType::kInt16:
      return combine_run<std::int16_t, std::int16_t, combine_int<std::int16_t, std::uint16_t>>(
          op, dst, src, n);
    default:
      return combine_run<std::int32_t, std::int32_t, combine_int<std::int32_t, std::uint32_t>>(
          op, dst, src, n);
  }
}

}  // namespace

void set_atomic(AtomicOp op, DType dtype, const char* what) {
  BlockContext& ctx = block();
  const bool supported = dtype == DType::kFp32 || dtype == DType::kFp16 ||
                         dtype == DType::kBf16 || dtype == DType::kInt8 ||
                         dtype == DType::kInt16 || dtype == DType::kInt32;
  if (op != AtomicOp::kNone && !supported) {
    fail(what, "no atomic DMA writes of this element type (float, half, bfloat16_t, int8_t, "
               "int16_t and int32_t have them)");
  }
  ctx.atomic_op = op;
  ctx.atomic_dtype = dtype;
}

void atomic_bursts(BlockContext& ctx, std::uint8_t* dst, const std::uint8_t* src,
                   std::uint32_t count, std::uint64_t len, std::uint64_t src_pitch,
                   std::uint64_t dst_pitch) {
  const unsigned size = dtype_size(ctx.atomic_dtype);
  if (len % size != 0) {
    fail("DataCopy", "an atomic write of %llu bytes is not whole elements of %u bytes",
         static_cast<unsigned long long>(len), size);
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    combine_elements(ctx.atomic_op, ctx.atomic_dtype, dst + i * dst_pitch, src + i * src_pitch,
                     len / size);
  }
}

}  // namespace npusim::ascendc
