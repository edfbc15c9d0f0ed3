// SPDX-License-Identifier: Apache-2.0
#include "models/dma_engine.h"

#include <algorithm>

#include "sim/engine.h"

namespace npusim::models {
namespace {
constexpr int kSdmaFirstTid = 300;
}  // namespace

DmaEngine::DmaEngine(const sc_core::sc_module_name& name, const SdmaConfig& cfg,
                     sim::TraceWriter& trace, int units_pid, sim::StatGroup& stats)
    : ChannelEngine(name, cfg.channels, TraceTracks{&trace, units_pid, kSdmaFirstTid, "SDMA"},
                    stats),
      setup_(cfg.setup.ps),
      burst_(std::max<std::uint64_t>(cfg.burst.value, 1)) {}

void DmaEngine::run(EngineJob& job) {
  const DeviceTask& task = *job.task;
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

std::size_t DmaEngine::span_args(const EngineJob& job, sim::TraceField* args) const {
  std::size_t n = ChannelEngine::span_args(job, args);
  args[n++] = sim::TraceField::str(
      "operation", job.task->kind == TaskKind::kCopy ? "device to device" : "memset");
  return n;
}

}  // namespace npusim::models
