// SPDX-License-Identifier: Apache-2.0
// Device-memory bytes of AI CPU kernel code, counted deterministically. aicpu_kernel_library
// compiles kernel sources with -fsanitize=thread, which only makes the compiler call
// __tsan_read<N>/__tsan_write<N>/__tsan_atomic* at every memory access it could not keep in
// registers; no ThreadSanitizer runtime is linked: these definitions are the runtime. Each access
// whose address lies in the installed range (the device memory arena) adds its size to the
// running AI CPU kernel's counter (runtime/core/aicpu_kernel.cpp); outside a kernel nothing is counted.
// Calls the compiler makes to memcpy/memset themselves are not instrumented and not counted.
// This file itself must NOT be built with that flag (nor with -fsanitize-coverage).
#include <cstddef>
#include <cstdint>

#include "npusim/ascendc/block_context.h"

namespace npusim::ascendc::detail {
namespace {

__attribute__((tls_model("initial-exec"))) thread_local std::uint64_t* tls_bytes = nullptr;
__attribute__((tls_model("initial-exec"))) thread_local std::uintptr_t tls_lo = 0;
__attribute__((tls_model("initial-exec"))) thread_local std::uintptr_t tls_span = 0;

inline void count(const volatile void* p, std::size_t n) {
  std::uint64_t* bytes = tls_bytes;
  if (bytes != nullptr && reinterpret_cast<std::uintptr_t>(p) - tls_lo < tls_span) *bytes += n;
}

}  // namespace

void set_memory_counter(std::uint64_t* bytes, std::uintptr_t lo, std::uintptr_t hi) {
  tls_bytes = bytes;
  tls_lo = lo;
  tls_span = hi > lo ? hi - lo : 0;
}

}  // namespace npusim::ascendc::detail

using npusim::ascendc::detail::count;

extern "C" {

NPUSIM_KERNEL_API void __tsan_init() {}
NPUSIM_KERNEL_API void __tsan_func_entry(void*) {}
NPUSIM_KERNEL_API void __tsan_func_exit() {}
NPUSIM_KERNEL_API void __tsan_ignore_thread_begin() {}
NPUSIM_KERNEL_API void __tsan_ignore_thread_end() {}

#define NPUSIM_TSAN_ACCESS(n)                                                       \
  NPUSIM_KERNEL_API void __tsan_read##n(void* p) { count(p, n); }                   \
  NPUSIM_KERNEL_API void __tsan_write##n(void* p) { count(p, n); }                  \
  NPUSIM_KERNEL_API void __tsan_unaligned_read##n(void* p) { count(p, n); }         \
  NPUSIM_KERNEL_API void __tsan_unaligned_write##n(void* p) { count(p, n); }        \
  NPUSIM_KERNEL_API void __tsan_volatile_read##n(void* p) { count(p, n); }          \
  NPUSIM_KERNEL_API void __tsan_volatile_write##n(void* p) { count(p, n); }         \
  NPUSIM_KERNEL_API void __tsan_unaligned_volatile_read##n(void* p) { count(p, n); } \
  NPUSIM_KERNEL_API void __tsan_unaligned_volatile_write##n(void* p) { count(p, n); }
NPUSIM_TSAN_ACCESS(1)
NPUSIM_TSAN_ACCESS(2)
NPUSIM_TSAN_ACCESS(4)
NPUSIM_TSAN_ACCESS(8)
NPUSIM_TSAN_ACCESS(16)
#undef NPUSIM_TSAN_ACCESS

NPUSIM_KERNEL_API void __tsan_read_range(void* p, std::size_t n) { count(p, n); }
NPUSIM_KERNEL_API void __tsan_write_range(void* p, std::size_t n) { count(p, n); }
NPUSIM_KERNEL_API void __tsan_vptr_read(void** p) { count(p, sizeof(void*)); }
NPUSIM_KERNEL_API void __tsan_vptr_update(void** p, void*) { count(p, sizeof(void*)); }

// Atomics: performed (sequentially consistent, at least as strong as asked) and counted.
NPUSIM_KERNEL_API void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
NPUSIM_KERNEL_API void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

#define NPUSIM_TSAN_RMW(bits, T, op)                                                       \
  NPUSIM_KERNEL_API T __tsan_atomic##bits##_##op(volatile T* a, T v, int) {                \
    count(a, sizeof(T));                                                                   \
    return __atomic_##op(a, v, __ATOMIC_SEQ_CST);                                          \
  }
#define NPUSIM_TSAN_ATOMICS(bits, T)                                                       \
  NPUSIM_KERNEL_API T __tsan_atomic##bits##_load(const volatile T* a, int) {               \
    count(a, sizeof(T));                                                                   \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                           \
  }                                                                                        \
  NPUSIM_KERNEL_API void __tsan_atomic##bits##_store(volatile T* a, T v, int) {            \
    count(a, sizeof(T));                                                                   \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                              \
  }                                                                                        \
  NPUSIM_KERNEL_API T __tsan_atomic##bits##_exchange(volatile T* a, T v, int) {            \
    count(a, sizeof(T));                                                                   \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                    \
  }                                                                                        \
  NPUSIM_TSAN_RMW(bits, T, fetch_add)                                                      \
  NPUSIM_TSAN_RMW(bits, T, fetch_sub)                                                      \
  NPUSIM_TSAN_RMW(bits, T, fetch_and)                                                      \
  NPUSIM_TSAN_RMW(bits, T, fetch_or)                                                       \
  NPUSIM_TSAN_RMW(bits, T, fetch_xor)                                                      \
  NPUSIM_TSAN_RMW(bits, T, fetch_nand)                                                     \
  NPUSIM_KERNEL_API int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* c, \
                                                                       T v, int, int) {    \
    count(a, sizeof(T));                                                                   \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
  }                                                                                        \
  NPUSIM_KERNEL_API int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* c,   \
                                                                     T v, int, int) {      \
    count(a, sizeof(T));                                                                   \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
  }                                                                                        \
  NPUSIM_KERNEL_API T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v,  \
                                                                 int, int) {               \
    count(a, sizeof(T));                                                                   \
    __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
    return c;                                                                              \
  }
NPUSIM_TSAN_ATOMICS(8, std::uint8_t)
NPUSIM_TSAN_ATOMICS(16, std::uint16_t)
NPUSIM_TSAN_ATOMICS(32, std::uint32_t)
NPUSIM_TSAN_ATOMICS(64, std::uint64_t)
#undef NPUSIM_TSAN_ATOMICS
#undef NPUSIM_TSAN_RMW

}  // extern "C"
