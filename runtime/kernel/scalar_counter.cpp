// SPDX-License-Identifier: Apache-2.0
// Scalar work of a kernel, counted deterministically: kernel sources compiled with
// -fsanitize-coverage=trace-pc call __sanitizer_cov_trace_pc() at every basic block; this counts
// them into the running block's BlockContext::scalar_bbs (nothing outside a launch). The timing
// model charges cycles per basic block. This file itself must NOT be built with that flag.
#include "npusim/kernel/block_context.h"

extern "C" NPUSIM_KERNEL_API void __sanitizer_cov_trace_pc() {
  npusim::kernel::BlockContext* b = npusim::kernel::detail::tls_block;
  if (b != nullptr) ++b->scalar_bbs;
}
