// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/host_callback.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>

#include "acl/acl_rt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stream.h"

namespace npusim::rt {
namespace {

// Subscriptions beyond this many threads are refused (the CANN limit).
constexpr std::size_t kMaxReportThreads = 1024;

const char* subscribe_api(ReportKind kind) {
  return kind == ReportKind::kCallback ? "aclrtSubscribeReport" : "aclrtSubscribeHostFunc";
}

std::uint64_t& subscriber_slot(Stream& s, ReportKind kind) {
  return kind == ReportKind::kCallback ? s.report_thread : s.hostfunc_thread;
}

// Runs the queued report `r` on the calling thread: from S = max(the report's arrival, the end of
// the last callback this thread ran) for host.callback, with the API lock released while the
// user's function runs. The thread's other API calls do not delay S: where they fall in simulated
// time depends on when the thread made them in wall time, the callback's time must not.
void run_taken(Call& call, Report& r) {
  Runtime& rt = call.runtime();
  ThreadState& thread = call.thread();
  const SimTime start = std::max(thread.callbacks_until, r.due);
  rt.callbacks().take(r, start, call.config().host.callback.ps);
  thread.callbacks_until = r.release;
  call.set_silent(false);
  call.set_span(start, r.release);
  if (r.api_allowed) {
    rt.callbacks().returned(r);  // holds nothing past R: its runtime calls need simulated time
    rt.media_callback_begin(thread, r.thread);
    call.run_after(r.fn, r.arg);
  } else {
    rt.run_report(call.lock(), r);
    rt.callbacks().returned(r);
  }
  call.backend().trace_host(thread.index,
                            r.kind == ReportKind::kCallback ? "Callback" : "HostFunc", r.start,
                            r.release);
}

}  // namespace

void launch_report(Call& call, void* handle, ReportKind kind, void (*fn)(void*), void* arg,
                   bool block, bool api_allowed) {
  require(fn != nullptr, ACL_ERROR_INVALID_PARAM, "fn is NULL");
  Stream& s = call.stream(handle);
  const std::uint64_t thread = subscriber_slot(s, kind);
  if (kind == ReportKind::kCallback && thread == 0) {
    fail(ACL_ERROR_RT_STREAM_NO_CB_REG, "stream " + std::to_string(s.id) +
                                            " has no thread to run callbacks: call "
                                            "aclrtSubscribeReport first");
  }
  auto report = std::make_shared<Report>();
  report->kind = kind;
  report->fn = fn;
  report->arg = arg;
  report->thread = thread;  // kRuntimeThread: an unsubscribed host function
  report->api_allowed = api_allowed;
  report->stream = s.id;
  Runtime* rt = &call.runtime();
  Task task;
  task.kind = TaskKind::kHostFunc;
  task.effect = [report, rt] {
    rt->callbacks().deliver(report, rt->backend()->now());
    return 0;
  };
  task.done = [rt](const TaskOutcome&) { rt->callbacks().task_ended(); };  // also if discarded
  const std::shared_ptr<Stream> keep = s.shared_from_this();
  submit_to_stream(call, s, std::move(task));
  rt->callbacks().task_submitted();
  if (!block) return;
  Task hold;
  hold.kind = TaskKind::kValueWait;
  hold.name = "HOST_CALLBACK_WAIT";
  // A stop-on-failure context skips the callback: then nothing is delivered and nothing holds.
  hold.ready = [report, fault = keep->context_fault] {
    return report->state == Report::State::kProcessed || fault->stopped;
  };
  submit_to_stream(call, *keep, std::move(hold));
}

void subscribe_reports(Call& call, ReportKind kind, std::uint64_t thread, void* handle) {
  require(thread != 0, ACL_ERROR_INVALID_PARAM, "threadId 0 names no thread");
  Stream& s = call.stream(handle);
  std::uint64_t& slot = subscriber_slot(s, kind);
  require(slot == 0, ACL_ERROR_RT_STREAM_SUBSCRIBE,
          "stream " + std::to_string(s.id) + " already has a thread subscribed with " +
              subscribe_api(kind) + " (one thread per stream)");
  CallbackHub& hub = call.runtime().callbacks();
  require(hub.subscribed(kind, thread) || hub.subscribers() < kMaxReportThreads,
          ACL_ERROR_RT_THREAD_SUBSCRIBE,
          "more than " + std::to_string(kMaxReportThreads) + " subscribed threads");
  require(hub.subscribe(kind, thread, s.device), ACL_ERROR_RT_THREAD_SUBSCRIBE,
          "the thread already runs callbacks of another device's streams");
  slot = thread;
}

void unsubscribe_reports(Call& call, ReportKind kind, std::uint64_t thread, void* handle) {
  Stream& s = call.stream(handle);
  std::uint64_t& slot = subscriber_slot(s, kind);
  require(thread != 0 && slot == thread, ACL_ERROR_RT_STREAM_SUBSCRIBE,
          "the thread is not subscribed to stream " + std::to_string(s.id));
  CallbackHub& hub = call.runtime().callbacks();
  hub.drop_queued(kind, thread, s.id);
  hub.unsubscribe(kind, thread);
  slot = 0;
}

void process_reports(Call& call, ReportKind kind, std::int32_t timeout_ms) {
  call.set_silent(true);  // until it runs a callback: idle polls leave no trace
  require(timeout_ms == -1 || timeout_ms > 0, ACL_ERROR_INVALID_PARAM,
          "timeout must be -1 (forever) or a positive number of ms");
  call.backend();
  Runtime& rt = call.runtime();
  CallbackHub& hub = rt.callbacks();
  const std::uint64_t me = os_thread_id();
  using WallClock = std::chrono::steady_clock;
  const auto wall_end =
      WallClock::now() + (timeout_ms == -1
                              ? std::chrono::duration_cast<WallClock::duration>(
                                    std::chrono::duration<double>(rt.hang_timeout_seconds()))
                              : std::chrono::milliseconds(timeout_ms));
  const SimTime sim_deadline = call.deadline_after_ms(timeout_ms);
  const std::uint64_t seen = rt.activity();
  for (;;) {
    if (!hub.subscribed(kind, me)) {
      fail(ACL_ERROR_RT_THREAD_SUBSCRIBE,
           std::string("the calling thread is not subscribed to any stream (") +
               subscribe_api(kind) + ")");
    }
    if (std::shared_ptr<Report> r = hub.next_for(kind, me)) {
      run_taken(call, *r);
      return;
    }
    if (WallClock::now() >= wall_end) {
      // No other thread acted during the whole wait: nobody else will drive the simulation (the
      // program waits for this callback without a runtime call), so this thread does, up to its
      // deadline in simulated time.
      if (rt.activity() == seen) {
        const SimTime before = call.backend().now();
        rt.catch_up(call.lock(), sim_deadline);
        if (call.backend().now() != before) rt.note_activity();
        if (hub.next_for(kind, me)) continue;
      }
      fail(ACL_ERROR_RT_REPORT_TIMEOUT, "no callback report arrived within the timeout");
    }
    rt.park_idle(call.lock(), wall_end);
  }
}

}  // namespace npusim::rt
