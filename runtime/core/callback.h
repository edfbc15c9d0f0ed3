// SPDX-License-Identifier: Apache-2.0
// Host callbacks (aclrtLaunchCallback, aclrtLaunchHostFunc): the reports the device sends to the
// host threads that run them, and the rule that keeps the timeline deterministic.
//
// A callback is a kHostFunc task on its stream. When the task completes at simulated time T it
// *delivers* a Report to the thread subscribed for its kind (aclrtSubscribeReport /
// aclrtSubscribeHostFunc), or to the runtime's own thread (an unsubscribed aclrtLaunchHostFunc).
// A blocking callback is followed on its stream by a wait task whose ready() is "the report was
// processed", so the stream holds until then.
//
// Processing: the thread takes the report at S = max(T, the end of the previous callback it ran);
// the callback occupies it for host.callback, so the report is *released* at R = S +
// host.callback, when the stream's wait ends. (The thread's other API calls do not delay S: their
// place in simulated time depends on wall-time interleaving, the callback's must not.)
//
// Hold (determinism): no host thread may advance simulated time past T while a delivered report is
// not taken, nor past R while its callback has not returned (in wall time), so a report thread
// polling in wall time sees every report at the same simulated time in every run. Whoever drives
// the simulation (Runtime::wait) stops at hold_limit(), marks reports released at their R
// (release_due) and parks while a report waits for its thread.
//
// Media callbacks (VDEC/VENC, Report::api_allowed) may call the runtime: taken as above, released
// at R at once, then run after the aclrtProcessReport call that took them (Call::run_after); until
// they return their thread holds the others back from its clock like a thread making calls, and
// the reports queued for it hold no time (Runtime::media_callback_begin/end).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "sim/quantity.h"

namespace npusim::rt {

using sim::SimTime;

enum class ReportKind { kCallback, kHostFunc };

/// Thread id of the runtime's own callback thread (runs unsubscribed host functions).
constexpr std::uint64_t kRuntimeThread = 0;

struct Report {
  enum class State { kLaunched, kQueued, kRunning, kReturned, kProcessed };
  ReportKind kind = ReportKind::kCallback;
  void (*fn)(void*) = nullptr;
  void* arg = nullptr;
  std::uint64_t thread = kRuntimeThread;  // the subscribed thread's id (pthread_self)
  std::uint32_t stream = 0;               // stream id, for messages and the timeline
  State state = State::kLaunched;
  SimTime due = 0;      // delivered (the host task completed)
  SimTime start = 0;    // taken by its thread
  SimTime release = 0;  // start + host.callback: the stream's wait ends here
  bool dropped = false;  // never ran (its thread unsubscribed, the stream was stopped...)
  // A media callback (VDEC/VENC, runtime/dvpp): CANN's programs call the runtime inside it (they
  // copy and free the decoded picture there), so it runs after its aclrtProcessReport call has
  // ended, with the API lock released and runtime calls allowed, and it holds simulated time only
  // up to its release R (its calls are the thread's ordinary calls, from R on).
  bool api_allowed = false;
};

class CallbackHub {
 public:
  // ---- Subscriptions (threads that process reports, by kind) ----
  /// Adds one subscribed stream for (kind, thread) on `device`; false when the thread already
  /// serves streams of another device.
  bool subscribe(ReportKind kind, std::uint64_t thread, std::uint32_t device);
  void unsubscribe(ReportKind kind, std::uint64_t thread);
  bool subscribed(ReportKind kind, std::uint64_t thread) const;
  std::size_t subscribers() const { return subscribers_.size(); }

  // ---- Reports ----
  /// A callback task was submitted / ended (delivered or discarded): while none is in flight and
  /// no report is live, nothing can hold simulated time (the waits' fast path).
  void task_submitted() { ++tasks_in_flight_; }
  void task_ended() { --tasks_in_flight_; }
  bool idle() const { return tasks_in_flight_ == 0 && live_.empty(); }
  /// The host task of `report` completed at `now`: queue it for its thread.
  void deliver(const std::shared_ptr<Report>& report, SimTime now);
  /// The oldest queued report for (kind, thread), or nullptr.
  std::shared_ptr<Report> next_for(ReportKind kind, std::uint64_t thread) const;
  /// Takes `report` at `start` (its thread's clock): it will be released at start + cost.
  void take(Report& report, SimTime start, SimTime cost);
  /// The callback of a taken report returned (in wall time).
  void returned(Report& report);
  /// Drops the queued reports of `thread` for `stream` (unsubscribed): they never run.
  void drop_queued(ReportKind kind, std::uint64_t thread, std::uint32_t stream);
  /// Drops the queued reports of stream id `stream` (destroyed): they never run.
  void drop_stream(std::uint32_t stream);
  /// A host thread that used the runtime exited: its queued reports, and any delivered to it
  /// later, are dropped instead of holding simulated time forever, until a thread with its id
  /// (ids are reused) makes its first API call or is subscribed again.
  void thread_exited(std::uint64_t thread);
  void thread_started(std::uint64_t thread) { exited_.erase(thread); }

  /// Forgets every delivered report (aclFinalize); they count as processed and never run.
  void clear_reports();
  /// Delivered reports so far (a driver stops its run when it changes).
  std::uint64_t deliveries() const { return deliveries_; }
  /// Simulated time may not pass this (see the file comment); kForever when nothing holds it.
  SimTime hold_limit() const;
  /// The earliest release time of a returned report not yet released; kForever if none.
  SimTime next_release() const;
  /// Marks the returned reports whose release time is <= now processed. True if any was.
  bool release_due(SimTime now);
  /// True while some report holds simulated time (queued, or running its callback).
  bool holding() const { return hold_limit() != kForeverTime; }
  /// `thread` runs a media callback (Report::api_allowed) that may call the runtime: the reports
  /// queued for it meanwhile do not hold simulated time (it takes them when it returns, from its
  /// clock then: ThreadState::callbacks_until).
  void set_busy(std::uint64_t thread, bool busy) {
    if (busy) {
      busy_.insert(thread);
    } else {
      busy_.erase(thread);
    }
  }

  static constexpr SimTime kForeverTime = ~SimTime{0};

 private:
  struct Subscriber {
    std::uint32_t device = 0;
    int streams = 0;
  };
  std::map<std::pair<ReportKind, std::uint64_t>, Subscriber> subscribers_;
  void drop_if(const std::function<bool(const Report&)>& which);

  std::deque<std::shared_ptr<Report>> live_;  // delivered and not yet processed, by delivery
  std::set<std::uint64_t> exited_;             // threads that exited (their reports are dropped)
  std::set<std::uint64_t> busy_;               // threads running a media callback
  std::uint64_t deliveries_ = 0;
  std::uint64_t tasks_in_flight_ = 0;
};

/// The calling OS thread's id as the samples pass it (pthread_self, what std::thread::id prints).
std::uint64_t os_thread_id();

/// True while the calling thread runs a host callback (runtime API calls then fail at once).
bool in_host_callback();

/// Runs fn(arg) with the in-callback flag set on this thread.
void run_host_callback(void (*fn)(void*), void* arg);

}  // namespace npusim::rt
