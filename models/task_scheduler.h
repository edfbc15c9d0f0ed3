// SPDX-License-Identifier: Apache-2.0
// The device task scheduler (STARS/HWTS): per-stream submission queues, dispatch to the engines
// that claimed each task's route, completion reporting, event/value waits.
//
// Timing model:
//  - A task is visible in its stream queue at submit_at + scheduler.doorbell.
//  - Within a stream, strictly FIFO with one task in flight: the next task becomes ready only
//    after the previous one is reported complete. A wait task (kEventWait, kValueWait) at the head
//    holds its stream until ready() holds; blocked waits are re-tested after every completion.
//  - Ready heads queue per engine; when the engine has room the best is dispatched:
//    policy "priority" = lowest priority value first, then the head that became ready first;
//    "fifo" ignores priority. Arbitration runs once per delta cycle, after all same-time events.
//    No preemption: a dispatched task always runs to its end.
//  - Dispatch costs scheduler.dispatch (the engine starts then); the engine's end is reported
//    scheduler.completion later, when the task's effect() and done() run.
//  - Device-side control flow: when a task with a follow() completes, the tasks it returns are
//    queued at that simulated time (in the completion's agenda step, before its stream advances),
//    as resident tasks: visible at once, no doorbell; they then pay dispatch and completion like
//    any task. So a follow-up on the same stream runs exactly as if it had been queued behind.
//  - Which engine runs a task is whatever unit claimed its (kind, direction) (models/unit.h).
//    Closed-form engines (TaskEngine::fixed_time) are timed here without a process and run
//    unbounded in parallel; host-side engines pay no doorbell, dispatch or completion. A task
//    no unit claimed ends at once with kUnclaimedTask.
// Everything is driven by one SC_METHOD over a time-ordered agenda (doorbells, completions).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <queue>
#include <string>
#include <vector>

#include <systemc>

#include "models/chip_config.h"
#include "models/engine.h"
#include "models/unit.h"
#include "sim/stats.h"
#include "sim/tracks.h"

namespace npusim::models {

/// The aclError of a task whose (kind, direction) no unit claimed
/// (ACL_ERROR_RT_FEATURE_NOT_SUPPORT).
constexpr int kUnclaimedTask = 207000;

class TaskScheduler : public sc_core::sc_module, public JobSink, public Routes {
 public:
  /// Stream tracks go to `streams` (one per stream, numbered by stream id).
  TaskScheduler(const sc_core::sc_module_name& name, const ChipConfig& cfg,
                sim::TrackGroup& streams, sim::StatGroup& stats);

  using Routes::claim;
  void claim(TaskKind kind, Direction direction, TaskEngine& engine,
             const std::string& name) override;
  /// The engine that claimed `task`'s route, or nullptr.
  TaskEngine* engine_for(const Task& task) const;

  /// Called after every task completion (after done()): re-evaluate waits, wake the host.
  void set_completion_hook(std::function<void()> hook) { hook_ = std::move(hook); }

  /// Contract: host context (kernel paused). Queues `task` behind its stream's tasks.
  void submit(Task task);
  /// Contract: re-test the ready() of every blocked wait at a stream head.
  void reevaluate_waits();
  /// Contract: drop every not-yet-dispatched task of `stream` now (done with discarded = true).
  void discard(std::uint32_t stream);
  /// Tasks submitted and not yet finished or discarded.
  std::uint64_t outstanding() const { return outstanding_; }

  void job_finished(EngineJob& job) override;

 private:
  struct Pool;
  struct Stream {
    std::uint32_t id = 0;
    std::deque<Task> queue;  // front = head (in flight when in_flight)
    EngineJob job;
    Pool* pool = nullptr;    // the head's engine (set when it becomes ready)
    bool in_flight = false;
    bool blocked = false;  // head is a wait whose ready() was false
    bool queued = false;   // head sits in an engine's ready queue
    std::uint64_t ready_seq = 0;
    sim::SimTime wake_at = 0;     // pending doorbell agenda entry
    sim::SimTime head_since = 0;  // when the head became ready or blocked
    std::uint64_t tasks = 0;
    std::uint64_t bytes = 0;
    sim::Track track;
  };
  struct ReadyEntry {
    std::uint32_t priority;
    sim::SimTime ready_at;
    std::uint64_t seq;
    Stream* stream;
    bool operator>(const ReadyEntry& o) const {
      if (priority != o.priority) return priority > o.priority;
      if (ready_at != o.ready_at) return ready_at > o.ready_at;
      return seq > o.seq;
    }
  };
  struct AgendaItem {
    sim::SimTime at;
    std::uint64_t seq;
    Stream* stream;
    bool completion;  // else: a doorbell (head may have become visible)
    bool operator>(const AgendaItem& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  struct Pool {
    TaskEngine* engine = nullptr;  // nullptr: the pool of unclaimed tasks
    std::string name;
    std::priority_queue<ReadyEntry, std::vector<ReadyEntry>, std::greater<ReadyEntry>> ready;
    std::uint64_t tasks = 0;
  };

  Stream& stream(std::uint32_t id);
  Pool& pool_for(const Task& task);
  void on_agenda();
  void schedule(sim::SimTime at, Stream& s, bool completion);
  void try_advance(Stream& s);
  void make_ready(Stream& s);
  void dispatch_all();
  void dispatch(Stream& s, Pool& pool);
  sim::SimTime visible_at(const Task& task) const;
  void complete(Stream& s);
  void trace_task(const Stream& s, const Task& task, const TaskOutcome& out);
  void register_stats(sim::StatGroup& stats);

  sim::SimTime doorbell_, dispatch_, completion_;
  bool by_priority_;
  sim::TrackGroup& tracks_;
  sim::StatGroup& stream_stats_;
  sim::StatGroup& engine_stats_;

  std::deque<Pool> pools_;  // [0] = unclaimed tasks; stable addresses
  std::array<std::uint8_t, kTaskKinds * kDirections> route_{};  // index into pools_ (0 = none)
  std::map<std::uint32_t, Stream> streams_;
  std::vector<Stream*> blocked_;
  std::priority_queue<AgendaItem, std::vector<AgendaItem>, std::greater<AgendaItem>> agenda_;
  sc_core::sc_event agenda_event_;
  std::function<void()> hook_;
  std::uint64_t seq_ = 0;
  bool in_agenda_ = false;
  bool dispatch_pending_ = false;

  std::uint64_t submitted_ = 0, completed_ = 0, discarded_ = 0, outstanding_ = 0;
};

}  // namespace npusim::models
