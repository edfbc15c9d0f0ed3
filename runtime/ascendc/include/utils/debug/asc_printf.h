// SPDX-License-Identifier: Apache-2.0
// npusim's utils/debug/asc_printf.h: CANN 9's kernel printf, `printf(fmt, args...)` without the
// AscendC:: prefix. In a kernel block it is AscendC::printf (buffered per block, each line
// "[AIV Block <i>/<n>] ..." in npusim-asc builds); outside one — host code of the same .asc
// source — it prints to stdout at once, formatted the same way (C conversions; each argument
// printed with its own type). It is a function-like macro over npusim_asc_printf, so take the
// address of printf, or call it through parentheses — (printf)(...) — for the C function.
#pragma once

#include <cstdio>  // first: the C declarations of printf must not meet the macro below
#include <stdio.h>

#include "npusim/ascendc/device.h"

template <class... Args>
inline void npusim_asc_printf(const char* fmt, Args&&... args) {
  AscendC::printf(fmt, static_cast<Args&&>(args)...);
}
namespace std {
using ::npusim_asc_printf;  // std::printf(...) in the same source
}  // namespace std
namespace AscendC {
using ::npusim_asc_printf;  // AscendC::printf(...) after this header
}  // namespace AscendC

#define printf(...) npusim_asc_printf(__VA_ARGS__)
