// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/host_threads.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>

#include "acl/acl_base.h"
#include "runtime/core/errors.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

constexpr SimTime kForeverTime = ~SimTime{0};

// A positive number from the environment variable `name`; `fallback` when it is unset, empty or
// not a positive number (with a warning in the last case).
double positive_from_env(const char* name, double fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  double v = std::strtod(text, &end);
  if (end == text || v <= 0) {
    std::ostringstream why;
    why << name << "='" << text << "' is not a positive number; using " << fallback;
    sim::log_warn(why.str());
    return fallback;
  }
  return v;
}

}  // namespace

HostThreads::HostThreads()
    : hang_timeout_s_(positive_from_env("NPUSIM_HANG_TIMEOUT", 30)),
      passive_ms_(positive_from_env("NPUSIM_PASSIVE_MS", 100)) {
  any_woken_ = [this] {
    for (const ThreadState* t : threads_) {
      if (t->waiter != nullptr && !t->waiter->woken && (*t->waiter->done)()) return true;
    }
    return false;
  };
}

void HostThreads::add(ThreadState& thread) {
  threads_.push_back(&thread);
  turns_changed();
}

void HostThreads::remove(ThreadState& thread) {
  threads_.erase(std::remove(threads_.begin(), threads_.end(), &thread), threads_.end());
  free_thread_indices_.insert(thread.index);
  note_activity();
  turns_changed();
}

// A thread first seen at its first call starts at the smallest clock of the threads not in a wait
// (the creator of a new thread is usually one of them, often in pthread_join), else at "now".
SimTime HostThreads::first_clock(SimTime now, std::uint64_t epoch) const {
  SimTime clock = kForeverTime;
  for (const ThreadState* t : threads_) {
    if (t->waiter == nullptr && t->backend_epoch == epoch) clock = std::min(clock, t->clock);
  }
  return clock == kForeverTime ? now : std::max(clock, now);
}

void HostThreads::assign_index(ThreadState& thread) {
  // Indices of exited threads are reused, so they (and each thread's synchronous-copy stream id,
  // kSyncStream + index) stay below the number of threads alive at once.
  if (!free_thread_indices_.empty()) {
    thread.index = *free_thread_indices_.begin();
    free_thread_indices_.erase(free_thread_indices_.begin());
  } else {
    if (next_thread_index_ >= kMaxHostThreads) {
      fail(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
           "more than " + std::to_string(kMaxHostThreads) + " host threads call the runtime at once");
    }
    thread.index = next_thread_index_++;
  }
}


void HostThreads::turns_changed() {
  ++turns_;
  if (parked_ > 0) activity_cv_.notify_all();
}


SimTime HostThreads::hold_back_limit(const ThreadState* except) const {
  SimTime limit = kForeverTime;
  for (const ThreadState* t : threads_) {
    if (t != except && holds_back(*t)) limit = std::min(limit, t->clock);
  }
  return limit;
}


bool HostThreads::first_in_order(const ThreadState& me) const {
  for (const ThreadState* t : threads_) {
    if (t == &me || !holds_back(*t)) continue;
    if (t->clock < me.clock || (t->clock == me.clock && t->index < me.index)) return false;
  }
  return true;
}


bool HostThreads::any_waiter() const {
  return std::any_of(threads_.begin(), threads_.end(), [](const ThreadState* t) {
    return t->waiter != nullptr && !t->waiter->woken;
  });
}


SimTime HostThreads::earliest_waiter_deadline() const {
  SimTime d = kForeverTime;
  for (const ThreadState* t : threads_) {
    if (t->waiter != nullptr && !t->waiter->woken) d = std::min(d, t->waiter->deadline);
  }
  return d;
}


bool HostThreads::wake_waiters(SimTime at) {
  bool any = false;
  for (ThreadState* t : threads_) {
    Waiter* w = t->waiter;
    if (w == nullptr || w->woken) continue;
    if (w->deadline <= at || (*w->done)()) {
      w->woken = true;
      w->at = at;
      t->clock = std::max(t->clock, at);
      any = true;
    }
  }
  if (any) turns_changed();
  return any;
}


