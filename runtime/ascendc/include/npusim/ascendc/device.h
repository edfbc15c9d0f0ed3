// SPDX-License-Identifier: Apache-2.0
// Device-side language surface of the Ascend C twin: address-space and function qualifiers
// (empty on the CPU), GM_ADDR, __NPU_ARCH__, half/bfloat16_t, block_idx/GetBlockIdx (the
// sub-block queries of mix kernels: mix_ops.h), the
// buffered AscendC::printf, dcci (no-op: the CPU has no separate data cache) and asm("trap").
//
// asm (the macro itself is defined last, in kernel_operator.h, after every standard header):
// `asm("trap")` expands to npusim::ascendc::device_asm("trap"), which throws DeviceTrap; any
// other asm text is a KernelError at run time. `asm volatile(...)` cannot be caught by a macro:
// the kernel rewrite step (rewrite_launch.py) turns it into `asm(...)` first.
#pragma once

#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/half.h"
#include "npusim/ascendc/qualifiers.h"

#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

#define __in_pipe__(p)
#define __out_pipe__(p)
#define __inout_pipe__(p)
#define GM_ADDR __gm__ uint8_t*
#define KERNEL_TASK_TYPE_DEFAULT(type)

using half = npusim::ascendc::Half;
using bfloat16_t = npusim::ascendc::BFloat16;

enum class cache_line_t : std::uint8_t { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class dcci_dst_t : std::uint8_t {
  CACHELINE_ALL,
  CACHELINE_UB,
  CACHELINE_OUT,
  CACHELINE_ATOMIC
};

/// Data-cache clean/invalidate: nothing to do on the CPU (GM is coherent host memory).
template <class T>
inline void dcci(T* /*addr*/, cache_line_t /*entire*/,
                 dcci_dst_t /*dst*/ = dcci_dst_t::CACHELINE_ALL) {}
template <class T>
inline void dcci(T* /*addr*/, cache_line_t /*entire*/) {}

namespace npusim::ascendc {

/// One printf argument, type-erased with its size so %d/%x print what the kernel passed.
struct PrintfArg {
  enum Kind : std::uint8_t { kSigned, kUnsigned, kDouble, kString, kPointer };
  Kind kind = kSigned;
  std::uint8_t size = 0;
  union {
    std::int64_t i;
    std::uint64_t u;
    double d;
    const char* s;
    const void* p;
  };
  PrintfArg() : i(0) {}
};

template <class T>
inline PrintfArg to_printf_arg(const T& v) {
  using D = std::decay_t<T>;
  PrintfArg a;
  a.size = static_cast<std::uint8_t>(sizeof(D));
  if constexpr (std::is_enum_v<D>) {
    return to_printf_arg(static_cast<std::underlying_type_t<D>>(v));
  } else if constexpr (std::is_same_v<D, bool> || (std::is_integral_v<D> && std::is_signed_v<D>)) {
    a.kind = PrintfArg::kSigned;
    a.i = static_cast<std::int64_t>(v);
  } else if constexpr (std::is_integral_v<D>) {
    a.kind = PrintfArg::kUnsigned;
    a.u = static_cast<std::uint64_t>(v);
  } else if constexpr (std::is_floating_point_v<D>) {
    a.kind = PrintfArg::kDouble;
    a.d = static_cast<double>(v);
  } else if constexpr (IsSmallFloat<D>::value) {
    a.kind = PrintfArg::kDouble;
    a.d = static_cast<double>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<D, char*> || std::is_same_v<D, const char*>) {
    a.kind = PrintfArg::kString;
    a.s = v;
  } else if constexpr (std::is_pointer_v<D> || std::is_null_pointer_v<D>) {
    a.kind = PrintfArg::kPointer;
    a.p = reinterpret_cast<const void*>(v);
  } else {
    static_assert(std::is_pointer_v<D>, "AscendC::printf: unsupported argument type");
  }
  return a;
}

/// Formats like C printf (%d %i %u %x %X %o %c %s %p %f %e %g %a, flags, width, precision;
/// length modifiers are ignored: each argument prints with its own type) and appends the text
/// to `out`.
NPUSIM_KERNEL_API void format_printf(std::vector<char>& out, const char* fmt, const PrintfArg* args,
                                     std::size_t count);

/// CANN 9's printf lines (npusim-asc builds, NPUSIM_ASC): appends `text` to the block's printf
/// output with "[<core> Block <i>/<n>] " at the start of every line; the core is the one the
/// kernel declares (kernel_core), "AIV" when it declares none.
NPUSIM_KERNEL_API void append_block_lines(BlockContext& ctx, const std::vector<char>& text);

/// Called at the start of a kernel that declares its core (__vector__: "AIV", __cube__: "AIC");
/// the launch rewrite inserts the call. Out of line, so the kernel's counted basic blocks are
/// the same as without it.
NPUSIM_KERNEL_API void kernel_core(const char* name);

}  // namespace npusim::ascendc

namespace AscendC {

inline std::int64_t GetBlockIdx() { return ::block_idx; }
inline std::int64_t GetBlockNum() { return ::block_num; }

/// Device printf: buffered per block (BlockContext::printf_out); the runtime flushes it in block
/// order when the task retires. Outside a launch it prints to stdout directly.
template <class... Args>
inline void printf(__gm__ const char* fmt, Args&&... args) {
  using npusim::ascendc::PrintfArg;
  const PrintfArg list[sizeof...(Args) + 1] = {npusim::ascendc::to_printf_arg(args)..., PrintfArg()};
  npusim::ascendc::BlockContext* ctx = npusim::ascendc::current_block();
  if (ctx == nullptr) {
    std::vector<char> text;
    npusim::ascendc::format_printf(text, fmt, list, sizeof...(Args));
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  npusim::ascendc::ScalarPause pause(*ctx);
#ifdef NPUSIM_ASC  // CANN 9: every line says which core and block printed it
  std::vector<char> text;
  npusim::ascendc::format_printf(text, fmt, list, sizeof...(Args));
  npusim::ascendc::append_block_lines(*ctx, text);
#else
  npusim::ascendc::format_printf(ctx->printf_out, fmt, list, sizeof...(Args));
#endif
}

template <class... Args>
inline void PRINTF(__gm__ const char* fmt, Args&&... args) {
  AscendC::printf(fmt, static_cast<Args&&>(args)...);
}

/// Trap: the device raises an exception (DeviceTrap).
[[noreturn]] inline void Trap() { npusim::ascendc::device_trap(); }

}  // namespace AscendC
