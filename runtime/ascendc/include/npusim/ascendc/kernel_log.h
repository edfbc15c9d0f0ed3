// SPDX-License-Identifier: Apache-2.0
// The kernel-side logging and assertion macros of Ascend C that the twin's kernels may use:
//   KERNEL_LOG(level, fmt, args...)   prints "[<LEVEL>] <fmt>\n" with AscendC::printf (in block
//                                     order when the task retires); level is KERNEL_DEBUG,
//                                     KERNEL_INFO, KERNEL_WARN or KERNEL_ERROR;
//   ASCENDC_ASSERT(cond, behavior)    when cond is false: runs behavior (typically a KERNEL_LOG),
//                                     then fails like ascendc_assert (prints, traps: the kernel
//                                     fails as a device exception);
//   ASSERT(cond)                      ascendc_assert(cond).
// The condition is kernel code (counted scalar work); the printing and trapping are not.
#pragma once

#include "npusim/ascendc/debug_assert.h"
#include "npusim/ascendc/device.h"

namespace npusim::ascendc {

enum class KernelLogLevel { kDebug, kInfo, kWarn, kError };

inline const char* kernel_log_name(KernelLogLevel level) {
  switch (level) {
    case KernelLogLevel::kDebug: return "DEBUG";
    case KernelLogLevel::kInfo: return "INFO";
    case KernelLogLevel::kWarn: return "WARN";
    case KernelLogLevel::kError: return "ERROR";
  }
  return "LOG";
}

}  // namespace npusim::ascendc

#define KERNEL_DEBUG ::npusim::ascendc::KernelLogLevel::kDebug
#define KERNEL_INFO ::npusim::ascendc::KernelLogLevel::kInfo
#define KERNEL_WARN ::npusim::ascendc::KernelLogLevel::kWarn
#define KERNEL_ERROR ::npusim::ascendc::KernelLogLevel::kError

#define KERNEL_LOG(level, fmt, ...)                                                   \
  do {                                                                                \
    ::npusim::ascendc::ScalarPause npusim_log_pause(::npusim::ascendc::block());      \
    ::AscendC::printf("[%s] " fmt "\n", ::npusim::ascendc::kernel_log_name(level),    \
                      ##__VA_ARGS__);                                                 \
  } while (0)

#define ASCENDC_ASSERT(cond, ...)                                                     \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      __VA_ARGS__;                                                                    \
      ::npusim::ascendc::assert_failed(#cond, __FILE__, __LINE__);                    \
    }                                                                                 \
  } while (0)

#ifndef ASSERT
#define ASSERT(cond) ascendc_assert(cond)
#endif
