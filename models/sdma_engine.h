// SPDX-License-Identifier: Apache-2.0
// The system DMA engine (SDMA): device-side copies (D2D), device memsets and reductions
// (aclrtReduceAsync: the copy engine combines src into dst element by element on the way).
//
// Timing model: sdma.channels channels run tasks concurrently. A task pays sdma.setup, then moves
// its bytes in sdma.burst bursts through the Hbm target: a D2D burst reads and writes it (2x the
// bytes of memory traffic), a memset burst only writes, a reduce burst reads src, reads dst and
// writes dst (3x). The next burst is issued when memory has taken the previous one (pipelined),
// so a lone D2D of S bytes takes setup + 2*S / (hbm.bandwidth x hbm.efficiency) + hbm.latency and a lone reduce
// setup + 3*S / (hbm.bandwidth x hbm.efficiency) + hbm.latency (the arithmetic keeps pace with memory: it adds no
// time of its own); concurrent channels and PCIe DMA contend for HBM.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/channel_engine.h"
#include "models/sdma_config.h"
#include "models/unit.h"

namespace npusim::models {

/// Claims device copies (kCopy D2D), device memsets (kMemset, any direction but H2H) and
/// reductions (kReduce D2D).
class SdmaEngine : public ChannelEngine, public Unit {
 public:
  SdmaEngine(const sc_core::sc_module_name& name, UnitContext& ctx);

  const char* task_type(const Task&) const override { return "SDMA_SQE"; }

 protected:
  std::optional<sim::SimTime> resume(EngineJob& job, sim::SimTime now) override;
  std::size_t span_args(const EngineJob& job, sim::TraceField* args) const override;

 private:
  /// Where a channel's job is: its next burst issues at `issue`; memory has taken everything by
  /// `complete`.
  struct Work {
    int step = 0;  // 0 = not started, 1 = bursts, 2 = waiting for the last data
    sim::SimTime issue = 0;
    sim::SimTime complete = 0;
    std::uint64_t left = 0;
  };

  sim::SimTime setup_;
  std::uint64_t burst_;
  std::vector<Work> work_;  // per channel
};

}  // namespace npusim::models
