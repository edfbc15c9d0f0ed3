// SPDX-License-Identifier: Apache-2.0
// Ascend C's kernel-side assert(expr[, fmt, args...]): kernel code may call assert without
// <cassert>. Inside a block a false `expr` reports as ascendc_assert does (prints
// "[ASSERT] <file>:<line>: Assertion `<expr>' ..." and traps the block, so the launch fails);
// in host code of the same source (a single-source .asc) it is the C library's assert. With
// NDEBUG it checks nothing, as <cassert>'s does. kernel_operator.h includes this header after
// every standard header, so a later #include <cassert> puts the C library's macro back.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "npusim/ascendc/debug_assert.h"

namespace npusim::ascendc {

template <class... A>
void kernel_or_host_assert(const char* expr, const char* file, int line, A&&... fmt_args) {
  if (current_block() != nullptr) assert_failed(expr, file, line, static_cast<A&&>(fmt_args)...);
  std::fprintf(stderr, "%s:%d: Assertion `%s' failed.\n", file, line, expr);
  std::abort();
}

}  // namespace npusim::ascendc

#undef assert
#ifdef NDEBUG
#define assert(...) static_cast<void>(0)
#else
#define assert(expr, ...)        \
  ((expr) ? static_cast<void>(0) \
          : ::npusim::ascendc::kernel_or_host_assert(#expr, __FILE__, __LINE__, ##__VA_ARGS__))
#endif
