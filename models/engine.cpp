// SPDX-License-Identifier: Apache-2.0
#include "models/engine.h"

#include <stdexcept>

namespace npusim::models {

void FixedTimeEngine::start(EngineJob&, SimTime, JobSink&) {
  throw std::logic_error("npusim: start() called on a closed-form engine");
}

void FixedTimeEngine::draw(const sim::Track& track, const EngineJob& job) {
  if (!track.on()) return;
  track.span(job.task->name, job.start, job.engine_end,
             {sim::TraceField::num("Stream Id", job.task->stream),
              sim::TraceField::num("Task Id", job.task->task_id)});
}

}  // namespace npusim::models
