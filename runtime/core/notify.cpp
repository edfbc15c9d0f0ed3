// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/notify.h"

#include <string>

#include "acl/acl_rt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/peer.h"
#include "runtime/core/runtime.h"

namespace npusim::rt {
namespace {

constexpr std::int64_t kMaxNotifiesPerDevice = 8192;  // A2/A3 (docs/sources.md §4)

}  // namespace

void* create_notify(Call& call, std::uint64_t flag) {
  require(flag == ACL_NOTIFY_DEFAULT || flag == ACL_NOTIFY_DEVICE_USE_ONLY,
          ACL_ERROR_INVALID_PARAM, "flag is not an ACL_NOTIFY_* value");
  Device& dev = call.device(call.context().device);
  require(dev.live_notifies < kMaxNotifiesPerDevice, ACL_ERROR_RT_NO_NOTIFY_RESOURCE,
          "the device has no free notify (8192 in use)");
  auto n = std::make_shared<Notify>();
  n->device = dev.id;
  n->id = dev.next_notify_id++;
  ++dev.live_notifies;
  return call.runtime().notifies().add(std::move(n));
}

Notify& live_notify(Call& call, void* handle) {
  require_not_null(handle, "notify");
  Notify* n = call.runtime().notifies().find(handle);
  require(n != nullptr, ACL_ERROR_RT_PARAM_INVALID, "notify is not a live notify handle");
  return *n;
}

void destroy_notify(Call& call, void* handle) {
  Notify& n = live_notify(call, handle);
  auto& devices = call.runtime().devices();
  if (!n.imported && n.device < devices.size()) --devices[n.device].live_notifies;
  if (n.export_id != 0) call.runtime().ipc().withdraw(n.export_id);
  call.runtime().notifies().remove(handle);
}

void record_notify(Call& call, void* handle, void* stream) {
  Notify& n = live_notify(call, handle);
  Stream& s = call.stream(stream);
  // Recording another device's notify is a write over the chip-to-chip link: allowed once the
  // stream's device enabled peer access to the notify's (how collectives signal their peers). The
  // wait stays on the notify's own device.
  if (n.device != s.device && !n.peer_ok) {
    require_peer_access(call, s.device, n.device, "recording a notify");
  }
  Task task;
  task.kind = TaskKind::kEventRecord;
  task.name = "NOTIFY_RECORD";
  task.done = [st = n.state](const TaskOutcome& r) {
    if (r.discarded) return;
    st->set = true;
    if (st->shared != 0) Runtime::instance().shared_sync().recorded_here(st->shared, r.end);
  };
  submit_to_stream(call, s, std::move(task));
}

void wait_and_reset_notify(Call& call, void* handle, void* stream, std::uint32_t timeout_s) {
  Notify& n = live_notify(call, handle);
  Stream& s = call.stream(stream);
  require(n.device == s.device, ACL_ERROR_RT_PARAM_INVALID,
          "the notify and the stream belong to different devices");
  require(timeout_s == 0, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "notify wait timeouts are not supported yet (use 0: wait forever)");
  Task task;
  task.kind = TaskKind::kEventWait;
  task.name = "NOTIFY_WAIT";
  task.ready = [st = n.state] { return st->set; };
  task.done = [st = n.state](const TaskOutcome& r) {
    if (!r.discarded) st->set = false;
  };
  submit_to_stream(call, s, std::move(task));
}

}  // namespace npusim::rt
