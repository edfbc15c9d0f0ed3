// SPDX-License-Identifier: Apache-2.0
#include "models/sync_tasks.h"

namespace npusim::models {

SyncTasks::SyncTasks(const char*, UnitContext& ctx)
    : time_(ctx.cfg.scheduler.sync_task.ps), track_(ctx.tracks.add("Scheduler")) {
  for (TaskKind k : {TaskKind::kEventRecord, TaskKind::kEventWait, TaskKind::kEventReset,
                     TaskKind::kValueWrite, TaskKind::kValueWait, TaskKind::kNop,
                     TaskKind::kHostFunc}) {
    ctx.routes.claim(k, *this, "scheduler");
  }
}

const char* SyncTasks::task_type(const Task& task) const {
  switch (task.kind) {
    case TaskKind::kEventRecord: return "EVENT_RECORD_SQE";
    case TaskKind::kEventWait: return "EVENT_WAIT_SQE";
    case TaskKind::kEventReset: return "WRITE_VALUE_SQE";  // a reset writes the event's flag
    case TaskKind::kValueWrite: return "WRITE_VALUE_SQE";
    case TaskKind::kValueWait: return "NOTIFY_WAIT_SQE";
    case TaskKind::kHostFunc: return "HOST_CPU_SQE";
    default: return "PLACE_HOLDER_SQE";
  }
}

void SyncTasks::record(const EngineJob& job) { draw(track_, job); }

}  // namespace npusim::models
