// SPDX-License-Identifier: Apache-2.0
#include "models/sdma_engine.h"

#include <algorithm>

#include "sim/engine.h"

namespace npusim::models {

SdmaEngine::SdmaEngine(const sc_core::sc_module_name& name, UnitContext& ctx)
    : ChannelEngine(name, ctx.cfg.unit<SdmaConfig>().channels, ctx.tracks, "SDMA", ctx.stats),
      setup_(ctx.cfg.unit<SdmaConfig>().setup.ps),
      burst_(ctx.cfg.unit<SdmaConfig>().burst_bytes()),
      work_(ctx.cfg.unit<SdmaConfig>().channel_slots()) {
  bind_memory(ctx.hbm);
  ctx.routes.claim(TaskKind::kCopy, Direction::kD2D, *this, "sdma");
  ctx.routes.claim(TaskKind::kReduce, Direction::kD2D, *this, "sdma");
  for (Direction d : {Direction::kH2D, Direction::kD2H, Direction::kD2D}) {
    ctx.routes.claim(TaskKind::kMemset, d, *this, "sdma");
  }
}

std::optional<sim::SimTime> SdmaEngine::resume(EngineJob& job, sim::SimTime now) {
  Work& w = work_[static_cast<std::size_t>(job.channel)];
  const Task& task = *job.task;
  if (w.step == 0) {
    w.issue = now + setup_;
    w.complete = w.issue;
    w.left = task.bytes;
    w.step = 1;
  }
  if (w.step == 1) {
    // One burst at a time, reserved when it issues: channels interleave.
    do {
      if (w.issue > now) return w.issue;
      const std::uint64_t n = std::min(w.left, burst_);
      w.left -= n;
      sim::SimTime slot_end = w.issue;
      // Reads: a copy reads its source, a reduce its source and its destination.
      const int reads = task.kind == TaskKind::kCopy ? 1 : task.kind == TaskKind::kReduce ? 2 : 0;
      for (int r = 0; r < reads; ++r) {
        w.complete =
            std::max(w.complete, memory_access(tlm::TLM_READ_COMMAND, w.issue, n, slot_end));
      }
      w.complete =
          std::max(w.complete, memory_access(tlm::TLM_WRITE_COMMAND, w.issue, n, slot_end));
      w.issue = slot_end;
    } while (w.left > 0);
    w.step = 2;
  }
  if (w.complete > now) return w.complete;
  w.step = 0;
  bytes_ += task.bytes;
  return std::nullopt;
}

std::size_t SdmaEngine::span_args(const EngineJob& job, sim::TraceField* args) const {
  std::size_t n = ChannelEngine::span_args(job, args);
  const TaskKind kind = job.task->kind;
  args[n++] = sim::TraceField::str("operation", kind == TaskKind::kCopy     ? "device to device"
                                                : kind == TaskKind::kReduce ? "reduce"
                                                                            : "memset");
  return n;
}

}  // namespace npusim::models
