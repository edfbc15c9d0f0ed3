// SPDX-License-Identifier: Apache-2.0
#include "models/sdma_engine.h"

#include <algorithm>

#include "sim/engine.h"

namespace npusim::models {
SdmaEngine::SdmaEngine(const sc_core::sc_module_name& name, UnitContext& ctx)
    : ChannelEngine(name, ctx.cfg.sdma.channels, ctx.tracks, "SDMA", ctx.stats),
      setup_(ctx.cfg.sdma.setup.ps),
      burst_(std::max<std::uint64_t>(ctx.cfg.sdma.burst.value, 1)) {
  bind_memory(ctx.hbm);
  ctx.routes.claim(TaskKind::kCopy, Direction::kD2D, *this, "sdma");
  for (Direction d : {Direction::kH2D, Direction::kD2H, Direction::kD2D}) {
    ctx.routes.claim(TaskKind::kMemset, d, *this, "sdma");
  }
}

void SdmaEngine::run(EngineJob& job) {
  const Task& task = *job.task;
  const bool copy = task.kind == TaskKind::kCopy;
  sim::SimTime issue = sim::sim_now() + setup_;
  sim::SimTime complete = issue;
  std::uint64_t left = task.bytes;
  do {
    wait_until(issue);  // one burst at a time, reserved when it issues: channels interleave
    const std::uint64_t n = std::min(left, burst_);
    left -= n;
    sim::SimTime slot_end = issue;
    if (copy) {
      complete = std::max(complete, memory_access(tlm::TLM_READ_COMMAND, issue, n, slot_end));
    }
    complete = std::max(complete, memory_access(tlm::TLM_WRITE_COMMAND, issue, n, slot_end));
    issue = slot_end;
  } while (left > 0);
  wait_until(complete);
  bytes_ += task.bytes;
}

std::size_t SdmaEngine::span_args(const EngineJob& job, sim::TraceField* args) const {
  std::size_t n = ChannelEngine::span_args(job, args);
  args[n++] = sim::TraceField::str(
      "operation", job.task->kind == TaskKind::kCopy ? "device to device" : "memset");
  return n;
}

}  // namespace npusim::models
