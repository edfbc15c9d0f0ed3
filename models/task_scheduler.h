// SPDX-License-Identifier: Apache-2.0
// The device task scheduler (STARS/HWTS): per-stream submission queues, dispatch to engines,
// completion reporting, event/value waits.
//
// Timing model:
//  - A task is visible in its stream queue at submit_at + scheduler.doorbell.
//  - Within a stream, strictly FIFO with one task in flight: the next task becomes ready only
//    after the previous one is reported complete. A wait task (kEventWait, kValueWait) at the head
//    holds its stream until ready() holds; blocked waits are re-tested after every completion.
//  - Ready heads queue per engine; when the engine has a free channel the best is dispatched:
//    policy "priority" = lowest priority value first, then the head that became ready first;
//    "fifo" ignores priority. Arbitration runs once per delta cycle, after all same-time events.
//    No preemption: a dispatched task always runs to its end.
//  - Dispatch costs scheduler.dispatch (the engine starts then); the engine's end is reported
//    scheduler.completion later, when the task's effect() and done() run.
//  - Engines: PCIe H2D/D2H DMA, SDMA (D2D, device memset) and the AI Core engine (kernels with a
//    KernelWork) are plugged in (set_engine). Host CPU copies (H2H, host memset) take
//    bytes / host.memcpy_bandwidth and, never touching the device, pay no doorbell, dispatch or
//    completion (they keep their place in stream order). Scheduler-internal tasks take
//    scheduler.sync_task; so do kHostFunc and a kKernel without KernelWork (no engine is plugged
//    for them). Engine-less kinds run unbounded in parallel (they model no shared unit).
// Everything is driven by one SC_METHOD over a time-ordered agenda (doorbells, completions).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <queue>
#include <vector>

#include <systemc>

#include "models/chip_config.h"
#include "models/task.h"
#include "sim/stats.h"
#include "sim/trace.h"

namespace npusim::models {

enum class EngineKind : std::uint8_t {
  kPcieH2D, kPcieD2H, kSdma, kHostCpu, kScheduler, kAiCore, kHostFunc,
};
constexpr int kEngineKinds = 7;
const char* engine_name(EngineKind kind);  // "pcie_h2d", "sdma", ...

/// Timeline ids of one device (see plan "Output conventions").
struct DeviceTracks {
  sim::TraceWriter* writer = nullptr;
  int device_pid = 0;  // "Ascend Hardware": one track per stream
  int units_pid = 0;   // "NPU <dev> Units": one track per engine channel
};

class TaskScheduler : public sc_core::sc_module, public JobSink {
 public:
  TaskScheduler(const sc_core::sc_module_name& name, const ChipConfig& cfg, DeviceTracks tracks,
                sim::StatGroup& stats);

  /// The routing point: which engine executes `task`.
  static EngineKind route(const DeviceTask& task);
  /// Plug an engine for a kind (nullptr = built-in fixed-duration execution).
  void set_engine(EngineKind kind, TaskEngine* engine);
  /// Called after every task completion (after done()): re-evaluate waits, wake the host.
  void set_completion_hook(std::function<void()> hook) { hook_ = std::move(hook); }

  /// Contract: host context (kernel paused). Queues `task` behind its stream's tasks.
  void submit(DeviceTask task);
  /// Contract: re-test the ready() of every blocked wait at a stream head.
  void reevaluate_waits();
  /// Contract: drop every not-yet-dispatched task of `stream` now (done with discarded = true).
  void discard(std::uint32_t stream);
  /// Tasks submitted and not yet finished or discarded.
  std::uint64_t outstanding() const { return outstanding_; }

  void job_finished(EngineJob& job) override;

 private:
  struct Stream {
    std::uint32_t id = 0;
    std::deque<DeviceTask> queue;  // front = head (in flight when in_flight)
    EngineJob job;
    bool in_flight = false;
    bool blocked = false;  // head is a wait whose ready() was false
    bool queued = false;   // head sits in an engine's ready queue
    std::uint64_t ready_seq = 0;
    sim::SimTime wake_at = 0;     // pending doorbell agenda entry
    sim::SimTime head_since = 0;  // when the head became ready or blocked
    std::uint64_t tasks = 0;
    std::uint64_t bytes = 0;
    int tid = 0;
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
    TaskEngine* engine = nullptr;
    std::priority_queue<ReadyEntry, std::vector<ReadyEntry>, std::greater<ReadyEntry>> ready;
    std::uint64_t tasks = 0;
  };

  Stream& stream(std::uint32_t id);
  void on_agenda();
  void schedule(sim::SimTime at, Stream& s, bool completion);
  void try_advance(Stream& s);
  void make_ready(Stream& s);
  void dispatch_all();
  void dispatch(Stream& s, EngineKind kind);
  sim::SimTime fixed_duration(EngineKind kind, const DeviceTask& task) const;
  sim::SimTime visible_at(const DeviceTask& task) const;
  void complete(Stream& s);
  void trace_task(const Stream& s, const DeviceTask& task, const TaskOutcome& out);
  void register_stats(sim::StatGroup& stats);

  sim::SimTime doorbell_, dispatch_, completion_, sync_task_;
  sim::Bandwidth host_memcpy_;
  bool by_priority_;
  DeviceTracks tracks_;
  sim::StatGroup& stream_stats_;

  std::map<std::uint32_t, Stream> streams_;
  std::array<Pool, kEngineKinds> pools_;
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
