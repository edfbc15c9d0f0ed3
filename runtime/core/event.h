// SPDX-License-Identifier: Apache-2.0
// Events. Each aclrtRecordEvent is a record task on a stream that completes after every task
// queued before it; the event counts records (generation numbers) and remembers the simulated
// completion time of the latest finished one. Queries, synchronisation, stream waits, elapsed
// time and timestamps all read that state. EventState is shared with task callbacks, so an event
// destroyed with a record in flight is freed when the record completes.
#pragma once

#include <cstdint>
#include <memory>

#include "sim/quantity.h"

namespace npusim::rt {

class Call;

struct EventState {
  std::uint64_t recorded = 0;  // records issued (generation of the latest)
  std::uint64_t done = 0;      // generation of the latest completed record (0 after a reset)
  sim::SimTime done_time = 0;  // simulated completion time of that record
  std::uint64_t shared = 0;    // machine-wide id when shared with other processes (session)

  bool complete() const { return recorded != 0 && done == recorded; }
};

struct Event {
  std::uint32_t device = 0;
  std::uint32_t id = 0;
  std::uint32_t flags = 0;
  bool ex = false;  // aclrtCreateEventExWithFlag: no hardware slot, reads complete before a record
  bool opened = false;          // made by aclrtIpcOpenEventHandle (runtime/core/ipc.h)
  std::uint64_t export_id = 0;  // IpcRegistry id of its export (0: not exported)
  std::shared_ptr<EventState> state = std::make_shared<EventState>();
};

enum class EventQuery { kComplete, kNotReady };

void* create_event(Call& call, std::uint32_t flags, bool ex);
void destroy_event(Call& call, void* event);
void record_event(Call& call, void* event, void* stream);
void reset_event(Call& call, void* event, void* stream);
void stream_wait_event(Call& call, void* stream, void* event);
EventQuery query_event(Call& call, void* event);
/// timeout_ms: -1 forever, > 0 simulated milliseconds (507047 on expiry).
void synchronize_event(Call& call, void* event, std::int32_t timeout_ms);
float event_elapsed_ms(Call& call, void* start, void* end);
std::uint64_t event_timestamp_us(Call& call, void* event);

}  // namespace npusim::rt
