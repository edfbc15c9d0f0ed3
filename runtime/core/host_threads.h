// SPDX-License-Identifier: Apache-2.0
// The host threads that call the runtime, and the order between them (runtime.h, "Several host
// threads"): registration and indices, who holds the others back, whose turn it is, waiters and
// their wake-ups, passive threads, and parking (the API lock released) until something changes.
// Plain bookkeeping under the API lock: it never advances simulated time; the Runtime drives the
// engine (Runtime::wait, catch_up) and asks this class where to stop and whom to wake.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <vector>

#include "runtime/core/thread_state.h"

namespace npusim::rt {

/// Host threads that may use the runtime at once: each owns a synchronous-copy stream id,
/// kSyncStream + index, below 2^32.
constexpr std::uint32_t kMaxHostThreads = 0xFFFFu;

class HostThreads {
 public:
  HostThreads();

  // ---- Registration ----
  /// Gives `thread` the lowest free index. Throws ApiError past kMaxHostThreads live threads.
  void assign_index(ThreadState& thread);
  void add(ThreadState& thread);
  void remove(ThreadState& thread);
  std::size_t count() const { return threads_.size(); }
  bool multi() const { return threads_.size() > 1; }
  const std::vector<ThreadState*>& all() const { return threads_; }
  /// The clock of a thread first seen at its first call: the smallest clock of the threads not in
  /// a wait on backend `epoch`, but not before `now`.
  SimTime first_clock(SimTime now, std::uint64_t epoch) const;

  // ---- Order ----
  static bool holds_back(const ThreadState& t) {
    return !t.passive && !t.polling && (t.waiter == nullptr || t.waiter->woken);
  }
  /// The smallest clock of the threads that hold back, `except` excluded; all ones if none.
  SimTime hold_back_limit(const ThreadState* except) const;
  bool first_in_order(const ThreadState& me) const;
  bool any_waiter() const;
  SimTime earliest_waiter_deadline() const;
  /// Wakes the waiters whose predicate holds or whose deadline passed, at `at`. True if any.
  bool wake_waiters(SimTime at);
  /// Some waiter's predicate holds (engine runs stop there).
  const std::function<bool()>& any_woken() const { return any_woken_; }
  bool others_all_waiting(const ThreadState& me) const;
  /// Marks threads outside the runtime with no call for passive_ms passive, unless they are
  /// computing (still_computing). True if any.
  bool expire_passive(const ThreadState& me);

  // ---- Parking ----
  /// Something that decides whose turn it is changed: parked threads look again.
  void turns_changed();
  /// An API call finished or a report was delivered: wakes parked threads.
  void note_activity();
  std::uint64_t activity() const { return activity_; }
  /// For a thread that parks elsewhere (blocked on the session, runtime.cpp): what it saw, and
  /// whether a turn or some activity changed since; enter/leave mark it parked and waiting.
  struct Seen {
    std::uint64_t activity = 0, turns = 0;
  };
  Seen seen() const { return {activity_, turns_}; }
  bool changed_since(const Seen& s) const { return activity_ != s.activity || turns_ != s.turns; }
  void enter_park(ThreadState& thread) {
    ++parked_;
    thread.waiting = true;
  }
  void leave_park(ThreadState& thread) {
    thread.waiting = false;
    --parked_;
  }
  /// Parks until activity or a turn change; runs expire_passive every passive_ms. False after
  /// the hang timeout without either. `waiting`: the thread is in a blocking wait meanwhile.
  bool park(std::unique_lock<std::mutex>& lock, ThreadState& thread, bool waiting);
  /// Parks until another thread acts or the wall-clock time `until` passes. False at `until`.
  bool park_idle(std::unique_lock<std::mutex>& lock,
                 std::chrono::steady_clock::time_point until);

  double passive_ms() const { return passive_ms_; }
  void set_passive_ms(double ms) { passive_ms_ = ms; }
  double hang_timeout_seconds() const { return hang_timeout_s_; }
  void set_hang_timeout_seconds(double seconds) { hang_timeout_s_ = seconds; }

 private:
  bool still_computing(ThreadState& t, std::chrono::steady_clock::time_point now);
  std::vector<ThreadState*> threads_;
  std::uint32_t next_thread_index_ = 0;
  std::set<std::uint32_t> free_thread_indices_;  // of threads that exited: reused lowest first
  std::condition_variable activity_cv_;
  std::uint64_t activity_ = 0;
  int parked_ = 0;
  std::uint64_t turns_ = 0;  // turn changes (parked threads wait for them)
  double hang_timeout_s_ = 30;
  double passive_ms_ = 30;
  /// CPU time, in graces, after which a thread computing outside the runtime (a spin-wait on
  /// another thread's progress) no longer holds the others back.
  static constexpr double kBusyGraces = 50;
  bool computing_seen_ = false;  // still_computing kept a thread's place (park: not a hang)
  std::function<bool()> any_woken_;
};

}  // namespace npusim::rt
