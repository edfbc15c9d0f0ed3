// SPDX-License-Identifier: Apache-2.0
// What every example does with an API's return code: stop with the call, the code and the
// runtime's own message (aclGetRecentErrMsg) instead of carrying on with a bad handle.
// Copying one example? Copy this folder (examples/common) beside it too.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"

#define CHECK(call)                                                                    \
  do {                                                                                 \
    const aclError err_ = (call);                                                      \
    if (err_ != ACL_SUCCESS) {                                                         \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #call, err_, aclGetRecentErrMsg()); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)
