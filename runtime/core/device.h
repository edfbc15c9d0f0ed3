// SPDX-License-Identifier: Apache-2.0
// Runtime bookkeeping of one device: aclrtSetDevice reference count and default context, stream
// and event counts against the chip's limits, saturation mode, resource limits (caps the kernel
// launch path reads), process-level overflow status.
#pragma once

#include <cstdint>
#include <memory>
#include <set>

namespace npusim::rt {

/// Core caps indexed by aclrtDevResLimitType (0 = cube cores, 1 = vector cores).
struct ResLimits {
  std::uint32_t value[2] = {0, 0};
  bool set[2] = {false, false};
};

struct Device {
  std::uint32_t id = 0;
  int refcount = 0;                  // aclrtSetDevice calls not yet reset
  void* default_context = nullptr;   // handle; null when the device is not set
  std::uint32_t next_stream_id = 0;          // device-unique stream ids...
  std::set<std::uint32_t> free_stream_ids;    // ...of destroyed streams, reused lowest first
  std::uint32_t next_event_id = 0;
  std::uint32_t next_notify_id = 0;
  std::int64_t live_streams = 0;  // default streams included
  std::int64_t live_events = 0;   // hardware events (not the Ex kind)
  std::int64_t live_notifies = 0;
  int sat_mode = 1;               // aclrtFloatOverflowMode for new streams
  ResLimits limits;               // process-level limits (aclrtSetDeviceResLimit)
  std::set<std::uint32_t> peers;  // devices this one enabled peer access to (runtime/core/peer.h)
  /// Process-level float overflow flag (shared with the status tasks that read or clear it).
  std::shared_ptr<std::uint32_t> overflow = std::make_shared<std::uint32_t>(0);
  /// aclrtGetHardwareSyncAddr's area (runtime/core/memory.h), made by its first call; null before.
  void* hardware_sync = nullptr;
};

class Call;

/// aclrtSetDevice: the first reference creates the device's default context (and stream); the
/// calling thread's current context becomes it.
void set_device(Call& call, std::int64_t device);
/// aclrtResetDevice / aclrtResetDeviceForce: drops one (force: every) reference; the last one
/// waits for the default context's tasks and destroys the context and its streams.
void reset_device(Call& call, std::int64_t device, bool force);
/// aclrtSynchronizeDevice(WithTimeout): every stream of the current context drains.
void synchronize_device(Call& call, std::int32_t timeout_ms);

}  // namespace npusim::rt
