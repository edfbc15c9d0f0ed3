// SPDX-License-Identifier: Apache-2.0
// C skin: notifies.
#include "acl/acl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/notify.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

extern "C" {

aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag) {
  return api_out("aclrtCreateNotify", notify, "notify",
                 [&](Call& c) { return create_notify(c, flag); });
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
  return api("aclrtDestroyNotify", [&](Call& c) { destroy_notify(c, notify); });
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) {
  return api("aclrtRecordNotify", [&](Call& c) { record_notify(c, notify, stream); });
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout) {
  return api("aclrtWaitAndResetNotify",
             [&](Call& c) { wait_and_reset_notify(c, notify, stream, timeout); });
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId) {
  return api_out("aclrtGetNotifyId", notifyId, "notifyId",
                 [&](Call& c) { return live_notify(c, notify).id; });
}

}  // extern "C"
