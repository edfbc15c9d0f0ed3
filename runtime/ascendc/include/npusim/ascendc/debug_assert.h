// SPDX-License-Identifier: Apache-2.0
// ascendc_assert(expr[, fmt, args...]) of the Ascend C twin (also utils/debug/asc_assert.h).
// When `expr` is false the block prints "[ASSERT] <file>:<line>: Assertion `<expr>' " and the
// formatted message (AscendC::printf, so in block order when the task retires) and traps: the
// kernel fails as a device exception, which the stream reports. The check is kernel code (its
// branch is counted scalar work), the printing and trapping are not.
#pragma once

#include "npusim/ascendc/device.h"

namespace npusim::ascendc {

template <class... A>
[[noreturn]] void assert_failed(const char* expr, const char* file, int line, A&&... fmt_args) {
  {
    ScalarPause pause(block());
    AscendC::printf("[ASSERT] %s:%d: Assertion `%s' ", file, line, expr);
    if constexpr (sizeof...(A) == 0) {
      AscendC::printf("\n");
    } else {
      AscendC::printf(static_cast<A&&>(fmt_args)...);
    }
  }
  device_trap();
}

}  // namespace npusim::ascendc

#define ascendc_assert(expr, ...)                                                            \
  ((expr) ? static_cast<void>(0)                                                           \
          : ::npusim::ascendc::assert_failed(#expr, __FILE__, __LINE__, ##__VA_ARGS__))
