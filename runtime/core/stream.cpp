// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/stream.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "acl/acl_rt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/inner_error.h"
#include "runtime/core/model_ri.h"
#include "runtime/core/runtime.h"

namespace npusim::rt {
namespace {

constexpr std::uint32_t kKnownStreamFlags = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC |
                                            ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE |
                                            ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;
// Streams whose synchronisation "returns success at once" (docs/sources.md §4,
// aclrtCreateStreamWithConfig).
constexpr std::uint32_t kNoHostSyncFlags =
    ACL_STREAM_PERSISTENT | ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_CPU_SCHEDULE;

std::string describe(const Stream& s) {
  std::uint64_t pending = s.progress->submitted - s.progress->finished;
  return "stream " + std::to_string(s.id) + " of device " + std::to_string(s.device) + " (" +
         std::to_string(pending) + " unfinished task" + (pending == 1 ? "" : "s") + ")";
}

// Waits until every task submitted to `s` so far has finished. Returns the wait's outcome.
// The caller keeps `s` alive across the wait (other host threads may run meanwhile).
WaitResult drain(Call& call, const Stream& s, SimTime deadline) {
  std::shared_ptr<StreamProgress> p = s.progress;
  std::uint64_t target = p->submitted;
  std::uint64_t aborts = p->aborts;
  if (p->finished >= target) return WaitResult::kDone;
  return call.wait([p, target, aborts] { return p->finished >= target || p->aborts != aborts; },
                   deadline,
                   [&] { return std::string(call.name()) + " waits for " + describe(s); });
}

// After a wait that let other host threads run: the stream must still exist.
void require_alive(const Stream& s) {
  require(!s.destroyed, ACL_ERROR_RT_PARAM_INVALID,
          "the stream was destroyed by another host thread while this call waited");
}

// A stream's submission queue holds scheduler.stream_depth tasks: a call that finds it full
// blocks (in simulated time) until the oldest task finishes, as the real runtime does when the
// SQ has no free slot.
void wait_for_queue_space(Call& call, const Stream& s) {
  std::shared_ptr<StreamProgress> p = s.progress;
  auto depth = static_cast<std::uint64_t>(call.config().scheduler.stream_depth);
  if (depth == 0 || p->submitted - p->finished < depth) return;
  std::uint64_t target = p->submitted - depth + 1;
  WaitResult r = call.wait([p, target] { return p->finished >= target; }, kForever, [&] {
    return std::string(call.name()) + " waits for a free slot on " + describe(s);
  });
  require(r == WaitResult::kDone, ACL_ERROR_RT_STREAM_TASK_FULL,
          "the stream's queue is full and can never drain (deadlock)");
}

// Destroy-force: advances the simulation until every task submitted to `s` so far has finished
// or nothing more can finish, without parking for other host threads and without advancing the
// calling thread's host clock.
void run_what_can_finish(Call& call, const Stream& s) {
  std::shared_ptr<StreamProgress> p = s.progress;
  std::uint64_t target = p->submitted;
  if (p->finished >= target) return;
  call.backend().run_until([p, target] { return p->finished >= target; }, kForever);
}

}  // namespace

void* new_stream(Call& call, void* context_handle, std::uint32_t priority, std::uint32_t flags,
                 bool is_default) {
  Runtime& rt = call.runtime();
  Context* ctx = rt.contexts().find(context_handle);
  require(ctx != nullptr, ACL_ERROR_RT_CONTEXT_NULL, "the context is not live");
  require((flags & ~kKnownStreamFlags) == 0, ACL_ERROR_INVALID_PARAM, "unknown stream flag bits");
  Device& dev = call.device(ctx->device);
  require(dev.live_streams < call.config().scheduler.max_streams, ACL_ERROR_RT_NO_STREAM_RESOURCE,
          "the device has no free stream (scheduler.max_streams reached)");
  auto s = std::make_shared<Stream>();
  s->device = dev.id;
  if (!dev.free_stream_ids.empty()) {
    s->id = *dev.free_stream_ids.begin();
    dev.free_stream_ids.erase(dev.free_stream_ids.begin());
  } else {
    s->id = dev.next_stream_id++;
  }
  s->priority = priority > kMaxPriority ? kMaxPriority : priority;
  s->flags = flags;
  s->context = context_handle;
  s->is_default = is_default;
  s->sat_mode = dev.sat_mode;
  s->context_tasks = ctx->tasks;
  s->context_fault = ctx->fault;
  if ((flags & ACL_STREAM_PERSISTENT) != 0) make_persistent(*s);
  ++dev.live_streams;
  void* handle = rt.streams().add(std::move(s));
  rt.queue_stream_state(handle, ACL_RT_STREAM_STATE_CREATE_POST);
  return handle;
}

void* create_stream(Call& call, std::uint32_t priority, std::uint32_t flags) {
  return new_stream(call, call.context_handle(), priority, flags, false);
}

void remove_stream(Call& call, void* handle) {
  Runtime& rt = call.runtime();
  if (rt.streams().find(handle) == nullptr) return;
  rt.queue_stream_state(handle, ACL_RT_STREAM_STATE_DESTROY_PRE);
  std::shared_ptr<Stream> s = rt.streams().remove(handle);
  s->destroyed = true;
  rt.callbacks().drop_stream(s->id);
  if (s->report_thread != 0) rt.callbacks().unsubscribe(ReportKind::kCallback, s->report_thread);
  if (s->hostfunc_thread != 0) {
    rt.callbacks().unsubscribe(ReportKind::kHostFunc, s->hostfunc_thread);
  }
  auto& devices = call.runtime().devices();
  if (s->device < devices.size()) {
    --devices[s->device].live_streams;
    devices[s->device].free_stream_ids.insert(s->id);
  }
}

void destroy_stream(Call& call, void* handle, bool force) {
  require_not_null(handle, "stream");
  const std::shared_ptr<Stream> keep = call.stream(handle).shared_from_this();
  Stream& s = *keep;
  require(!s.is_default, ACL_ERROR_RT_PARAM_INVALID, "the default stream cannot be destroyed");
  require(s.context == call.context_handle(), ACL_ERROR_RT_STREAM_CONTEXT,
          "the stream does not belong to the current context");
  if (force) {
    run_what_can_finish(call, s);
    discard_stream_tasks(call, s);
  } else if (drain(call, s, kForever) != WaitResult::kDone) {
    fail(ACL_ERROR_RT_INTERNAL_ERROR, "the stream's tasks can never finish (deadlock)");
  }
  require_alive(s);  // another thread destroyed it meanwhile: this destroy fails, as a second one
  remove_stream(call, handle);
}

void synchronize_stream(Call& call, void* handle, std::int32_t timeout_ms) {
  SimTime deadline = call.deadline_after_ms(timeout_ms);
  const std::shared_ptr<Stream> keep = call.stream(handle).shared_from_this();
  Stream& s = *keep;
  if (s.stopped) {
    fail(ACL_ERROR_RT_INTERNAL_ERROR,
         "stream " + std::to_string(s.id) + " was stopped by aclrtStreamStop");
  }
  if ((s.flags & kNoHostSyncFlags) != 0) return;
  const std::uint64_t aborts = s.progress->aborts;
  WaitResult r = drain(call, s, deadline);
  if (r == WaitResult::kTimeout) {
    fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
         "timed out after " + std::to_string(timeout_ms) + " ms waiting for " + describe(s));
  }
  if (r == WaitResult::kStarved) {
    fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "deadlock: nothing can complete " + describe(s));
  }
  require_alive(s);
  if (int error = take_stream_error(s); error != 0) {
    std::string detail =
        "a task on stream " + std::to_string(s.id) + " failed: " + call.runtime().device_error();
    if (device_failure_reason(error) != nullptr) {  // a kernel's exception: CANN's wording
      fail_verbatim(error, inner_error_text(error, SyncKind::kStream,
                                            std::strstr(call.name(), "WithTimeout") != nullptr,
                                            static_cast<int>(s.device), detail));
    }
    fail(error, std::move(detail));
  }
  if (s.abort_unreported || s.progress->aborts != aborts) {
    s.abort_unreported = false;
    fail(ACL_ERROR_RT_STREAM_ABORT, "stream " + std::to_string(s.id) + " was aborted");
  }
}

