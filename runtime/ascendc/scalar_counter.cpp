// SPDX-License-Identifier: Apache-2.0
// Scalar work of a kernel, counted deterministically: kernel sources compiled with
// -fsanitize-coverage=trace-pc call __sanitizer_cov_trace_pc() at every basic block; this counts
// them into the running block's BlockContext::scalar_bbs (nothing outside a launch). The timing
// model charges cycles per basic block. This file itself must NOT be built with that flag.
//
// The callback runs at every basic block of kernel code, so it must be a few instructions. The
// counter it bumps is found through a thread_local with the initial-exec TLS model: one
// %fs-relative load, no __tls_get_addr call (the general-dynamic model a shared library gets by
// default cost more than the counting itself). It stays per thread, rather than one process-wide
// pointer, because host code of a kernel source (the launch wrappers, helpers) is instrumented
// too and may run on another application thread while a block runs under the API lock: it must
// not count into that block. initial-exec TLS is what libacl_rt.so is built for (linked by the
// program); glibc's static TLS surplus also covers a dlopen of it (8 bytes).
#include <cstdint>

#include "npusim/ascendc/block_context.h"

namespace npusim::ascendc::detail {
namespace {

__attribute__((tls_model("initial-exec"))) thread_local std::uint64_t* tls_scalar_bbs = nullptr;
__attribute__((tls_model("initial-exec"))) thread_local std::uint64_t tls_bb_limit = ~0ull;

// Out of the hot path: the watchdog fires once per block (the limit is lifted, so the unwinding
// code, instrumented too, runs freely), raising KernelTimeout through the kernel's frames.
[[noreturn]] __attribute__((noinline, cold)) void watchdog_expired() {
  tls_bb_limit = ~0ull;
  throw KernelTimeout();
}

}  // namespace

void set_scalar_counter(std::uint64_t* counter, std::uint64_t limit) {
  tls_scalar_bbs = counter;
  tls_bb_limit = limit;
}

}  // namespace npusim::ascendc::detail

// The watchdog (aicore.timeout, as a number of basic blocks: BlockContext::scalar_bb_limit): a
// block whose scalar work passes it is stopped, so a kernel that never ends cannot hang the host.
extern "C" NPUSIM_KERNEL_API void __sanitizer_cov_trace_pc() {
  std::uint64_t* counter = npusim::ascendc::detail::tls_scalar_bbs;
  if (counter != nullptr && ++*counter > npusim::ascendc::detail::tls_bb_limit) {
    npusim::ascendc::detail::watchdog_expired();
  }
}
