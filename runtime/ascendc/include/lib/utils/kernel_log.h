// SPDX-License-Identifier: Apache-2.0
// Kernel logging and assertions of the Ascend C twin, as CANN's kernels write them:
//   KERNEL_LOG(level, fmt, args...)   prints "[<level>] <file>:<line> <message>" through
//       AscendC::printf (the level is printed as written, e.g. KERNEL_ERROR);
//   ASCENDC_ASSERT(cond, behavior)   when cond is false, runs behavior (usually a KERNEL_LOG)
//       and fails the kernel as ascendc_assert does (npusim/ascendc/debug_assert.h).
// The check is kernel code; the logging and the failure are not simulated work.
#pragma once

#include "npusim/ascendc/debug_assert.h"
#include "npusim/ascendc/device.h"

#define KERNEL_LOG(level, fmt, ...) \
  ::AscendC::printf("[" #level "] %s:%d " fmt "\n", __FILE__, __LINE__, ##__VA_ARGS__)

#define ASCENDC_ASSERT(cond, ...)                                          \
  do {                                                                     \
    if (!(cond)) {                                                         \
      __VA_ARGS__;                                                         \
      ::npusim::ascendc::assert_failed(#cond, __FILE__, __LINE__);         \
    }                                                                      \
  } while (0)
