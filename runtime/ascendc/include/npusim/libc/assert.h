// SPDX-License-Identifier: Apache-2.0
// The C library's assert.h as npusim-asc builds see it (npusim-asc puts this folder first on the
// system include path, so <cassert> and <assert.h> both reach it): glibc's header, then — in C++
// without NDEBUG — an assert(expr) that is a device assertion inside a kernel block and the C
// library's assertion everywhere else (npusim/ascendc/c_assert.h). No include guard: like the C
// library's, this header is included again whenever NDEBUG may have changed.
#include_next <assert.h>

#if defined(__cplusplus) && !defined(NDEBUG)
#include "npusim/ascendc/c_assert.h"
#undef assert
#define assert(expr)                                             \
  (static_cast<bool>(expr) ? static_cast<void>(0)                \
                           : ::npusim::ascendc::c_assert_failed( \
                                 #expr, __FILE__, __LINE__, __extension__ __PRETTY_FUNCTION__))
#endif
