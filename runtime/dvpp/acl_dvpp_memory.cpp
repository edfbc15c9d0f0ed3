// SPDX-License-Identifier: Apache-2.0
// acldvppMalloc / acldvppFree: device memory for media data. As CANN documents, the size is
// rounded up to a multiple of 32 and 32 bytes are added; the start is page-aligned (so meets
// DVPP's 128-byte alignment of every input and output buffer).
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/memory.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

extern "C" {

aclError acldvppMalloc(void** devPtr, size_t size) {
  return api("acldvppMalloc", [&](Call& c) {
    require_not_null(devPtr, "devPtr");
    require(size > 0, ACL_ERROR_INVALID_PARAM, "size is 0");
    require(size <= (SIZE_MAX - 64), ACL_ERROR_INVALID_PARAM, "size is too large");
    const size_t rounded = (size + 31) / 32 * 32 + 32;
    *devPtr = malloc_device(c, rounded, ACL_MEM_MALLOC_HUGE_FIRST, true);
  });
}

aclError acldvppFree(void* devPtr) {
  return api("acldvppFree", [&](Call& c) {
    require_not_null(devPtr, "devPtr");
    free_device(c, devPtr);
  });
}

}  // extern "C"