int take_stream_error(Stream& s) {
  if (s.progress->error != 0) {
    int error = s.progress->error;
    s.progress->error = 0;
    return error;
  }
  return s.context_fault && s.context_fault->stopped ? s.context_fault->error : 0;
}

bool stream_idle(Call& call, void* handle) {
  Stream& s = call.stream(handle);
  call.catch_up();
  return s.progress->finished == s.progress->submitted;
}

void submit_to_stream(Call& call, Stream& s, const std::function<Task()>& make,
                      const std::string& name) {
  if (!record_if_recording(call, s, make, name)) submit_to_stream(call, s, make());
}

namespace {

// A stream takes no tasks after ACL_STOP_ON_FAILURE stopped its context or aclrtStreamStop it.
void require_accepting(const Stream& s) {
  const ContextFault& fault = *s.context_fault;
  if (fault.stopped) {
    fail(fault.error, "a task of this context failed with ACL_STOP_ON_FAILURE set: the context "
                      "accepts no new tasks");
  }
  if (s.stopped) {
    fail(ACL_ERROR_RT_INTERNAL_ERROR,
         "stream " + std::to_string(s.id) +
             " was stopped by aclrtStreamStop: it takes no tasks until aclrtStreamAbort");
  }
}

// A failed task: the stream's error; with ACL_STOP_ON_FAILURE, the context stops.
void note_failure(StreamProgress& p, ContextFault& fault, int error) {
  p.error = error;
  if (fault.stop_on_failure && !fault.stopped) {
    fault.stopped = true;
    fault.error = error;
  }
}

// The task's effect and completion as the stream sees them: nothing happens once the context
// stopped; completion counts the task (stream, context, runtime) and records its error.
void wrap_for_stream(Task& task, const Stream& s, std::shared_ptr<ContextFault> fault,
                     std::shared_ptr<TaskCounter> all) {
  if (task.effect) {
    task.effect = [fault, effect = std::move(task.effect)] {
      return fault->stopped ? 0 : effect();  // the context stopped: the task does nothing
    };
  }
  task.done = [p = s.progress, ctx = s.context_tasks, all, fault,
               user_done = std::move(task.done)](const TaskOutcome& r) {
    if (user_done) user_done(r);
    if (r.error != 0 && !r.discarded) note_failure(*p, *fault, r.error);
    ++p->finished;
    ++ctx->finished;
    ++all->finished;
  };
}

// A task for a stream being captured: it joins the model being recorded.
void record_task(Call& call, Stream& s, Task task) {
  std::string name = task.name;
  record_if_recording(call, s, [t = std::move(task)] { return t; }, name);
}

// One more task of the stream, its context and the runtime (its completion counts it done).
void count_submitted(Task& task, Stream& s, std::shared_ptr<ContextFault> fault,
                     std::shared_ptr<TaskCounter> all) {
  wrap_for_stream(task, s, std::move(fault), all);
  ++s.progress->submitted;
  ++s.context_tasks->submitted;
  ++all->submitted;
}

}  // namespace

