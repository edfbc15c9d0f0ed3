// SPDX-License-Identifier: Apache-2.0
// The follow-up tasks of a completed task (Task::follow, models/task.h), as every backend queues
// them: resident tasks submitted at the completion time.
#pragma once

#include <vector>

#include "models/task.h"

namespace npusim::models {

/// The follow-up tasks of `task` (none without Task::follow), ready to queue as resident tasks
/// submitted at `now`, the time it completed.
inline std::vector<Task> follow_ups(const Task& task, sim::SimTime now) {
  std::vector<Task> next;
  if (!task.follow) return next;
  task.follow(next);
  for (Task& t : next) {
    t.submit_at = now;
    t.resident = true;
  }
  return next;
}

}  // namespace npusim::models
