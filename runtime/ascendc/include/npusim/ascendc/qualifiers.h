// SPDX-License-Identifier: Apache-2.0
// The Ascend C language's keywords, for the host compiler: function qualifiers (__global__,
// __aicore__, __vector__, __cube__, __mix__(cube, vector), __aicpu__) and address spaces (__gm__,
// __ubuf__, ...). CANN's kernel compiler knows them as keywords, so a .asc source may use them
// without an include: npusim-asc includes this file first in every source it compiles
// (device.h and aicpu_api.h include it too). They expand to nothing: on the twin every memory is
// host memory, and a kernel's core type (AIV, AIC or mixed) is taken from the instructions its
// first block records (docs/kernels.md).
#pragma once

#define __global__
// __forceinline__: CANN's always-inline function qualifier (CATLASS's CATLASS_DEVICE).
#define __forceinline__ inline __attribute__((always_inline))
#define __aicore__
#define __vector__
#define __cube__
#define __mix__(cube_blocks, vector_blocks)
#define __aicpu__
#define __gm__
#define __kfc_workspace__  // the system workspace parameter (rewrite_launch.py sets it)
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__

// The device compiler's branch hints (CATLASS writes `if (unlikely(cond))`): the host compiler's
// __builtin_expect, the value of the condition as a bool.
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
