// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/callback.h"

#include <pthread.h>

#include <algorithm>
#include <string>

#include "sim/log.h"

namespace npusim::rt {
namespace {

thread_local bool g_in_callback = false;

// Sets the in-callback flag for its lifetime (exception-safe).
class CallbackScope {
 public:
  CallbackScope() { g_in_callback = true; }
  ~CallbackScope() { g_in_callback = false; }
  CallbackScope(const CallbackScope&) = delete;
  CallbackScope& operator=(const CallbackScope&) = delete;
};

}  // namespace

bool CallbackHub::subscribe(ReportKind kind, std::uint64_t thread, std::uint32_t device) {
  exited_.erase(thread);
  auto [it, inserted] = subscribers_.try_emplace({kind, thread});
  if (inserted) {
    it->second.device = device;
  } else if (it->second.device != device) {
    return false;
  }
  ++it->second.streams;
  return true;
}

void CallbackHub::unsubscribe(ReportKind kind, std::uint64_t thread) {
  auto it = subscribers_.find({kind, thread});
  if (it != subscribers_.end() && --it->second.streams <= 0) subscribers_.erase(it);
}

bool CallbackHub::subscribed(ReportKind kind, std::uint64_t thread) const {
  return subscribers_.count({kind, thread}) != 0;
}

void CallbackHub::deliver(const std::shared_ptr<Report>& report, SimTime now) {
  report->state = Report::State::kQueued;
  report->due = now;
  live_.push_back(report);
  ++deliveries_;
  if (exited_.count(report->thread) != 0) {
    drop_if([&](const Report& r) { return &r == report.get(); });
  }
}

std::shared_ptr<Report> CallbackHub::next_for(ReportKind kind, std::uint64_t thread) const {
  for (const auto& r : live_) {
    if (r->state == Report::State::kQueued && r->kind == kind && r->thread == thread) return r;
  }
  return nullptr;
}

void CallbackHub::take(Report& report, SimTime start, SimTime cost) {
  report.state = Report::State::kRunning;
  report.start = start;
  report.release = start + cost;
}

void CallbackHub::returned(Report& report) { report.state = Report::State::kReturned; }

void CallbackHub::drop_if(const std::function<bool(const Report&)>& which) {
  for (const auto& r : live_) {
    if (r->state == Report::State::kQueued && which(*r)) {
      r->state = Report::State::kProcessed;
      r->dropped = true;
      sim::log_warn("a host callback of stream " + std::to_string(r->stream) +
                    " was dropped without running: its thread unsubscribed or exited, or the "
                    "stream was destroyed");
    }
  }
  live_.erase(std::remove_if(live_.begin(), live_.end(),
                             [](const auto& r) { return r->state == Report::State::kProcessed; }),
              live_.end());
}

void CallbackHub::drop_queued(ReportKind kind, std::uint64_t thread, std::uint32_t stream) {
  drop_if([&](const Report& r) {
    return r.kind == kind && r.thread == thread && r.stream == stream;
  });
}

void CallbackHub::drop_stream(std::uint32_t stream) {
  drop_if([&](const Report& r) { return r.thread != kRuntimeThread && r.stream == stream; });
}

void CallbackHub::thread_exited(std::uint64_t thread) {
  exited_.insert(thread);
  drop_if([&](const Report& r) { return r.thread == thread; });
}

void CallbackHub::clear_reports() {
  for (const auto& r : live_) {
    r->state = Report::State::kProcessed;
    r->dropped = true;
  }
  live_.clear();
}

SimTime CallbackHub::hold_limit() const {
  SimTime limit = kForeverTime;
  for (const auto& r : live_) {
    if (r->state == Report::State::kQueued && busy_.count(r->thread) == 0) {
      limit = std::min(limit, r->due);
    }
    if (r->state == Report::State::kRunning) limit = std::min(limit, r->release);
  }
  return limit;
}

SimTime CallbackHub::next_release() const {
  SimTime next = kForeverTime;
  for (const auto& r : live_) {
    if (r->state == Report::State::kReturned) next = std::min(next, r->release);
  }
  return next;
}

bool CallbackHub::release_due(SimTime now) {
  bool any = false;
  for (const auto& r : live_) {
    if (r->state == Report::State::kReturned && r->release <= now) {
      r->state = Report::State::kProcessed;
      any = true;
    }
  }
  if (any) {
    live_.erase(std::remove_if(live_.begin(), live_.end(),
                               [](const auto& r) { return r->state == Report::State::kProcessed; }),
                live_.end());
  }
  return any;
}

std::uint64_t os_thread_id() { return static_cast<std::uint64_t>(pthread_self()); }

bool in_host_callback() { return g_in_callback; }

void run_host_callback(void (*fn)(void*), void* arg) {
  CallbackScope scope;
  try {
    fn(arg);
  } catch (...) {
    sim::log_error("a host callback threw an exception; it is ignored");
  }
}

}  // namespace npusim::rt
