// SPDX-License-Identifier: Apache-2.0
// The scheduler's own tasks as an engine: event record/wait/reset, value write/wait, no-ops and
// (until host callbacks get a unit of their own) host-function tasks.
//
// Timing model: closed form, scheduler.sync_task each, any number at once (they hold no shared
// unit). A wait task reaches this engine only once its ready() holds (the scheduler holds the
// stream until then). Spans on the "Scheduler" track.
#pragma once

#include "models/unit.h"

namespace npusim::models {

/// Claims kEventRecord, kEventWait, kEventReset, kValueWrite, kValueWait, kNop and kHostFunc
/// ("scheduler").
class SyncTasks : public FixedTimeEngine, public Unit {
 public:
  SyncTasks(const char* name, UnitContext& ctx);

  const char* task_type(const Task& task) const override;
  std::optional<SimTime> fixed_time(const Task&) const override { return time_; }
  void record(const EngineJob& job) override;

 private:
  SimTime time_;
  sim::Track track_;
};

}  // namespace npusim::models
