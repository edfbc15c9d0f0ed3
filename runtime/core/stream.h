// SPDX-License-Identifier: Apache-2.0
// Streams: FIFO queues of tasks on a device. The runtime keeps the host-side view (ids, priority,
// flags, failure mode, registered allocator, tasks submitted and finished); the backend executes
// the tasks. Task completion updates the stream's StreamProgress, which task callbacks share, so
// a stream destroyed with tasks still running is safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "runtime/core/backend.h"
#include "runtime/core/context.h"
#include "runtime/core/device.h"

namespace npusim::rt {

class Call;
struct Recording;

struct StreamProgress {
  std::uint64_t submitted = 0;
  std::uint64_t finished = 0;
  int error = 0;  // device error not yet reported by a synchronising call
  std::uint64_t aborts = 0;  // aclrtStreamAbort calls (a sync waiting meanwhile returns 107023)
};

/// What aclrtAllocatorRegister attached to a stream (the runtime never calls the callbacks).
struct AllocatorDesc {
  void* object = nullptr;
  void* alloc = nullptr;
  void* free = nullptr;
  void* alloc_advise = nullptr;
  void* get_addr = nullptr;
};

/// Owned by the runtime's stream table through a shared_ptr: a call that may block (and so let
/// other host threads run) keeps its stream alive with shared_from_this() and checks `destroyed`
/// after the wait.
struct Stream : std::enable_shared_from_this<Stream> {
  std::uint32_t device = 0;
  std::uint32_t id = 0;        // device-unique
  std::uint32_t priority = 0;  // 0 = highest .. 7
  std::uint32_t flags = 0;     // creation flags (ACL_STREAM_*)
  void* context = nullptr;     // owning context handle
  bool is_default = false;
  std::uint64_t failure_mode = 0;  // ACL_CONTINUE_ON_FAILURE / ACL_STOP_ON_FAILURE
  bool failure_mode_set = false;
  std::uint32_t overflow_switch = 0;
  std::uint32_t user_tag = 0;       // ACL_STREAM_ATTR_USER_CUSTOM_TAG
  std::uint32_t cache_op_info = 0;  // ACL_STREAM_ATTR_CACHE_OP_INFO
  ResLimits limits;                 // aclrtSetStreamResLimit
  int sat_mode = 1;                 // device saturation mode when the stream was created
  bool has_allocator = false;
  void* allocator_handle = nullptr;
  AllocatorDesc allocator;
  std::uint32_t next_task_id = 0;
  std::shared_ptr<StreamProgress> progress = std::make_shared<StreamProgress>();
  std::shared_ptr<TaskCounter> context_tasks;
  std::shared_ptr<ContextFault> context_fault;
  bool destroyed = false;  // removed from the table (by this or another host thread)
  // Host callbacks: the threads subscribed to process this stream's reports (0 = none).
  std::uint64_t report_thread = 0;    // aclrtSubscribeReport
  std::uint64_t hostfunc_thread = 0;  // aclrtSubscribeHostFunc
  bool stopped = false;               // aclrtStreamStop until aclrtStreamAbort
  bool abort_unreported = false;      // aborted; the next sync reports 107023
  // Model run instances (runtime/core/model_ri.h): a persistent stream, or a stream being captured,
  // records the tasks submitted to it here instead of running them.
  std::shared_ptr<Recording> recording;
  void* model = nullptr;  // the model run instance it is bound to or captured into
};

constexpr std::uint32_t kMaxPriority = 7;

/// Creates a stream in `context` (default streams too). Checks flags and the device's limit.
void* new_stream(Call& call, void* context, std::uint32_t priority, std::uint32_t flags,
                 bool is_default);
/// Forgets a stream (its queued tasks must have been drained or discarded).
void remove_stream(Call& call, void* stream);

/// The runtime's stream operations; `stream` NULL means the current context's default stream.
void* create_stream(Call& call, std::uint32_t priority, std::uint32_t flags);
/// Non-force: waits for the stream's tasks, then destroys it. Force: never waits for what cannot
/// finish: every task already submitted that can run still runs to completion in simulated time
/// (the device already holds it: a kernel launched just before still runs and prints, as the
/// samples expect), tasks that can never run (waits nobody will satisfy) are discarded; the
/// calling thread's host clock is not advanced.
void destroy_stream(Call& call, void* stream, bool force);
/// timeout_ms: -1 forever, > 0 simulated milliseconds (507046 on expiry).
void synchronize_stream(Call& call, void* stream, std::int32_t timeout_ms);
bool stream_idle(Call& call, void* stream);

/// Queues `task` on `stream` (fills device, stream id, task id, priority and the bookkeeping).
/// Refused with the context's error when the context stopped on a failure (ContextFault); a task
/// queued before the stop has its effect skipped.
/// A stream that records (runtime/core/model_ri.h) keeps the task for its model instead.
void submit_to_stream(Call& call, Stream& stream, Task task);
/// The same for a task whose making has host-side effects that must happen again each time a
/// recorded task runs (an event record takes a new generation): `make` is called once now, or,
/// when `stream` records, each time the model is launched. `name` names it in descriptions.
void submit_to_stream(Call& call, Stream& stream, const std::function<Task()>& make,
                      const std::string& name);
/// The error a synchronisation on `stream` reports (and clears, except a context stop): the
/// stream's own device error, else the context's stop-on-failure error, else 0.
int take_stream_error(Stream& stream);

/// Runs `task` on the calling thread's synchronous stream and waits for it (aclrtMemcpy,
/// aclrtMemset). Returns the task's error code.
int run_sync_task(Call& call, std::uint32_t device, Task task);

/// Discards the queued tasks of `stream` (destroy-force, teardown).
void discard_stream_tasks(Call& call, const Stream& stream);

/// aclrtStreamStop: the running task finishes (npusim does not cut a task short), the queued ones
/// never run; until aclrtStreamAbort the stream refuses new tasks and syncs return 507000.
void stop_stream(Call& call, void* stream);
/// aclrtStreamAbort: discards the queued tasks (the running one finishes) and clears a stop; a
/// sync waiting on the stream meanwhile, or the next one, returns 107023 unless the stream or its
/// context has an earlier device error to report.
void abort_stream(Call& call, void* stream);

}  // namespace npusim::rt
