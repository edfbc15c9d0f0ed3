// SPDX-License-Identifier: Apache-2.0
// The bodies of the atomic DMA writes (npusim/ascendc/atomic_ops.h).
#include "npusim/ascendc/atomic_ops.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

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

namespace {

// The atomic state of the block running on a context (kept here, not in BlockContext, whose
// layout shapes kernels' inline code); one block at a time per context.
struct AtomicState {
  AtomicOp op = AtomicOp::kNone;
  DType dtype = DType::kUnknown;
  const std::uint8_t* addr = nullptr;  // the pending write's GM range and its old bytes
  std::vector<std::uint8_t> old;
};

std::mutex& states_mutex() {
  static std::mutex m;
  return m;
}

std::map<const BlockContext*, AtomicState>& states() {
  static auto* s = new std::map<const BlockContext*, AtomicState>;
  return *s;
}

AtomicState* state_of(const BlockContext& ctx) {
  auto it = states().find(&ctx);
  return it == states().end() ? nullptr : &it->second;
}

}  // namespace

void atomic_reset(const BlockContext& ctx) {
  std::lock_guard<std::mutex> lock(states_mutex());
  states().erase(&ctx);
}

void set_atomic(AtomicOp op, DType dtype, const char* what) {
  BlockContext& ctx = block();
  const bool supported = dtype == DType::kFp32 || dtype == DType::kFp16 ||
                         dtype == DType::kBf16 || dtype == DType::kInt8 ||
                         dtype == DType::kInt16 || dtype == DType::kInt32;
  if (op != AtomicOp::kNone && !supported) {
    fail(what, "no atomic DMA writes of this element type (float, half, bfloat16_t, int8_t, "
               "int16_t and int32_t have them)");
  }
  std::lock_guard<std::mutex> lock(states_mutex());
  if (op == AtomicOp::kNone) {
    states().erase(&ctx);
    return;
  }
  AtomicState& st = states()[&ctx];
  st.op = op;
  st.dtype = dtype;
}

void atomic_before_write(const BlockContext& ctx, const void* addr, std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(states_mutex());
  AtomicState* st = state_of(ctx);
  if (st == nullptr) return;
  st->addr = static_cast<const std::uint8_t*>(addr);
  st->old.assign(st->addr, st->addr + bytes);
}

// Burst i of the write (bytes / count bytes at gm_addr + i * gm_pitch) = old (+) written.
void atomic_after_write(const BlockContext& ctx, const Instr& ins) {
  std::lock_guard<std::mutex> lock(states_mutex());
  AtomicState* st = state_of(ctx);
  if (st == nullptr || st->addr == nullptr) return;
  auto* dst = reinterpret_cast<std::uint8_t*>(static_cast<std::uintptr_t>(ins.gm_addr));
  const std::uint32_t count = std::max<std::uint32_t>(ins.count, 1);
  const std::uint64_t len = ins.bytes / count;
  const std::uint64_t pitch = ins.gm_pitch != 0 ? ins.gm_pitch : len;
  const unsigned size = dtype_size(st->dtype);
  if (dst != st->addr || len % size != 0) {
    st->addr = nullptr;
    fail("DataCopy", "an atomic write of %llu-byte bursts is not whole elements of %u bytes",
         static_cast<unsigned long long>(len), size);
  }
  std::vector<std::uint8_t> written(len);
  for (std::uint32_t i = 0; i < count; ++i) {
    std::memcpy(written.data(), dst + i * pitch, len);
    std::memcpy(dst + i * pitch, st->old.data() + i * pitch, len);
    combine_elements(st->op, st->dtype, dst + i * pitch, written.data(), len / size);
  }
  st->addr = nullptr;
}

}  // namespace npusim::ascendc
