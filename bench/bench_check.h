// SPDX-License-Identifier: Apache-2.0
// The benchmarks' check of an API call (ACL, aclnn, DVPP, HCCL: 0 is success): a failure ends
// the program with exit code 1, naming the place, the call, its code and the runtime's message.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"

#define BENCH_CHECK(call)                                                                   \
  do {                                                                                      \
    const long e_ = static_cast<long>(call);                                                \
    if (e_ != 0) {                                                                          \
      std::fprintf(stderr, "%s:%d: %s = %ld (%s)\n", __FILE__, __LINE__, #call, e_,         \
                   aclGetRecentErrMsg() != nullptr ? aclGetRecentErrMsg() : "no message"); \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)
