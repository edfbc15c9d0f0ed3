// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/event.h"

#include <string>

#include "acl/acl_rt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/peer.h"
#include "runtime/core/runtime.h"

namespace npusim::rt {
namespace {

constexpr std::uint32_t kKnownEventFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS |
                                           ACL_EVENT_TIME_LINE | ACL_EVENT_DEVICE_USE_ONLY |
                                           ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

// An IPC event is one event of the machine: streams of any device record and wait for it.
void require_same_device(const Event& e, const Stream& s) {
  require(e.device == s.device || (e.flags & ACL_EVENT_IPC) != 0, ACL_ERROR_RT_PARAM_INVALID,
          "the event and the stream belong to different devices");
}

// A finished record is required by elapsed-time and timestamp queries.
const EventState& finished_record(const Event& e, const char* which) {
  const EventState& st = *e.state;
  if (st.recorded == 0)
    fail(ACL_ERROR_RT_PARAM_INVALID, std::string(which) + " was never recorded");
  if (!st.complete()) {
    fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE, std::string(which) + " has not completed yet");
  }
  return st;
}

}  // namespace

void* create_event(Call& call, std::uint32_t flags, bool ex) {
  Context& ctx = call.context();
  require((flags & ~kKnownEventFlags) == 0, ACL_ERROR_INVALID_PARAM, "unknown event flag bits");
  // IPC events are made by aclrtCreateEventExWithFlag only (runtime/core/ipc.h).
  require((flags & ACL_EVENT_IPC) == 0 || ex, ACL_ERROR_INVALID_PARAM,
          "ACL_EVENT_IPC events are created with aclrtCreateEventExWithFlag");
  Device& dev = call.device(ctx.device);
  if (!ex) {
    require(dev.live_events < call.config().scheduler.max_events, ACL_ERROR_RT_NO_EVENT_RESOURCE,
            "the device has no free event (scheduler.max_events reached)");
    ++dev.live_events;
  }
  auto e = std::make_shared<Event>();
  e->device = dev.id;
  e->id = dev.next_event_id++;
  e->flags = flags;
  e->ex = ex;
  return call.runtime().events().add(std::move(e));
}

void destroy_event(Call& call, void* handle) {
  Event& e = call.event(handle);
  if (!e.ex) {
    auto& devices = call.runtime().devices();
    if (e.device < devices.size()) --devices[e.device].live_events;
  }
  if (e.export_id != 0) call.runtime().ipc().withdraw(e.export_id);
  call.runtime().events().remove(handle);
}

// Each task is made by a closure: a stream that records (a model) makes it again at each launch,
// so a replayed record takes a new generation and a replayed wait the latest record's.
void record_event(Call& call, void* event, void* stream) {
  Event& e = call.event(event);
  Stream& s = call.stream(stream);
  require_same_device(e, s);
  auto make = [st = e.state] {
    std::uint64_t generation = ++st->recorded;
    Task task;
    task.kind = TaskKind::kEventRecord;
    task.name = "EVENT_RECORD";
    task.done = [st, generation](const TaskOutcome& r) {
      if (r.discarded) return;
      if (st->shared != 0) Runtime::instance().shared_sync().recorded_here(st->shared, r.end);
      if (generation <= st->done) return;
      st->done = generation;
      st->done_time = r.end;
    };
    return task;
  };
  submit_to_stream(call, s, make, "EVENT_RECORD");
}

void reset_event(Call& call, void* event, void* stream) {
  Event& e = call.event(event);
  Stream& s = call.stream(stream);
  require_same_device(e, s);
  auto make = [st = e.state] {
    Task task;
    task.kind = TaskKind::kEventReset;
    task.name = "EVENT_RESET";
    task.done = [st](const TaskOutcome& r) {
      if (!r.discarded) st->done = 0;
    };
    return task;
  };
  submit_to_stream(call, s, make, "EVENT_RESET");
}

void stream_wait_event(Call& call, void* stream, void* event) {
  Event& e = call.event(event);
  Stream& s = call.stream(stream);
  // A stream may wait for another device's event once its device enabled peer access to it (the
  // cross-chip synchronisation collectives need); recording and resetting stay on the event's
  // device.
  if (e.device != s.device && (e.flags & ACL_EVENT_IPC) == 0) {
    require_peer_access(call, s.device, e.device, "waiting for an event");
  }
  // Waits for the record issued last before this call (a model: before the model's launch).
  // An event never recorded does not block an eager wait; a wait inside a model waits for the
  // event's next record (the device's event flag), which is how a model waits for work issued
  // after its launch (2_advanced_features/model_ri/1_model_update).
  const bool in_model = static_cast<bool>(s.recording);
  auto make = [st = e.state, in_model] {
    Task task;
    task.kind = TaskKind::kEventWait;
    task.name = "EVENT_WAIT";
    task.ready = [st, in_model, generation = st->recorded] {
      if (generation == 0) return !in_model || st->done != 0;
      return st->done >= generation;
    };
    return task;
  };
  submit_to_stream(call, s, make, "EVENT_WAIT");
}

EventQuery query_event(Call& call, void* event) {
  Event& e = call.event(event);
  if (e.state->shared != 0) call.runtime().poll_remote();
  call.catch_up();
  if (e.ex && e.state->recorded == 0) return EventQuery::kComplete;
  return e.state->complete() ? EventQuery::kComplete : EventQuery::kNotReady;
}

void synchronize_event(Call& call, void* event, std::int32_t timeout_ms) {
  SimTime deadline = call.deadline_after_ms(timeout_ms);
  Event& e = call.event(event);
  std::shared_ptr<EventState> st = e.state;
  std::uint64_t generation = st->recorded;
  if (generation == 0 || st->done >= generation) return;
  auto what = [&call, id = e.id, generation] {  // `e` may be destroyed while this call waits
    return std::string(call.name()) + " waits for event " + std::to_string(id) + " (record " +
           std::to_string(generation) + ")";
  };
  WaitResult r = call.wait([st, generation] { return st->done >= generation; }, deadline, what);
  if (r == WaitResult::kTimeout) {
    fail(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
         "timed out after " + std::to_string(timeout_ms) + " ms: " + what());
  }
  if (r == WaitResult::kStarved) fail(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "deadlock: " + what());
}

float event_elapsed_ms(Call& call, void* start, void* end) {
  const EventState& a = finished_record(call.event(start), "startEvent");
  const EventState& b = finished_record(call.event(end), "endEvent");
  double ps = static_cast<double>(b.done_time) - static_cast<double>(a.done_time);
  return static_cast<float>(ps / static_cast<double>(sim::kMs));
}

std::uint64_t event_timestamp_us(Call& call, void* event) {
  return finished_record(call.event(event), "event").done_time / sim::kUs;
}

}  // namespace npusim::rt
