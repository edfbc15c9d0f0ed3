// SPDX-License-Identifier: Apache-2.0
// The C assert of kernel code (npusim/libc/assert.h). On the device a failed assert(expr)
// prints "[ASSERT] <file>:<line>: : Assertion `<expr>' failed." with the block's printf output
// and traps: the block stops, the task fails with an AI Core exception and the program goes on
// (CANN 9's 09_log example). Outside a kernel block — the host code of the same source — it is
// the C library's assertion (message on stderr, abort).
#pragma once

// Included by npusim/libc/assert.h right after the C library's <assert.h>, which declares
// __assert_fail.
#include "npusim/ascendc/device.h"

namespace npusim::ascendc {

[[noreturn]] inline void c_assert_failed(const char* expr, const char* file, unsigned line,
                                         const char* function) {
  BlockContext* ctx = current_block();
  if (ctx == nullptr) ::__assert_fail(expr, file, line, function);
  {
    ScalarPause pause(*ctx);
    AscendC::printf("[ASSERT] %s:%u: : Assertion `%s' failed.\n", file, line, expr);
  }
  device_trap();
}

}  // namespace npusim::ascendc
