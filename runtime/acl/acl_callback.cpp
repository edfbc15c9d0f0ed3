// SPDX-License-Identifier: Apache-2.0
// C skin: host callbacks and host functions (model: callback.h), stream state callbacks.
#include <string>

#include "acl/acl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/host_callback.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

extern "C" {

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return api("aclrtSubscribeReport", [&](Call& c) {
    subscribe_reports(c, ReportKind::kCallback, threadId, stream);
  });
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return api("aclrtUnSubscribeReport", [&](Call& c) {
    unsubscribe_reports(c, ReportKind::kCallback, threadId, stream);
  });
}

aclError aclrtProcessReport(int32_t timeout) {
  return api("aclrtProcessReport",
             [&](Call& c) { process_reports(c, ReportKind::kCallback, timeout); });
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  const int block = as_int(blockType);  // any value the caller passed
  return api("aclrtLaunchCallback", [&](Call& c) {
    require(block == ACL_CALLBACK_NO_BLOCK || block == ACL_CALLBACK_BLOCK, ACL_ERROR_INVALID_PARAM,
            "blockType must be ACL_CALLBACK_NO_BLOCK or ACL_CALLBACK_BLOCK");
    launch_report(c, stream, ReportKind::kCallback, fn, userData, block == ACL_CALLBACK_BLOCK);
  });
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) {
  return api("aclrtLaunchHostFunc", [&](Call& c) {
    launch_report(c, stream, ReportKind::kHostFunc, fn, args, true);
  });
}

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  return api("aclrtSubscribeHostFunc", [&](Call& c) {
    require_not_null(exeStream, "exeStream");
    subscribe_reports(c, ReportKind::kHostFunc, hostFuncThreadId, exeStream);
  });
}

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  return api("aclrtUnSubscribeHostFunc", [&](Call& c) {
    require_not_null(exeStream, "exeStream");
    unsubscribe_reports(c, ReportKind::kHostFunc, hostFuncThreadId, exeStream);
  });
}

aclError aclrtProcessHostFunc(int32_t timeout) {
  return api("aclrtProcessHostFunc",
             [&](Call& c) { process_reports(c, ReportKind::kHostFunc, timeout); });
}

aclError aclrtRegStreamStateCallback(const char* regName, aclrtStreamStateCallback callback,
                                     void* args) {
  return api("aclrtRegStreamStateCallback", [&](Call& c) {
    require_not_null(regName, "regName");
    require(*regName != '\0', ACL_ERROR_INVALID_PARAM, "regName is empty");
    auto& registry = c.runtime().stream_state_callbacks();
    const std::string name(regName);
    if (callback == nullptr) {
      require(registry.erase(name) != 0, ACL_ERROR_INVALID_PARAM,
              "no stream state callback is registered as '" + name + "'");
      return;
    }
    require(registry.count(name) == 0, ACL_ERROR_INVALID_PARAM,
            "a stream state callback is already registered as '" + name + "'");
    registry[name] = [callback, args](void* stream, int state) {
      callback(stream, static_cast<aclrtStreamState>(state), args);
    };
  });
}

}  // extern "C"
