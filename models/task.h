// SPDX-License-Identifier: Apache-2.0
// What the host puts in a stream's submission queue, as the device models see it (one SQE), and
// what an engine is handed when the task scheduler dispatches it. Plain C++.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "models/kernel_work.h"
#include "sim/quantity.h"

namespace npusim::models {

using sim::SimTime;

/// Stream ids from this value on are the runtime's per-host-thread synchronous-copy streams
/// (rt::kSyncStream + thread index); they only get different timeline names.
constexpr std::uint32_t kSyncStreamBase = 0xFFFF0000u;

enum class TaskKind : std::uint8_t {
  kCopy,         // engine by direction: PCIe DMA (H2D, D2H), SDMA (D2D), host CPU (H2H)
  kMemset,       // SDMA (device memory) or host CPU (kH2H: host memory)
  kEventRecord,  // scheduler-internal
  kEventWait,    // scheduler-internal, holds its stream until ready()
  kEventReset,   // scheduler-internal
  kValueWrite,   // scheduler-internal
  kValueWait,    // scheduler-internal, holds its stream until ready()
  kKernel,       // AI Core
  kHostFunc,     // host callback
  kNop,          // scheduler-internal
};

enum class Direction : std::uint8_t { kH2H, kH2D, kD2H, kD2D };

/// How a task ended; times in simulated ps.
struct TaskOutcome {
  SimTime submit = 0;
  SimTime start = 0;  // engine started (after dispatch)
  SimTime end = 0;    // completion reported
  int error = 0;      // effect()'s result
  bool discarded = false;
};

struct DeviceTask {
  TaskKind kind = TaskKind::kNop;
  Direction direction = Direction::kD2D;
  bool pageable = false;  // host side is pageable (staged through a bounce buffer)
  std::uint32_t stream = 0;
  std::uint32_t task_id = 0;
  std::uint32_t priority = 0;  // 0 = highest
  SimTime submit_at = 0;
  std::uint64_t bytes = 0;
  std::uint64_t flow_id = 0;
  std::string name;
  std::shared_ptr<const KernelWork> kernel;  // kKernel: the launch (null = fixed sync_task time)

  std::function<bool()> ready;                    // wait tasks: may the stream go on?
  std::function<int()> effect;                    // at the end of the work, before done
  std::function<void(const TaskOutcome&)> done;  // exactly once
};

inline bool is_wait(TaskKind kind) {
  return kind == TaskKind::kEventWait || kind == TaskKind::kValueWait;
}

/// A dispatched task on its way through an engine. Owned by the scheduler; stable address.
struct EngineJob {
  DeviceTask* task = nullptr;
  SimTime start = 0;       // engine started the work
  SimTime engine_end = 0;  // engine finished the work
  int channel = -1;        // which channel of the engine ran it
};

/// Where an engine reports that it finished a job (the task scheduler).
class JobSink {
 public:
  virtual ~JobSink() = default;
  /// Contract: called once per job, at the simulated time the engine finished it.
  virtual void job_finished(EngineJob& job) = 0;
};

/// A unit that executes tasks the scheduler hands it, on a fixed number of channels.
/// Engines of new task types (AI Core...) implement this and plug into TaskScheduler::set_engine.
class TaskEngine {
 public:
  virtual ~TaskEngine() = default;
  virtual bool has_free_channel() const = 0;
  /// Contract: only when has_free_channel(); the engine starts `job` after `delay` on its lowest
  /// free channel, sets job.start/channel/engine_end and calls sink.job_finished(job) when done.
  virtual void start(EngineJob& job, SimTime delay, JobSink& sink) = 0;
};

}  // namespace npusim::models
