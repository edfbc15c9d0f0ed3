// SPDX-License-Identifier: Apache-2.0
// The interface between the task scheduler and the units that execute tasks (engines). Plain C++.
//
// A unit claims the tasks it executes by (TaskKind, Direction) route when the chip builds it
// (models/unit.h); the scheduler then hands it each such task when the task reaches the head of
// its stream and the engine has room. Two shapes of engine:
//  - timed engines (PCIe DMA, SDMA, AI Cores...) run the work in simulated time themselves:
//    start() is called, and they report through JobSink::job_finished() at the end;
//  - closed-form engines (scheduler-internal tasks, host CPU copies) hold no shared resource and
//    know a task's time at dispatch: fixed_time() returns it, the scheduler times the task itself
//    (no SystemC process, the fast path) and calls record() so the engine can draw the span.
#pragma once

#include <optional>

#include "models/task.h"
#include "sim/tracks.h"

namespace npusim::models {

/// A dispatched task on its way through an engine. Owned by the scheduler; stable address.
struct EngineJob {
  Task* task = nullptr;
  SimTime start = 0;       // engine started the work
  SimTime engine_end = 0;  // engine finished the work
  int channel = -1;        // which channel of the engine ran it
  /// What the engine ran the task as, when it decided that while running it (a kernel of unknown
  /// core type); nullptr: TaskEngine::task_type(task).
  const char* task_type = nullptr;
};

/// Where an engine reports that it finished a job (the task scheduler).
class JobSink {
 public:
  virtual ~JobSink() = default;
  /// Contract: called once per job, at the simulated time the engine finished it.
  virtual void job_finished(EngineJob& job) = 0;
};

class TaskEngine {
 public:
  virtual ~TaskEngine() = default;

  /// msprof's task type of `task` on this engine ("SDMA_SQE", "AI_VECTOR_CORE", ...): the
  /// timeline's "Task Type" and a task's default name.
  virtual const char* task_type(const Task& task) const = 0;
  /// Host-side engines (the host CPU) never pass through the device: their tasks pay no
  /// doorbell, dispatch or completion time.
  virtual bool host_side() const { return false; }

  /// Closed-form engines: the time `task` takes, known at dispatch; nullopt for timed engines.
  virtual std::optional<SimTime> fixed_time(const Task& task) const { return std::nullopt; }
  /// Closed-form engines: the scheduler timed `job` (start .. engine_end); draw it.
  virtual void record(const EngineJob& job) {}

  /// Timed engines: may start() be called now?
  virtual bool has_free_channel() const { return true; }
  /// Timed engines. Contract: only when has_free_channel(); the engine starts `job` after
  /// `delay`, sets job.start/channel/engine_end and calls sink.job_finished(job) when done.
  virtual void start(EngineJob& job, SimTime delay, JobSink& sink) = 0;
};

/// Base of closed-form engines: start() is never called for them.
class FixedTimeEngine : public TaskEngine {
 public:
  void start(EngineJob&, SimTime, JobSink&) final;  // throws std::logic_error

 protected:
  /// The job's span on `track`, with its stream and task ids.
  static void draw(const sim::Track& track, const EngineJob& job);
};

}  // namespace npusim::models
