// SPDX-License-Identifier: Apache-2.0
// cpu_debug_launch.h, which CANN 9 sources include under ASCENDC_CPU_DEBUG (defined for ASC
// sources when CMAKE_ASC_RUN_MODE=cpu). On CANN it brings the CPU-domain launch of a kernel (one
// child process per kernel there, hence gdb's `set follow-fork-mode child`). Under npusim every
// run mode already runs kernels as host code in the calling process, launched by npusim-asc's
// <<<...>>> rewrite, so this header has nothing to add: `gdb --args ./app`, `break <kernel>`,
// `run`, `next` work directly (no fork to follow), and the run is still timed on the simulated
// chip. ASC sources compile as the build type says: Debug (-O0 -g) steps best, but the twin
// counts the compiled kernel's basic blocks, so its simulated times differ from an optimised
// build's.
#pragma once

#include "kernel_operator.h"
