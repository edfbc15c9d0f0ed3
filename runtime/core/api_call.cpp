// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/api_call.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "runtime/core/errors.h"
#include "runtime/core/library.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

void record_failure(ThreadState& thread, const char* name, int code, const std::string& text,
                    bool verbatim = false) {
  std::string message =
      verbatim ? text : std::string(name) + " failed (" + std::to_string(code) + "): " + text;
  if (sim::log_enabled(sim::LogLevel::kInfo)) sim::log_info(message);
  thread.record_error(code, std::move(message));
}

// A host callback called the runtime. The CANN docs forbid it (resource, synchronisation and
// task calls may deadlock): npusim refuses every call at once, without taking the API lock.
int refuse_in_callback(const char* name) {
  sim::log_warn(std::string(name) + " called from inside a host callback: refused (" +
                std::to_string(ACL_ERROR_RT_FEATURE_NOT_SUPPORT) +
                "); callbacks must not call the runtime");
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

}  // namespace

Call::Call(Runtime& runtime, ThreadState& thread, std::unique_lock<std::mutex>& lock,
           const char* name)
    : runtime_(runtime), thread_(thread), lock_(lock), name_(name) {}

Backend& Call::backend() const {
  if (!runtime_.initialized() || runtime_.backend() == nullptr) {
    fail(ACL_ERROR_UNINITIALIZE, "aclInit has not been called");
  }
  return *runtime_.backend();
}

Context& Call::context() const {
  Context* ctx = runtime_.contexts().find(thread_.context);
  if (ctx == nullptr) {
    fail(ACL_ERROR_RT_CONTEXT_NULL,
         "the thread has no current context (call aclrtSetDevice first)");
  }
  return *ctx;
}

void* Call::context_handle() const {
  context();
  return thread_.context;
}

Stream& Call::stream(void* handle) const { return *runtime_.streams().find(stream_handle(handle)); }

void* Call::stream_handle(void* handle) const {
  if (handle == nullptr) return context().default_stream;
  if (runtime_.streams().find(handle) == nullptr) {
    fail(ACL_ERROR_RT_PARAM_INVALID, "stream is not a live stream handle");
  }
  return handle;
}

Event& Call::event(void* handle) const {
  require_not_null(handle, "event");
  Event* e = runtime_.events().find(handle);
  if (e == nullptr) fail(ACL_ERROR_RT_PARAM_INVALID, "event is not a live event handle");
  return *e;
}

Device& Call::device(std::int64_t id) const {
  auto& devices = runtime_.devices();
  if (id < 0 || id >= static_cast<std::int64_t>(devices.size())) {
    fail(ACL_ERROR_RT_INVALID_DEVICEID, "device id " + std::to_string(id) +
                                            " is out of range [0, " +
                                            std::to_string(devices.size()) + ")");
  }
  return devices[static_cast<std::size_t>(id)];
}

namespace {

// Whether a task's effect may write memory a kernel reads (everything but copies to the host and
// the scheduler's event bookkeeping): it invalidates the timing-only trace memo (trace_memo.h).
bool writes_memory(const Task& task) {
  switch (task.kind) {
    case TaskKind::kCopy:
      return task.direction != Direction::kD2H;
    case TaskKind::kMemset:
    case TaskKind::kValueWrite:
    case TaskKind::kHostFunc:
    case TaskKind::kReduce:
    case TaskKind::kRandom:
      return true;
    default:
      return false;
  }
}

}  // namespace

void Call::submit(Task task) {
  Backend& b = backend();
  if (!launched_) {
    const models::HostConfig& host = config().host;
    charge(task.kind == TaskKind::kKernel ? host.kernel_launch_call.ps : host.launch_call.ps);
    launched_ = true;
  }
  if (thread_.clock > kSimTimeLimit) time_overflow();
  if (flow_id_ == 0) flow_id_ = runtime_.next_flow_id();
  task.flow_id = flow_id_;
  task.submit_at = thread_.clock;
  // Only where the memo can be used (timing-only runs): elsewhere the wrapper would cost every
  // copy an allocation for nothing.
  if (task.effect && writes_memory(task) && !runtime_.config().aicore.functional &&
      runtime_.trace_memo().enabled()) {
    task.effect = [memory = &runtime_.memory(), inner = std::move(task.effect)]() -> int {
      const int r = inner();
      memory->note_contents_changed();  // memoised timing-only traces are forgotten
      return r;
    };
  }
  b.submit(std::move(task));
}

void Call::time_overflow() {
  fail(ACL_ERROR_RT_INTERNAL_ERROR,
       "simulated time passed " + std::to_string(kSimTimeLimit / sim::kSec / 86400) +
           " days, the end of npusim's picosecond clock: the run cannot go on");
}

WaitResult Call::wait(const std::function<bool()>& done, SimTime deadline, Describe what) {
  Backend& b = backend();
  if (!charged_) charge(config().host.api_call.ps);
  WaitResult r = runtime_.wait(lock_, thread_, done, deadline, what);
  thread_.clock = std::max(thread_.clock, b.now());
  if (thread_.clock > kSimTimeLimit) time_overflow();
  charge(config().host.sync_call.ps);
  return r;
}

