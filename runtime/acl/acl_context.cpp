// SPDX-License-Identifier: Apache-2.0
// C skin: contexts.
#include "acl/acl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

extern "C" {

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  return api_out("aclrtCreateContext", context, "context",
                 [&](Call& c) { return create_context(c, deviceId); });
}

aclError aclrtDestroyContext(aclrtContext context) {
  return api("aclrtDestroyContext", [&](Call& c) { destroy_context(c, context); });
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  return api("aclrtSetCurrentContext", [&](Call& c) { set_current_context(c, context); });
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  return api_out("aclrtGetCurrentContext", context, "context",
                 [&](Call& c) { return c.context_handle(); });
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) {
  return api_out("aclrtCtxGetCurrentDefaultStream", stream, "stream",
                 [&](Call& c) { return c.context().default_stream; });
}

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active) {
  return api("aclrtGetPrimaryCtxState", [&](Call& c) {
    const Device& dev = c.device(deviceId);
    require_not_null(active, "active");
    if (flags != nullptr) *flags = 0;  // reserved
    *active = dev.refcount > 0 ? 1 : 0;
  });
}

}  // extern "C"