void submit_to_stream(Call& call, Stream& s, Task task) {
  if (s.recording) return record_task(call, s, std::move(task));
  require_accepting(s);
  std::shared_ptr<ContextFault> fault = s.context_fault;
  const std::shared_ptr<Stream> keep = s.shared_from_this();
  wait_for_queue_space(call, s);
  require_alive(s);
  task.device = s.device;
  task.stream = s.id;
  task.task_id = s.next_task_id++ & 0xFFFFu;
  task.priority = s.priority;
  count_submitted(task, s, fault, call.runtime().all_tasks());
  if (!s.is_default) {
    call.thread().last_task_id = task.task_id;
    call.thread().has_task = true;
  }
  call.submit(std::move(task));
}

int run_sync_task(Call& call, std::uint32_t device, Task task) {
  require_capture_safe(call);
  ThreadState& thread = call.thread();
  task.device = device;
  task.stream = kSyncStream + thread.index;
  task.task_id = thread.sync_task_seq++ & 0xFFFFu;
  task.priority = 0;
  struct Outcome {
    bool done = false;
    int error = 0;
  };
  auto outcome = std::make_shared<Outcome>();
  task.done = [outcome, user_done = std::move(task.done)](const TaskOutcome& r) {
    if (user_done) user_done(r);
    outcome->done = true;
    outcome->error = r.discarded ? ACL_ERROR_RT_INTERNAL_ERROR : r.error;
  };
  // A synchronous device copy/memset first goes through the driver (DMA descriptors), so it
  // reaches the device only after that host time; host-to-host work never leaves the host.
  const bool device_side = task.direction != Direction::kH2H;
  if (device_side) call.spend(call.config().host.sync_copy_setup.ps);
  call.submit(std::move(task));
  WaitResult r = call.wait([outcome] { return outcome->done; }, kForever, [&] {
    return std::string(call.name()) + " waits for its synchronous task";
  });
  require(r == WaitResult::kDone, ACL_ERROR_RT_INTERNAL_ERROR, "the synchronous task never ran");
  return outcome->error;
}

void discard_stream_tasks(Call& call, const Stream& s) {
  if (s.progress->finished == s.progress->submitted) return;
  call.catch_up();  // stops early where a host callback holds simulated time (callback.h)
  Backend& b = call.backend();
  b.discard_stream(s.device, s.id, std::min(call.clock(), b.now()));
}

void stop_stream(Call& call, void* handle) {
  require_not_null(handle, "stream");  // the default stream cannot be stopped
  const std::shared_ptr<Stream> keep = call.stream(handle).shared_from_this();
  require(!keep->is_default, ACL_ERROR_RT_PARAM_INVALID, "the default stream cannot be stopped");
  discard_stream_tasks(call, *keep);
  keep->stopped = true;
}

void abort_stream(Call& call, void* handle) {
  const std::shared_ptr<Stream> keep = call.stream(handle).shared_from_this();
  discard_stream_tasks(call, *keep);
  keep->stopped = false;
  keep->abort_unreported = true;
  ++keep->progress->aborts;
}

}  // namespace npusim::rt
