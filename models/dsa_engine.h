// SPDX-License-Identifier: Apache-2.0
// The DSA: the task scheduler's random-number accelerator (CANN submits aclrtRandomNumAsync as a
// STARS SQE of type DSA, a Philox4x32-10 generator; no AI Core or AI CPU is involved).
//
// Timing model: one generator, tasks one at a time. A task pays dsa.setup (fetch its parameters
// and its 128-bit counter), then generates its N numbers (N dropout mask bits for a bitmask) at
// dsa.numbers_per_cycle per dsa.clock cycle, gen = ceil(N / numbers_per_cycle) cycles, and
// writes its B result bytes to HBM in dsa.burst bursts: a burst is written once the generator
// has produced it (pro rata of gen) and memory has taken the previous one. So a lone task takes
//   setup + gen + last_burst / (hbm.bandwidth x hbm.efficiency) + hbm.latency
// (generation is far slower than HBM on the presets), and shares HBM with everything else.
// The figures are assumptions (no public source gives the DSA's rate); the functional result is
// computed by the runtime (runtime/core/builtin_tasks.h) at the end of the task.
#pragma once

#include <cstdint>
#include <optional>

#include "models/channel_engine.h"
#include "models/dsa_config.h"
#include "models/unit.h"

namespace npusim::models {

/// Claims kRandom (every direction) as "dsa".
class DsaEngine : public ChannelEngine, public Unit {
 public:
  DsaEngine(const sc_core::sc_module_name& name, UnitContext& ctx);

  const char* task_type(const Task&) const override { return "DSA_SQE"; }

 protected:
  std::optional<sim::SimTime> resume(EngineJob& job, sim::SimTime now) override;
  std::size_t span_args(const EngineJob& job, sim::TraceField* args) const override;

 private:
  sim::SimTime setup_;
  sim::Frequency clock_;
  double numbers_per_cycle_;
  std::uint64_t burst_;
  // The one job in flight.
  int step_ = 0;  // 0 = not started, 1 = writing bursts, 2 = waiting for the last data
  sim::SimTime gen_start_ = 0;
  sim::SimTime gen_time_ = 0;
  sim::SimTime slot_ = 0;      // memory may take the next burst from here
  sim::SimTime complete_ = 0;  // memory has taken everything issued by then
  std::uint64_t written_ = 0;
};

}  // namespace npusim::models
