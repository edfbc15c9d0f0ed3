// SPDX-License-Identifier: Apache-2.0
// What every example does with an API's return code: stop with the call, the code and the
// runtime's own message (aclGetRecentErrMsg) instead of carrying on with a bad handle; and how
// the single-device examples open and close device 0 (OpenDevice0 / CloseDevice0).
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

// aclInit, device 0 and one stream: how every single-device example starts.
inline aclrtStream OpenDevice0() {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  return stream;
}

// The stream, device 0 and the runtime released, in that order.
inline void CloseDevice0(aclrtStream stream) {
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
}