void Call::catch_up() {
  Backend& b = backend();
  if (b.now() < thread_.clock) runtime_.catch_up(lock_, thread_.clock);
}

SimTime Call::deadline_after_ms(std::int32_t ms) const {
  if (ms == -1) return kForever;
  if (ms <= 0)
    fail(ACL_ERROR_RT_PARAM_INVALID, "timeout must be -1 (forever) or a positive number of ms");
  return thread_.clock + static_cast<SimTime>(ms) * sim::kMs;  // < 2^63 + 2^41: no wrap
}

void Call::begin() {
  Backend* b = runtime_.backend();
  if (b == nullptr) return;
  if (thread_.backend_epoch != runtime_.backend_epoch()) {
    thread_.backend_epoch = runtime_.backend_epoch();
    thread_.clock = 0;
    thread_.callbacks_until = 0;
  }
  thread_.clock = std::max(thread_.clock, b->now());
  start_ = thread_.clock;
}

void Call::finish() {
  Backend* b = runtime_.backend();
  if (b == nullptr || finished_) return;
  finished_ = true;
  if (silent_) return;
  if (thread_.backend_epoch != runtime_.backend_epoch()) begin();  // aclInit made the backend
  if (!charged_) charge(b->config().host.api_call.ps);
  b->trace_api(thread_.index, name_, start_, thread_.clock, flow_id_);
}

namespace {

// The API function's body; an ApiError becomes its code (and the thread's last error).
int run_body(Runtime& rt, Call& call, ThreadState& thread, Needs needs,
             FunctionRef<void(Call&)> body) {
  try {
    if (needs == Needs::kInit && !rt.initialized()) {
      fail(ACL_ERROR_UNINITIALIZE, "aclInit has not been called");
    }
    body(call);
  } catch (const ApiError& e) {
    record_failure(thread, call.name(), e.code(), e.what(), e.verbatim());
    return e.code();
  }
  return 0;
}

// What the call queued for the application: exception reports, libraries' work, stream state
// callbacks and a media callback. They may call the API: run without the lock.
void deliver_after_call(Runtime& rt, Call& call, ThreadState& thread,
                        std::unique_lock<std::mutex>& lock) {
  std::vector<PendingException> reports = rt.take_exceptions();
  std::vector<StreamStateCall> states = rt.take_stream_state_calls();
  std::vector<std::function<void()>> work = libraries_after_call();
  if (!reports.empty() || !states.empty() || !work.empty()) {
    lock.unlock();
    deliver_exceptions(reports);
    for (const std::function<void()>& w : work) w();
    for (const StreamStateCall& s : states) s.callback(s.stream, s.state);
  }
  if (call.after_fn() != nullptr) {  // a media callback (Runtime::media_callback_begin)
    if (lock.owns_lock()) lock.unlock();
    call.after_fn()(call.after_arg());
    lock.lock();
    rt.media_callback_end(thread, os_thread_id());
  }
}

// Ends the call for the order between threads (runtime.h) however the call leaves.
struct EndCall {
  Runtime& rt;
  ThreadState& thread;
  std::unique_lock<std::mutex>& lock;
  ~EndCall() {
    if (lock.owns_lock() && thread.in_call) rt.end_call(thread);
  }
};

// One API call: takes the lock and the thread's turn, runs the body, ends the call.
int run_call(const char* name, Needs needs, FunctionRef<void(Call&)> body, ThreadState*& thread) {
  Runtime& rt = Runtime::instance();
  std::unique_lock<std::mutex> lock(rt.mutex());
  thread = &this_thread_state();
  Call call(rt, *thread, lock, name);
  call.begin();
  const EndCall end_call{rt, *thread, lock};
  rt.take_turn(lock, *thread, name);
  const int code = run_body(rt, call, *thread, needs, body);
  call.finish();
  rt.end_call(*thread);
  if (!call.silent()) rt.note_activity();
  deliver_after_call(rt, call, *thread, lock);
  return code;
}

}  // namespace

int run_api(const char* name, Needs needs, FunctionRef<void(Call&)> body) noexcept {
  ThreadState* thread = nullptr;
  if (in_host_callback()) return refuse_in_callback(name);
  int code = 0;
  try {
    return run_call(name, needs, body, thread);
  } catch (const std::bad_alloc&) {
    code = ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (thread != nullptr) record_failure(*thread, name, code, "out of host memory");
  } catch (const std::exception& e) {
    code = ACL_ERROR_RT_INTERNAL_ERROR;
    sim::log_error(std::string("internal error in ") + name + ": " + e.what());
    if (thread != nullptr) record_failure(*thread, name, code, e.what());
  } catch (...) {
    code = ACL_ERROR_RT_INTERNAL_ERROR;
    if (thread != nullptr) record_failure(*thread, name, code, "unknown internal error");
  }
  return code;
}

int unsupported(const char* name, int code) noexcept {
  return run_api(name, Needs::kNothing, [&](Call& c) {
    c.runtime().report_unsupported(name);
    fail(code, std::string(name) + " is not supported by npusim yet");
  });
}

}  // namespace npusim::rt