// A thread outside the runtime for the grace keeps its place while the OS says it is computing
// (on a CPU or runnable, or it used at least 1/20 of the grace's wall time in CPU time): however
// slowly a loaded machine runs it, the others wait and the order stays that of simulated time. A
// blocked thread (a lock, a condition variable, a sleep) stops holding them back, and so does one
// that has computed for kBusyGraces graces of CPU time since its last call (a spin-wait).
bool HostThreads::still_computing(ThreadState& t, std::chrono::steady_clock::time_point now) {
  const std::int64_t cpu = thread_cpu_ns(t.probe);
  if (cpu < 0) return false;
  const double grace_ns = passive_ms_ * 1e6;
  if (t.cpu_at_call >= 0 && static_cast<double>(cpu - t.cpu_at_call) >= kBusyGraces * grace_ns) {
    return false;
  }
  const double window_ns = std::chrono::duration<double, std::nano>(now - t.seen_since).count();
  const bool used_cpu = t.seen_cpu < 0 || static_cast<double>(cpu - t.seen_cpu) * 20 >= window_ns;
  if (!used_cpu && !thread_on_cpu(t.probe)) return false;
  t.seen_since = now;
  t.seen_cpu = cpu;
  computing_seen_ = true;
  return true;
}


bool HostThreads::expire_passive(const ThreadState& me) {
  const auto now = std::chrono::steady_clock::now();
  const auto grace = std::chrono::duration<double, std::milli>(passive_ms_);
  bool any = false;
  for (ThreadState* t : threads_) {
    if (t == &me || t->in_call || !holds_back(*t)) continue;
    if (t->calls != t->seen_calls) {
      t->seen_calls = t->calls;
      t->seen_since = now;
      t->seen_cpu = t->cpu_at_call = thread_cpu_ns(t->probe);
    } else if (now - t->seen_since >= grace && !still_computing(*t, now)) {
      t->passive = true;
      any = true;
      if (sim::log_enabled(sim::LogLevel::kDebug)) {
        sim::log_debug("host thread " + std::to_string(t->index) + " made no API call for " +
                       std::to_string(passive_ms_) +
                       " ms (NPUSIM_PASSIVE_MS) and is blocked or spinning: it no longer holds "
                       "the other threads back until its next call");
      }
    }
  }
  if (any) turns_changed();
  return any;
}


bool HostThreads::park(std::unique_lock<std::mutex>& lock, ThreadState& thread, bool waiting) {
  const std::uint64_t seen_activity = activity_;
  const std::uint64_t seen_turns = turns_;
  thread.waiting = waiting;
  ++parked_;
  const auto step = std::chrono::duration<double, std::milli>(passive_ms_ / 2);
  const auto hang_timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(hang_timeout_s_));
  auto hang_end = std::chrono::steady_clock::now() + hang_timeout;
  bool woke = false;
  for (;;) {
    if (activity_cv_.wait_for(lock, step, [&] {
          return activity_ != seen_activity || turns_ != seen_turns;
        })) {
      woke = true;
      break;
    }
    if (expire_passive(thread)) {
      woke = true;
      break;
    }
    const auto now = std::chrono::steady_clock::now();
    if (computing_seen_) hang_end = now + hang_timeout;  // held back by work, not a hang
    computing_seen_ = false;
    if (now >= hang_end) break;
  }
  --parked_;
  thread.waiting = false;
  return woke;
}


void HostThreads::note_activity() {
  ++activity_;
  if (parked_ > 0) activity_cv_.notify_all();
}


bool HostThreads::others_all_waiting(const ThreadState& me) const {
  return std::all_of(threads_.begin(), threads_.end(),
                     [&](const ThreadState* t) { return t == &me || t->waiting; });
}


bool HostThreads::park_idle(std::unique_lock<std::mutex>& lock,
                        std::chrono::steady_clock::time_point until) {
  std::uint64_t seen = activity_;
  ++parked_;
  bool woke = activity_cv_.wait_until(lock, until, [&] { return activity_ != seen; });
  --parked_;
  return woke;
}


}  // namespace npusim::rt
