// SPDX-License-Identifier: Apache-2.0
// Notifies: a light cross-stream signal. A record task on the producer stream sets it; a
// wait-and-reset task holds the consumer stream until it is set (whenever the record was issued,
// unlike an event wait) and clears it when it completes.
#pragma once

#include <cstdint>
#include <memory>

namespace npusim::rt {

class Call;

struct NotifyState {
  bool set = false;
  std::uint64_t shared = 0;  // machine-wide id when shared with other processes (session)
};

struct Notify {
  std::uint32_t device = 0;
  std::uint32_t id = 0;
  std::shared_ptr<NotifyState> state = std::make_shared<NotifyState>();
  bool imported = false;        // made by aclrtNotifyImportByKey (runtime/core/ipc.h)
  bool peer_ok = false;         // imported with ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS
  std::uint64_t export_id = 0;  // IpcRegistry id of its export (0: not exported)
};

void* create_notify(Call& call, std::uint64_t flag);
void destroy_notify(Call& call, void* notify);
Notify& live_notify(Call& call, void* notify);
void record_notify(Call& call, void* notify, void* stream);
/// timeout_s: 0 waits forever (limits are not modelled yet).
void wait_and_reset_notify(Call& call, void* notify, void* stream, std::uint32_t timeout_s);

}  // namespace npusim::rt
