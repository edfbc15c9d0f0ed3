// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/device.h"

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/inner_error.h"
#include "runtime/core/runtime.h"

namespace npusim::rt {

void set_device(Call& call, std::int64_t device) {
  Device& dev = call.device(device);
  if (dev.refcount == 0 || call.runtime().contexts().find(dev.default_context) == nullptr) {
    dev.default_context = new_context(call, dev.id, true);
  }
  ++dev.refcount;
  call.thread().context = dev.default_context;
}

void reset_device(Call& call, std::int64_t device, bool force) {
  Device& dev = call.device(device);
  require(dev.refcount > 0, ACL_ERROR_RT_INVALID_DEVICEID,
          "device " + std::to_string(device) + " is not set (aclrtSetDevice) in this process");
  dev.refcount = force ? 0 : dev.refcount - 1;
  if (dev.refcount > 0) return;
  void* ctx = dev.default_context;
  teardown_context(call, ctx);
  call.runtime().trace_memo().clear();
  dev.default_context = nullptr;
  dev.peers.clear();  // peer access is the device's state: a reset device has enabled none
  if (call.thread().context == ctx) call.thread().context = nullptr;
}

void synchronize_device(Call& call, std::int32_t timeout_ms) {
  SimTime deadline = call.deadline_after_ms(timeout_ms);
  void* ctx = call.context_handle();
  std::vector<std::pair<std::shared_ptr<StreamProgress>, std::uint64_t>> targets;
  call.runtime().streams().for_each([&](void*, const Stream& s) {
    if (s.context == ctx) targets.emplace_back(s.progress, s.progress->submitted);
  });
  auto drained = [targets] {
    for (const auto& [p, target] : targets) {
      if (p->finished < target) return false;
    }
    return true;
  };
  if (!drained()) {
    WaitResult r = call.wait(drained, deadline, [&] {
      return std::string(call.name()) + " waits for the streams of the context";
    });
    require(r != WaitResult::kTimeout, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
            "timed out waiting for the device");
    require(r != WaitResult::kStarved, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
            "deadlock: the context's streams can never drain");
  }
  for (auto& [p, target] : targets) {
    if (p->error == 0) continue;
    int error = p->error;
    p->error = 0;
    std::string detail = "a task of the context failed: " + call.runtime().device_error();
    if (device_failure_reason(error) != nullptr) {  // a kernel's exception: CANN's wording
      fail_verbatim(error, inner_error_text(error, SyncKind::kDevice,
                                            std::strstr(call.name(), "WithTimeout") != nullptr,
                                            static_cast<int>(call.context().device), detail));
    }
    fail(error, std::move(detail));
  }
  const ContextFault& fault = *call.context().fault;
  if (fault.stopped) fail(fault.error, "the context stopped after a task failed");
}

}  // namespace npusim::rt
